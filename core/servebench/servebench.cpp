// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/servebench.h"

#include "core/gpu/gpumonitor.h"
#include "core/log/logging.h"
#include "core/net/httpclient.h"
#include "core/servebench/benchstore.h"
#include "core/servebench/promptgenerator.h"
#include "core/ssh/localportforward.h"
#include "core/ssh/sshtransport.h"
#include "core/transport/transportpool.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtConcurrent>

#include <cmath>

namespace kf {

ServeBench::ServeBench(std::shared_ptr<Transport> transport, QString host, QObject* parent)
    : QObject(parent)
    , m_transport(std::move(transport))
    , m_host(std::move(host))
    , m_generator(new LoadGenerator)
{
    qRegisterMetaType<kf::LoadResult>();
    qRegisterMetaType<kf::LevelResult>();
    qRegisterMetaType<kf::BenchRun>();
    m_thread.setObjectName(QStringLiteral("kf-loadgen"));
    m_generator->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_generator, &QObject::deleteLater);
    connect(m_generator, &LoadGenerator::finished, this, &ServeBench::onLoadFinished);
    connect(m_generator, &LoadGenerator::progress, this, [this](int done, int total) {
        if (m_level >= 0 && m_state == State::Running)
            Q_EMIT progress(m_level, done, total);
    });
    connect(&m_metricsTimer, &QTimer::timeout, this, &ServeBench::pollMetrics);
    m_startGate.setSingleShot(true);
    connect(&m_startGate, &QTimer::timeout, this, [this] {
        if (m_waitingGpu && m_run.gpuNote.isEmpty())
            m_run.gpuNote = QStringLiteral("no GPU sample within 20 s");
        sideDataReady(true);
    });
    m_thread.start();
}

ServeBench::~ServeBench()
{
    // Sockets are closed with the generator, in its thread: the server sees every client go.
    QMetaObject::invokeMethod(m_generator, &LoadGenerator::cancel, Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

void ServeBench::setState(State state, const QString& description)
{
    m_state = state;
    Q_EMIT stateChanged(state, description);
}

void ServeBench::start(const BenchParams& params)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_state != State::Idle && m_state != State::Finished)
        return;
    m_run = BenchRun {};
    m_run.host = m_host;
    m_run.params = params;
    m_run.started = QDateTime::currentDateTimeUtc();
    m_cancelling = false;
    m_level = -1;
    m_lastStatus = ServerStatus {};
    if (params.concurrencies.isEmpty() || params.inputTokens <= 0 || params.outputTokens <= 0) {
        m_state = State::Preparing;
        finish(QStringLiteral("failed"),
            QStringLiteral("nothing to run: give concurrency levels and input/output lengths"));
        return;
    }
    setState(State::Preparing,
        QStringLiteral("asking the server on %1 port %2 who it is").arg(m_host).arg(params.serverPort));
    const std::shared_ptr<Transport> transport = m_transport;
    const quint16 port = params.serverPort;
    m_requests.track(
        QtConcurrent::run(transportPool(),
            [transport, port] {
                Facts f;
                f.status = pollServer(*transport, port);
                if (f.status.reachable) {
                    auto models = httpGet(*transport, QStringLiteral("127.0.0.1"), port, QStringLiteral("/v1/models"),
                        10000, qint64(1) << 20);
                    if (models && models->status == 200) {
                        const QJsonArray data
                            = QJsonDocument::fromJson(models->body).object().value(QLatin1String("data")).toArray();
                        if (!data.isEmpty())
                            f.modelId = data.first().toObject().value(QLatin1String("id")).toString();
                    }
                }
                return f;
            }),
        [this](const Facts& f) { onFacts(f); });
}

void ServeBench::onFacts(const Facts& f)
{
    if (m_cancelling) {
        finish(QStringLiteral("cancelled"));
        return;
    }
    const ServerStatus& s = f.status;
    if (!s.reachable) {
        finish(QStringLiteral("failed"),
            QStringLiteral("no server answers on %1 port %2: %3")
                .arg(m_host)
                .arg(m_run.params.serverPort)
                .arg(s.error));
        return;
    }
    if (!s.healthy()) {
        finish(QStringLiteral("failed"),
            QStringLiteral("the server on %1 port %2 is not ready (/health answered HTTP %3)")
                .arg(m_host)
                .arg(m_run.params.serverPort)
                .arg(s.healthStatus));
        return;
    }
    m_lastStatus = s;
    ServerIdentity& facts = m_run.facts;
    const QJsonObject& info = s.serverInfo;
    facts.modelPath = s.modelPath;
    facts.model = !m_run.params.model.isEmpty() ? m_run.params.model
        : !f.modelId.isEmpty()                  ? f.modelId
        : !info.value(QLatin1String("served_model_name")).toString().isEmpty()
        ? info.value(QLatin1String("served_model_name")).toString()
        : s.modelPath;
    facts.serverVersion = info.value(QLatin1String("version")).toString();
    facts.tpSize = s.tpSize;
    facts.dpSize = info.value(QLatin1String("dp_size")).toInt();
    if (facts.tpSize > 0)
        facts.gpuCount = facts.tpSize * qMax(1, facts.dpSize);
    // The user's word first (normalized when it is a known spelling), then what the server says.
    facts.precision = normalizePrecision(m_run.params.precision);
    if (facts.precision.isEmpty())
        facts.precision = m_run.params.precision.trimmed();
    if (facts.precision.isEmpty())
        facts.precision = normalizePrecision(info.value(QLatin1String("quantization")).toString());
    if (facts.precision.isEmpty())
        facts.precision = normalizePrecision(facts.modelPath + QLatin1Char(' ') + facts.model);
    if (facts.precision.isEmpty())
        facts.precision = normalizePrecision(info.value(QLatin1String("dtype")).toString());
    if (const Result<void> e = openEndpoint(); !e) {
        finish(QStringLiteral("failed"), e.error());
        return;
    }
    m_run.promptWords = m_run.params.inputTokens;
    // The load starts once the GPU monitor and /metrics have each answered once (or failed, or
    // 20 s passed), so the samples cover the whole run.
    m_waitingGpu = m_waitingMetrics = true;
    m_startGate.start(20000);
    startGpuMonitor();
    m_metricsTimer.start(qMax(250, m_run.params.metricsIntervalMs));
    pollMetrics();
}

void ServeBench::sideDataReady(bool gpu)
{
    (gpu ? m_waitingGpu : m_waitingMetrics) = false;
    if (m_state != State::Preparing || m_cancelling)
        return;
    if ((m_waitingGpu || m_waitingMetrics) && m_startGate.isActive())
        return; // the other one has not answered yet, and the gate has not timed out
    m_startGate.stop();
    startLoad(m_run.params.warmup ? -1 : 0);
}

Result<void> ServeBench::openEndpoint()
{
    m_forward.reset();
    if (auto* ssh = dynamic_cast<SshTransport*>(m_transport.get())) {
        m_forward
            = std::make_unique<LocalPortForward>(ssh->session(), QStringLiteral("127.0.0.1"), m_run.params.serverPort);
        if (const Result<void> r = m_forward->listen(0); !r)
            return r;
        m_endpointHost = QStringLiteral("127.0.0.1");
        m_endpointPort = m_forward->localPort();
        return {};
    }
    // A LocalTransport: the server listens on this machine's loopback.
    m_endpointHost = QStringLiteral("127.0.0.1");
    m_endpointPort = m_run.params.serverPort;
    return {};
}

void ServeBench::startGpuMonitor()
{
    GpuMonitor::Options options;
    options.intervalMs = qMax(100, m_run.params.gpuIntervalMs);
    options.processIntervalMs = 0;
    m_gpu = std::make_unique<GpuMonitor>(m_transport, m_host, options);
    connect(m_gpu.get(), &GpuMonitor::samplesUpdated, this, [this](const QList<GpuSample>& gpus) {
        const qint64 t = m_gpu->latestTimeMs();
        for (const GpuSample& g : gpus)
            m_run.gpu.append(
                { t, g.index, g.value(GpuField::UtilGpu), g.value(GpuField::PowerDraw), g.value(GpuField::MemUsed) });
        if (m_run.facts.gpuName.isEmpty() && !gpus.isEmpty())
            m_run.facts.gpuName = gpus.first().text(GpuField::Name);
        if (m_run.facts.gpuCount == 0)
            m_run.facts.gpuCount = int(gpus.size());
        if (m_waitingGpu)
            sideDataReady(true);
    });
    connect(m_gpu.get(), &GpuMonitor::stateChanged, this, [this](GpuMonitor::State state, const QString& reason) {
        if ((state == GpuMonitor::State::Failed || state == GpuMonitor::State::Restarting) && m_run.gpu.isEmpty()) {
            m_run.gpuNote = reason;
            if (m_waitingGpu)
                sideDataReady(true);
        }
    });
    m_gpu->start();
}

void ServeBench::pollMetrics()
{
    if (m_metricsPoll.isPending())
        return;
    const std::shared_ptr<Transport> transport = m_transport;
    const quint16 port = m_run.params.serverPort;
    const ServerStatus previous = m_lastStatus;
    m_metricsPoll = m_requests.track(
        QtConcurrent::run(transportPool(),
            [transport, port, previous] { return pollServer(*transport, port, &previous, /*withInfo=*/false); }),
        [this](const ServerStatus& s) {
            if (m_waitingMetrics)
                sideDataReady(false);
            if (!s.hasMetrics)
                return;
            m_lastStatus = s;
            const ServerMetrics& m = s.metrics;
            m_run.metrics.append({ s.timeMs, m.running, m.queued, m.genThroughput, m.kvUsage, m.cacheHitRate,
                m.promptTokensTotal, m.generationTokensTotal });
        });
}

void ServeBench::startLoad(int level)
{
    m_level = level;
    const BenchParams& p = m_run.params;
    LoadSpec spec;
    spec.host = m_endpointHost;
    spec.port = m_endpointPort;
    spec.hostHeader = QByteArrayLiteral("127.0.0.1:") + QByteArray::number(p.serverPort);
    spec.api = p.api;
    spec.model = m_run.facts.model;
    spec.outputTokens = p.outputTokens;
    spec.requestTimeoutMs = p.requestTimeoutS * 1000;
    spec.promptTokensEstimate = p.inputTokens;
    spec.requestRate = level < 0 ? 0 : p.requestRate;
    if (level < 0) {
        spec.concurrency = 1;
        spec.outputTokens = qMin(p.outputTokens, 16);
        spec.prompts = makePrompts(1, m_run.promptWords, p.seed);
        spec.seed = p.seed;
        setState(State::WarmingUp, QStringLiteral("warm-up request"));
    } else {
        const int concurrency = p.concurrencies.at(level);
        const int requests = p.requestsFor(concurrency);
        spec.concurrency = concurrency;
        spec.seed = p.seed + quint32(level) + 1;
        spec.prompts = makePrompts(requests, m_run.promptWords, spec.seed);
        setState(State::Running,
            QStringLiteral("level %1 of %2: concurrency %3, %4 requests")
                .arg(level + 1)
                .arg(p.concurrencies.size())
                .arg(concurrency)
                .arg(requests));
        Q_EMIT levelStarted(level, concurrency, requests);
    }
    QMetaObject::invokeMethod(
        m_generator, [gen = m_generator, spec] { gen->start(spec); }, Qt::QueuedConnection);
}

void ServeBench::onLoadFinished(const LoadResult& result)
{
    if (m_state != State::WarmingUp && m_state != State::Running)
        return;
    if (!result.error.isEmpty()) {
        finish(QStringLiteral("failed"), result.error);
        return;
    }
    const BenchParams& p = m_run.params;
    if (m_level < 0) {
        if (result.cancelled || m_cancelling) {
            finish(QStringLiteral("cancelled"));
            return;
        }
        const RequestSample s = result.samples.value(0);
        if (!s.ok) {
            finish(QStringLiteral("failed"), QStringLiteral("the warm-up request failed: %1").arg(s.error));
            return;
        }
        if (s.promptTokensReported && s.promptTokens > 0) {
            const double words = double(p.inputTokens) * double(m_run.promptWords) / double(s.promptTokens);
            m_run.promptWords = qBound(1, int(std::lround(words)), 4 * p.inputTokens);
            m_run.promptCalibrated = true;
        }
        startLoad(0);
        return;
    }
    LevelResult level;
    level.concurrency = p.concurrencies.at(m_level);
    level.startedMs = result.startedMs;
    level.endedMs = result.endedMs;
    level.cancelled = result.cancelled;
    level.notSent = result.notSent;
    level.samples = result.samples;
    level.stats = computeLevelStats(result.samples, result.durationS, level.concurrency, p.requestRate);
    m_run.levels.append(level);
    Q_EMIT levelFinished(m_level, level);
    if (result.cancelled || m_cancelling) {
        finish(QStringLiteral("cancelled"));
        return;
    }
    if (level.stats.completed == 0) {
        const QString why = level.stats.failureReasons.isEmpty() ? QString() : level.stats.failureReasons.firstKey();
        finish(QStringLiteral("failed"),
            QStringLiteral("every request at concurrency %1 failed (%2); the sweep stops")
                .arg(level.concurrency)
                .arg(why));
        return;
    }
    if (m_level + 1 < p.concurrencies.size())
        startLoad(m_level + 1);
    else
        finish(QStringLiteral("completed"));
}

void ServeBench::cancel()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_state == State::Idle || m_state == State::Finished || m_cancelling)
        return;
    m_cancelling = true;
    if (m_state == State::Preparing) {
        m_requests.cancelAll();
        finish(QStringLiteral("cancelled"));
        return;
    }
    setState(m_state, QStringLiteral("cancelling: closing every request"));
    QMetaObject::invokeMethod(m_generator, &LoadGenerator::cancel, Qt::QueuedConnection);
}

void ServeBench::finish(const QString& status, const QString& error)
{
    m_metricsTimer.stop();
    m_startGate.stop();
    m_requests.cancelAll();
    if (m_gpu) {
        m_gpu->stop();
        m_gpu.reset();
    }
    m_forward.reset();
    m_run.status = status;
    m_run.error = error;
    m_run.ended = QDateTime::currentDateTimeUtc();
    if (m_store) {
        if (const Result<qint64> id = benchstore::save(m_run); id)
            m_run.id = id.value();
        else
            m_run.saveError = id.error();
    }
    if (!error.isEmpty())
        log::monitor()->warn("serving benchmark on {}: {}", m_host.toStdString(), error.toStdString());
    setState(State::Finished, status == QLatin1String("completed") ? QStringLiteral("finished") : status);
    Q_EMIT finished(m_run);
}

} // namespace kf
