// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/patch/patchpane.h"

#include "core/hosts/hostconnection.h"
#include "core/log/logging.h"
#include "core/patch/journal.h"
#include "core/patch/patchevents.h"
#include "core/patch/patchset.h"
#include "core/store/historystore.h"
#include "core/transport/transport.h"
#include "core/transport/transportpool.h"
#include "ui/common/plaintext.h"
#include "ui/diff/diffview.h"
#include "ui/patch/stateicon.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFileDialog>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPushButton>
#include <QRegularExpression>
#include <QScopedValueRollback>
#include <QShortcut>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableWidget>
#include <QTextBrowser>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>
#include <utility>

namespace kf {
namespace {

// n / F7 and p / Shift+F7: the review's moves (and what Help > Keyboard Shortcuts lists).
QList<QPair<QKeySequence, int>> hunkMoves()
{
    return { { QKeySequence(Qt::Key_N), 1 }, { QKeySequence(Qt::Key_F7), 1 }, { QKeySequence(Qt::Key_P), -1 },
        { QKeySequence(Qt::SHIFT | Qt::Key_F7), -1 } };
}

using patch::PatchStatus;
using patch::ReviewState;

// "Hunk 2 · line 40: +if(POLICY CMP0177)": where it is in the text the patch sees, and its
// first added (else removed) line.
QString hunkLabel(const patch::ReviewHunk& h, int index)
{
    return QStringLiteral("Hunk %1 \u00b7 line %2: %3").arg(index + 1).arg(h.change.oldStart + 1).arg(h.sample(48));
}

constexpr int kPatchRole = Qt::UserRole + 1;
constexpr int kFileRole = Qt::UserRole + 2;
constexpr int kHunkRole = Qt::UserRole + 3;
constexpr int kIdRole = Qt::UserRole;             // history: the journal id
constexpr int kRolledBackRole = Qt::UserRole + 1; // history: rolled back

struct HistoryRows
{
    QList<AppliedFile> rows;
    QString error;
};

// The History table's State column.
QString journalStateText(const AppliedFile& a)
{
    if (a.rolledBack())
        return PatchPane::tr("rolled back");
    switch (a.state) {
    case AppliedFile::State::Done: return PatchPane::tr("standing");
    case AppliedFile::State::Pending: return PatchPane::tr("pending: the file holds neither text");
    case AppliedFile::State::NotWritten: return PatchPane::tr("never written (cut off)");
    }
    return {};
}

struct RollbackRun
{
    QString message;
    bool changed = false; // some step rolled back
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
    , m_outcomeLabel(new QLabel(this))
    , m_tree(new QTreeWidget(this))
    , m_diff(new DiffView(this))
    , m_why(new QTextBrowser(this))
    , m_history(new QTableWidget(this))
    , m_rollbackButton(new QPushButton(tr("Roll back selected\u2026"), this))
{
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
    // Names get the room: the status column is as wide as its usual words whatever it shows
    // (a decision never makes the columns jump), a longer status and a long name are cut in
    // the middle ("Guard cmake_…older CMake") and whole in the tooltip.
    m_tree->header()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_tree->header()->setSectionResizeMode(1, QHeaderView::Interactive);
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->resizeSection(1, statusColumnWidth());
    m_tree->setTextElideMode(Qt::ElideMiddle);
    m_tree->setMinimumWidth(statusColumnWidth() + fontMetrics().averageCharWidth() * 24);

    m_why->setOpenExternalLinks(false);
    m_why->setObjectName(QStringLiteral("patchWhy"));
    m_statusLabel->setObjectName(QStringLiteral("patchStatus"));
    m_statusLabel->setWordWrap(true); // a long host or path must not widen the window
    m_statusLabel->setTextFormat(Qt::PlainText);
    m_outcomeLabel->setTextFormat(Qt::PlainText);
    m_outcomeLabel->setObjectName(QStringLiteral("patchOutcome"));
    m_outcomeLabel->setWordWrap(true);
    m_outcomeLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_outcomeLabel->hide();
    m_history->setObjectName(QStringLiteral("patchHistory"));
    m_rollbackButton->setObjectName(QStringLiteral("rollBack"));
    m_rollbackButton->setToolTip(
        tr("Restore the selected files from their backups (select several rows with Shift or Ctrl)"));
    m_history->setColumnCount(5);
    m_history->setHorizontalHeaderLabels({ tr("When"), tr("Set"), tr("File"), tr("State"), tr("Backup") });
    // Paths share what When, Set and State leave, cut in the middle (their ends say the most),
    // whole in their tool tips: a long path never pushes State out of view.
    m_history->horizontalHeader()->setStretchLastSection(false);
    for (int c : { 0, 1, 3 })
        m_history->horizontalHeader()->setSectionResizeMode(c, QHeaderView::ResizeToContents);
    for (int c : { 2, 4 })
        m_history->horizontalHeader()->setSectionResizeMode(c, QHeaderView::Stretch);
    m_history->setTextElideMode(Qt::ElideMiddle);
    m_history->setWordWrap(false);
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
    main->setStretchFactor(0, 2);
    main->setStretchFactor(1, 3);
    main->setChildrenCollapsible(false);
    main->setSizes({ 460, 640 });
    right->setSizes({ 620, 220 });

    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(main, 1);
    layout->addWidget(m_outcomeLabel);
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
        if (!item || m_syncing)
            return;
        const QVariant idx = item->data(0, kPatchRole);
        if (!idx.isValid()) {
            showFile(item->data(0, kFileRole).toString());
            showFileWhy(item->data(0, kFileRole).toString());
            return;
        }
        showPatch(idx.toInt());
        const QVariant hunk = item->data(0, kHunkRole);
        if (hunk.isValid())
            m_diff->goToHunk(hunk.toInt());
        showWhy(idx.toInt());
    });
    connect(m_tree, &QTreeWidget::itemChanged, this, [this](QTreeWidgetItem* item, int column) {
        const QVariant idx = item->data(0, kPatchRole);
        if (m_syncing || column != 0 || !idx.isValid() || !(item->flags() & Qt::ItemIsUserCheckable))
            return;
        const bool on = item->checkState(0) == Qt::Checked;
        if (const QVariant hunk = item->data(0, kHunkRole); hunk.isValid())
            m_review.setHunkAccepted(idx.toInt(), hunk.toInt(), on);
        else
            m_review.setPatchAccepted(idx.toInt(), on);
        reviewChanged();
    });
    connect(m_diff, &DiffView::resultChanged, this, &PatchPane::takeDiffDecisions);
    connect(m_diff, &DiffView::currentHunkChanged, this, &PatchPane::followDiffHunk);
    // n/p move through the plan's hunks wherever the focus is in the pane (a line edit
    // keeps its letters: it takes the shortcut override).
    for (const auto& [keys, step] : hunkMoves()) {
        auto* shortcut = new QShortcut(keys, this);
        shortcut->setContext(Qt::WidgetWithChildrenShortcut);
        connect(shortcut, &QShortcut::activated, this, [this, step = step] { moveHunk(step); });
    }
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
            if (host->state() == ConnectionState::Ready && !m_busy && m_review.plan().files.isEmpty()) {
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
    m_applyButton->setEnabled(!busy && !m_review.changes().isEmpty());
    m_rollbackButton->setEnabled(!busy && m_host && m_host->state() == ConnectionState::Ready);
    m_statusLabel->setText(message);
}

void PatchPane::setOutcome(const QString& message)
{
    m_outcomeLabel->setText(message);
    m_outcomeLabel->setVisible(!message.isEmpty());
}

QList<ShortcutInfo> PatchPane::keyboardShortcuts()
{
    ShortcutInfo next { tr("Patches"), tr("Next hunk (across patches and files)"), {} };
    ShortcutInfo previous { tr("Patches"), tr("Previous hunk"), {} };
    for (const auto& [keys, step] : hunkMoves())
        (step > 0 ? next : previous).keys.append(keys);
    return { next, previous };
}

bool PatchPane::confirm(const QString& title, const QString& text, const QString& action, bool* writeBroken)
{
    if (m_confirm)
        return m_confirm(text);
    QMessageBox box(QMessageBox::Question, title, text, QMessageBox::Cancel, this);
    box.setObjectName(QStringLiteral("patchConfirm"));
    QPushButton* go = box.addButton(action, QMessageBox::AcceptRole);
    go->setObjectName(QStringLiteral("confirmAction"));
    if (writeBroken) {
        // The reviewer's override of the syntax check (patch::ApplyOptions::allowBrokenSyntax).
        auto* check = new QCheckBox(tr("Write files that no longer parse (Python, CMake)"), &box);
        check->setObjectName(QStringLiteral("allowBrokenSyntax"));
        check->setToolTip(tr("Each changed Python and CMake file is checked as the server reads it before it is "
                             "written; a file that no longer parses is refused unless this is ticked."));
        box.setCheckBox(check);
    }
    // Return goes ahead: the user asked for this by clicking Apply / Roll back; Escape cancels.
    box.setDefaultButton(go);
    box.setEscapeButton(QMessageBox::Cancel);
    box.exec();
    if (writeBroken)
        *writeBroken = box.checkBox() && box.checkBox()->isChecked();
    return box.clickedButton() == go;
}

void PatchPane::plan(const QString& setSpec, const QString& root)
{
    m_focusPatch.clear();
    const std::shared_ptr<Transport> transport = m_host ? m_host->transport() : nullptr;
    if (!transport) {
        setBusy(false, tr("Connect to a host first."));
        return;
    }
    m_setSpec = setSpec;
    m_requests.cancelAll(); // the newest request wins, and the one it replaces stops reading
    setBusy(true, tr("Reading the files on %1\u2026").arg(transport->describe()));
    const JobTracker::StopToken stop = m_requests.stopToken(); // set by the next plan or the pane's end
    auto future = QtConcurrent::run(transportPool(), [transport, setSpec, root, stop]() -> patch::SetPlan {
        const auto set = patch::loadPatchSet(setSpec);
        if (!set) {
            patch::SetPlan failed;
            failed.error = set.error();
            return failed;
        }
        patch::SetPlan plan = patch::planSet(*transport, set.value(), root, stop.get());
        timeline::recordPatchPlanned(plan);
        return plan;
    });
    m_requests.track(future, [this](const patch::SetPlan& result) {
        if (!result) {
            m_focusPatch.clear();
            setBusy(false, tr("Planning failed: %1").arg(result.error));
            return;
        }
        showPlan(result);
    });
}

void PatchPane::reviewPatch(const QString& setSpec, const QString& root, const QString& patchId)
{
    plan(setSpec, root);
    if (m_busy) // the plan is under way (plan() forgets an earlier focus): it opens on the patch
        m_focusPatch = patchId;
}

void PatchPane::showPlan(const patch::SetPlan& plan)
{
    const patch::SetPlan& before = m_review.plan();
    const bool again = before.set.name == plan.set.name && before.root == plan.root && before.host == plan.host;
    m_review = again ? patch::Review(plan, m_review) : patch::Review(plan);
    m_shownPatch = -1;
    m_shownFile.clear();
    rebuildTree();
    if (!plan.files.isEmpty())
        selectFile(plan.files.first().file);
    if (const QString focus = std::exchange(m_focusPatch, QString()); !focus.isEmpty()) {
        for (int i = 0; i < plan.patches.size(); ++i)
            m_review.setPatchAccepted(i, plan.patches[i].id == focus);
        reviewChanged();
        for (int i = 0; i < plan.patches.size(); ++i)
            if (plan.patches[i].id == focus)
                selectPatch(i);
    }
    QString summary = tr("%1 on %2:%3 \u2014 %4").arg(plan.set.name, plan.host, plan.root, plan.countsText());
    if (!plan.rootNote.isEmpty())
        summary += QStringLiteral("\n") + plan.rootNote; // which layout and folder, or where it looked
    setBusy(false, summary);
    Q_EMIT planShown(int(plan.patches.size()));
}

int PatchPane::statusColumnWidth() const
{
    // The words the column shows most (a hunk's, a patch's, "partly (N of M hunks)"); longer
    // ones ("partly applied (…), will apply the rest") are cut in the middle.
    QStringList words { m_tree->headerItem()->text(1), tr("absent"), tr("in the file"), tr("cannot be placed"),
        tr("accepted"), tr("rejected"), QStringLiteral("partly (99 of 99 hunks)") };
    for (const ReviewState s :
        { ReviewState::WillApply, ReviewState::Partly, ReviewState::Rejected, ReviewState::PartlyApplied,
            ReviewState::AlreadyApplied, ReviewState::NotApplicable, ReviewState::Conflict })
        words << patch::reviewStateText(s);
    int widest = 0;
    for (const QString& w : std::as_const(words))
        widest = std::max(widest, m_tree->fontMetrics().horizontalAdvance(w));
    // The item's margins on both sides, and the header's sort indicator room.
    return widest + 4 * style()->pixelMetric(QStyle::PM_FocusFrameHMargin, nullptr, m_tree) + 16;
}

void PatchPane::rebuildTree()
{
    const patch::SetPlan& plan = m_review.plan();
    {
        const QSignalBlocker block(m_tree);
        m_tree->clear();
        for (const patch::FilePlan& f : plan.files) {
            auto* fileItem = new QTreeWidgetItem(m_tree, { f.file, f.exists ? QString() : tr("absent") });
            fileItem->setData(0, kFileRole, f.file);
            fileItem->setToolTip(0, plainToolTip(f.file));
            QFont bold = fileItem->font(0);
            bold.setBold(true);
            fileItem->setFont(0, bold);
            for (int idx : f.patches) {
                auto* item = new QTreeWidgetItem(fileItem, { plan.patches[idx].title, QString() });
                item->setData(0, kPatchRole, idx);
                item->setData(0, kFileRole, f.file);
                const bool reviewable = m_review.isReviewable(idx);
                item->setFlags(
                    reviewable ? item->flags() | Qt::ItemIsUserCheckable : item->flags() & ~Qt::ItemIsUserCheckable);
                // One hunk is the patch itself; more get an item each.
                const int hunks = m_review.hunkCount(idx);
                for (int h = 0; hunks > 1 && h < hunks; ++h) {
                    auto* hunkItem = new QTreeWidgetItem(item, { hunkLabel(m_review.hunk(idx, h), h), QString() });
                    hunkItem->setData(0, kPatchRole, idx);
                    hunkItem->setData(0, kFileRole, f.file);
                    hunkItem->setData(0, kHunkRole, h);
                    hunkItem->setToolTip(0, plainToolTip(hunkItem->text(0)));
                    hunkItem->setFlags(m_review.isHunkInPlace(idx, h) ? hunkItem->flags() & ~Qt::ItemIsUserCheckable
                                                                      : hunkItem->flags() | Qt::ItemIsUserCheckable);
                }
                item->setExpanded(true);
            }
            fileItem->setExpanded(true);
        }
    }
    updateTree();
}

void PatchPane::updateTree()
{
    const QScopedValueRollback guard(m_syncing, true);
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        QTreeWidgetItem* item = *it;
        const QVariant idx = item->data(0, kPatchRole);
        if (!idx.isValid())
            continue;
        const int patch = idx.toInt();
        if (const QVariant hunk = item->data(0, kHunkRole); hunk.isValid()) {
            const int h = hunk.toInt();
            const bool on = m_review.isHunkAccepted(patch, h);
            const bool inPlace = m_review.isHunkInPlace(patch, h);
            const bool blocked = on && m_review.isHunkBlocked(patch, h);
            item->setCheckState(0, on ? Qt::Checked : Qt::Unchecked);
            item->setText(1,
                inPlace       ? tr("in the file")
                    : blocked ? tr("cannot be placed")
                    : on      ? tr("accepted")
                              : tr("rejected"));
            item->setForeground(1, on && !blocked ? palette().text() : QBrush(QColor(0x8c, 0x95, 0x9f)));
            item->setToolTip(1,
                inPlace       ? tr("Already in the file on the server (an earlier apply); History rolls it back")
                    : blocked ? plainToolTip(m_review.stateReason(patch))
                              : item->text(1));
            continue;
        }
        const ReviewState state = m_review.state(patch);
        item->setIcon(0, reviewStateIcon(state));
        item->setText(1, m_review.stateText(patch));
        const QString title = m_review.plan().patches[patch].title;
        const QString reason = m_review.stateReason(patch);
        // The set's and the server's words: shown as they are, never as markup.
        item->setToolTip(0, plainToolTip(reason.isEmpty() ? title : title + QStringLiteral("\n\n") + reason));
        item->setToolTip(
            1, plainToolTip(reason.isEmpty() ? item->text(1) : item->text(1) + QStringLiteral("\n\n") + reason));
        if (m_review.isReviewable(patch))
            item->setCheckState(0,
                state == ReviewState::WillApply      ? Qt::Checked
                    : state == ReviewState::Rejected ? Qt::Unchecked
                                                     : Qt::PartiallyChecked);
    }
}

// After any decision: every view reads the review again.
void PatchPane::reviewChanged()
{
    updateTree();
    if (m_shownPatch >= 0) {
        const QScopedValueRollback guard(m_syncing, true);
        for (int h = 0; h < m_diff->hunkCount(); ++h)
            m_diff->setAccepted(h, m_review.isHunkAccepted(m_shownPatch, h));
    } else if (!m_shownFile.isEmpty()) {
        const QString file = m_shownFile;
        m_shownFile.clear();
        showFile(file);
    }
    if (m_shownPatch >= 0)
        showWhy(m_shownPatch);
    else if (!m_shownFile.isEmpty())
        showFileWhy(m_shownFile);
    m_applyButton->setEnabled(!m_busy && !m_review.changes().isEmpty());
}

// The patch's own change: the text it sees in the plan and the text it leaves, one switch
// per hunk (the review's hunks are computed the same way, so the indexes agree).
void PatchPane::showPatch(int patchIndex)
{
    if (patchIndex == m_shownPatch)
        return;
    const patch::PatchPlan& p = m_review.plan().patches[patchIndex];
    const QScopedValueRollback guard(m_syncing, true);
    m_shownPatch = patchIndex;
    m_shownFile = p.file;
    // A later patch of a file sees it after the earlier ones, not as it is on the server.
    const patch::FilePlan* f = m_review.plan().fileFor(p.file);
    const bool first = !f || p.textBefore == QString::fromUtf8(f->original);
    m_diff->setSideTitles(f && f->base ? tr("Before this patch (the file before apply #%1)").arg(f->base->journalId)
            : first                    ? tr("On server now")
                                       : tr("Before this patch (after the ones above it)"),
        tr("After this patch"));
    m_diff->setTexts(p.file, p.textBefore, p.textAfter);
    m_diff->setReviewable(m_review.isReviewable(patchIndex));
    Q_ASSERT(m_diff->hunkCount() == m_review.hunkCount(patchIndex) || !m_review.isReviewable(patchIndex));
    for (int h = 0; h < m_diff->hunkCount(); ++h)
        m_diff->setAccepted(h, m_review.isHunkAccepted(patchIndex, h));
}

// A file item: the whole file as Apply would write it (decisions are made on its patches).
void PatchPane::showFile(const QString& file)
{
    const QScopedValueRollback guard(m_syncing, true);
    const patch::FilePlan* f = m_review.plan().fileFor(file);
    m_shownPatch = -1;
    m_shownFile = file;
    if (!f) {
        m_diff->setTexts(QString(), QString(), QString());
        return;
    }
    m_diff->setSideTitles(tr("On server now"), tr("After Apply (the selected patches)"));
    m_diff->setTexts(file, QString::fromUtf8(f->original), QString::fromUtf8(m_review.resultFor(file)));
    m_diff->setReviewable(false);
}

// Space / a / r in the diff: the view's switches become the review's decisions.
void PatchPane::takeDiffDecisions()
{
    if (m_syncing || m_shownPatch < 0 || !m_review.isReviewable(m_shownPatch))
        return;
    for (int h = 0; h < m_diff->hunkCount(); ++h)
        if (m_diff->isAccepted(h) != m_review.isHunkAccepted(m_shownPatch, h))
            m_review.setHunkAccepted(m_shownPatch, h, m_diff->isAccepted(h));
    reviewChanged();
}

// The tree follows the diff's current hunk (its item, where the patch has one per hunk).
void PatchPane::followDiffHunk(int hunk)
{
    if (m_syncing || m_shownPatch < 0)
        return;
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        if ((*it)->data(0, kPatchRole) == QVariant(m_shownPatch) && (*it)->data(0, kHunkRole) == QVariant(hunk)) {
            const QScopedValueRollback guard(m_syncing, true);
            m_tree->setCurrentItem(*it);
            m_tree->scrollToItem(*it);
            return;
        }
    }
}

void PatchPane::moveHunk(int step)
{
    // Stops, in tree order: each hunk of a reviewable patch (its own item, or the patch's
    // item when it has one hunk). From the current item (a patch with hunk items counts as
    // the hunk the diff shows), the next stop after it or the previous one before it.
    QList<QTreeWidgetItem*> items;
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it)
        items.append(*it);
    QTreeWidgetItem* current = m_tree->currentItem();
    if (current && current->childCount() > 0 && current->data(0, kPatchRole).isValid() && m_diff->currentHunk() >= 0)
        current = current->child(std::min(m_diff->currentHunk(), current->childCount() - 1));
    auto isStop = [this](QTreeWidgetItem* item) {
        const QVariant idx = item->data(0, kPatchRole);
        return idx.isValid() && m_review.hunkCount(idx.toInt()) > 0
            && (item->data(0, kHunkRole).isValid() || m_review.hunkCount(idx.toInt()) == 1);
    };
    const qsizetype at = current ? items.indexOf(current) : -1;
    QTreeWidgetItem* target = nullptr;
    if (step > 0) {
        for (qsizetype i = at + 1; i < items.size() && !target; ++i)
            target = isStop(items[i]) ? items[i] : nullptr;
    } else {
        for (qsizetype i = (at < 0 ? items.size() : at) - 1; i >= 0 && !target; --i)
            target = isStop(items[i]) ? items[i] : nullptr;
    }
    if (!target)
        return;
    m_tree->setCurrentItem(target);
    m_tree->scrollToItem(target);
    if (!target->data(0, kHunkRole).isValid())
        m_diff->goToHunk(0);
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

void PatchPane::selectPatch(int patchIndex, int hunk)
{
    for (QTreeWidgetItemIterator it(m_tree); *it; ++it) {
        if ((*it)->data(0, kPatchRole) != QVariant(patchIndex) || (*it)->data(0, kHunkRole).isValid())
            continue;
        QTreeWidgetItem* item = *it;
        if (hunk >= 0 && hunk < item->childCount())
            item = item->child(hunk);
        m_tree->setCurrentItem(item);
        if (hunk >= 0)
            m_diff->goToHunk(hunk);
        return;
    }
}

void PatchPane::nextHunk()
{
    moveHunk(1);
}

void PatchPane::previousHunk()
{
    moveHunk(-1);
}

void PatchPane::setPatchAccepted(int patchIndex, bool accepted)
{
    m_review.setPatchAccepted(patchIndex, accepted);
    reviewChanged();
}

QByteArray PatchPane::resultFor(const QString& file) const
{
    return m_review.resultFor(file);
}

void PatchPane::showWhy(int patchIndex)
{
    if (patchIndex < 0 || patchIndex >= m_review.patchCount()) {
        m_why->clear();
        return;
    }
    const patch::PatchPlan& p = m_review.plan().patches[patchIndex];
    QString html = QStringLiteral("<h3>%1</h3><p><b>%2</b> \u2014 %3</p><p>%4</p>")
                       .arg(p.title.toHtmlEscaped(), m_review.stateText(patchIndex).toHtmlEscaped(),
                           m_review.stateReason(patchIndex).toHtmlEscaped(),
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

void PatchPane::showFileWhy(const QString& file)
{
    const patch::SetPlan& plan = m_review.plan();
    const auto f = std::find_if(
        plan.files.cbegin(), plan.files.cend(), [&](const patch::FilePlan& p) { return p.file == file; });
    if (f == plan.files.cend()) {
        m_why->clear();
        return;
    }
    QString html = QStringLiteral("<h3>%1</h3>").arg(file.toHtmlEscaped());
    if (!f->exists)
        html += tr("<p>Not on the server.</p>");
    html += QStringLiteral("<p>%1</p><ul>")
                .arg(f->patches.size() == 1 ? tr("One patch of this set changes it:")
                                            : tr("%1 patches of this set change it:").arg(f->patches.size()));
    for (int idx : f->patches) {
        const patch::PatchPlan& p = plan.patches[idx];
        // The first sentence of the patch's why: the rest is on the patch's own row.
        const QString why = p.why.simplified();
        static const QRegularExpression sentenceEnd(QStringLiteral("(?<!\\.)\\. ")); // not "... "
        const qsizetype end = why.indexOf(sentenceEnd);
        html += QStringLiteral("<li><b>%1</b> \u2014 %2: %3<br>%4</li>")
                    .arg(p.title.toHtmlEscaped(), m_review.stateText(idx).toHtmlEscaped(),
                        m_review.stateReason(idx).toHtmlEscaped(), (end < 0 ? why : why.left(end + 1)).toHtmlEscaped());
    }
    html += QStringLiteral("</ul>");
    m_why->setHtml(html);
}

QString PatchPane::summaryText() const
{
    return m_review.summary();
}

void PatchPane::applySelected()
{
    const std::shared_ptr<Transport> transport = m_host ? m_host->transport() : nullptr;
    if (!transport || m_review.plan().files.isEmpty())
        return;
    const patch::ApplyOptions options = m_review.applyOptions();
    const QString summary = m_review.summary();
    if (options.onlyFiles.isEmpty()) {
        setBusy(false, summary);
        return;
    }
    patch::ApplyOptions chosen = options;
    if (!confirm(tr("Apply selected changes"), summary, tr("Apply"), &chosen.allowBrokenSyntax))
        return;
    m_requests.cancelAll(); // the newest request wins
    setBusy(true, tr("Applying on %1\u2026").arg(transport->describe()));
    const patch::SetPlan snapshot = m_review.plan();
    m_requests.track(QtConcurrent::run(transportPool(),
                         [transport, snapshot, chosen]() { return patch::applyPlan(*transport, snapshot, chosen); }),
        [this](const patch::ApplyReport& report) {
            QStringList lines;
            for (const patch::FileApply& f : report.files)
                lines.append(QStringLiteral("%1: %2 \u2014 %3").arg(f.file, patch::outcomeText(f.outcome), f.message));
            setOutcome(lines.join(QLatin1Char('\n')));
            setBusy(false, lines.join(QStringLiteral("; ")));
            Q_EMIT applyFinished(report);
            refreshHistory();
            plan(m_setSpec, m_review.plan().root); // show the new state ("already applied")
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
    m_historyRequests.track(QtConcurrent::run(transportPool(),
                                [transport]() {
                                    HistoryRows r;
                                    // Rows from before roots were canonical get their real root,
                                    // pending ones are settled by content (when the host answers;
                                    // the rows show either way).
                                    patch::tidyJournal(*transport);
                                    auto rows = HistoryStore().applies(transport->describe());
                                    if (rows)
                                        r.rows = rows.value();
                                    else
                                        r.error = rows.error();
                                    return r;
                                }),
        [this](const HistoryRows& r) {
            // The selection stays on the same entries (by id: new rows come first).
            const QList<qint64> selected = selectedHistoryIds();
            const QTableWidgetItem* currentItem = m_history->item(m_history->currentRow(), 0);
            const qint64 current = currentItem ? currentItem->data(kIdRole).toLongLong() : 0;
            m_history->clearSelection();
            m_history->setRowCount(int(r.rows.size()));
            int currentRow = -1;
            for (int i = 0; i < r.rows.size(); ++i) {
                const AppliedFile& a = r.rows[i];
                const QStringList cells { a.appliedAt.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                    a.setName, a.root + QLatin1Char('/') + a.file, journalStateText(a), a.backupPath };
                const QString tip = tr("Journal entry #%1: %2").arg(a.id).arg(a.patchIds.join(QStringLiteral(", ")));
                for (int c = 0; c < cells.size(); ++c) {
                    auto* item = new QTableWidgetItem(cells[c]);
                    item->setData(kIdRole, a.id);
                    item->setData(kRolledBackRole, a.rolledBack());
                    // A path is the server's text: shown whole, never read as markup.
                    item->setToolTip(c == 2 || c == 4 ? plainToolTip(cells[c] + QLatin1Char('\n') + tip) : tip);
                    m_history->setItem(i, c, item);
                }
                if (a.id == current)
                    currentRow = i;
            }
            if (currentRow >= 0)
                m_history->setCurrentCell(currentRow, 0, QItemSelectionModel::NoUpdate);
            for (int i = 0; i < r.rows.size(); ++i)
                if (selected.contains(r.rows[i].id))
                    m_history->selectionModel()->select(
                        m_history->model()->index(i, 0), QItemSelectionModel::Select | QItemSelectionModel::Rows);
            if (!r.error.isEmpty())
                setOutcome(tr("History: %1").arg(r.error));
            Q_EMIT historyLoaded(int(r.rows.size()));
        });
}

QList<qint64> PatchPane::selectedHistoryIds() const
{
    QList<qint64> ids;
    for (const QModelIndex& index : m_history->selectionModel()->selectedRows())
        if (const QTableWidgetItem* item = m_history->item(index.row(), 0))
            ids.append(item->data(kIdRole).toLongLong());
    return ids;
}

void PatchPane::rollBackSelected()
{
    // What to do is worked out from the journal (patch::planRollback): later applies of the
    // same files come first, and what cannot be undone is refused with the reason.
    const std::shared_ptr<Transport> transport = m_host ? m_host->transport() : nullptr;
    if (!transport)
        return;
    QList<qint64> ids = selectedHistoryIds();
    if (ids.isEmpty() && m_history->currentRow() >= 0)
        if (const QTableWidgetItem* item = m_history->item(m_history->currentRow(), 0))
            ids.append(item->data(kIdRole).toLongLong());
    if (ids.isEmpty()) {
        setOutcome(tr("Select the changes to roll back in the history first."));
        return;
    }
    // The journal is local and only read here (WAL: readers never wait): the dialog comes
    // with the click.
    const auto rollback = patch::planRollback(transport->describe(), ids);
    if (!rollback || rollback->steps.isEmpty()) {
        setOutcome(rollback ? rollback->describe() : tr("Nothing rolled back: %1").arg(rollback.error()));
        return;
    }
    if (!confirm(tr("Roll back selected changes"), rollback->describe(), tr("Roll back")))
        return;
    m_requests.cancelAll(); // the newest request wins
    setBusy(true, tr("Rolling back on %1\u2026").arg(transport->describe()));
    const patch::RollbackPlan steps = rollback.value();
    m_requests.track(
        QtConcurrent::run(transportPool(),
            [transport, steps]() {
                RollbackRun run;
                QStringList lines;
                for (const patch::RollbackResult& r : patch::runRollback(*transport, steps)) {
                    run.changed = run.changed || r.ok;
                    lines << QStringLiteral("%1 #%2 %3: %4")
                                 .arg(r.ok ? QStringLiteral("Rolled back") : QStringLiteral("Not rolled back"))
                                 .arg(r.step.entry.id)
                                 .arg(r.step.entry.file, r.message);
                }
                for (const QString& why : steps.refused)
                    lines << QStringLiteral("Not rolled back %1").arg(why);
                run.message = lines.join(QLatin1Char('\n'));
                return run;
            }),
        [this](const RollbackRun& run) {
            setOutcome(run.message);
            setBusy(false, run.changed ? tr("Rolled back; planning again\u2026") : m_statusLabel->text());
            refreshHistory();
            if (!m_setSpec.isEmpty())
                plan(m_setSpec, m_review.plan().root);
        });
}

} // namespace kf
