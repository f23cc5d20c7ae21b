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

#include <QCryptographicHash>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QRandomGenerator>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>

namespace kf {

ServeBench::ServeBench(std::shared_ptr<Transport> transport, QString host, QObject* parent)
    : QObject(parent)
    , m_transport(std::move(transport))
    , m_host(std::move(host))
    , m_generator(new LoadGenerator)
{
    qRegisterMetaType<kf::LoadResult>();
    qRegisterMetaType<kf::LevelPlan>();
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

namespace {

// ShareGPT files are hundreds of MB (ShareGPT_V3_unfiltered_cleaned_split.json: 642 MiB).
constexpr qint64 kMaxDatasetBytes = qint64(1) << 30;

// Reads and parses the dataset file on this machine (worker thread).
void readDataset(const QString& path, QList<SharePair>& pairs, QString& sha256, QString& error)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        error = QStringLiteral("cannot read the dataset %1: %2").arg(path, f.errorString());
        return;
    }
    if (f.size() > kMaxDatasetBytes) {
        error = QStringLiteral("the dataset %1 is too large (%2 bytes, limit %3)")
                    .arg(path)
                    .arg(f.size())
                    .arg(kMaxDatasetBytes);
        return;
    }
    const QByteArray data = f.read(kMaxDatasetBytes + 1);
    sha256 = QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
    auto parsed = parseShareGpt(data);
    if (!parsed)
        error = QStringLiteral("the dataset %1: %2").arg(path, parsed.error());
    else
        pairs = std::move(parsed.value());
}

} // namespace

void ServeBench::start(const BenchParams& params)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_state != State::Idle && m_state != State::Finished)
        return;
    m_run = BenchRun {};
    m_run.host = m_host;
    m_run.params = params;
    m_run.started = QDateTime::currentDateTimeUtc();
    m_run.context.kernelforgeVersion = QStringLiteral(KF_VERSION_STRING);
    m_cancelling = false;
    m_betweenLevels = false;
    m_level = -1;
    m_lastStatus = ServerStatus {};
    m_lastPoll = MetricsPoint {};
    m_shareGpt.clear();
    m_search.reset();
    if (params.search == SearchKind::Concurrency)
        m_search.emplace(1, params.searchMax);
    else if (params.search == SearchKind::RequestRate)
        m_search.emplace(1, params.searchMax);
    const quint64 salt = QRandomGenerator::system()->generate64();
    m_salt = QByteArray::number(salt, 16);
    if (const QString e = params.error(); !e.isEmpty()) {
        m_state = State::Preparing;
        finish(QStringLiteral("failed"), e);
        return;
    }
    setState(State::Preparing,
        QStringLiteral("asking the server on %1 port %2 who it is").arg(m_host).arg(params.serverPort));
    const std::shared_ptr<Transport> transport = m_transport;
    const quint16 port = params.serverPort;
    const QString host = m_host;
    const qint64 startedMs = m_run.started.toMSecsSinceEpoch();
    const QString datasetPath = params.dataset == Dataset::ShareGpt ? params.datasetPath : QString();
    m_requests.track(
        QtConcurrent::run(transportPool(),
            [transport, port, host, startedMs, datasetPath] {
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
                f.context.driver = queryDriverVersion(*transport);
                readBuildContext(f.context, host, startedMs);
                if (!datasetPath.isEmpty())
                    readDataset(datasetPath, f.shareGpt, f.datasetSha256, f.datasetError);
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
    // The context: the worker's reads, the server's arguments, and what ran on it before us.
    const QString version = m_run.context.kernelforgeVersion;
    m_run.context = f.context;
    m_run.context.kernelforgeVersion = version;
    m_run.context.serverArgs = keptServerArgs(info);
    if (s.hasMetrics) {
        m_run.context.otherRunning = hasValue(s.metrics.running) ? s.metrics.running : -1;
        m_run.context.otherQueued = hasValue(s.metrics.queued) ? s.metrics.queued : -1;
    }
    if (m_run.params.dataset == Dataset::ShareGpt) {
        if (!f.datasetError.isEmpty()) {
            finish(QStringLiteral("failed"), f.datasetError);
            return;
        }
        if (!m_run.params.datasetSha256.isEmpty() && m_run.params.datasetSha256 != f.datasetSha256) {
            finish(QStringLiteral("failed"),
                QStringLiteral("the dataset %1 is not the file the replayed run used (SHA-256 %2, now %3)")
                    .arg(m_run.params.datasetPath, m_run.params.datasetSha256.left(12), f.datasetSha256.left(12)));
            return;
        }
        m_run.params.datasetSha256 = f.datasetSha256;
        m_shareGpt = f.shareGpt;
    }
    if (const Result<void> e = openEndpoint(); !e) {
        finish(QStringLiteral("failed"), e.error());
        return;
    }
    m_run.promptWords = m_run.params.calibrationTokens();
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
    if (m_run.params.warmup)
        startWarmup();
    else
        sampleMetrics([this](const MetricsPoint&) { nextLevel(); });
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
            m_run.gpu.append(gpuPoint(g, t));
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
            m_run.metrics.append(metricsPoint(s));
        });
}

void ServeBench::sampleMetrics(std::function<void(const MetricsPoint&)> then)
{
    m_betweenLevels = true;
    setState(State::Running, QStringLiteral("reading the server's /metrics between levels"));
    const std::shared_ptr<Transport> transport = m_transport;
    const quint16 port = m_run.params.serverPort;
    m_requests.track(QtConcurrent::run(transportPool(),
                         [transport, port] { return pollServer(*transport, port, nullptr, /*withInfo=*/false); }),
        [this, then = std::move(then)](const ServerStatus& s) {
            m_betweenLevels = false;
            MetricsPoint point = metricsPoint(s);
            if (s.hasMetrics)
                m_run.metrics.append(point);
            m_lastPoll = point;
            then(point);
        });
}

WorkloadSpec ServeBench::workloadSpec(int level) const
{
    const BenchParams& p = m_run.params;
    WorkloadSpec w;
    w.dataset = p.dataset;
    w.inputTokens = p.inputTokens;
    w.outputTokens = p.outputTokens;
    w.rangeRatio = p.rangeRatio;
    w.rangeMeaning = p.rangeMeaning;
    w.wordsPerToken = double(m_run.promptWords) / double(qMax(1, p.calibrationTokens()));
    w.shareGpt = m_shareGpt;
    w.prefixGroups = p.prefixGroups;
    w.prefixPerGroup = p.prefixPerGroup;
    w.prefixTokens = p.prefixTokens;
    w.questionTokens = p.questionTokens;
    w.uniquePrefix = p.uniquePrefix;
    w.salt = m_salt + '/' + QByteArray::number(level);
    return w;
}

LoadSpec ServeBench::loadSpec() const
{
    const BenchParams& p = m_run.params;
    LoadSpec spec;
    spec.host = m_endpointHost;
    spec.port = m_endpointPort;
    spec.hostHeader = QByteArrayLiteral("127.0.0.1:") + QByteArray::number(p.serverPort);
    spec.api = p.api;
    spec.model = m_run.facts.model;
    spec.outputTokens = p.outputTokens;
    spec.requestTimeoutMs = p.requestTimeoutS * 1000;
    spec.promptTokensEstimate = p.calibrationTokens();
    return spec;
}

void ServeBench::startWarmup()
{
    m_level = -1;
    const BenchParams& p = m_run.params;
    LoadSpec spec = loadSpec();
    spec.concurrency = 1;
    spec.outputTokens = qMin(p.outputTokens > 0 ? p.outputTokens : 16, 16);
    spec.prompts = makePrompts(1, m_run.promptWords, p.seed);
    setState(State::WarmingUp, QStringLiteral("warm-up request"));
    QMetaObject::invokeMethod(
        m_generator, [gen = m_generator, spec] { gen->start(spec); }, Qt::QueuedConnection);
}

void ServeBench::nextLevel()
{
    if (m_cancelling) {
        finish(QStringLiteral("cancelled"));
        return;
    }
    const BenchParams& p = m_run.params;
    const int index = int(m_run.levels.size());
    if (m_search) {
        const std::optional<int> value = m_search->next();
        const QString what = p.search == SearchKind::Concurrency ? QStringLiteral("concurrency")
                                                                 : QStringLiteral("request rate (requests/s)");
        if (!value) {
            m_run.note = QStringLiteral("goodput search (good fraction >= %1 %): %2")
                             .arg(p.goodputTarget * 100, 0, 'g', 4)
                             .arg(m_search->summary(what));
            finish(QStringLiteral("completed"));
            return;
        }
        startLevel(p.search == SearchKind::Concurrency ? LevelPlan { *value, p.requestRate }
                                                       : LevelPlan { p.maxConcurrency, double(*value) });
        return;
    }
    const QList<LevelPlan> plan = p.plannedLevels();
    if (index >= plan.size()) {
        finish(QStringLiteral("completed"));
        return;
    }
    startLevel(plan.at(index));
}

void ServeBench::startLevel(const LevelPlan& level)
{
    // m_lastPoll, the poll that ended the warm-up or the previous level, is this level's "before".
    m_level = int(m_run.levels.size());
    m_current = level;
    const BenchParams& p = m_run.params;
    const int requests = p.requestsFor(level);
    const quint32 seed = p.seed + quint32(m_level) + 1;
    auto workload = makeWorkload(workloadSpec(m_level), requests, seed);
    if (!workload) {
        finish(QStringLiteral("failed"), workload.error());
        return;
    }
    LoadSpec spec = loadSpec();
    spec.concurrency = level.concurrency;
    for (const WorkloadRequest& r : workload.value()) {
        spec.prompts.append(r.prompt);
        spec.outputs.append(r.outputTokens);
        spec.promptTokens.append(r.promptTokens);
    }
    spec.arrivals = arrivalTimes(p.arrivalShape(level), int(spec.prompts.size()), seed);
    setState(State::Running,
        QStringLiteral("level %1%2: %3, %4 requests")
            .arg(m_level + 1)
            .arg(
                m_search ? QStringLiteral(" (goodput search)") : QStringLiteral(" of %1").arg(p.plannedLevels().size()))
            .arg(levelLabel(level))
            .arg(spec.prompts.size()));
    Q_EMIT levelStarted(m_level, level, int(spec.prompts.size()));
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
        const int tokens = p.calibrationTokens();
        if (s.promptTokensReported && s.promptTokens > 0) {
            const double words = double(tokens) * double(m_run.promptWords) / double(s.promptTokens);
            m_run.promptWords = qBound(1, int(std::lround(words)), 4 * tokens);
            m_run.promptCalibrated = true;
        }
        sampleMetrics([this](const MetricsPoint&) { nextLevel(); });
        return;
    }
    LevelResult level;
    level.concurrency = m_current.concurrency;
    level.requestRate = m_current.rate;
    level.startedMs = result.startedMs;
    level.endedMs = result.endedMs;
    level.cancelled = result.cancelled;
    level.notSent = result.notSent;
    level.samples = result.samples;
    level.before = m_lastPoll;
    level.stats = computeLevelStats(result.samples, result.durationS, level.concurrency, level.requestRate);
    if (result.cancelled || m_cancelling) {
        level.analysis = analyzeLevel(m_run, level);
        m_run.levels.append(level);
        Q_EMIT levelFinished(m_level, level);
        finish(QStringLiteral("cancelled"));
        return;
    }
    sampleMetrics([this, level](const MetricsPoint& after) mutable {
        level.after = after;
        level.analysis = analyzeLevel(m_run, level);
        m_run.levels.append(level);
        Q_EMIT levelFinished(m_level, level);
        if (m_cancelling) {
            finish(QStringLiteral("cancelled"));
            return;
        }
        const BenchParams& p = m_run.params;
        if (level.stats.completed == 0 && !m_search) {
            const QString why
                = level.stats.failureReasons.isEmpty() ? QString() : level.stats.failureReasons.firstKey();
            finish(QStringLiteral("failed"),
                QStringLiteral("every request at %1 failed (%2); the sweep stops").arg(levelLabel(level.plan()), why));
            return;
        }
        if (m_search) {
            const int value = p.search == SearchKind::Concurrency ? level.concurrency : int(level.requestRate);
            const double fraction = level.analysis.goodput.fraction;
            m_search->record(value, fraction >= p.goodputTarget);
        } else if (p.stopOnSaturation && level.analysis.saturation.saturated()) {
            m_run.note = QStringLiteral("stopped after %1: saturated (%2)")
                             .arg(levelLabel(level.plan()), level.analysis.saturation.summary());
            finish(QStringLiteral("completed"));
            return;
        }
        nextLevel();
    });
}

void ServeBench::cancel()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_state == State::Idle || m_state == State::Finished || m_cancelling)
        return;
    m_cancelling = true;
    if (m_state == State::Preparing || m_betweenLevels) {
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
    m_betweenLevels = false;
    if (m_gpu) {
        // Samples without GPM: the monitor's probe says why (an older GPU, a driver without it, ...).
        const bool gpm = std::any_of(
            m_run.gpu.cbegin(), m_run.gpu.cend(), [](const GpuPoint& g) { return std::isfinite(g.smActivePercent); });
        if (!gpm && !m_run.gpu.isEmpty()) {
            const GpuMonitor::GpmStatus& status = m_gpu->gpm();
            m_run.gpmNote = status.phase == GpuMonitor::GpmStatus::Phase::Streaming
                ? QStringLiteral("its stream sent no sample during the run (%1)").arg(status.text())
                : status.text();
        }
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
