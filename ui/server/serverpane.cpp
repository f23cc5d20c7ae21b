// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/server/serverpane.h"

#include "core/hosts/hostconnection.h"
#include "core/jobs/remotejob.h"
#include "core/server/serverlaunch.h"
#include "core/timeline/producers.h"
#include "core/timeline/seriesstore.h"
#include "core/transport/transportpool.h"
#include "core/util/shellquote.h"
#include "ui/chart/timechart.h"
#include "ui/common/emptystate.h"

#include <QCheckBox>
#include <QDateTime>
#include <QFontDatabase>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRegularExpression>
#include <QSpinBox>
#include <QSplitter>
#include <QStackedWidget>
#include <QSyntaxHighlighter>
#include <QVBoxLayout>
#include <QtConcurrent>

namespace kf {

namespace {

constexpr qint64 kChartWindowMs = 15LL * 60 * 1000;

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

ServerPane::ServerPane(const AppContext& context, QWidget* parent)
    : HostPane(parent)
    , m_context(context)
    , m_stack(new QStackedWidget(this))
    , m_empty(new EmptyState(this))
    , m_demo(new QCheckBox(tr("Demo server"), this))
    , m_model(new QLineEdit(this))
    , m_tp(new QSpinBox(this))
    , m_port(new QSpinBox(this))
    , m_extra(new QLineEdit(this))
    , m_launch(new QPushButton(tr("Launch"), this))
    , m_stop(new QPushButton(tr("Stop"), this))
    , m_status(new QLabel(this))
    , m_summary(new QLabel(this))
    , m_log(new QPlainTextEdit(this))
{
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_stack);
    m_empty->setTitle(tr("SGLang server"));
    m_empty->setText(tr("Select a connected host to launch or watch its inference server."));
    m_stack->addWidget(m_empty);

    auto* page = new QWidget(this);
    auto* pageLayout = new QVBoxLayout(page);
    auto* form = new QHBoxLayout();
    auto* fields = new QFormLayout();
    m_model->setPlaceholderText(QStringLiteral("Qwen/Qwen3.5-397B-A17B-NVFP4"));
    m_tp->setRange(1, 64);
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
    form->addLayout(fields, 1);
    auto* buttons = new QVBoxLayout();
    buttons->addWidget(m_launch);
    buttons->addWidget(m_stop);
    form->addLayout(buttons);
    pageLayout->addLayout(form);
    m_status->setObjectName(QStringLiteral("serverStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    pageLayout->addWidget(m_status);
    m_summary->setObjectName(QStringLiteral("serverSummary"));
    pageLayout->addWidget(m_summary);

    auto* split = new QSplitter(Qt::Vertical, page);
    auto* chartBox = new QWidget(split);
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
        chart->setProperty("kfSeries", QVariant::fromValue([&] {
            QList<int> ids;
            for (const auto& p : defs[i].series)
                ids.append(p.second);
            return ids;
        }()));
        if (defs[i].unit == QStringLiteral("%"))
            chart->setValueRange(0, 100);
        chart->setMinimumHeight(170);
        grid->addWidget(chart, i / 3, i % 3);
        m_charts.append(chart);
    }
    split->addWidget(chartBox);
    m_log->setObjectName(QStringLiteral("serverLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(10000);
    m_log->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_log->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_log->setPlaceholderText(tr("The server log appears here once KernelForge launched the server."));
    new LogHighlighter(m_log->document());
    split->addWidget(m_log);
    split->setSizes({ 420, 200 });
    pageLayout->addWidget(split, 1);
    m_stack->addWidget(page);

    m_launch->setObjectName(QStringLiteral("launchServer"));
    m_stop->setObjectName(QStringLiteral("stopServer"));
    m_stop->setEnabled(false);
    connect(m_launch, &QPushButton::clicked, this, &ServerPane::launch);
    connect(m_stop, &QPushButton::clicked, this, &ServerPane::stop);
    connect(m_port, &QSpinBox::valueChanged, this, [this] { restartClient(); });
    connect(m_demo, &QCheckBox::toggled, this, [this](bool on) {
        if (on && m_model->text().isEmpty())
            setProfile(ServerLaunchProfile::demoProfile());
    });
    if (context.demo)
        setProfile(ServerLaunchProfile::demoProfile());
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

void ServerPane::setHost(HostConnection* host)
{
    if (m_host)
        m_host->disconnect(this);
    m_host = host;
    m_requests.cancelAll(); // a launch or stop answered for the previous host is not this host's
    m_client.reset();
    m_job.reset();
    m_jobId.clear();
    m_log->clear();
    for (auto& s : m_series)
        s.clear();
    m_stop->setEnabled(false);
    m_launch->setEnabled(true);
    if (!host) {
        m_stack->setCurrentWidget(m_empty);
        return;
    }
    m_stack->setCurrentIndex(1);
    connect(host, &HostConnection::stateChanged, this, [this](ConnectionState s) {
        if (s == ConnectionState::Ready && !m_client)
            restartClient();
    });
    restartClient();
}

void ServerPane::restartClient()
{
    m_client.reset();
    for (auto& s : m_series)
        s.clear();
    if (!m_host || m_host->state() != ConnectionState::Ready || !m_host->transport()) {
        m_status->setText(tr("Waiting for the connection…"));
        return;
    }
    m_status->setText(tr("Looking for a server on port %1…").arg(m_port->value()));
    m_client = std::make_unique<ServerClient>(m_host->transport(), quint16(m_port->value()));
    connect(m_client.get(), &ServerClient::statusUpdated, this, &ServerPane::onStatus);
    if (timeline::SeriesRecorder* recorder = m_context.timelineSeries) // tok/s under the Timeline's markers
        connect(m_client.get(), &ServerClient::statusUpdated, recorder,
            [recorder, host = m_host->transport()->describe()](
                const ServerStatus& s) { recorder->addServerStatus(host, s); });
    m_client->start(2000);
}

void ServerPane::launch()
{
    if (!m_host || !m_host->transport())
        return;
    const ServerLaunchProfile p = profile();
    const QString root = m_jobRoot;
    m_launch->setEnabled(false);
    m_status->setText(tr("Starting: %1").arg(p.command().toHtmlEscaped()));
    auto transport = m_host->transport();
    m_requests.track(
        QtConcurrent::run(transportPool(), [transport, p, root] { return launchServer(*transport, p, root); }),
        [this](const Result<JobInfo>& r) {
            m_launch->setEnabled(true);
            if (!r) {
                m_status->setText(tr("Launch failed: %1").arg(r.error().toHtmlEscaped()));
                Q_EMIT launchFailed(r.error());
                return;
            }
            followJob(r->id);
            Q_EMIT launched(r->id);
        });
}

void ServerPane::followJob(const QString& id)
{
    m_jobId = id;
    m_stop->setEnabled(true);
    m_log->clear();
    m_job = std::make_unique<RemoteJob>(m_host->transport(), id, m_jobRoot);
    connect(m_job.get(), &RemoteJob::logReceived, this, [this](qint64, const QByteArray& data) {
        QString text = QString::fromUtf8(data);
        if (text.endsWith(u'\n'))
            text.chop(1);
        m_log->appendPlainText(text);
    });
    connect(m_job.get(), &RemoteJob::finished, this, [this](const JobInfo& info) {
        timeline::recordServerStopped(m_host->transport()->describe(), info.id, info.exitStatus, info.cancelled);
        m_stop->setEnabled(false);
        m_log->appendPlainText(tr("[KernelForge] server exited with status %1").arg(info.exitStatus));
    });
    m_job->attach(0);
}

void ServerPane::stop()
{
    if (!m_host || !m_host->transport() || m_jobId.isEmpty())
        return;
    auto transport = m_host->transport();
    const QString id = m_jobId;
    const QString root = m_jobRoot;
    m_stop->setEnabled(false);
    m_requests.track(QtConcurrent::run(
                         transportPool(), [transport, id, root] { return RemoteJob::cancel(*transport, id, root, 5); }),
        [this](const Result<void>& s) {
            if (!s)
                m_status->setText(tr("Stop failed: %1").arg(s.error().toHtmlEscaped()));
        });
}

void ServerPane::onStatus(const ServerStatus& s)
{
    if (!s.reachable) {
        m_status->setText(tr("No server on port %1 (%2)").arg(s.port).arg(s.error.toHtmlEscaped()));
        m_summary->clear();
        return;
    }
    QString head = s.healthy() ? tr("<b style='color:#2ca02c'>healthy</b>")
                               : tr("<b style='color:#c07000'>starting (HTTP %1)</b>").arg(s.healthStatus);
    if (!s.modelPath.isEmpty())
        head += QStringLiteral(" · %1").arg(s.modelPath.toHtmlEscaped());
    if (s.tpSize)
        head += tr(" · TP %1").arg(s.tpSize);
    head += tr(" · port %1").arg(s.port);
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
    if (!s.hasMetrics)
        return;
    m_lastTime = s.timeMs;
    const double values[SeriesCount] = { m.genThroughput, m.running, m.queued, m.kvUsage * 100, m.cacheHitRate * 100,
        // A quantile above the last finite bucket has no value to plot (a gap, not the bound).
        m.ttftP50.estimate() * 1000, m.ttftP95.estimate() * 1000, m.itlP50.estimate() * 1000,
        m.itlP95.estimate() * 1000 };
    for (int i = 0; i < SeriesCount; ++i)
        m_series[size_t(i)].append(s.timeMs, values[i]);
    refreshCharts();
}

void ServerPane::refreshCharts()
{
    const qint64 to = m_lastTime;
    const qint64 from = to - kChartWindowMs;
    for (TimeChart* chart : std::as_const(m_charts)) {
        chart->setTimeWindow(from, to);
        const QList<int> ids = chart->property("kfSeries").value<QList<int>>();
        for (int i = 0; i < ids.size(); ++i)
            chart->setSeriesData(i, m_series[size_t(ids[i])].decimated(from, to, chart->columns()));
    }
}

} // namespace kf
