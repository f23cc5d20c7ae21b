// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/server/benchpanel.h"

#include "core/hosts/hostconnection.h"
#include "core/servebench/benchstore.h"
#include "core/servebench/servebench.h"
#include "core/timeline/hostkey.h"
#include "core/transport/transportpool.h"
#include "ui/common/plaintext.h"
#include "ui/common/verticalscrollarea.h"
#include "ui/server/benchform.h"
#include "ui/server/benchresultview.h"

#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QMessageBox>
#include <QProgressBar>
#include <QPushButton>
#include <QSplitter>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>

namespace kf {

namespace {

// What a worker read for the result view: one run or two, and the reference table.
struct Loaded
{
    QList<BenchRun> runs;
    QString error;
    std::optional<ReferenceTable> refs;
};

std::optional<ReferenceTable> readReferences()
{
    auto refs = loadReferenceTable();
    if (refs)
        return refs.value();
    return std::nullopt; // a broken user copy hides the references, never the run
}

double bestOutput(const BenchRun& r)
{
    double best = noValue();
    for (const LevelResult& l : r.levels)
        if (std::isfinite(l.stats.outputThroughput) && !(best >= l.stats.outputThroughput))
            best = l.stats.outputThroughput;
    return best;
}

enum LevelColumn { LevelConcurrency, LevelProgress, LevelResultText };

} // namespace

BenchPanel::BenchPanel(HostConnection* host, QWidget* parent)
    : QWidget(parent)
    , m_host(host)
    , m_form(new BenchForm(this))
    , m_start(new QPushButton(tr("Start benchmark"), this))
    , m_cancel(new QPushButton(tr("Cancel"), this))
    , m_hint(new QLabel(this))
    , m_state(new QLabel(this))
    , m_levels(new QTreeWidget(this))
    , m_runs(new QTreeWidget(this))
    , m_compare(new QPushButton(tr("Compare"), this))
    , m_replay(new QPushButton(tr("Replay"), this))
    , m_remove(new QPushButton(tr("Remove…"), this))
    , m_result(new BenchResultView(this))
{
    m_confirm = [this](const QString& question) {
        return QMessageBox::question(this, tr("Remove benchmark runs"), question,
                   QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
            == QMessageBox::Yes;
    };
    auto* split = new QSplitter(Qt::Horizontal, this);
    // The workload form, progress and stored runs are taller than a small window: they scroll.
    auto* left = new QWidget;
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);

    leftLayout->addWidget(m_form);
    auto* buttons = new QHBoxLayout();
    m_start->setObjectName(QStringLiteral("startBench"));
    m_cancel->setObjectName(QStringLiteral("cancelBench"));
    m_start->setDefault(true);
    buttons->addWidget(m_start, 1);
    buttons->addWidget(m_cancel);
    leftLayout->addLayout(buttons);
    m_hint->setObjectName(QStringLiteral("benchHint"));
    m_hint->setWordWrap(true);
    m_hint->setTextFormat(Qt::PlainText);
    m_hint->hide();
    leftLayout->addWidget(m_hint);

    auto* progress = new QGroupBox(tr("Progress"), left);
    auto* progressLayout = new QVBoxLayout(progress);
    m_state->setObjectName(QStringLiteral("benchState"));
    m_state->setWordWrap(true);
    m_state->setTextFormat(Qt::PlainText); // the server's errors
    m_state->setText(tr("Not started."));
    progressLayout->addWidget(m_state);
    m_levels->setObjectName(QStringLiteral("benchLevels"));
    m_levels->setHeaderLabels({ tr("Level"), tr("Requests"), tr("Result") });
    m_levels->setRootIsDecorated(false);
    m_levels->setUniformRowHeights(true);
    m_levels->setMinimumHeight(70);
    m_levels->setMaximumHeight(m_levels->fontMetrics().height() * 7);
    progressLayout->addWidget(m_levels);
    leftLayout->addWidget(progress);

    auto* stored = new QGroupBox(tr("Stored runs on this host"), left);
    auto* storedLayout = new QVBoxLayout(stored);
    // The buttons above the list: in view whatever the window's height.
    auto* runButtons = new QHBoxLayout();
    m_compare->setObjectName(QStringLiteral("compareBenchRuns"));
    m_replay->setObjectName(QStringLiteral("replayBenchRun"));
    m_remove->setObjectName(QStringLiteral("removeBenchRuns"));
    m_replay->setToolTip(tr("Run the selected run's workload again against this server (another build, after a "
                            "change): the two compare level by level"));
    runButtons->addWidget(m_compare);
    runButtons->addWidget(m_replay);
    runButtons->addWidget(m_remove);
    runButtons->addStretch(1);
    storedLayout->addLayout(runButtons);
    m_runs->setObjectName(QStringLiteral("benchRuns"));
    m_runs->setHeaderLabels({ tr("Run"), tr("Started"), tr("Status"), tr("In/out"), tr("Best tok/s") });
    m_runs->setRootIsDecorated(false);
    m_runs->setUniformRowHeights(true);
    m_runs->setMinimumHeight(m_runs->fontMetrics().height() * 5);
    m_runs->setSelectionMode(QAbstractItemView::ExtendedSelection);
    m_runs->setToolTip(tr("Pick a run to see it; pick two (Ctrl-click) and Compare them."));
    storedLayout->addWidget(m_runs, 1);
    leftLayout->addWidget(stored, 1);
    split->addWidget(new VerticalScrollArea(left, split));
    split->addWidget(m_result);
    split->setStretchFactor(1, 1);
    split->setSizes({ 400, 900 });
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(split);

    connect(m_start, &QPushButton::clicked, this, &BenchPanel::start);
    connect(m_cancel, &QPushButton::clicked, this, &BenchPanel::cancel);
    connect(m_form, &BenchForm::changed, this, &BenchPanel::updateActions);
    connect(m_runs, &QTreeWidget::itemSelectionChanged, this, [this] {
        updateActions();
        const QList<qint64> ids = selectedRuns();
        if (ids.size() == 1 && ids.first() != m_shownId)
            showStoredRun(ids.first());
    });
    connect(m_compare, &QPushButton::clicked, this, [this] {
        const QList<qint64> ids = selectedRuns();
        if (ids.size() == 2)
            compareRuns(qMin(ids[0], ids[1]), qMax(ids[0], ids[1]));
    });
    connect(m_replay, &QPushButton::clicked, this, [this] {
        const QList<qint64> ids = selectedRuns();
        if (ids.size() == 1)
            replayRun(ids.first());
    });
    connect(m_remove, &QPushButton::clicked, this, [this] { removeRuns(selectedRuns()); });
    if (m_host)
        connect(m_host, &HostConnection::stateChanged, this, &BenchPanel::updateActions);
    updateActions();
    refreshRuns();
}

BenchPanel::~BenchPanel() = default;

QString BenchPanel::hostKey() const
{
    return m_host ? timeline::hostKey(m_host->profile()) : QString();
}

void BenchPanel::setServerPort(quint16 port)
{
    m_port = port;
    updateActions();
}

Result<BenchParams> BenchPanel::params() const
{
    return m_form->params(m_port);
}

void BenchPanel::setParams(const BenchParams& p)
{
    m_form->setParams(p);
}

bool BenchPanel::isRunning() const
{
    return m_bench && m_bench->state() != ServeBench::State::Idle && m_bench->state() != ServeBench::State::Finished;
}

void BenchPanel::updateActions()
{
    const bool ready = m_host && m_host->state() == ConnectionState::Ready && m_host->transport();
    const bool running = isRunning();
    const Result<BenchParams> p = params();
    QString hint;
    if (!ready)
        hint = tr("Connect to %1 to run a benchmark.").arg(m_host ? m_host->profile().name : QString());
    else if (!p)
        hint = p.error();
    m_start->setEnabled(ready && !running && p.ok());
    m_cancel->setEnabled(running);
    m_form->setRunning(running);
    m_hint->setStyleSheet(ready ? QStringLiteral("color: #c0392b;") : QString());
    m_hint->setText(hint);
    m_hint->setVisible(!hint.isEmpty());
    const qsizetype selected = m_runs->selectedItems().size();
    m_compare->setEnabled(selected == 2);
    m_compare->setToolTip(tr("Select two runs (Ctrl-click) to compare them side by side"));
    m_replay->setEnabled(selected == 1 && ready && !running);
    m_remove->setEnabled(selected >= 1 && !running);
}

void BenchPanel::start()
{
    const Result<BenchParams> p = params();
    if (!p) {
        updateActions();
        return;
    }
    startWith(p.value());
}

void BenchPanel::startWith(const BenchParams& params)
{
    if (isRunning() || !m_host || m_host->state() != ConnectionState::Ready || !m_host->transport())
        return;
    const auto transport = m_host->transport();
    // A new object per run: it holds the transport of the connection as it is now. The history
    // names the host as the CLI does (Transport::describe()).
    m_bench = std::make_unique<ServeBench>(transport, transport->describe());
    ServeBench* bench = m_bench.get();
    m_levels->clear();
    // Planned levels get their rows now; a search's rows come as it picks them.
    auto addRow = [this](const LevelPlan& level, int requests) {
        auto* item = new QTreeWidgetItem(m_levels, { levelLabel(level), QString(), tr("waiting") });
        auto* bar = new QProgressBar(m_levels);
        bar->setRange(0, requests);
        bar->setValue(0);
        bar->setFormat(QStringLiteral("%v / %m"));
        m_levels->setItemWidget(item, LevelProgress, bar);
        return item;
    };
    for (const LevelPlan& level : params.plannedLevels())
        addRow(level, params.requestsFor(level));
    m_levels->resizeColumnToContents(LevelConcurrency);
    m_levels->setColumnWidth(LevelProgress, 130);
    auto bar = [this](int index) {
        QTreeWidgetItem* item = m_levels->topLevelItem(index);
        return item ? qobject_cast<QProgressBar*>(m_levels->itemWidget(item, LevelProgress)) : nullptr;
    };
    connect(bench, &ServeBench::stateChanged, this, [this](ServeBench::State, const QString& what) {
        m_state->setText(what.left(1).toUpper() + what.mid(1));
        updateActions();
    });
    connect(
        bench, &ServeBench::levelStarted, this, [this, bar, addRow](int index, const LevelPlan& level, int requests) {
            if (index >= m_levels->topLevelItemCount()) {
                addRow(level, requests);
                m_levels->resizeColumnToContents(LevelConcurrency);
            }
            if (QProgressBar* b = bar(index))
                b->setRange(0, requests);
            if (QTreeWidgetItem* item = m_levels->topLevelItem(index))
                item->setText(LevelResultText, tr("running"));
        });
    connect(bench, &ServeBench::progress, this, [bar](int index, int done, int total) {
        if (QProgressBar* b = bar(index)) {
            b->setMaximum(total);
            b->setValue(done);
        }
    });
    connect(bench, &ServeBench::levelFinished, this, [this, bar, bench](int index, const LevelResult& l) {
        if (QProgressBar* b = bar(index))
            b->setValue(l.stats.requests);
        if (QTreeWidgetItem* item = m_levels->topLevelItem(index)) {
            QString text = (l.cancelled ? tr("cancelled: ") : QString())
                + tr("%1 ok · %2 failed · %3 tok/s")
                      .arg(l.stats.completed)
                      .arg(l.stats.failed)
                      .arg(std::isfinite(l.stats.outputThroughput) ? QString::number(l.stats.outputThroughput, 'f', 0)
                                                                   : QStringLiteral("–"));
            if (l.analysis.saturation.saturated())
                text += tr(" · saturated");
            if (l.analysis.agreement.checked && !l.analysis.agreement.agrees)
                text += tr(" · server disagrees");
            item->setText(LevelResultText, text);
            item->setToolTip(LevelResultText, l.analysis.saturation.summary());
            const bool bad = l.stats.failed > 0 || l.analysis.saturation.saturated()
                || (l.analysis.agreement.checked && !l.analysis.agreement.agrees);
            item->setForeground(LevelResultText, bad ? QColor(0xc0, 0x39, 0x2b) : palette().color(QPalette::Text));
        }
        m_result->showRun(bench->run(), m_refs);
    });
    connect(bench, &ServeBench::finished, this, &BenchPanel::onFinished);
    m_shownId = 0;
    m_loads.cancelAll();
    m_runs->clearSelection();
    m_result->showMessage(tr("Asking the server on port %1 who it is…").arg(params.serverPort));
    // The reference table is read once per run, off the GUI thread (the user's copy may have changed).
    m_loads.track(QtConcurrent::run(transportPool(), [] { return readReferences(); }),
        [this](const std::optional<ReferenceTable>& refs) { m_refs = refs; });
    bench->start(params);
    updateActions();
}

void BenchPanel::replayRun(qint64 id)
{
    if (isRunning())
        return;
    const quint16 port = m_port;
    m_loads.cancelAll();
    m_loads.track(QtConcurrent::run(transportPool(), [id] { return benchstore::load(id, /*withSeries=*/false); }),
        [this, id, port](const Result<BenchRun>& run) {
            if (!run) {
                m_state->setText(tr("Cannot replay run %1: %2").arg(id).arg(run.error()));
                return;
            }
            BenchParams p = run->params;
            m_form->setParams(p);
            p.replayOf = id;
            p.serverPort = port;
            startWith(p);
        });
}

void BenchPanel::cancel()
{
    if (isRunning())
        m_bench->cancel();
}

void BenchPanel::onFinished(const BenchRun& run)
{
    const QString status = run.status == QLatin1String("completed") ? tr("Finished")
        : run.status == QLatin1String("cancelled")                  ? tr("Cancelled: every request was closed")
                                                                    : tr("Failed");
    QString text = status;
    if (!run.error.isEmpty())
        text += QStringLiteral(": ") + run.error;
    if (run.id)
        text += tr(" · stored as run %1").arg(run.id);
    else if (!run.saveError.isEmpty())
        text += tr(" · not stored: %1").arg(run.saveError);
    m_state->setText(text);
    m_state->setStyleSheet(run.status == QLatin1String("failed") ? QStringLiteral("color: #c0392b;") : QString());
    for (int i = 0; i < m_levels->topLevelItemCount(); ++i) {
        QTreeWidgetItem* item = m_levels->topLevelItem(i);
        if (i >= run.levels.size())
            item->setText(
                LevelResultText, run.status == QLatin1String("cancelled") ? tr("not run") : tr("not reached"));
    }
    m_shownId = run.id;
    m_result->showRun(run, m_refs);
    updateActions();
    refreshRuns();
    Q_EMIT runFinished(run);
}

void BenchPanel::refreshRuns()
{
    const QString host = hostKey();
    if (host.isEmpty())
        return;
    m_listing.cancel(); // the newest list wins
    m_listing = m_store.track(QtConcurrent::run(transportPool(), [host] { return benchstore::list(host, 200); }),
        [this](const Result<QList<BenchRun>>& runs) {
            const QList<qint64> selected = selectedRuns();
            const QSignalBlocker block(m_runs);
            m_runs->clear();
            if (!runs) {
                m_runs->setToolTip(runs.error());
                auto* item
                    = new QTreeWidgetItem(m_runs, { QString(), tr("cannot read the history: %1").arg(runs.error()) });
                item->setFlags(Qt::NoItemFlags);
            }
            for (const BenchRun& r : runs ? runs.value() : QList<BenchRun>()) {
                QStringList levels;
                for (const LevelResult& l : r.levels)
                    levels << levelLabel(l.plan());
                const double best = bestOutput(r);
                auto* item = new QTreeWidgetItem(m_runs,
                    { QString::number(r.id), r.started.toLocalTime().toString(QStringLiteral("MM-dd HH:mm")), r.status,
                        QStringLiteral("%1/%2").arg(r.params.inputTokens).arg(r.params.outputTokens),
                        std::isfinite(best) ? QString::number(best, 'f', 0) : QStringLiteral("–") });
                item->setData(0, Qt::UserRole, r.id);
                item->setToolTip(0,
                    plainToolTip(
                        tr("%1\n%2\nlevels %3")
                            .arg(serverSummary(r.facts), workloadSummary(r), levels.join(QStringLiteral(", ")))));
                for (int c = 1; c < 5; ++c)
                    item->setToolTip(c, item->toolTip(0));
                item->setTextAlignment(0, Qt::AlignRight | Qt::AlignVCenter);
                item->setTextAlignment(4, Qt::AlignRight | Qt::AlignVCenter);
                if (r.status != QLatin1String("completed"))
                    item->setForeground(2, QColor(0xc0, 0x39, 0x2b));
                // Keep the pick across a refresh; after a run, its own row.
                if (selected.contains(r.id) || (selected.isEmpty() && r.id == m_shownId))
                    item->setSelected(true);
            }
            for (int c = 0; c < 5; ++c)
                m_runs->resizeColumnToContents(c);
            updateActions();
            Q_EMIT runsListed();
        });
}

QList<qint64> BenchPanel::selectedRuns() const
{
    QList<qint64> ids;
    for (const QTreeWidgetItem* item : m_runs->selectedItems())
        if (const qint64 id = item->data(0, Qt::UserRole).toLongLong())
            ids.append(id);
    return ids;
}

QList<qint64> BenchPanel::listedRuns() const
{
    QList<qint64> ids;
    for (int i = 0; i < m_runs->topLevelItemCount(); ++i)
        if (const qint64 id = m_runs->topLevelItem(i)->data(0, Qt::UserRole).toLongLong())
            ids.append(id);
    return ids;
}

void BenchPanel::showStoredRun(qint64 id)
{
    if (isRunning())
        return; // the live run keeps the view
    m_shownId = id;
    m_loads.cancelAll();
    m_loads.track(QtConcurrent::run(transportPool(),
                      [id] {
                          Loaded out;
                          auto run = benchstore::load(id, /*withSeries=*/true);
                          if (run)
                              out.runs.append(run.value());
                          else
                              out.error = run.error();
                          out.refs = readReferences();
                          return out;
                      }),
        [this, id](const Loaded& loaded) {
            if (loaded.runs.isEmpty()) {
                m_result->showMessage(tr("Run %1 cannot be read: %2").arg(id).arg(loaded.error));
                return;
            }
            m_refs = loaded.refs;
            m_result->showRun(loaded.runs.first(), m_refs);
            Q_EMIT runShown(id);
        });
}

void BenchPanel::compareRuns(qint64 a, qint64 b)
{
    if (isRunning())
        return;
    m_shownId = 0;
    m_loads.cancelAll();
    m_loads.track(QtConcurrent::run(transportPool(),
                      [a, b] {
                          Loaded out;
                          for (qint64 id : { a, b }) {
                              auto run = benchstore::load(id, /*withSeries=*/false);
                              if (!run) {
                                  out.error = run.error();
                                  break;
                              }
                              out.runs.append(run.value());
                          }
                          return out;
                      }),
        [this, a, b](const Loaded& loaded) {
            if (loaded.runs.size() != 2) {
                m_result->showMessage(tr("Cannot compare runs %1 and %2: %3").arg(a).arg(b).arg(loaded.error));
                return;
            }
            m_result->showComparison(loaded.runs[0], loaded.runs[1]);
            Q_EMIT comparisonShown(a, b);
        });
}

void BenchPanel::removeRuns(const QList<qint64>& ids)
{
    if (ids.isEmpty() || isRunning())
        return;
    QStringList names;
    for (qint64 id : ids)
        names << QString::number(id);
    if (!m_confirm(tr("Remove benchmark run%1 %2 from the history? Their levels, requests, GPU samples and /metrics "
                      "samples are deleted, and the timeline no longer shows them.")
                       .arg(ids.size() > 1 ? QStringLiteral("s") : QString(), names.join(QStringLiteral(", ")))))
        return;
    if (ids.contains(m_shownId) || m_shownId == 0) {
        m_shownId = 0;
        m_loads.cancelAll();
        m_result->showMessage(tr("Run a benchmark, or pick a stored run."));
    }
    m_store.track(QtConcurrent::run(transportPool(),
                      [ids] {
                          for (qint64 id : ids)
                              if (const Result<void> r = benchstore::remove(id); !r)
                                  return r;
                          return Result<void>();
                      }),
        [this](const Result<void>& r) {
            if (!r)
                m_state->setText(tr("Not removed: %1").arg(r.error()));
            refreshRuns();
        });
}

} // namespace kf
