// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/server/serverpane.h"

#include "core/deploy/verifier.h"
#include "core/fleet/hostactivity.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostconnection.h"
#include "core/jobs/remotejob.h"
#include "core/timeline/producers.h"
#include "core/timeline/seriesrecorder.h"
#include "core/transport/transportpool.h"
#include "core/util/shellquote.h"
#include "ui/chart/chartwindowbar.h"
#include "ui/chart/timechart.h"
#include "ui/common/plaintext.h"
#include "ui/server/benchpanel.h"
#include "ui/server/serverdiagnosis.h"

#include <QCheckBox>
#include <QDateTime>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMainWindow>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QStatusBar>
#include <QSyntaxHighlighter>
#include <QTabWidget>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <cmath>
#include <limits>

namespace kf {

namespace {

constexpr int kPollMs = 2000;
// Metrics further apart than this had a pause between them (host not selected, no connection):
// the charts show a gap there instead of a line across it.
constexpr qint64 kGapMs = 3 * kPollMs + 2000;

bool isRunning(const JobInfo& j)
{
    return j.state == JobInfo::State::Running || j.state == JobInfo::State::Starting;
}

// Marks the lines a person looks for in a server log: errors, tracebacks, OOM.
class LogHighlighter : public QSyntaxHighlighter
{
public:
    using QSyntaxHighlighter::QSyntaxHighlighter;

protected:
    void highlightBlock(const QString& text) override
    {
        static const QRegularExpression error(
            QStringLiteral("\\b(ERROR|Error|Traceback|Exception|CUDA out of memory|RuntimeError|FAILED)\\b"));
        static const QRegularExpression warning(QStringLiteral("\\b(WARNING|Warning)\\b"));
        QTextCharFormat f;
        if (error.match(text).hasMatch()) {
            f.setForeground(QColor(0xd6, 0x27, 0x28));
            f.setFontWeight(QFont::Bold);
            setFormat(0, int(text.size()), f);
        } else if (warning.match(text).hasMatch()) {
            f.setForeground(QColor(0xc0, 0x70, 0x00));
            setFormat(0, int(text.size()), f);
        }
    }
};

} // namespace

ServerPane::ServerPane(const AppContext& context, HostConnection* host, QWidget* parent)
    : HostPane(host, parent)
    , m_context(context)
    , m_demo(new QCheckBox(tr("Demo server"), this))
    , m_model(new QLineEdit(this))
    , m_tp(new QSpinBox(this))
    , m_port(new QSpinBox(this))
    , m_extra(new QLineEdit(this))
    , m_launch(new QPushButton(tr("Launch"), this))
    , m_stop(new QPushButton(tr("Stop…"), this))
    , m_launchHint(new QLabel(this))
    , m_status(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_log(new QPlainTextEdit(this))
    , m_servers(new QTreeWidget(this))
{
    m_confirm = [this](const QString& question) {
        return QMessageBox::question(
                   this, tr("Stop server"), question, QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
            == QMessageBox::Yes;
    };
    auto* page = this;
    auto* pageLayout = new QVBoxLayout(page);
    auto* form = new QHBoxLayout();
    auto* fields = new QFormLayout();
    m_model->setPlaceholderText(QStringLiteral("Qwen/Qwen3.5-397B-A17B-NVFP4"));
    m_tp->setObjectName(QStringLiteral("serverTp"));
    m_tp->setRange(1, 64);
    m_port->setObjectName(QStringLiteral("serverPort"));
    m_port->setRange(1, 65535);
    m_port->setValue(30000);
    m_extra->setPlaceholderText(QStringLiteral("--mem-fraction-static 0.85 --kv-cache-dtype fp8_e4m3"));
    auto* row = new QHBoxLayout();
    row->addWidget(m_model, 1);
    row->addWidget(new QLabel(tr("TP"), page));
    row->addWidget(m_tp);
    row->addWidget(new QLabel(tr("Port"), page));
    row->addWidget(m_port);
    row->addWidget(m_demo);
    fields->addRow(tr("Model path"), row);
    fields->addRow(tr("Extra arguments"), m_extra);
    m_launchHint->setObjectName(QStringLiteral("launchHint"));
    m_launchHint->setWordWrap(true);
    m_launchHint->hide();
    fields->addRow(QString(), m_launchHint);
    form->addLayout(fields, 1);
    auto* buttons = new QVBoxLayout();
    buttons->addWidget(m_launch);
    buttons->addWidget(m_stop);
    buttons->addStretch(1);
    form->addLayout(buttons);
    pageLayout->addLayout(form);
    m_status->setObjectName(QStringLiteral("serverStatus"));
    m_status->setTextFormat(Qt::RichText); // every text here is escaped HTML, some without a tag
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    pageLayout->addWidget(m_status);
    m_summary->setObjectName(QStringLiteral("serverSummary"));
    m_summary->setTextFormat(Qt::RichText); // escaped HTML ("&gt; 30 s") with or without a tag in it
    m_summary->setWordWrap(true);
    pageLayout->addWidget(m_summary);

    auto* split = new QSplitter(Qt::Vertical, page);
    auto* chartPage = new QWidget(split);
    auto* chartLayout = new QVBoxLayout(chartPage);
    chartLayout->setContentsMargins(0, 0, 0, 0);
    m_chartBar = new ChartWindowBar(chartPage); // in the Monitor/Benchmark tab bar's corner (below)
    auto* chartBox = new QWidget(chartPage);
    chartLayout->addWidget(chartBox, 1);
    auto* grid = new QGridLayout(chartBox);
    grid->setContentsMargins(0, 0, 0, 0);
    struct Def
    {
        QString title;
        QString unit;
        QList<std::pair<QString, int>> series;
    };
    const QList<Def> defs = {
        { tr("Generation throughput"), tr("tok/s"), { { tr("tokens/s"), Throughput } } },
        { tr("Requests"), QString(), { { tr("running"), Running }, { tr("queued"), Queued } } },
        { tr("KV cache used"), QStringLiteral("%"), { { tr("KV cache"), KvUsage } } },
        { tr("Prefix cache hit rate"), QStringLiteral("%"), { { tr("hit rate"), HitRate } } },
        { tr("Time to first token"), tr("ms"),
            { { QStringLiteral("p50"), TtftP50 }, { QStringLiteral("p95"), TtftP95 } } },
        { tr("Inter-token latency"), tr("ms"),
            { { QStringLiteral("p50"), ItlP50 }, { QStringLiteral("p95"), ItlP95 } } },
    };
    for (int i = 0; i < defs.size(); ++i) {
        auto* chart = new TimeChart(chartBox);
        chart->setTitle(defs[i].title);
        chart->setUnit(defs[i].unit);
        for (int s = 0; s < defs[i].series.size(); ++s)
            chart->addSeries(defs[i].series[s].first, TimeChart::paletteColor(s == 0 ? 0 : 3));
        QList<int> ids;
        for (const auto& p : defs[i].series)
            ids.append(p.second);
        chart->setProperty("kfSeries", QVariant::fromValue(ids));
        // Export writes everything the pane holds of the chart's series, not the window drawn.
        chart->setHistorySource([this, chart, ids] {
            QList<CsvSeries> out;
            for (int k = 0; k < ids.size(); ++k)
                out.append({ chart->title(), chart->seriesName(k), chart->unit(),
                    m_series.empty() ? QList<QPointF>() : m_series[size_t(ids[k])].history() });
            return out;
        });
        if (defs[i].unit == QStringLiteral("%"))
            chart->setValueRange(0, 100);
        chart->setMinimumHeight(120); // two rows and the log fit a 640 px window
        grid->addWidget(chart, i / 3, i % 3);
        m_charts.append(chart);
    }
    m_chartBar->setCharts(m_charts, chartBox, QStringLiteral("server"));
    connect(m_chartBar, &ChartWindowBar::windowChanged, this, &ServerPane::refreshCharts);
    split->addWidget(chartPage);
    m_log->setObjectName(QStringLiteral("serverLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(10000);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("The server log appears here once KernelForge launched the server."));
    new LogHighlighter(m_log->document());
    // The servers KernelForge started on this host (builds are the Build tab's).
    m_servers->setObjectName(QStringLiteral("serverJobs"));
    m_servers->setHeaderLabels({ tr("Job"), tr("Port"), tr("State"), tr("Started"), tr("Command") });
    m_servers->setRootIsDecorated(false);
    m_servers->setUniformRowHeights(true);
    m_servers->setToolTip(tr("Double-click a server to follow it (its port becomes the pane's)."));
    auto* lower = new QTabWidget(split);
    // The log with, above it, what in it explains a failure (a JIT that failed, no kernel image, ...).
    auto* logPage = new QWidget(lower);
    auto* logLayout = new QVBoxLayout(logPage);
    logLayout->setContentsMargins(0, 0, 0, 0);
    m_diagnosis = new ServerDiagnosis(logPage);
    logLayout->addWidget(m_diagnosis);
    logLayout->addWidget(m_log, 1);
    lower->addTab(logPage, tr("Server log"));
    lower->addTab(m_servers, tr("Servers on this host"));
    split->addWidget(lower);
    split->setSizes({ 420, 200 });
    // Monitor (charts, log, servers) and Benchmark (a serving-benchmark sweep against this port).
    auto* views = new QTabWidget(page);
    views->setObjectName(QStringLiteral("serverViews"));
    views->setDocumentMode(true);
    views->addTab(split, tr("Monitor"));
    m_bench = new BenchPanel(host, views);
    m_bench->setObjectName(QStringLiteral("benchPanel"));
    views->addTab(m_bench, tr("Benchmark"));
    // The charts' bar sits beside the tabs, not in a row of its own: the charts keep the height.
    views->setCornerWidget(m_chartBar, Qt::TopRightCorner);
    connect(views, &QTabWidget::currentChanged, m_chartBar,
        [this, views, split](int) { m_chartBar->setVisible(views->currentWidget() == split); });
    m_bench->setServerPort(quint16(m_port->value()));
    connect(m_port, &QSpinBox::valueChanged, m_bench, [this](int port) { m_bench->setServerPort(quint16(port)); });
    pageLayout->addWidget(views, 1);

    m_launch->setObjectName(QStringLiteral("launchServer"));
    m_stop->setObjectName(QStringLiteral("stopServer"));
    connect(m_launch, &QPushButton::clicked, this, &ServerPane::launch);
    connect(m_stop, &QPushButton::clicked, this, &ServerPane::stop);
    connect(m_port, &QSpinBox::valueChanged, this, [this] {
        // Another port is another server: the followed job (of the old port) is let go, and
        // the charts break here.
        dropJob();
        m_portState = ServerScan::Port::Unknown;
        m_portScanned = false;
        m_portAnswers = false;
        appendGap(QDateTime::currentMSecsSinceEpoch());
        restartClient();
        scan();
        updateActions();
    });
    connect(m_tp, &QSpinBox::valueChanged, this, &ServerPane::updateActions);
    connect(m_demo, &QCheckBox::toggled, this, [this](bool on) {
        if (on && m_model->text().isEmpty())
            setProfile(ServerLaunchProfile::demoProfile());
    });
    connect(m_servers, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const auto job = item->data(0, Qt::UserRole).value<JobInfo>();
        const quint16 port = serverJobPort(job).value_or(quint16(m_port->value()));
        if (port != m_port->value())
            m_port->setValue(port); // the scan that follows adopts its running server
        else if (job.id != m_jobId)
            followJob(job);
    });
    connect(host, &HostConnection::stateChanged, this, &ServerPane::onHostState);
    // The demo server runs the demo SGLang; any other host starts with the plain profile.
    if (host->profile().isDemo)
        setProfile(ServerLaunchProfile::demoProfile());
    onHostState(host->state());
}

ServerPane::~ServerPane() = default;

ServerLaunchProfile ServerPane::profile() const
{
    ServerLaunchProfile p;
    p.demo = m_demo->isChecked();
    p.modelPath = m_model->text().trimmed().isEmpty() ? m_model->placeholderText() : m_model->text().trimmed();
    p.tp = m_tp->value();
    p.port = quint16(m_port->value());
    p.extraArgs = shellSplit(m_extra->text());
    return p;
}

void ServerPane::setProfile(const ServerLaunchProfile& p)
{
    m_demo->setChecked(p.demo);
    m_model->setText(p.modelPath);
    m_tp->setValue(p.tp);
    m_port->setValue(p.port);
    m_extra->setText(shellJoin(p.extraArgs));
}

void ServerPane::setJobRoot(const QString& root)
{
    m_jobRoot = root;
    dropJob();
    scan();
}

void ServerPane::setActive(bool active)
{
    if (active == isActive())
        return;
    HostPane::setActive(active);
    // Only the selected host's server is polled (as many polls as one pane made before);
    // the charts show the unselected time as a gap. The log tail resumes where it stopped.
    if (active) {
        restartClient();
        checkVerification(); // a build verified since may have changed it
        if (m_job && m_jobRunning && !m_job->isAttached())
            m_job->attach(m_job->offset());
    } else {
        m_client.reset();
        if (m_job)
            m_job->detach();
    }
}

bool ServerPane::isReady() const
{
    return m_host && m_host->state() == ConnectionState::Ready && m_host->transport();
}

int ServerPane::gpuCount() const
{
    if (!m_context.gpuMonitors || !m_host)
        return -1;
    const GpuMonitor* monitor = m_context.gpuMonitors->monitorFor(m_host);
    if (!monitor)
        return -1;
    if (monitor->driverMissing())
        return 0;
    return monitor->latest().isEmpty() ? -1 : int(monitor->latest().size());
}

void ServerPane::onHostState(ConnectionState state)
{
    if (state == ConnectionState::Ready) {
        if (!m_client)
            restartClient();
        scan();
    } else if (!m_client) {
        // Polls go on while reconnecting (they fail at once); without any, say why here.
        m_status->setText(
            tr("Not connected to %1: whether a server runs is not known.").arg(m_host->profile().name.toHtmlEscaped()));
        m_summary->clear();
    }
    updateActions();
}

void ServerPane::restartClient()
{
    m_client.reset();
    if (!isActive() || !isReady())
        return;
    m_status->setText(tr("Looking for a server on port %1…").arg(m_port->value()));
    m_client = std::make_unique<ServerClient>(m_host->transport(), quint16(m_port->value()));
    connect(m_client.get(), &ServerClient::statusUpdated, this, &ServerPane::onStatus);
    if (timeline::SeriesRecorder* recorder = m_context.timelineSeries) // tok/s under the Timeline's markers
        connect(m_client.get(), &ServerClient::statusUpdated, recorder,
            [recorder, host = m_host->transport()->describe()](
                const ServerStatus& s) { recorder->addServerStatus(host, s); });
    m_client->start(kPollMs);
}

void ServerPane::scan()
{
    if (!isReady())
        return;
    const auto transport = m_host->transport();
    const auto port = quint16(m_port->value());
    const QString root = m_jobRoot;
    checkVerification();
    m_scans.cancelAll();
    m_scans.track(
        QtConcurrent::run(transportPool(), [transport, port, root] { return scanServers(*transport, port, root); }),
        [this](const Result<ServerScan>& r) {
            if (!r) {
                m_portState = ServerScan::Port::Unknown;
                m_status->setToolTip(plainToolTip(r.error()));
            } else {
                onScan(*r);
            }
            Q_EMIT scanned();
        });
}

void ServerPane::showEvent(QShowEvent* event)
{
    HostPane::showEvent(event);
    checkVerification();
}

void ServerPane::checkVerification()
{
    const QString host = m_host && m_host->transport() ? m_host->transport()->describe() : QString();
    if (host.isEmpty())
        return;
    m_requests.track(QtConcurrent::run(transportPool(), [host] { return deploy::launchBlockedBecause(host); }),
        [this](const QString& why) {
            m_verifyBlock = why;
            updateActions();
        });
}

void ServerPane::onScan(const ServerScan& scan)
{
    if (scan.port != m_port->value())
        return;
    m_portState = scan.portState;
    m_portScanned = true;
    showServers(scan.servers);
    const std::optional<JobInfo> running = scan.running();
    if (running && running->id != m_jobId)
        followJob(*running); // adopted: launched before a reconnect, a restart, or by another window
    if (!m_adopted) {
        m_adopted = true;
        const QList<JobInfo> elsewhere = scan.runningServers();
        if (!running && !m_jobRunning && !elsewhere.isEmpty())
            m_port->setValue(serverJobPort(elsewhere.first()).value_or(scan.port));
    }
    updateActions();
    if (m_client && m_client->port() == m_port->value())
        showStatus(m_client->last());
}

void ServerPane::showServers(const QList<JobInfo>& servers)
{
    m_servers->clear();
    for (const JobInfo& j : servers) {
        const QString state = isRunning(j)        ? tr("running")
            : j.cancelled                         ? tr("stopped")
            : j.state == JobInfo::State::Finished ? tr("exited (%1)").arg(j.exitStatus)
                                                  : toString(j.state);
        const quint16 port = serverJobPort(j).value_or(0);
        auto* item = new QTreeWidgetItem(m_servers,
            { j.id, QString::number(port), state,
                j.started.isValid() ? j.started.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")) : QString(),
                j.command });
        item->setData(0, Qt::UserRole, QVariant::fromValue(j));
        item->setToolTip(4, plainToolTip(j.command));
    }
    for (int c = 0; c < 4; ++c)
        m_servers->resizeColumnToContents(c);
}

void ServerPane::launch()
{
    if (!isReady() || m_launching)
        return;
    const ServerLaunchProfile p = profile();
    const int gpus = gpuCount();
    if (const Result<void> tp = checkTensorParallel(p.tp, gpus); !tp) {
        updateActions();
        Q_EMIT launchFailed(tp.error());
        return;
    }
    m_launching = true;
    updateActions();
    m_status->setText(tr("Starting: %1").arg(p.command().toHtmlEscaped()));
    const auto transport = m_host->transport();
    const QString root = m_jobRoot;
    m_requests.track(QtConcurrent::run(transportPool(),
                         [transport, p, root, gpus] {
                             if (const QString why = deploy::launchBlockedBecause(transport->describe());
                                 !why.isEmpty())
                                 return Result<JobInfo>::failure(why);
                             return launchServer(*transport, p, root, gpus);
                         }),
        [this](const Result<JobInfo>& r) {
            m_launching = false;
            if (!r) {
                m_status->setText(tr("Not launched: %1").arg(r.error().toHtmlEscaped()));
                updateActions();
                scan();
                Q_EMIT launchFailed(r.error());
                return;
            }
            followJob(*r);
            scan();
            Q_EMIT launched(r->id);
        });
}

void ServerPane::followJob(const JobInfo& job)
{
    dropJob();
    m_jobId = job.id;
    m_jobRunning = isRunning(job);
    m_log->clear();
    m_diagnosis->reset();
    m_job = std::make_unique<RemoteJob>(m_host->transport(), job.id, m_jobRoot);
    connect(m_job.get(), &RemoteJob::logReceived, this, [this](qint64, const QByteArray& data) {
        m_diagnosis->feed(data);
        QString text = QString::fromUtf8(data);
        if (text.endsWith(u'\n'))
            text.chop(1);
        m_log->appendPlainText(text);
    });
    connect(m_job.get(), &RemoteJob::finished, this, &ServerPane::onJobFinished);
    connect(m_job.get(), &RemoteJob::failed, this, [this](const QString& error) {
        m_jobRunning = false;
        m_log->appendPlainText(tr("[KernelForge] cannot follow the server: %1").arg(error));
        updateActions();
    });
    if (isActive())
        m_job->attach(0);
    updateActions();
    if (m_client)
        showStatus(m_client->last());
}

void ServerPane::dropJob()
{
    m_job.reset();
    m_jobId.clear();
    m_jobRunning = false;
    m_stopping = false;
}

void ServerPane::onJobFinished(const JobInfo& info)
{
    if (const auto transport = m_host ? m_host->transport() : nullptr)
        timeline::recordServerStopped(transport->describe(), info.id, info.exitStatus, info.cancelled);
    const bool wasRunning = m_jobRunning;
    m_jobRunning = false;
    m_stopping = false;
    const int port = serverJobPort(info).value_or(quint16(m_port->value()));
    const QString message = info.cancelled
        ? tr("Server on port %1 of %2 (job %3) stopped").arg(port).arg(m_host->profile().name, info.id)
        : tr("Server on port %1 of %2 (job %3) exited with status %4")
              .arg(port)
              .arg(m_host->profile().name, info.id)
              .arg(info.exitStatus);
    m_log->appendPlainText(QStringLiteral("[KernelForge] ") + message);
    if (wasRunning) {
        if (auto* window = qobject_cast<QMainWindow*>(this->window()))
            window->statusBar()->showMessage(message, 30000);
        Q_EMIT serverEnded(info, message);
    }
    scan();
    updateActions();
}

void ServerPane::stop()
{
    if (!isReady() || !m_jobRunning || m_stopping)
        return;
    const QString id = m_jobId;
    if (!m_confirm(tr("Stop the server on port %1 of %2 (job %3)? Requests in flight are dropped.")
                       .arg(m_port->value())
                       .arg(m_host->profile().name, id)))
        return;
    m_stopping = true;
    updateActions();
    m_status->setText(tr("Stopping the server (job %1)…").arg(id));
    const auto transport = m_host->transport();
    const QString root = m_jobRoot;
    m_requests.track(
        QtConcurrent::run(transportPool(), [transport, id, root] { return stopServer(*transport, id, root); }),
        [this](const Result<void>& s) {
            if (s)
                return; // the job's end comes through its log stream (onJobFinished)
            m_stopping = false;
            m_status->setText(tr("Stop failed: %1").arg(s.error().toHtmlEscaped()));
            updateActions();
        });
}

void ServerPane::updateActions()
{
    const bool ready = isReady();
    const Result<void> tp = checkTensorParallel(m_tp->value(), gpuCount());
    const bool taken = !m_jobRunning && (m_portState == ServerScan::Port::Listening || m_portAnswers);
    const int port = m_port->value();
    QString hint;
    if (!ready)
        hint = tr("Connect to %1 to launch a server.").arg(m_host ? m_host->profile().name : QString());
    else if (!tp)
        hint = tp.error();
    else if (!m_verifyBlock.isEmpty() && !m_jobRunning)
        hint = tr("Launch is refused: %1 (Build tab, Verify).").arg(m_verifyBlock);
    else if (m_jobRunning)
        hint = tr(
            "The server KernelForge started on port %1 (job %2) is running: Stop it first, or choose another port.")
                   .arg(port)
                   .arg(m_jobId);
    else if (taken)
        hint = tr("Port %1 is in use on this host by a program KernelForge did not start: choose another port.")
                   .arg(port);
    const bool verified = m_verifyBlock.isEmpty();
    m_launch->setEnabled(ready && !m_launching && tp && !m_jobRunning && !taken && verified);
    m_stop->setEnabled(ready && m_jobRunning && !m_stopping);
    m_stop->setToolTip(m_jobRunning ? tr("Stop job %1").arg(m_jobId) : tr("No server of ours runs on this port"));
    // Red for what must change before a launch (TP, the port); plain for "it is running".
    const bool problem = ready && (!tp || (!m_jobRunning && (taken || !verified)));
    m_launchHint->setStyleSheet(problem ? QStringLiteral("color: #c0392b;") : QString());
    m_launchHint->setText(hint);
    m_launchHint->setVisible(!hint.isEmpty());
    m_tp->setStyleSheet(tp ? QString() : QStringLiteral("QSpinBox { border: 1px solid #c0392b; }"));
    m_tp->setToolTip(tp ? QString() : tp.error());
}

void ServerPane::onStatus(const ServerStatus& s)
{
    m_lastTime = s.timeMs;
    if (m_context.activity && m_host) // the fleet tile's server line
        m_context.activity->setServer(m_host->profile().name, s);
    if (m_portAnswers && !s.reachable)
        scan(); // the server went away: ours ended, or the port is free again
    m_portAnswers = s.reachable;
    if (!s.reachable || !s.hasMetrics) {
        appendGap(s.timeMs);
    } else {
        if (m_lastPointTime > 0 && s.timeMs - m_lastPointTime > kGapMs)
            appendGap(m_lastPointTime + 1);
        m_lastPointTime = s.timeMs;
        const ServerMetrics& m = s.metrics;
        const double values[SeriesCount]
            = { m.genThroughput, m.running, m.queued, m.kvUsage * 100, m.cacheHitRate * 100,
                  // A quantile above the last finite bucket has no value to plot (a gap, not the bound).
                  m.ttftP50.estimate() * 1000, m.ttftP95.estimate() * 1000, m.itlP50.estimate() * 1000,
                  m.itlP95.estimate() * 1000 };
        if (m_series.empty())
            m_series.resize(SeriesCount);
        for (int i = 0; i < SeriesCount; ++i)
            m_series[size_t(i)].append(s.timeMs, values[i]);
    }
    showStatus(s);
    updateActions();
    refreshCharts();
}

void ServerPane::showStatus(const ServerStatus& s)
{
    if (s.timeMs == 0) // no poll yet
        return;
    if (!s.reachable) {
        const QString name = m_host ? m_host->profile().name.toHtmlEscaped() : QString();
        if (!isReady())
            m_status->setText(tr("Not connected to %1: whether a server runs is not known.").arg(name));
        else if (m_jobRunning)
            m_status->setText(
                tr("Starting: job %1 runs, nothing answers on port %2 yet.").arg(m_jobId.toHtmlEscaped()).arg(s.port));
        else if (m_portState == ServerScan::Port::Listening)
            m_status->setText(tr("Port %1 is in use on this host, but no HTTP server answers there through the SSH "
                                 "tunnel (%2).")
                                  .arg(s.port)
                                  .arg(s.error.toHtmlEscaped()));
        else
            m_status->setText(tr("No server on port %1 (Launch one, or set the port).").arg(s.port));
        m_status->setToolTip(plainToolTip(s.error));
        m_summary->clear();
        return;
    }
    m_status->setToolTip(QString());
    QString head = s.healthy() ? tr("<b style='color:#2ca02c'>healthy</b>")
                               : tr("<b style='color:#c07000'>starting (HTTP %1)</b>").arg(s.healthStatus);
    if (!s.modelPath.isEmpty())
        head += QStringLiteral(" · %1").arg(s.modelPath.toHtmlEscaped());
    if (s.tpSize)
        head += tr(" · TP %1").arg(s.tpSize);
    head += tr(" · port %1").arg(s.port);
    if (m_jobRunning)
        head += tr(" · started by KernelForge (job %1)").arg(m_jobId.toHtmlEscaped());
    else if (m_portScanned)
        head += tr(" · not started by KernelForge");
    m_status->setText(head);
    const ServerMetrics& m = s.metrics;
    auto f = [](double v, double scale, int prec, const QString& unit) {
        return hasValue(v) ? QString::number(v * scale, 'f', prec) + unit : QStringLiteral("–");
    };
    // "> 30 s" when the quantile lies in the +Inf bucket (rich text: escaped).
    auto q = [](const Quantile& v, int prec) { return quantileText(v, prec, QStringLiteral("–")).toHtmlEscaped(); };
    QString summary = tr("%1 · running %2 · queued %3 · KV %4 · hit %5 · TTFT p50/p95 %6/%7 · ITL p50/p95 %8/%9")
                          .arg(f(m.genThroughput, 1, 0, tr(" tok/s")), f(m.running, 1, 0, {}), f(m.queued, 1, 0, {}),
                              f(m.kvUsage, 100, 0, QStringLiteral("%")), f(m.cacheHitRate, 100, 0, QStringLiteral("%")),
                              q(m.ttftP50, 0), q(m.ttftP95, 0), q(m.itlP50, 1), q(m.itlP95, 1));
    if (!m.note.isEmpty())
        summary += QStringLiteral("<br><i>%1</i>").arg(m.note.toHtmlEscaped());
    m_summary->setText(summary);
}

void ServerPane::appendGap(qint64 timeMs)
{
    // One NaN after the last value is enough to break the line; none before any data.
    if (m_series.empty())
        return;
    const SeriesBuffer& first = m_series[Throughput];
    if (first.isEmpty() || std::isnan(first.lastValue()) || timeMs <= first.lastTime())
        return;
    for (auto& s : m_series)
        s.append(timeMs, std::numeric_limits<double>::quiet_NaN());
}

void ServerPane::refreshCharts()
{
    if (m_lastTime <= 0 || m_series.empty())
        return;
    const auto [from, to] = m_chartBar->range(m_series[Throughput].firstTime(), m_lastTime);
    for (TimeChart* chart : std::as_const(m_charts)) {
        chart->setTimeWindow(from, to);
        const QList<int> ids = chart->property("kfSeries").value<QList<int>>();
        for (int i = 0; i < ids.size(); ++i)
            chart->setSeriesData(i, m_series[size_t(ids[i])].decimated(from, to, chart->columns()));
    }
}

QList<QPointF> ServerPane::throughputPoints() const
{
    if (m_lastTime <= 0 || m_series.empty())
        return {};
    const auto [from, to] = m_chartBar->range(m_series[Throughput].firstTime(), m_lastTime);
    return m_series[Throughput].decimated(from, to, m_charts.first()->columns());
}

} // namespace kf
