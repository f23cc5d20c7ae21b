// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/serversession.h"

#include "core/jobs/remotejob.h"
#include "core/log/logging.h"
#include "core/server/serverevents.h"
#include "core/transport/transportpool.h"

#include <QDateTime>
#include <QSet>
#include <QThread>
#include <QtConcurrent>

#include <algorithm>
#include <cmath>
#include <limits>

namespace kf {

bool ServerState::running() const
{
    return job && (job->state == JobInfo::State::Running || job->state == JobInfo::State::Starting);
}

QString serverLabel(quint16 port, const QString& model)
{
    constexpr qsizetype kModelChars = 48; // a local path can be long; the legend stays readable
    if (model.isEmpty())
        return QStringLiteral("port %1").arg(port);
    const QString shown = model.size() > kModelChars ? model.left(kModelChars - 1) + QChar(0x2026) : model;
    return QStringLiteral("port %1 · %2").arg(port).arg(shown);
}

struct ServerSession::Entry
{
    ServerState state;
    std::unique_ptr<ServerClient> client;
    std::unique_ptr<RemoteJob> tail;
    qint64 tailFrom = 0;          // where the job's log is first read (an adopted job: its newest part)
    bool skipPartialLine = false; // the first chunk starts inside a line
    qint64 lastPointTime = 0;     // the last poll with metrics
};

ServerSession::ServerSession(std::shared_ptr<Transport> transport, QString hostKey, QObject* parent)
    : QObject(parent)
    , m_transport(std::move(transport))
    , m_hostKey(std::move(hostKey))
{
    qRegisterMetaType<kf::ServerStatus>();
    qRegisterMetaType<kf::LaunchAttempt>();
    qRegisterMetaType<kf::JobInfo>();
    m_rescan.setInterval(kRescanMs);
    connect(&m_rescan, &QTimer::timeout, this, &ServerSession::scanNow);
}

ServerSession::~ServerSession() = default;

ServerSession::Entry& ServerSession::entry(quint16 port)
{
    auto it = m_entries.find(port);
    if (it == m_entries.end()) {
        it = m_entries.emplace(port, std::make_unique<Entry>()).first;
        it->second->state.port = port;
    }
    return *it->second;
}

void ServerSession::setJobRoot(const QString& root)
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_root = root;
    m_jobs.clear();
    m_scanned = false; // what was found under the old root does not count
    for (auto it = m_entries.begin(); it != m_entries.end();) {
        Entry& e = *it->second;
        if (!e.state.watched) {
            it = m_entries.erase(it);
            continue;
        }
        e.tail.reset();
        e.state.job.reset();
        e.state.stopping = false;
        ++it;
    }
    Q_EMIT serversChanged();
    scanNow();
}

void ServerSession::setPollInterval(int ms)
{
    if (ms <= 0 || ms == m_pollMs)
        return;
    m_pollMs = ms;
    for (auto& [port, e] : m_entries)
        e->client.reset();
    updateFollowing();
}

void ServerSession::setPolling(QObject* holder, bool on)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const bool was = isPolling();
    m_pollers.removeIf([holder](const QPointer<QObject>& p) { return p.isNull() || p == holder; });
    if (on && holder) {
        m_pollers.append(holder);
        // A holder deleted without letting go stops counting (one connection per holder).
        if (!m_holders.contains(holder)) {
            m_holders.insert(holder);
            connect(holder, &QObject::destroyed, this, [this, holder] {
                m_holders.remove(holder);
                setPolling(holder, false);
            });
        }
    }
    const bool now = isPolling();
    if (was == now)
        return;
    updateFollowing();
    if (now) {
        m_rescan.start();
        scanNow();
    } else {
        m_rescan.stop();
    }
}

bool ServerSession::isPolling() const
{
    return std::any_of(m_pollers.cbegin(), m_pollers.cend(), [](const QPointer<QObject>& p) { return !p.isNull(); });
}

void ServerSession::setWatchedPort(quint16 port)
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (port == m_watched)
        return;
    if (auto it = m_entries.find(m_watched); it != m_entries.end()) {
        it->second->state.watched = false;
        // A port that only was watched and never charted is not a server of the host.
        if (!it->second->state.ours() && it->second->state.series.empty())
            m_entries.erase(it);
    }
    m_watched = port;
    m_watchedState = ServerScan::Port::Unknown;
    if (port != 0)
        entry(port).state.watched = true;
    updateFollowing();
    Q_EMIT serversChanged();
    scanNow();
}

void ServerSession::refresh()
{
    scanNow();
}

void ServerSession::scanNow()
{
    Q_ASSERT(QThread::currentThread() == thread());
    auto transport = m_transport;
    const quint16 port = m_watched;
    const QString root = m_root;
    m_scans.cancelAll();
    m_scans.track(
        QtConcurrent::run(transportPool(), [transport, port, root] { return scanServers(*transport, port, root); }),
        [this](const Result<ServerScan>& r) {
            if (!r) {
                m_scanError = r.error();
                m_watchedState = ServerScan::Port::Unknown;
                Q_EMIT scanned();
                return;
            }
            onScan(*r);
        });
}

void ServerSession::onScan(const ServerScan& scan)
{
    m_scanned = true;
    m_scanError.clear();
    m_jobs = scan.servers;
    if (scan.port == m_watched)
        m_watchedState = scan.portState;
    QSet<quint16> running;
    for (const JobInfo& job : scan.runningServers()) { // newest first: the newest of a port is its server
        const quint16 port = serverJobPort(job).value_or(0);
        if (running.contains(port))
            continue;
        running.insert(port);
        Entry& e = entry(port);
        if (e.state.running() && e.state.job->id == job.id)
            e.state.job = job; // the same server, newer facts (its log size)
        else
            adopt(e, job, std::max<qint64>(0, job.logSize - kLogKeepBytes)); // launched elsewhere, or before
    }
    // Ours that no longer run: their end, as the job folder tells it.
    QList<std::pair<quint16, JobInfo>> ended;
    for (const auto& [port, e] : m_entries) {
        if (!e->state.running() || running.contains(port))
            continue;
        JobInfo info = *e->state.job;
        info.state = JobInfo::State::Lost; // its folder is gone, unless the listing says otherwise
        for (const JobInfo& j : scan.servers)
            if (j.id == info.id)
                info = j;
        ended.append({ port, info });
    }
    for (const auto& [port, info] : ended)
        onJobFinished(port, info);
    updateFollowing();
    Q_EMIT serversChanged();
    Q_EMIT scanned();
}

void ServerSession::adopt(Entry& e, const JobInfo& job, qint64 logFrom)
{
    if (e.state.job && e.state.job->id != job.id) {
        // Another job of the same model on the port: its line goes on after a gap, its log is its own.
        e.state.log.clear();
        breakLines(e, QDateTime::currentMSecsSinceEpoch());
    }
    e.tail.reset();
    e.state.job = job;
    e.state.stopping = false;
    e.tailFrom = logFrom;
    e.skipPartialLine = logFrom > 0;
    log::monitor()->info("following server job {} on {} port {}", job.id, m_hostKey, e.state.port);
}

void ServerSession::breakLines(Entry& e, qint64 timeMs)
{
    // One NaN after the last value breaks the lines; none before any data.
    if (e.state.series.empty())
        return;
    const SeriesBuffer& first = e.state.series.front();
    if (first.isEmpty() || std::isnan(first.lastValue()) || timeMs <= first.lastTime())
        return;
    for (SeriesBuffer& b : e.state.series)
        b.append(timeMs, std::numeric_limits<double>::quiet_NaN());
}

void ServerSession::restartSeries(Entry& e)
{
    e.state.series.clear();
    e.state.log.clear();
    e.state.model.clear();
    e.state.last = ServerStatus();
    e.lastPointTime = 0;
}

void ServerSession::updateFollowing()
{
    const bool polling = isPolling();
    for (auto& [port, ePtr] : m_entries) {
        Entry& e = *ePtr;
        const bool poll = polling && (e.state.running() || e.state.watched);
        if (poll && !e.client) {
            e.client = std::make_unique<ServerClient>(m_transport, port);
            connect(e.client.get(), &ServerClient::statusUpdated, this,
                [this, port = port](const ServerStatus& s) { onStatus(port, s); });
            e.client->start(m_pollMs);
        } else if (!poll) {
            e.client.reset();
        }
        const bool tail = polling && e.state.running();
        if (tail && !e.tail) {
            e.tail = std::make_unique<RemoteJob>(m_transport, e.state.job->id, m_root);
            connect(e.tail.get(), &RemoteJob::logReceived, this, [this, port = port](qint64, const QByteArray& data) {
                if (auto it = m_entries.find(port); it != m_entries.end())
                    appendLog(*it->second, data);
            });
            connect(e.tail.get(), &RemoteJob::finished, this,
                [this, port = port](const JobInfo& info) { onJobFinished(port, info); });
            connect(e.tail.get(), &RemoteJob::failed, this, [this, port = port](const QString& error) {
                if (auto it = m_entries.find(port); it != m_entries.end())
                    appendLog(*it->second,
                        QStringLiteral("[KernelForge] cannot follow the server's log: %1\n").arg(error).toUtf8());
                scanNow();
            });
            e.tail->attach(e.tailFrom);
        } else if (tail && !e.tail->isAttached()) {
            e.tail->attach(e.tail->offset()); // where it stopped: nothing lost, nothing twice
        } else if (!tail && e.tail && e.tail->isAttached()) {
            e.tail->detach();
        }
    }
}

void ServerSession::appendLog(Entry& e, const QByteArray& data)
{
    QByteArray text = data;
    if (e.skipPartialLine) {
        const qsizetype newline = text.indexOf('\n');
        if (newline < 0)
            return;
        text.remove(0, newline + 1);
        e.skipPartialLine = false;
    }
    if (text.isEmpty())
        return;
    e.state.log += text;
    if (e.state.log.size() > kLogKeepBytes) {
        const qsizetype cut = e.state.log.size() - kLogKeepBytes;
        const qsizetype newline = e.state.log.indexOf('\n', cut);
        e.state.log.remove(0, newline < 0 ? cut : newline + 1);
    }
    Q_EMIT logReceived(e.state.port, text);
}

void ServerSession::onStatus(quint16 port, const ServerStatus& s)
{
    const auto it = m_entries.find(port);
    if (it == m_entries.end())
        return;
    Entry& e = *it->second;
    const bool wasReachable = e.state.last.reachable;
    if (s.reachable && !s.modelPath.isEmpty()) {
        // Another model on the port: another server, whose lines start anew (a label names one server).
        if (!e.state.model.isEmpty() && e.state.model != s.modelPath)
            restartSeries(e);
        e.state.model = s.modelPath;
    }
    const qint64 gapMs = 3 * qint64(m_pollMs) + 2000;
    if (!s.reachable || !s.hasMetrics) {
        breakLines(e, s.timeMs);
    } else {
        if (e.lastPointTime > 0 && s.timeMs - e.lastPointTime > gapMs)
            breakLines(e, e.lastPointTime + 1);
        e.lastPointTime = s.timeMs;
        const ServerMetrics& m = s.metrics;
        // A quantile above the last finite bucket has no value to plot (a gap, not the bound).
        const double values[kServerSeriesCount] = { m.genThroughput, m.running, m.queued, m.kvUsage * 100,
            m.cacheHitRate * 100, m.ttftP50.estimate() * 1000, m.ttftP95.estimate() * 1000, m.itlP50.estimate() * 1000,
            m.itlP95.estimate() * 1000 };
        if (e.state.series.empty())
            e.state.series.resize(kServerSeriesCount);
        for (int i = 0; i < kServerSeriesCount; ++i)
            e.state.series[size_t(i)].append(s.timeMs, values[i]);
    }
    e.state.last = s;
    Q_EMIT statusUpdated(port, s);
    if (wasReachable != s.reachable && (wasReachable || !e.state.running()))
        scanNow(); // went away (ours ended, or the port is free again), or came up: ours, launched elsewhere?
}

void ServerSession::onJobFinished(quint16 port, const JobInfo& info)
{
    const auto it = m_entries.find(port);
    if (it == m_entries.end())
        return;
    Entry& e = *it->second;
    if (!e.state.running() || e.state.job->id != info.id)
        return; // already seen (its log tail and a scan both tell)
    e.state.job = info;
    e.state.stopping = false;
    e.tail.reset();
    timeline::recordServerStopped(m_hostKey, info.id, info.exitStatus, info.cancelled);
    const QString how = info.cancelled       ? QStringLiteral("stopped")
        : info.state == JobInfo::State::Lost ? QStringLiteral("lost (its runner is gone)")
                                             : QStringLiteral("exited with status %1").arg(info.exitStatus);
    appendLog(e, QStringLiteral("[KernelForge] Server on port %1 (job %2) %3\n").arg(port).arg(info.id, how).toUtf8());
    log::monitor()->info("server job {} on {} port {}: {}", info.id, m_hostKey, port, how);
    updateFollowing();
    Q_EMIT serverEnded(info);
    Q_EMIT serversChanged();
    scanNow();
}

void ServerSession::launch(const LaunchRequest& request)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const quint16 port = request.profile.port;
    if (m_launching) {
        Q_EMIT launchFinished(port, LaunchAttempt(),
            QStringLiteral("a launch on %1 is still under way: wait for its answer").arg(m_hostKey));
        return;
    }
    m_launching = true;
    Q_EMIT serversChanged();
    LaunchRequest r = request;
    if (r.root.isEmpty())
        r.root = m_root;
    auto transport = m_transport;
    m_requests.track(QtConcurrent::run(transportPool(), [transport, r] { return launchServer(*transport, r); }),
        [this, port](const Result<LaunchAttempt>& result) {
            m_launching = false;
            if (result && result->job) {
                adopt(entry(port), *result->job, 0);
                updateFollowing();
            }
            Q_EMIT launchFinished(port, result ? *result : LaunchAttempt(), result ? QString() : result.error());
            Q_EMIT serversChanged();
            scanNow();
        });
}

void ServerSession::stop(quint16 port)
{
    Q_ASSERT(QThread::currentThread() == thread());
    const auto it = m_entries.find(port);
    if (it == m_entries.end() || !it->second->state.running()) {
        Q_EMIT stopFailed(
            port, QStringLiteral("no server KernelForge started runs on port %1 of %2").arg(port).arg(m_hostKey));
        return;
    }
    Entry& e = *it->second;
    if (e.state.stopping)
        return;
    e.state.stopping = true;
    Q_EMIT serversChanged();
    auto transport = m_transport;
    const QString id = e.state.job->id;
    const QString root = m_root;
    m_requests.track(
        QtConcurrent::run(transportPool(), [transport, id, root] { return stopServer(*transport, id, root); }),
        [this, port](const Result<void>& r) {
            if (!r) {
                if (auto at = m_entries.find(port); at != m_entries.end())
                    at->second->state.stopping = false;
                Q_EMIT stopFailed(port, r.error());
                Q_EMIT serversChanged();
            }
            scanNow(); // the end comes through the job's log tail, or this scan when nothing follows it
        });
}

QList<quint16> ServerSession::ports() const
{
    QList<quint16> out;
    for (const auto& [port, e] : m_entries)
        out.append(port);
    return out;
}

const ServerState* ServerSession::server(quint16 port) const
{
    const auto it = m_entries.find(port);
    return it == m_entries.end() ? nullptr : &it->second->state;
}

QList<quint16> ServerSession::runningPorts() const
{
    QList<quint16> out;
    for (const auto& [port, e] : m_entries)
        if (e->state.running())
            out.append(port);
    return out;
}

} // namespace kf
