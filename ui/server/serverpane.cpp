// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/server/serverpane.h"

#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostconnection.h"
#include "core/server/servergpus.h"
#include "core/server/serversession.h"
#include "core/sessions/hostsessions.h"
#include "core/transport/transportpool.h"
#include "core/util/shellquote.h"
#include "core/verify/verifyrun.h"
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
#include <QTextCursor>
#include <QTreeWidget>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

namespace kf {

namespace {

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

QString jobState(const JobInfo& j)
{
    if (j.state == JobInfo::State::Running || j.state == JobInfo::State::Starting)
        return ServerPane::tr("running");
    if (j.cancelled)
        return ServerPane::tr("stopped");
    if (j.state == JobInfo::State::Finished)
        return ServerPane::tr("exited (%1)").arg(j.exitStatus);
    return toString(j.state);
}

// "healthy", "starting (HTTP 503)", "no answer yet": a server's state in one phrase.
QString health(const ServerState& s)
{
    if (s.last.reachable)
        return s.last.healthy() ? ServerPane::tr("healthy")
                                : ServerPane::tr("starting (HTTP %1)").arg(s.last.healthStatus);
    return s.running() ? ServerPane::tr("starting, no answer yet") : ServerPane::tr("not answering");
}

} // namespace

ServerPane::ServerPane(const AppContext& context, HostConnection* host, QWidget* parent)
    : HostPane(host, parent)
    , m_context(context)
    , m_sessions(context.sessions ? context.sessions : new HostSessions(this))
    , m_demo(new QCheckBox(tr("Demo server"), this))
    , m_model(new QLineEdit(this))
    , m_tp(new QSpinBox(this))
    , m_port(new QSpinBox(this))
    , m_extra(new QLineEdit(this))
    , m_memoryGate(new QCheckBox(tr("Memory gate for JIT"), this))
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
                   this, tr("Server"), question, QMessageBox::Yes | QMessageBox::Cancel, QMessageBox::Cancel)
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
    m_memoryGate->setObjectName(QStringLiteral("serverMemoryGate"));
    m_memoryGate->setToolTip(tr("Put the memory gate in front of the server's JIT compiles (flashinfer, DeepGEMM, "
                                "torch extensions): each waits until its memory fits, as a build's compiles do"));
    auto* extraRow = new QHBoxLayout();
    extraRow->addWidget(m_extra, 1);
    extraRow->addWidget(m_memoryGate);
    fields->addRow(tr("Extra arguments"), extraRow);
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
        { tr("Generation throughput"), tr("tok/s"), { { tr("tokens/s"), int(ServerSeries::Throughput) } } },
        { tr("Requests"), QString(),
            { { tr("running"), int(ServerSeries::Running) }, { tr("queued"), int(ServerSeries::Queued) } } },
        { tr("KV cache used"), QStringLiteral("%"), { { tr("KV cache"), int(ServerSeries::KvUsage) } } },
        { tr("Prefix cache hit rate"), QStringLiteral("%"), { { tr("hit rate"), int(ServerSeries::HitRate) } } },
        { tr("Time to first token"), tr("ms"),
            { { QStringLiteral("p50"), int(ServerSeries::TtftP50) },
                { QStringLiteral("p95"), int(ServerSeries::TtftP95) } } },
        { tr("Inter-token latency"), tr("ms"),
            { { QStringLiteral("p50"), int(ServerSeries::ItlP50) },
                { QStringLiteral("p95"), int(ServerSeries::ItlP95) } } },
    };
    for (int i = 0; i < defs.size(); ++i) {
        auto* chart = new TimeChart(chartBox);
        chart->setTitle(defs[i].title);
        chart->setUnit(defs[i].unit);
        chart->setEmptyText(tr("No server of this host has sent metrics yet"));
        // Export writes everything the session holds of the chart's series, not the window drawn.
        chart->setHistorySource([this, chart, i] {
            QList<CsvSeries> out;
            const QList<ChartSeries>& drawn = m_chartSeries.value(i);
            for (int k = 0; k < drawn.size(); ++k) {
                const ServerState* s = m_session ? m_session->server(drawn[k].port) : nullptr;
                out.append({ chart->title(), chart->seriesName(k), chart->unit(),
                    s && !s->series.empty() ? s->series[size_t(drawn[k].kind)].history() : QList<QPointF>() });
            }
            return out;
        });
        if (defs[i].unit == QStringLiteral("%"))
            chart->setValueRange(0, 100);
        chart->setMinimumHeight(120); // two rows and the log fit a 640 px window
        grid->addWidget(chart, i / 3, i % 3);
        m_charts.append(chart);
        m_chartKinds.append(defs[i].series);
        m_chartSeries.append(QList<ChartSeries>());
    }
    m_chartBar->setCharts(m_charts, chartBox, QStringLiteral("server"));
    connect(m_chartBar, &ChartWindowBar::windowChanged, this, &ServerPane::refreshCharts);
    split->addWidget(chartPage);
    m_log->setObjectName(QStringLiteral("serverLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(10000);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("The log of the server KernelForge started on this port appears here."));
    new LogHighlighter(m_log->document());
    // The servers KernelForge started on this host (builds are the Build tab's).
    m_servers->setObjectName(QStringLiteral("serverJobs"));
    m_servers->setHeaderLabels({ tr("Job"), tr("Port"), tr("State"), tr("Started"), tr("Command") });
    m_servers->setRootIsDecorated(false);
    m_servers->setUniformRowHeights(true);
    m_servers->setToolTip(tr("Double-click a server to show it (its port becomes the pane's)."));
    auto* lower = new QTabWidget(split);
    // The log with, above it, what in it explains a failure (a JIT that failed, no kernel image, ...).
    auto* logPage = new QWidget(lower);
    auto* logLayout = new QVBoxLayout(logPage);
    logLayout->setContentsMargins(0, 0, 0, 0);
    m_diagnosis = new ServerDiagnosis(logPage);
    logLayout->addWidget(m_diagnosis);
    // When the host's verification explains the failure: straight to it (the Build tab's Verification).
    auto* showVerification = new QPushButton(tr("Show the verification"), logPage);
    showVerification->setObjectName(QStringLiteral("showVerification"));
    showVerification->setToolTip(tr("The Build tab's Verification: which library lacks what for which GPU"));
    showVerification->hide();
    connect(m_diagnosis, &ServerDiagnosis::changed, showVerification,
        [this, showVerification] { showVerification->setVisible(m_diagnosis->verificationExplains()); });
    connect(showVerification, &QPushButton::clicked, this, &ServerPane::verificationRequested);
    logLayout->addWidget(showVerification, 0, Qt::AlignLeft);
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
    m_bench->setServerPort(port());
    pageLayout->addWidget(views, 1);

    m_launch->setObjectName(QStringLiteral("launchServer"));
    m_stop->setObjectName(QStringLiteral("stopServer"));
    connect(m_launch, &QPushButton::clicked, this, &ServerPane::launch);
    connect(m_stop, &QPushButton::clicked, this, &ServerPane::stop);
    connect(m_port, &QSpinBox::valueChanged, this, &ServerPane::onPortChanged);
    connect(m_tp, &QSpinBox::valueChanged, this, &ServerPane::updateActions);
    connect(m_extra, &QLineEdit::textChanged, this, &ServerPane::updateActions);
    connect(m_demo, &QCheckBox::toggled, this, [this](bool on) {
        if (on && m_model->text().isEmpty())
            setProfile(ServerLaunchProfile::demoProfile());
    });
    connect(m_servers, &QTreeWidget::itemActivated, this, [this](QTreeWidgetItem* item) {
        const auto job = item->data(0, Qt::UserRole).value<JobInfo>();
        if (const auto p = serverJobPort(job))
            m_port->setValue(*p);
    });
    connect(m_sessions, &HostSessions::serverSessionAdded, this, [this](HostConnection* h) {
        if (h == m_host)
            bind();
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
    p.port = port();
    p.extraArgs = shellSplit(m_extra->text());
    p.memoryGate = m_memoryGate->isChecked();
    return p;
}

void ServerPane::setProfile(const ServerLaunchProfile& p)
{
    m_demo->setChecked(p.demo);
    m_model->setText(p.modelPath);
    m_tp->setValue(p.tp);
    m_port->setValue(p.port);
    m_extra->setText(shellJoin(p.extraArgs));
    m_memoryGate->setChecked(p.memoryGate);
}

quint16 ServerPane::port() const
{
    return quint16(m_port->value());
}

void ServerPane::setJobRoot(const QString& root)
{
    m_jobRoot = root;
    if (m_session && m_session->jobRoot() != root)
        m_session->setJobRoot(root);
}

void ServerPane::setActive(bool active)
{
    if (active == isActive())
        return;
    HostPane::setActive(active);
    // Only the selected host's servers are polled (the charts show the unselected time as a gap);
    // the session's log tails resume where they stopped.
    if (m_session)
        m_session->setPolling(this, active);
    if (active)
        checkVerification(); // a build verified since may have changed it
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

ServerSession* ServerPane::session() const
{
    return m_session;
}

QString ServerPane::jobId() const
{
    const ServerState* s = m_session ? m_session->server(port()) : nullptr;
    return s && s->job ? s->job->id : QString();
}

bool ServerPane::isServerRunning() const
{
    const ServerState* s = m_session ? m_session->server(port()) : nullptr;
    return s && s->running();
}

ServerStatus ServerPane::lastStatus() const
{
    const ServerState* s = m_session ? m_session->server(port()) : nullptr;
    return s ? s->last : ServerStatus();
}

void ServerPane::bind()
{
    if (m_session || !m_host)
        return;
    ServerSession* s = m_sessions->serverSession(m_host);
    if (!s || m_session)
        return; // none yet, or bound meanwhile (serverSessionAdded, emitted as it was made)
    m_session = s;
    connect(s, &ServerSession::serversChanged, this, [this] {
        showServers();
        refreshCharts();
        showStatus();
        updateActions();
    });
    connect(s, &ServerSession::scanned, this, &ServerPane::onScanned);
    connect(s, &ServerSession::statusUpdated, this, [this](quint16, const ServerStatus& status) {
        m_lastTime = std::max(m_lastTime, status.timeMs);
        refreshCharts();
        showStatus();
        updateActions();
    });
    connect(s, &ServerSession::logReceived, this, [this](quint16 at, const QByteArray& data) {
        if (at != port())
            return;
        m_diagnosis->feed(data);
        QString text = QString::fromUtf8(data);
        if (text.endsWith(u'\n'))
            text.chop(1);
        m_log->appendPlainText(text);
    });
    connect(s, &ServerSession::launchFinished, this, &ServerPane::onLaunchFinished);
    connect(s, &ServerSession::stopFailed, this, [this](quint16 at, const QString& error) {
        m_launchNote = tr("Stop on port %1 failed: %2").arg(at).arg(error);
        showStatus();
        updateActions();
    });
    connect(s, &ServerSession::serverEnded, this, &ServerPane::onServerEnded);
    if (!m_jobRoot.isEmpty() && s->jobRoot() != m_jobRoot)
        s->setJobRoot(m_jobRoot);
    s->setWatchedPort(port());
    if (isActive())
        s->setPolling(this, true);
    showLog();
    showServers();
    refreshCharts();
    showStatus();
    updateActions();
    if (s->scannedOnce())
        onScanned(); // scanned before this pane was made (the fleet view asked first)
}

void ServerPane::onHostState(ConnectionState state)
{
    if (state == ConnectionState::Ready) {
        bind();
        checkVerification();
    }
    showStatus();
    updateActions();
}

void ServerPane::onPortChanged()
{
    m_bench->setServerPort(port());
    m_launchNote.clear();
    if (m_session)
        m_session->setWatchedPort(port());
    showLog();
    showStatus();
    updateActions();
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
    m_requests.track(
        QtConcurrent::run(transportPool(), [host] { return launchBlockedBecause(host); }), [this](const QString& why) {
            m_verifyBlock = why;
            updateActions();
        });
}

void ServerPane::onScanned()
{
    if (!m_adopted && m_session && m_session->scannedOnce()) {
        m_adopted = true;
        // Nothing of ours on the pane's port but a server elsewhere: show that one.
        const QList<quint16> running = m_session->runningPorts();
        if (!running.isEmpty() && !running.contains(port()))
            m_port->setValue(running.first());
    }
    showServers();
    showStatus();
    updateActions();
    Q_EMIT scanned();
}

void ServerPane::showServers()
{
    m_servers->clear();
    if (!m_session)
        return;
    for (const JobInfo& j : m_session->jobs()) {
        const quint16 at = serverJobPort(j).value_or(0);
        auto* item = new QTreeWidgetItem(m_servers,
            { j.id, QString::number(at), jobState(j),
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
    startLaunch(false);
}

void ServerPane::startLaunch(bool force)
{
    if (!isReady() || !m_session || m_session->isLaunching())
        return;
    const ServerLaunchProfile p = profile();
    QString refused;
    if (const Result<void> fits = checkServerFits(p, gpuCount()); !fits)
        refused = fits.error();
    else if (!m_verifyBlock.isEmpty())
        refused = m_verifyBlock; // the window does not go past a failed verification (the CLI's --force does)
    if (!refused.isEmpty()) {
        m_launchNote = tr("Not launched: %1").arg(refused);
        showStatus();
        updateActions();
        Q_EMIT launchFailed(refused);
        return;
    }
    m_launchNote.clear();
    LaunchRequest request;
    request.profile = p;
    request.force = force;
    m_session->launch(request);
    showStatus();
    updateActions();
}

void ServerPane::onLaunchFinished(quint16 at, const LaunchAttempt& attempt, const QString& error)
{
    if (!error.isEmpty()) {
        m_launchNote = tr("Not launched: %1").arg(error);
        showStatus();
        updateActions();
        Q_EMIT launchFailed(error);
        return;
    }
    if (!attempt.job) {
        // Refused for what a person may decide to go past: GPUs in use (or a verification since).
        const QString reasons = attempt.refusals.join(QStringLiteral("; "));
        if (at == port()
            && m_confirm(tr("Launch the server on port %1 anyway?\n\n%2\n\nA second server on the same "
                            "GPUs usually fails once it loads its model (out of memory).")
                             .arg(at)
                             .arg(attempt.refusals.join(QStringLiteral("\n")))))
            return startLaunch(true);
        m_launchNote = tr("Not launched: %1").arg(reasons);
        showStatus();
        updateActions();
        Q_EMIT launchFailed(reasons);
        return;
    }
    QStringList said;
    if (!attempt.refusals.isEmpty())
        said << tr("launched although %1").arg(attempt.refusals.join(QStringLiteral("; ")));
    said << attempt.notes;
    m_launchNote = said.join(QStringLiteral("; "));
    if (at == port())
        showLog();
    showStatus();
    updateActions();
    Q_EMIT launched(attempt.job->id);
}

void ServerPane::onServerEnded(const JobInfo& info)
{
    const int at = serverJobPort(info).value_or(0);
    const QString name = m_host ? m_host->profile().name : QString();
    const QString message = info.cancelled
        ? tr("Server on port %1 of %2 (job %3) stopped").arg(at).arg(name, info.id)
        : tr("Server on port %1 of %2 (job %3) exited with status %4").arg(at).arg(name, info.id).arg(info.exitStatus);
    if (at == port())
        m_launchNote.clear(); // "Stopping…" is over
    showStatus();
    if (isActive())
        if (auto* window = qobject_cast<QMainWindow*>(this->window()))
            window->statusBar()->showMessage(message, 30000);
    Q_EMIT serverEnded(info, message);
}

void ServerPane::stop()
{
    const ServerState* s = m_session ? m_session->server(port()) : nullptr;
    if (!isReady() || !s || !s->running() || s->stopping)
        return;
    const QString id = s->job->id;
    const quint16 at = port();
    if (!m_confirm(tr("Stop the server on port %1 of %2 (job %3)? Requests in flight are dropped.")
                       .arg(at)
                       .arg(m_host->profile().name, id)))
        return;
    m_session->stop(at);
    m_launchNote = tr("Stopping the server on port %1 (job %2)…").arg(at).arg(id);
    showStatus();
    updateActions();
}

void ServerPane::updateActions()
{
    const bool ready = isReady() && m_session;
    const quint16 at = port();
    const ServerState* s = m_session ? m_session->server(at) : nullptr;
    const bool running = s && s->running();
    const bool launching = m_session && m_session->isLaunching();
    const Result<void> fits = checkServerFits(profile(), gpuCount());
    const bool taken = !running
        && ((m_session && m_session->watchedPort() == at
                && m_session->watchedPortState() == ServerScan::Port::Listening)
            || (s && s->last.reachable));
    QString hint;
    bool problem = false;
    if (!ready) {
        hint = tr("Connect to %1 to launch a server.").arg(m_host ? m_host->profile().name : QString());
    } else if (!fits) {
        hint = fits.error();
        problem = true;
    } else if (running) {
        // The status line says the server runs; nothing here to fix.
    } else if (!m_verifyBlock.isEmpty()) {
        hint = tr("Launch is refused: %1 (Build tab, Verify).").arg(m_verifyBlock);
        problem = true;
    } else if (taken) {
        hint
            = tr("Port %1 is in use on this host by a program KernelForge did not start: choose another port.").arg(at);
        problem = true;
    } else if (const auto wanted = serverGpus(profile()); wanted && m_session) {
        // What Launch will ask about: GPUs another server of ours already uses (its command as listed).
        QStringList busy;
        for (quint16 other : m_session->runningPorts()) {
            const ServerState* o = m_session->server(other);
            const auto used = serverGpus(shellSplit(o->job->command));
            QList<int> both;
            for (int g : *wanted)
                if (used && used->contains(g))
                    both << g;
            if (!both.isEmpty())
                busy << tr("GPUs %1 run the server on port %2 (job %3)")
                            .arg(gpuRangeText(both))
                            .arg(other)
                            .arg(o->job->id);
        }
        if (!busy.isEmpty())
            hint = busy.join(QStringLiteral("; ")) + tr(": Launch will ask before starting another server on them.");
    }
    m_launch->setEnabled(ready && !launching && fits && !running && !taken && m_verifyBlock.isEmpty());
    m_launch->setToolTip(running ? tr("The server KernelForge started on port %1 (job %2) runs; choose another port "
                                      "to launch a second server.")
                                       .arg(at)
                                       .arg(s->job->id)
                                 : QString());
    // Stop means something only for a running server of ours on the port.
    m_stop->setEnabled(ready && running && !s->stopping);
    m_stop->setToolTip(
        running ? tr("Stop job %1").arg(s->job->id) : tr("No server KernelForge started runs on port %1").arg(at));
    m_launchHint->setStyleSheet(problem ? QStringLiteral("color: #c0392b;") : QString());
    m_launchHint->setText(hint);
    m_launchHint->setVisible(!hint.isEmpty());
    m_tp->setStyleSheet(fits ? QString() : QStringLiteral("QSpinBox { border: 1px solid #c0392b; }"));
    m_tp->setToolTip(fits ? QString() : fits.error());
}

void ServerPane::showStatus()
{
    const QString name = m_host ? m_host->profile().name.toHtmlEscaped() : QString();
    const quint16 at = port();
    const ServerState* s = m_session ? m_session->server(at) : nullptr;
    QString head;
    if (!isReady()) {
        head = tr("Not connected to %1: whether a server runs is not known.").arg(name);
    } else if (m_session && m_session->isLaunching()) {
        head = tr("Launching on port %1…").arg(at);
    } else if (!s || s->last.timeMs == 0) {
        head = s && s->running()
            ? tr("Launched: job %1 runs; asking port %2 for its status…").arg(s->job->id.toHtmlEscaped()).arg(at)
            : tr("Looking for a server on port %1…").arg(at);
    } else if (!s->last.reachable) {
        if (s->running())
            head = tr("Starting: job %1 runs, nothing answers on port %2 yet.").arg(s->job->id.toHtmlEscaped()).arg(at);
        else if (m_session->watchedPort() == at && m_session->watchedPortState() == ServerScan::Port::Listening)
            head = tr("Port %1 is in use on this host, but no HTTP server answers there through the SSH tunnel (%2).")
                       .arg(at)
                       .arg(s->last.error.toHtmlEscaped());
        else
            head = tr("No server on port %1 (Launch one, or set the port).").arg(at);
    } else {
        head = s->last.healthy() ? tr("<b style='color:#2ca02c'>healthy</b>")
                                 : tr("<b style='color:#c07000'>starting (HTTP %1)</b>").arg(s->last.healthStatus);
        if (!s->last.modelPath.isEmpty())
            head += QStringLiteral(" · %1").arg(s->last.modelPath.toHtmlEscaped());
        if (s->last.tpSize)
            head += tr(" · TP %1").arg(s->last.tpSize);
        head += tr(" · port %1").arg(at);
        if (s->running())
            head += tr(" · started by KernelForge (job %1)").arg(s->job->id.toHtmlEscaped());
        else if (m_session->scannedOnce())
            head += tr(" · not started by KernelForge");
    }
    QStringList lines { head };
    if (!m_launchNote.isEmpty())
        lines << QStringLiteral("<i>%1</i>").arg(m_launchNote.toHtmlEscaped());
    // The host's other servers: the pane's port is one of them, never the host's whole state.
    if (m_session && isReady()) {
        QStringList others;
        for (quint16 other : m_session->ports()) {
            const ServerState* o = m_session->server(other);
            if (other == at || !(o->running() || (o->watched && o->last.reachable)))
                continue;
            others << tr("%1: %2%3")
                          .arg(o->label().toHtmlEscaped(), health(*o),
                              o->running() ? tr(" (job %1)").arg(o->job->id.toHtmlEscaped()) : QString());
        }
        if (!others.isEmpty())
            lines << tr("Also on this host: %1").arg(others.join(QStringLiteral("; ")));
    }
    m_status->setText(lines.join(QStringLiteral("<br>")));
    m_status->setToolTip(plainToolTip(s && !s->last.reachable ? s->last.error
            : m_session                                       ? m_session->lastScanError()
                                                              : QString()));
    if (!s || !s->last.reachable) {
        m_summary->clear();
        return;
    }
    const ServerMetrics& m = s->last.metrics;
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

void ServerPane::showLog()
{
    const ServerState* s = m_session ? m_session->server(port()) : nullptr;
    m_diagnosis->reset();
    if (s)
        m_diagnosis->feed(s->log);
    QString text = s ? QString::fromUtf8(s->log) : QString();
    if (text.endsWith(u'\n'))
        text.chop(1);
    m_log->setPlainText(text);
    m_log->moveCursor(QTextCursor::End);
}

void ServerPane::rebuildSeries(const QList<quint16>& ports)
{
    m_chartedPorts = ports;
    for (int i = 0; i < m_charts.size(); ++i) {
        TimeChart* chart = m_charts[i];
        const auto& kinds = m_chartKinds[i];
        chart->clearSeries();
        m_chartSeries[i].clear();
        for (int p = 0; p < ports.size(); ++p) {
            const QString label = m_session->server(ports[p])->label();
            for (int k = 0; k < kinds.size(); ++k) {
                // Each server its own colours; a chart of two metrics names the metric first.
                chart->addSeries(kinds.size() == 1 ? label : kinds[k].first + QStringLiteral(" · ") + label,
                    TimeChart::paletteColor(p * int(kinds.size()) + k));
                m_chartSeries[i].append({ ports[p], kinds[k].second });
            }
        }
    }
}

void ServerPane::refreshCharts()
{
    if (!m_session)
        return;
    QList<quint16> ports;
    QStringList labels;
    qint64 first = 0;
    for (quint16 p : m_session->ports()) {
        const ServerState* s = m_session->server(p);
        if (s->series.empty() || s->series.front().isEmpty())
            continue;
        ports << p;
        labels << s->label();
        const qint64 t = s->series.front().firstTime();
        first = first == 0 ? t : std::min(first, t);
    }
    // A label changes when a server first says its model: the legend follows.
    QStringList drawn;
    for (quint16 p : std::as_const(m_chartedPorts))
        drawn << (m_session->server(p) ? m_session->server(p)->label() : QString());
    if (ports != m_chartedPorts || labels != drawn || m_charts.first()->seriesCount() == 0)
        rebuildSeries(ports);
    if (ports.isEmpty() || m_lastTime <= 0)
        return;
    const auto [from, to] = m_chartBar->range(first, m_lastTime);
    for (int i = 0; i < m_charts.size(); ++i) {
        TimeChart* chart = m_charts[i];
        chart->setTimeWindow(from, to);
        const QList<ChartSeries>& drawnSeries = m_chartSeries[i];
        for (int k = 0; k < drawnSeries.size(); ++k) {
            const ServerState* s = m_session->server(drawnSeries[k].port);
            chart->setSeriesData(k, s->series[size_t(drawnSeries[k].kind)].decimated(from, to, chart->columns()));
        }
    }
}

QList<QPointF> ServerPane::throughputPoints() const
{
    const ServerState* s = m_session ? m_session->server(port()) : nullptr;
    if (!s || s->series.empty() || m_lastTime <= 0)
        return {};
    const SeriesBuffer& b = s->series[size_t(ServerSeries::Throughput)];
    const auto [from, to] = m_chartBar->range(b.firstTime(), m_lastTime);
    return b.decimated(from, to, m_charts.first()->columns());
}

} // namespace kf
