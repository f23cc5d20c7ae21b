// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpumonitor.h"

#include "core/log/logging.h"
#include "core/transport/transportpool.h"
#include "core/util/jobtracker.h"
#include "core/util/shellquote.h"

#include <QDateTime>
#include <QFutureWatcher>
#include <QThread>
#include <QtConcurrent>

namespace kf {

namespace {
constexpr int kMaxBackoffMs = 30000;
// A block is complete when the next one starts (index repeats) or when no more lines
// arrive shortly after the last: nvidia-smi writes a block in one go.
constexpr int kBlockSettleMs = 150;
// Lines of the GPM stream kept while waiting for their end; past this it is not line-oriented.
constexpr qsizetype kMaxLineBuffer = 1 << 20;
} // namespace

QString GpuMonitor::GpmStatus::text() const
{
    switch (phase) {
    case Phase::Off: return QStringLiteral("GPM not asked for");
    case Phase::Probing: return QStringLiteral("asking nvidia-smi whether the GPUs have GPM…");
    case Phase::Streaming: {
        QStringList names;
        for (const GpuField f : support.metrics)
            names << gpuFieldLabel(f);
        return QStringLiteral("GPM through nvidia-smi dmon every %1 s (%2)%3")
            .arg(intervalS)
            .arg(names.join(QStringLiteral(", ")),
                support.notes.isEmpty() ? QString() : QStringLiteral("; ") + support.notes.join(QStringLiteral("; ")));
    }
    case Phase::Unavailable: return QStringLiteral("GPM not available: ") + why;
    case Phase::Restarting: return QStringLiteral("GPM stream stopped (%1); retrying").arg(why);
    }
    return {};
}

GpuMonitor::GpuMonitor(std::shared_ptr<Transport> transport, QString hostName, QObject* parent)
    : GpuMonitor(std::move(transport), std::move(hostName), Options {}, parent)
{ }

GpuMonitor::GpuMonitor(std::shared_ptr<Transport> transport, QString hostName, Options options, QObject* parent)
    : QObject(parent)
    , m_transport(std::move(transport))
    , m_hostName(std::move(hostName))
    , m_options(std::move(options))
{
    qRegisterMetaType<kf::GpuSample>();
    qRegisterMetaType<QList<kf::GpuSample>>();
    qRegisterMetaType<kf::Alert>();
    m_blockTimer.setSingleShot(true);
    m_blockTimer.setInterval(kBlockSettleMs);
    connect(&m_blockTimer, &QTimer::timeout, this, &GpuMonitor::flushBlock);
    m_processTimer.setInterval(qMax(500, m_options.processIntervalMs));
    connect(&m_processTimer, &QTimer::timeout, this, &GpuMonitor::pollProcesses);
    m_gpmRestartTimer.setSingleShot(true);
    connect(&m_gpmRestartTimer, &QTimer::timeout, this, &GpuMonitor::startGpmStream);
    m_healthTimer.setInterval(qMax(60000, m_options.healthIntervalMs));
    connect(&m_healthTimer, &QTimer::timeout, this, &GpuMonitor::checkHealth);
    m_restartTimer.setSingleShot(true);
    connect(&m_restartTimer, &QTimer::timeout, this, [this] {
        if (m_probe.fields.isEmpty())
            probe();
        else
            startStream();
    });
}

GpuMonitor::~GpuMonitor()
{
    stop();
}

void GpuMonitor::setState(State state, const QString& reason)
{
    if (state == m_state && reason.isEmpty())
        return;
    m_state = state;
    Q_EMIT stateChanged(state, reason);
}

void GpuMonitor::setAlertRules(const AlertRules& rules)
{
    m_rules = rules;
    if (!m_latest.isEmpty())
        updateAlerts(evaluateAlerts(m_latest, m_rules, m_latestTime), false);
}

void GpuMonitor::start()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_state != State::Stopped && m_state != State::Failed)
        return;
    m_backoffMs = 2000;
    probe();
    if (m_options.processIntervalMs > 0)
        m_processTimer.start();
}

void GpuMonitor::stop()
{
    m_requests.cancelAll();
    m_sideRequests.cancelAll();
    m_processTimer.stop();
    m_restartTimer.stop();
    m_blockTimer.stop();
    m_healthTimer.stop();
    stopGpmStream();
    if (m_gpm.phase == GpmStatus::Phase::Probing)
        setGpm(GpmStatus::Phase::Off); // asked again on the next start
    if (m_stream) {
        // Disconnect first: finished() from cancel() must not schedule a restart.
        m_stream->disconnect(this);
        m_stream->cancel();
        m_stream.reset();
    }
    if (m_state != State::Stopped)
        setState(State::Stopped);
}

void GpuMonitor::setIntervalMs(int ms)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (ms <= 0 || ms == m_options.intervalMs)
        return;
    m_options.intervalMs = ms;
    if (m_state != State::Streaming || !m_stream)
        return;
    m_stream->disconnect(this); // its finished() must not schedule a restart
    m_stream->cancel();
    m_stream.reset();
    flushBlock();
    // Replaced at once, not lost: no gap is recorded for the switch (startStream would).
    const bool gapPending = m_gapPending;
    startStream();
    m_gapPending = gapPending;
    log::monitor()->info("{}: GPU stream restarted with a {} ms interval", m_hostName, ms);
    if (m_gpmStream && dmonIntervalSeconds(ms) != m_gpm.intervalS) {
        stopGpmStream();
        startGpmStream();
    }
}

void GpuMonitor::probe()
{
    setState(State::Probing);
    m_requests.cancelAll();
    CommandSpec spec;
    spec.command = shellQuote(m_options.nvidiaSmi) + QStringLiteral(" --help-query-gpu");
    spec.env = m_options.env;
    auto transport = m_transport;
    auto future = QtConcurrent::run(transportPool(), [transport, spec] { return transport->exec(spec, 30000); });
    m_requests.track(future, [this](const ExecResult& r) {
        // The timestamp first: it dates each block and tells a repeated sample from a new one.
        GpuFieldProbe probe = probeGpuFields(r.stdOut, QList<GpuField> { GpuField::Timestamp } + defaultGpuFields());
        m_driverMissing = !probe.ok && r.error.isEmpty() && r.exitCode == 127;
        if (!probe.ok) {
            QString why = QString::fromUtf8(r.stdOut + r.stdErr).trimmed();
            if (!r.error.isEmpty())
                why = r.error;
            if (why.isEmpty())
                why = QStringLiteral("nvidia-smi --help-query-gpu exited with %1").arg(r.exitCode);
            Alert a { AlertKind::SmiFailure, -1, QStringLiteral("%1: %2").arg(m_hostName, why.section(u'\n', 0, 0)),
                QDateTime::currentMSecsSinceEpoch(), true };
            updateAlerts({ a }, true);
            scheduleRestart(why);
            return;
        }
        if (!probe.missing.isEmpty())
            log::monitor()->info(
                "{}: driver does not know {}; not asking for them", m_hostName, probe.missing.join(u','));
        m_probe = probe;
        startStream();
        if (m_options.gpm && m_gpm.phase == GpmStatus::Phase::Off)
            probeGpm();
        else if (m_gpm.support.available && !m_gpmStream)
            startGpmStream();
    });
}

QString GpuMonitor::streamCommand() const
{
    return shellQuote(m_options.nvidiaSmi) + QStringLiteral(" --query-gpu=") + m_probe.queryNames.join(u',')
        + QStringLiteral(" --format=csv,noheader,nounits -lms ") + QString::number(m_options.intervalMs);
}

void GpuMonitor::startStream()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_requests.cancelAll();
    CommandSpec spec;
    spec.command = streamCommand();
    spec.env = m_options.env;
    spec.resumable = true;
    m_lineBuffer.clear();
    m_stderrTail.clear();
    m_block.clear();
    m_clockOffsetValid = false;
    if (m_blocks > 0)
        m_gapPending = true; // a restart: nothing was sampled while nvidia-smi was down
    m_stream = m_transport->start(spec);
    if (!m_stream) {
        scheduleRestart(QStringLiteral("could not start nvidia-smi"));
        return;
    }
    connect(m_stream.get(), &ProcessHandle::stdoutReceived, this, &GpuMonitor::onStdout);
    connect(m_stream.get(), &ProcessHandle::stderrReceived, this,
        [this](const QByteArray& chunk) { m_stderrTail = QByteArray(m_stderrTail + chunk).right(2000); });
    connect(m_stream.get(), &ProcessHandle::resumed, this, [this] {
        ++m_resumes;
        // A partial line or block from before the drop: its rest is lost.
        m_lineBuffer.clear();
        flushBlock();
        m_clockOffsetValid = false;
        m_gapPending = m_blocks > 0;
        log::monitor()->info("{}: GPU stream resumed after a reconnect", m_hostName);
    });
    connect(m_stream.get(), &ProcessHandle::finished, this, &GpuMonitor::onFinished);
    log::monitor()->debug("{}: streaming {}", m_hostName, spec.command);
    setState(State::Streaming);
}

void GpuMonitor::onStdout(const QByteArray& chunk)
{
    m_lineBuffer += chunk;
    const qsizetype lastNl = m_lineBuffer.lastIndexOf('\n');
    if (lastNl < 0) {
        if (m_lineBuffer.size() > 1 << 20)
            m_lineBuffer.clear(); // not line-oriented output: do not grow without bound
        return;
    }
    const QByteArray complete = m_lineBuffer.left(lastNl + 1);
    m_lineBuffer.remove(0, lastNl + 1);
    const GpuCsvResult parsed = parseGpuCsv(complete, m_probe.fields);
    if (!parsed.fatal.isEmpty()) {
        Alert a { AlertKind::SmiFailure, -1, QStringLiteral("%1: %2").arg(m_hostName, parsed.fatal),
            QDateTime::currentMSecsSinceEpoch(), true };
        updateAlerts({ a }, true);
    }
    for (const auto& s : parsed.samples) {
        // A new block starts where a GPU repeats (not where the timestamp moves: nothing
        // promises one timestamp for all GPUs of a sample).
        const bool repeat
            = std::any_of(m_block.cbegin(), m_block.cend(), [&](const GpuSample& b) { return b.index == s.index; });
        if (repeat)
            flushBlock();
        if (s.timeMs != 0) {
            const auto last = m_lastSource.constFind(s.index);
            if (last != m_lastSource.cend() && s.timeMs <= *last) {
                ++m_duplicates;
                continue;
            }
            m_lastSource.insert(s.index, s.timeMs);
        }
        m_block.append(s);
    }
    if (!m_block.isEmpty())
        m_blockTimer.start();
}

void GpuMonitor::flushBlock()
{
    m_blockTimer.stop();
    if (m_block.isEmpty())
        return;
    std::sort(m_block.begin(), m_block.end(), [](const GpuSample& a, const GpuSample& b) { return a.index < b.index; });
    const qint64 previous = m_latestTime;
    const qint64 now
        = m_block.front().timeMs != 0 ? sampleTime(m_block.front().timeMs) : QDateTime::currentMSecsSinceEpoch();
    for (auto& g : m_block) {
        if (g.timeMs != 0)
            g.timeMs = sampleTime(g.timeMs);
    }
    const bool silent = previous > 0 && now - previous > 3LL * m_options.intervalMs + 2000;
    if (previous > 0 && now > previous && (m_gapPending || silent)) {
        // Break every GPU's series right after the last sample (a block torn by the drop may
        // lack some GPUs, so all GPUs ever seen).
        QList<GpuSample> gap;
        for (int index : m_history.gpus()) {
            GpuSample empty;
            empty.index = index;
            gap.append(empty);
        }
        m_history.append(previous + 1, gap);
        m_gaps.append({ previous, now });
        if (m_gaps.size() > 1000)
            m_gaps.removeFirst();
        log::monitor()->info("{}: no GPU samples for {:.1f} s ({})", m_hostName, double(now - previous) / 1000.0,
            m_gapPending ? "reconnect or restart" : "stream stalled");
        Q_EMIT gapRecorded(previous, now);
    }
    m_gapPending = false;
    mergeGpm(m_block);
    m_latest = std::move(m_block);
    m_block.clear();
    m_latestTime = qMax(now, previous);
    ++m_blocks;
    m_backoffMs = 2000;
    m_history.append(m_latestTime, m_latest);
    // Output flows again: a previous nvidia-smi failure is over.
    updateAlerts({}, true);
    updateAlerts(evaluateAlerts(m_latest, m_rules, m_latestTime), false);
    if (m_options.healthIntervalMs > 0 && !m_healthTimer.isActive()) {
        m_healthTimer.start();
        checkHealth();
    }
    Q_EMIT samplesUpdated(m_latest);
}

void GpuMonitor::onFinished(const ProcessExit& exit)
{
    flushBlock();
    m_stream.release()->deleteLater(); // we are inside its signal
    QString why = exit.error;
    if (why.isEmpty()) {
        const GpuCsvResult tail = parseGpuCsv(QByteArray(m_lineBuffer + m_stderrTail), {});
        why = tail.fatal;
    }
    if (why.isEmpty())
        why = exit.signal.isEmpty() ? QStringLiteral("nvidia-smi exited with status %1").arg(exit.exitCode)
                                    : QStringLiteral("nvidia-smi was killed (%1)").arg(exit.signal);
    if (!exit.error.isEmpty() || exit.exitCode != 0 || !exit.signal.isEmpty()) {
        Alert a { AlertKind::SmiFailure, -1, QStringLiteral("%1: %2").arg(m_hostName, why),
            QDateTime::currentMSecsSinceEpoch(), true };
        updateAlerts({ a }, true);
    }
    scheduleRestart(why);
}

qint64 GpuMonitor::sampleTime(qint64 sourceMs)
{
    if (!m_clockOffsetValid) {
        constexpr qint64 kQuarterHour = 15LL * 60 * 1000;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const qint64 diff = now - sourceMs;
        m_clockOffsetMs
            = (diff >= 0 ? (diff + kQuarterHour / 2) : (diff - kQuarterHour / 2)) / kQuarterHour * kQuarterHour;
        m_clockOffsetValid = true;
        const qint64 skew = now - (sourceMs + m_clockOffsetMs);
        if (qAbs(skew) > 60000)
            log::monitor()->warn("{}: the server's clock differs from this machine's by {} s", m_hostName, skew / 1000);
    }
    return sourceMs + m_clockOffsetMs;
}

void GpuMonitor::scheduleRestart(const QString& why)
{
    ++m_restarts;
    log::monitor()->warn("{}: GPU stream stopped ({}); retrying in {} s", m_hostName, why, m_backoffMs / 1000);
    setState(State::Restarting, why);
    m_restartTimer.start(m_backoffMs);
    m_backoffMs = qMin(kMaxBackoffMs, m_backoffMs * 2);
}

void GpuMonitor::pollProcesses()
{
    if (m_processPoll.isPending() || m_state != State::Streaming)
        return;
    auto transport = m_transport;
    const QString smi = m_options.nvidiaSmi;
    const auto env = m_options.env;
    const QList<GpuSample> gpus = m_latest;
    m_processPoll
        = m_requests.track(QtConcurrent::run(transportPool(),
                               [transport, smi, env, gpus] { return listGpuProcesses(*transport, smi, env, gpus); }),
            [this](const Result<GpuProcessList>& r) {
                if (!r) {
                    log::monitor()->debug("{}: {}", m_hostName, r.error());
                    return;
                }
                const HostLoad before = m_processList.host;
                m_processList = *r;
                m_processList.host.cpuPercent = cpuPercentBetween(before, m_processList.host);
                m_processes = m_processList.processes;
                Q_EMIT processesUpdated(m_processes);
            });
}

void GpuMonitor::updateAlerts(const QList<Alert>& now, bool smiScope)
{
    // smiScope: `now` replaces the host-level nvidia-smi alerts; else the per-GPU ones.
    QHash<QString, Alert> next;
    for (const auto& a : now)
        next.insert(a.key(), a);
    const QList<QString> keys = m_active.keys();
    for (const QString& key : keys) {
        const Alert old = m_active.value(key);
        if ((old.kind == AlertKind::SmiFailure) != smiScope)
            continue;
        if (!next.contains(key)) {
            m_active.remove(key);
            log::monitor()->info("{}: cleared: {}", m_hostName, old.message);
            Q_EMIT alertCleared(old);
        }
    }
    for (const auto& a : std::as_const(next)) {
        if (m_active.contains(a.key()))
            continue;
        m_active.insert(a.key(), a);
        log::monitor()->warn("{}: alert: {}", m_hostName, a.message);
        Q_EMIT alertRaised(a);
    }
}

void GpuMonitor::setGpm(GpmStatus::Phase phase, const QString& why)
{
    m_gpm.phase = phase;
    m_gpm.why = why;
    Q_EMIT gpmChanged();
}

void GpuMonitor::probeGpm()
{
    setGpm(GpmStatus::Phase::Probing);
    CommandSpec spec;
    spec.command = gpmProbeScript();
    spec.arguments = { m_options.nvidiaSmi, gpmMetricIds(gpmGpuFields()) };
    spec.env = m_options.env;
    spec.maxOutputBytes = 1 << 20;
    auto transport = m_transport;
    m_sideRequests.track(QtConcurrent::run(transportPool(), [transport, spec] { return transport->exec(spec, 60000); }),
        [this](const ExecResult& r) {
            if (!r.error.isEmpty()) {
                // Asked again on the next start (a lost connection is not an answer).
                log::monitor()->info("{}: GPM probe failed: {}", m_hostName, r.error);
                setGpm(GpmStatus::Phase::Off);
                return;
            }
            m_gpm.support = parseGpmProbe(r.stdOut);
            if (!m_gpm.support.available) {
                log::monitor()->info("{}: no GPM: {}", m_hostName, m_gpm.support.why);
                setGpm(GpmStatus::Phase::Unavailable, m_gpm.support.why);
                return;
            }
            startGpmStream();
        });
}

void GpuMonitor::startGpmStream()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_gpmStream || m_state == State::Stopped)
        return;
    CommandSpec spec;
    m_gpm.intervalS = dmonIntervalSeconds(m_options.intervalMs);
    spec.command = gpmStreamCommand(m_options.nvidiaSmi, gpmGpuFields(), m_gpm.intervalS);
    spec.env = m_options.env;
    spec.resumable = true;
    m_gpmBuffer.clear();
    m_gpmStream = m_transport->start(spec);
    if (!m_gpmStream) {
        setGpm(GpmStatus::Phase::Restarting, QStringLiteral("could not start nvidia-smi dmon"));
        m_gpmRestartTimer.start(m_gpmBackoffMs);
        return;
    }
    connect(m_gpmStream.get(), &ProcessHandle::stdoutReceived, this, &GpuMonitor::onGpmStdout);
    connect(m_gpmStream.get(), &ProcessHandle::resumed, this, [this] { m_gpmBuffer.clear(); });
    connect(m_gpmStream.get(), &ProcessHandle::finished, this, &GpuMonitor::onGpmFinished);
    log::monitor()->debug("{}: GPM stream {}", m_hostName, spec.command);
    setGpm(GpmStatus::Phase::Streaming);
}

void GpuMonitor::stopGpmStream()
{
    m_gpmRestartTimer.stop();
    if (!m_gpmStream)
        return;
    m_gpmStream->disconnect(this); // its finished() must not schedule a restart
    m_gpmStream->cancel();
    m_gpmStream.reset();
    m_gpmLatest.clear();
}

void GpuMonitor::onGpmStdout(const QByteArray& chunk)
{
    m_gpmBuffer += chunk;
    const qsizetype lastNl = m_gpmBuffer.lastIndexOf('\n');
    if (lastNl < 0) {
        if (m_gpmBuffer.size() > kMaxLineBuffer)
            m_gpmBuffer.clear();
        return;
    }
    const DmonResult parsed = parseDmon(QByteArrayView(m_gpmBuffer).first(lastNl + 1), m_gpmLayout);
    m_gpmBuffer.remove(0, lastNl + 1);
    m_gpmLayout = parsed.layout;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const GpuSample& s : parsed.samples)
        m_gpmLatest.insert(s.index, { s, now });
    if (!parsed.samples.isEmpty())
        m_gpmBackoffMs = 2000;
    for (const QString& m : parsed.messages)
        log::monitor()->info("{}: nvidia-smi dmon: {}", m_hostName, m);
}

void GpuMonitor::onGpmFinished(const ProcessExit& exit)
{
    m_gpmStream.release()->deleteLater(); // we are inside its signal
    m_gpmLatest.clear();
    const QString why = !exit.error.isEmpty() ? exit.error
        : exit.signal.isEmpty() ? QStringLiteral("nvidia-smi dmon exited with status %1").arg(exit.exitCode)
                                : QStringLiteral("nvidia-smi dmon was killed (%1)").arg(exit.signal);
    log::monitor()->warn("{}: {}; retrying in {} s", m_hostName, why, m_gpmBackoffMs / 1000);
    setGpm(GpmStatus::Phase::Restarting, why);
    m_gpmRestartTimer.start(m_gpmBackoffMs);
    m_gpmBackoffMs = qMin(kMaxBackoffMs, m_gpmBackoffMs * 2);
}

void GpuMonitor::mergeGpm(QList<GpuSample>& block) const
{
    if (m_gpmLatest.isEmpty())
        return;
    static const QList<GpuField> metrics = gpmGpuFields();
    const qint64 freshMs = 3LL * m_gpm.intervalS * 1000 + 2000;
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (GpuSample& g : block) {
        const auto it = m_gpmLatest.constFind(g.index);
        if (it == m_gpmLatest.cend() || now - it->arrivalMs > freshMs)
            continue;
        for (const GpuField f : metrics)
            g.setValue(f, it->values.value(f));
    }
}

void GpuMonitor::checkHealth()
{
    if (m_healthCheck.isPending())
        return;
    auto transport = m_transport;
    const QString smi = m_options.nvidiaSmi;
    const auto env = m_options.env;
    m_healthCheck = m_sideRequests.track(
        QtConcurrent::run(transportPool(), [transport, smi, env] { return checkGpuHealth(*transport, smi, env); }),
        [this](const Result<GpuHealthReport>& r) {
            if (r) {
                m_health = *r;
                m_healthTimeMs = QDateTime::currentMSecsSinceEpoch();
                m_healthError.clear();
                log::monitor()->info("{}: GPU health: {}", m_hostName, m_health.summary());
            } else {
                m_healthError = r.error();
                log::monitor()->info("{}: {}", m_hostName, r.error());
            }
            Q_EMIT healthUpdated();
        });
}

} // namespace kf
