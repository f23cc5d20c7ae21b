// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/patch/patchpane.h"

#include "core/hosts/hostconnection.h"
#include "core/log/logging.h"
#include "core/patch/patchset.h"
#include "core/store/historystore.h"
#include "core/transport/transportpool.h"
#include "ui/diff/diffview.h"

#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPainter>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace kf {
namespace {

using patch::PatchStatus;

QIcon statusIcon(PatchStatus s)
{
    QColor color;
    QString glyph;
    switch (s) {
    case PatchStatus::WillApply:
        color = QColor(0x1f, 0x6f, 0xeb);
        glyph = QStringLiteral("+");
        break;
    case PatchStatus::AlreadyApplied:
        color = QColor(0x1a, 0x7f, 0x37);
        glyph = QStringLiteral("\u2713");
        break;
    case PatchStatus::NotApplicable:
        color = QColor(0x8c, 0x95, 0x9f);
        glyph = QStringLiteral("\u2013");
        break;
    case PatchStatus::Conflict:
        color = QColor(0xcf, 0x22, 0x2e);
        glyph = QStringLiteral("!");
        break;
    }
    QPixmap pm(32, 32);
    pm.fill(Qt::transparent);
    QPainter p(&pm);
    p.setRenderHint(QPainter::Antialiasing);
    p.setBrush(color);
    p.setPen(Qt::NoPen);
    p.drawEllipse(2, 2, 28, 28);
    p.setPen(Qt::white);
    QFont f = p.font();
    f.setPixelSize(20);
    f.setBold(true);
    p.setFont(f);
    p.drawText(QRect(0, 0, 32, 32), Qt::AlignCenter, glyph);
    return QIcon(pm);
}

constexpr int kPatchRole = Qt::UserRole + 1;
constexpr int kFileRole = Qt::UserRole + 2;

struct HistoryRows
{
    QList<AppliedFile> rows;
    QString error;
};

} // namespace

PatchPane::PatchPane(const AppContext& context, HostConnection* host, QWidget* parent)
    : HostPane(host, parent)
    , m_context(context)
    , m_setBox(new QComboBox(this))
    , m_rootEdit(new QLineEdit(this))
    , m_planButton(new QPushButton(tr("Plan"), this))
    , m_applyButton(new QPushButton(tr("Apply selected\u2026"), this))
    , m_modeButton(new QPushButton(tr("Unified"), this))
    , m_statusLabel(new QLabel(this))
    , m_tree(new QTreeWidget(this))
    , m_diff(new DiffView(this))
    , m_why(new QTextBrowser(this))
    , m_history(new QTableWidget(this))
    , m_rollbackButton(new QPushButton(tr("Roll back selected\u2026"), this))
{
    m_confirm = [this](const QString& summary) {
        return QMessageBox::question(this, tr("Apply selected changes"), summary,
                   QMessageBox::Apply | QMessageBox::Cancel, QMessageBox::Cancel)
            == QMessageBox::Apply;
    };
    for (const QString& name : patch::builtinPatchSets())
        m_setBox->addItem(name, QString(QStringLiteral("builtin:") + name));
    m_setBox->addItem(tr("Open a patch set or diff\u2026"), QString());
    m_setBox->setObjectName(QStringLiteral("patchSetBox"));
    m_planButton->setObjectName(QStringLiteral("planPatches"));
    m_applyButton->setObjectName(QStringLiteral("applyPatches"));
    m_rootEdit->setPlaceholderText(QStringLiteral("~/sgl-kernel"));
    m_rootEdit->setText(QStringLiteral("~/sgl-kernel"));
    m_rootEdit->setObjectName(QStringLiteral("patchRoot"));
    m_modeButton->setCheckable(true);
    m_applyButton->setEnabled(false);

    auto* top = new QHBoxLayout;
    top->addWidget(new QLabel(tr("Set:"), this));
    top->addWidget(m_setBox, 2);
    top->addWidget(new QLabel(tr("Root:"), this));
    top->addWidget(m_rootEdit, 2);
    top->addWidget(m_planButton);
    top->addWidget(m_applyButton);
    top->addWidget(m_modeButton);

    m_tree->setHeaderLabels({ tr("File / patch"), tr("Status") });
    m_tree->setObjectName(QStringLiteral("patchTree"));
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_tree->header()->setStretchLastSection(false);

    m_why->setOpenExternalLinks(false);
    m_history->setObjectName(QStringLiteral("patchHistory"));
    m_rollbackButton->setObjectName(QStringLiteral("rollBack"));
    m_rollbackButton->setToolTip(
        tr("Restore the selected files from their backups (select several rows with Shift or Ctrl)"));
    m_history->setColumnCount(5);
    m_history->setHorizontalHeaderLabels({ tr("When"), tr("Set"), tr("File"), tr("State"), tr("Backup") });
    m_history->horizontalHeader()->setStretchLastSection(true);
    m_history->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_history->setEditTriggers(QAbstractItemView::NoEditTriggers);
    auto* historyPage = new QWidget(this);
    auto* hl = new QVBoxLayout(historyPage);
    hl->setContentsMargins(0, 0, 0, 0);
    hl->addWidget(m_history);
    auto* hb = new QHBoxLayout;
    hb->addStretch(1);
    hb->addWidget(m_rollbackButton);
    hl->addLayout(hb);

    auto* bottom = new QTabWidget(this);
    bottom->addTab(m_why, tr("Why"));
    bottom->addTab(historyPage, tr("History"));

    auto* right = new QSplitter(Qt::Vertical, this);
    right->addWidget(m_diff);
    right->addWidget(bottom);
    right->setStretchFactor(0, 3);
    right->setStretchFactor(1, 1);
    auto* main = new QSplitter(Qt::Horizontal, this);
    main->addWidget(m_tree);
    main->addWidget(right);
    main->setStretchFactor(0, 1);
    main->setStretchFactor(1, 3);
    main->setSizes({ 380, 1100 });
    right->setSizes({ 620, 220 });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(main, 1);
    layout->addWidget(m_statusLabel);

    connect(m_planButton, &QPushButton::clicked, this, [this] {
        QString spec = m_setBox->currentData().toString();
        if (spec.isEmpty()) {
            spec = QFileDialog::getOpenFileName(this, tr("Patch set or diff"), {},
                tr("Patch sets and diffs (*.yaml *.yml *.patch *.diff);;All files (*)"));
            if (spec.isEmpty())
                return;
        }
        plan(spec, m_rootEdit->text().trimmed());
    });
    connect(m_applyButton, &QPushButton::clicked, this, &PatchPane::applySelected);
    connect(m_modeButton, &QPushButton::toggled, this,
        [this](bool unified) { m_diff->setMode(unified ? DiffView::Mode::Unified : DiffView::Mode::SideBySide); });
    connect(m_tree, &QTreeWidget::currentItemChanged, this, [this](QTreeWidgetItem* item) {
        if (!item)
            return;
        const QString file = item->data(0, kFileRole).toString();
        if (file != m_currentFile)
            showFile(file);
        const QVariant idx = item->data(0, kPatchRole);
        showWhy(idx.isValid() ? idx.toInt() : -1);
    });
    connect(m_tree, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
        const QVariant idx = item->data(0, kPatchRole);
        if (column == 0 && idx.isValid() && (item->flags() & Qt::ItemIsUserCheckable))
            setPatchAccepted(idx.toInt(), item->checkState(0) == Qt::Checked);
    });
    connect(m_diff, &DiffView::resultChanged, this, [this] { saveCurrentHunks(); });
    connect(m_rollbackButton, &QPushButton::clicked, this, &PatchPane::rollBackSelected);
    setBusy(
        false, tr("Host %1: choose a patch set and the sgl-kernel folder on it, then Plan.").arg(host->profile().name));
    refreshHistory();
    // The history offers rollbacks only while the host can be reached; its journal key (the
    // transport's name) is known once the host was Ready.
    connect(host, &HostConnection::stateChanged, this, [this](ConnectionState state) {
        setBusy(m_busy, m_statusLabel->text());
        if (state == ConnectionState::Ready)
            refreshHistory();
    });
    // On the demo server the story starts right here: plan the built-in set as soon as it is reachable.
    if (host->profile().isDemo) {
        auto autoPlan = [this, host] {
            if (host->state() == ConnectionState::Ready && !m_busy && m_files.isEmpty()) {
                disconnect(m_autoPlan);
                m_planButton->click();
            }
        };
        m_autoPlan = connect(host, &HostConnection::stateChanged, this, autoPlan);
        autoPlan();
    }
}

void PatchPane::setBusy(bool busy, const QString& message)
{
    m_busy = busy;
    m_planButton->setEnabled(!busy);
    m_applyButton->setEnabled(!busy && m_plan.count(PatchStatus::WillApply) > 0);
    m_rollbackButton->setEnabled(!busy && m_host && m_host->state() == ConnectionState::Ready);
    m_statusLabel->setText(message);
}

void PatchPane::plan(const QString& setSpec, const QString& root)
{
    const std::shared_ptr<Transport> transport = m_host ? m_host->transport() : nullptr;
    if (!transport) {
        setBusy(false, tr("Connect to a host first."));
        return;
    }
    m_setSpec = setSpec;
    m_requests.cancelAll(); // the newest request wins
    setBusy(true, tr("Reading the files on %1\u2026").arg(transport->describe()));
    auto future = QtConcurrent::run(transportPool(), [transport, setSpec, root]() -> patch::SetPlan {
        const auto set = patch::loadPatchSet(setSpec);
        if (!set) {
            patch::SetPlan failed;
            failed.error = set.error();
            return failed;
        }
        return patch::planSet(*transport, set.value(), root);
    });
    m_requests.track(future, [this](const patch::SetPlan& result) {
        if (!result) {
            setBusy(false, tr("Planning failed: %1").arg(result.error));
            return;
        }
        showPlan(result);
    });
}

void PatchPane::showPlan(const patch::SetPlan& plan)
{
    m_plan = plan;
    m_patchAccepted.clear();
    for (const patch::PatchPlan& p : plan.patches)
        m_patchAccepted.append(p.status == PatchStatus::WillApply);
    m_files.clear();
    m_currentFile.clear();
    for (const patch::FilePlan& f : plan.files)
        recomputeFile(f.file);
    rebuildTree();
    if (!plan.files.isEmpty())
        selectFile(plan.files.first().file);
    setBusy(false,
        tr("%1 on %2:%3 \u2014 %4 will apply, %5 already applied, %6 not applicable, %7 conflict(s)")
            .arg(plan.set.name, plan.host, plan.root)
            .arg(plan.count(PatchStatus::WillApply))
            .arg(plan.count(PatchStatus::AlreadyApplied))
            .arg(plan.count(PatchStatus::NotApplicable))
            .arg(plan.count(PatchStatus::Conflict)));
    Q_EMIT planShown(int(plan.patches.size()));
}

void PatchPane::rebuildTree()
{
    const QSignalBlocker block(m_tree);
    m_tree->clear();
    for (const patch::FilePlan& f : std::as_const(m_plan.files)) {
        auto* fileItem = new QTreeWidgetItem(m_tree, { f.file, f.exists ? QString() : tr("absent") });
        fileItem->setData(0, kFileRole, f.file);
        QFont bold = fileItem->font(0);
        bold.setBold(true);
        fileItem->setFont(0, bold);
        for (int idx : f.patches) {
            const patch::PatchPlan& p = m_plan.patches[idx];
            auto* item = new QTreeWidgetItem(fileItem, { p.title, patch::statusText(p.status) });
            item->setIcon(0, statusIcon(p.status));
            item->setData(0, kPatchRole, idx);
            item->setData(0, kFileRole, f.file);
            item->setToolTip(0, p.reason);
            item->setToolTip(1, p.reason);
            if (p.status == PatchStatus::WillApply) {
                item->setFlags(item->flags() | Qt::ItemIsUserCheckable);
                item->setCheckState(0, m_patchAccepted.value(idx) ? Qt::Checked : Qt::Unchecked);
            }
        }
        fileItem->setExpanded(true);
    }
}

void PatchPane::recomputeFile(const QString& file)
{
    const patch::FilePlan* f = m_plan.fileFor(file);
    if (!f)
        return;
    // Re-run the accepted patches of this file in order on the original (pure, fast).
    std::optional<QString> text = f->exists ? std::optional<QString>(QString::fromUtf8(f->original)) : std::nullopt;
    for (int idx : f->patches) {
        const patch::PatchPlan& p = m_plan.patches[idx];
        if (p.status != PatchStatus::WillApply || !m_patchAccepted.value(idx))
            continue;
        const patch::PatchPlan again = patch::planPatch(m_plan.set.patches[p.patchIndex], text);
        if (again.status == PatchStatus::WillApply)
            text = again.removesFile ? QString() : again.textAfter;
    }
    FileState st;
    st.proposed = text.value_or(QString());
    const textdiff::TextLines a = textdiff::splitLines(QString::fromUtf8(f->original));
    const textdiff::TextLines b = textdiff::splitLines(st.proposed);
    st.hunks = QList<bool>(textdiff::changes(textdiff::diffLines(a.lines, b.lines)).size(), true);
    m_files.insert(file, st);
    if (file == m_currentFile) {
        m_currentFile.clear();
        showFile(file);
    }
}

void PatchPane::showFile(const QString& file)
{
    saveCurrentHunks();
    const patch::FilePlan* f = m_plan.fileFor(file);
    m_currentFile = file;
    if (!f) {
        m_diff->setTexts(QString(), QString(), QString());
        return;
    }
    const FileState st = m_files.value(file);
    const QSignalBlocker block(m_diff);
    m_diff->setTexts(file, QString::fromUtf8(f->original), st.proposed);
    for (int i = 0; i < st.hunks.size(); ++i)
        m_diff->setAccepted(i, st.hunks[i]);
}

void PatchPane::saveCurrentHunks()
{
    if (m_currentFile.isEmpty() || !m_files.contains(m_currentFile))
        return;
    m_files[m_currentFile].hunks = m_diff->acceptedMask();
}

void PatchPane::selectFile(const QString& file)
{
    for (int i = 0; i < m_tree->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_tree->topLevelItem(i);
        if (item->data(0, kFileRole).toString() == file) {
            m_tree->setCurrentItem(item->childCount() ? item->child(0) : item);
            return;
        }
    }
}

void PatchPane::setPatchAccepted(int patchIndex, bool accepted)
{
    if (patchIndex < 0 || patchIndex >= m_patchAccepted.size() || m_patchAccepted[patchIndex] == accepted)
        return;
    m_patchAccepted[patchIndex] = accepted;
    recomputeFile(m_plan.patches[patchIndex].file);
    rebuildTree();
    selectFile(m_plan.patches[patchIndex].file);
}

QByteArray PatchPane::resultFor(const QString& file) const
{
    const patch::FilePlan* f = m_plan.fileFor(file);
    if (!f)
        return {};
    FileState st = m_files.value(file);
    if (file == m_currentFile)
        return m_diff->resultText().toUtf8();
    const textdiff::TextLines a = textdiff::splitLines(QString::fromUtf8(f->original));
    textdiff::TextLines b = textdiff::splitLines(st.proposed);
    const QList<textdiff::Change> chs = textdiff::changes(textdiff::diffLines(a.lines, b.lines));
    if (std::all_of(st.hunks.cbegin(), st.hunks.cend(), [](bool x) { return x; }))
        return st.proposed.toUtf8();
    textdiff::TextLines out = a;
    out.lines = textdiff::mergeAccepted(a.lines, b.lines, chs, st.hunks);
    return textdiff::joinLines(out).toUtf8();
}

void PatchPane::showWhy(int patchIndex)
{
    if (patchIndex < 0 || patchIndex >= m_plan.patches.size()) {
        m_why->clear();
        return;
    }
    const patch::PatchPlan& p = m_plan.patches[patchIndex];
    QString html
        = QStringLiteral("<h3>%1</h3><p><b>%2</b> \u2014 %3</p><p>%4</p>")
              .arg(p.title.toHtmlEscaped(), patch::statusText(p.status).toHtmlEscaped(), p.reason.toHtmlEscaped(),
                  p.why.toHtmlEscaped().replace(QLatin1Char('\n'), QLatin1Char(' ')));
    if (!p.notes.isEmpty()) {
        html += QStringLiteral("<ul>");
        for (const QString& n : p.notes)
            html += QStringLiteral("<li>%1</li>").arg(n.toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    if (p.status == PatchStatus::Conflict && !p.nearestLines.isEmpty()) {
        html += tr("<p>Nearest lines (from line %1):</p><pre>").arg(p.nearestLine);
        for (const QString& l : p.nearestLines)
            html += l.toHtmlEscaped() + QLatin1Char('\n');
        html += QStringLiteral("</pre>");
    }
    m_why->setHtml(html);
}

QString PatchPane::summaryText() const
{
    QString s = tr("Apply to %1:%2\n\n").arg(m_plan.host, m_plan.root);
    int files = 0;
    for (const patch::FilePlan& f : m_plan.files) {
        const QByteArray result = resultFor(f.file);
        if (result == f.original)
            continue;
        ++files;
        const FileState st = m_files.value(f.file);
        const QList<bool> mask = f.file == m_currentFile ? m_diff->acceptedMask() : st.hunks;
        const int accepted = int(std::count(mask.cbegin(), mask.cend(), true));
        QStringList ids;
        for (int idx : f.patches)
            if (m_plan.patches[idx].status == PatchStatus::WillApply && m_patchAccepted.value(idx))
                ids.append(m_plan.patches[idx].id);
        s += tr("\u2022 %1: %2 of %3 hunks (%4)\n")
                 .arg(f.file)
                 .arg(accepted)
                 .arg(mask.size())
                 .arg(ids.join(QStringLiteral(", ")));
    }
    if (files == 0)
        return tr("Nothing selected to apply.");
    s += tr("\nEach file is re-read and compared with what you reviewed, backed up, replaced atomically and verified.");
    return s;
}

void PatchPane::applySelected()
{
    const std::shared_ptr<Transport> transport = m_host ? m_host->transport() : nullptr;
    if (!transport || m_plan.files.isEmpty())
        return;
    saveCurrentHunks();
    patch::ApplyOptions options;
    for (const patch::FilePlan& f : m_plan.files) {
        const QByteArray result = resultFor(f.file);
        if (result == f.original || (!f.exists && result.isEmpty() && !f.changes()))
            continue;
        options.onlyFiles.append(f.file);
        if (!f.remove || result != f.proposed)
            options.overrides.insert(f.file, result);
    }
    const QString summary = summaryText();
    if (options.onlyFiles.isEmpty()) {
        setBusy(false, summary);
        return;
    }
    if (!m_confirm(summary))
        return;
    m_requests.cancelAll(); // the newest request wins
    setBusy(true, tr("Applying on %1\u2026").arg(transport->describe()));
    const patch::SetPlan snapshot = m_plan;
    m_requests.track(QtConcurrent::run(transportPool(),
                         [transport, snapshot, options]() { return patch::applyPlan(*transport, snapshot, options); }),
        [this](const patch::ApplyReport& report) {
            QStringList lines;
            for (const patch::FileApply& f : report.files)
                lines.append(QStringLiteral("%1: %2 \u2014 %3").arg(f.file, patch::outcomeText(f.outcome), f.message));
            setBusy(false, lines.join(QStringLiteral("; ")));
            Q_EMIT applyFinished(report);
            refreshHistory();
            plan(m_setSpec, m_plan.root); // show the new state ("already applied")
        });
}

void PatchPane::refreshHistory()
{
    const std::shared_ptr<Transport> transport = m_host ? m_host->transport() : nullptr;
    m_historyRequests.cancelAll();
    if (!transport) { // never connected: its journal key is not known yet, and an empty key means every host
        m_history->setRowCount(0);
        Q_EMIT historyLoaded(0);
        return;
    }
    const QString host = transport->describe();
    m_historyRequests.track(QtConcurrent::run([host]() {
        HistoryRows r;
        auto rows = HistoryStore().applies(host);
        if (rows)
            r.rows = rows.value();
        else
            r.error = rows.error();
        return r;
    }),
        [this](const HistoryRows& r) {
            m_history->setRowCount(int(r.rows.size()));
            for (int i = 0; i < r.rows.size(); ++i) {
                const AppliedFile& a = r.rows[i];
                const QStringList cells { a.appliedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                    a.setName, a.root + QLatin1Char('/') + a.file, a.rolledBack() ? tr("rolled back") : tr("standing"),
                    a.backupPath };
                for (int c = 0; c < cells.size(); ++c) {
                    auto* item = new QTableWidgetItem(cells[c]);
                    item->setData(Qt::UserRole, a.id);
                    item->setData(Qt::UserRole + 1, a.rolledBack());
                    m_history->setItem(i, c, item);
                }
            }
            m_history->resizeColumnsToContents();
            Q_EMIT historyLoaded(int(r.rows.size()));
        });
}

void PatchPane::rollBackSelected()
{
    // Every selected row that still stands, newest first (the table's order), so that files
    // changed by several applies step back through them in reverse.
    const std::shared_ptr<Transport> transport = m_host ? m_host->transport() : nullptr;
    if (!transport)
        return;
    QList<int> rows;
    for (const QModelIndex& index : m_history->selectionModel()->selectedRows())
        rows << index.row();
    if (rows.isEmpty() && m_history->currentRow() >= 0)
        rows << m_history->currentRow();
    std::sort(rows.begin(), rows.end());
    QList<qint64> ids;
    QStringList files;
    for (int row : std::as_const(rows)) {
        const QTableWidgetItem* when = m_history->item(row, 0);
        if (!when || m_history->item(row, 3)->data(Qt::UserRole + 1).toBool())
            continue;
        ids << when->data(Qt::UserRole).toLongLong();
        files << m_history->item(row, 2)->text();
    }
    if (ids.isEmpty()) {
        setBusy(false, tr("Nothing to roll back: the selected changes were already rolled back."));
        return;
    }
    const QString question = files.size() == 1
        ? tr("Roll back %1 from its backup?").arg(files.first())
        : tr("Roll back %n file(s) from their backups?\n\n%1", nullptr, int(files.size()))
              .arg(files.join(QLatin1Char('\n')));
    if (!m_confirm(question))
        return;
    m_requests.cancelAll(); // the newest request wins
    setBusy(true, tr("Rolling back\u2026"));
    m_requests.track(QtConcurrent::run(transportPool(),
                         [transport, ids]() {
                             QStringList messages;
                             for (qint64 id : ids) {
                                 const auto r = patch::rollbackApply(*transport, id);
                                 messages << (r ? r->message : r.error());
                             }
                             return messages.join(QLatin1Char('\n'));
                         }),
        [this](const QString& message) {
            setBusy(false, message);
            refreshHistory();
            if (!m_setSpec.isEmpty())
                plan(m_setSpec, m_plan.root);
        });
}

} // namespace kf
