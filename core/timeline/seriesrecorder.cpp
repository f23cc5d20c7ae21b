// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/timeline/seriesrecorder.h"

#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostconnection.h"
#include "core/log/logging.h"
#include "core/server/serversession.h"
#include "core/sessions/hostsessions.h"
#include "core/store/database.h"
#include "core/timeline/eventstore.h"
#include "core/timeline/hostkey.h"

#include <QDateTime>
#include <QMap>
#include <QSqlError>
#include <QSqlQuery>
#include <QVariant>

#include <algorithm>
#include <cmath>
#include <limits>

namespace kf::timeline {
namespace {

constexpr qint64 kMinuteMs = 60000;
constexpr qint64 kOpenMinutes = 2;
const char* const kColumns[kSeriesCount] = { "power_w", "temp_c", "mem_pct", "tok_s" };

QVariant real(double v)
{
    return std::isfinite(v) ? QVariant(v) : QVariant(QMetaType::fromType<double>());
}

// Appends points to out, at most two per column of [fromMs, toMs] (the min and the max, in
// time order), keeping NaN gap markers.
void decimateInto(const QList<QPointF>& points, qint64 fromMs, qint64 toMs, int columns, QList<QPointF>& out)
{
    if (points.size() <= 2 * qsizetype(columns)) {
        out += points;
        return;
    }
    const double width = double(toMs - fromMs) / double(qMax(1, columns));
    qsizetype i = 0;
    while (i < points.size()) {
        const int column = int((points[i].x() - double(fromMs)) / width);
        QPointF lo(0, noValue()), hi(0, noValue());
        bool gap = false;
        for (; i < points.size() && int((points[i].x() - double(fromMs)) / width) == column; ++i) {
            const QPointF& p = points[i];
            if (std::isnan(p.y())) {
                gap = true;
                continue;
            }
            if (std::isnan(lo.y()) || p.y() < lo.y())
                lo = p;
            if (std::isnan(hi.y()) || p.y() > hi.y())
                hi = p;
        }
        if (!std::isnan(lo.y())) {
            if (lo.x() <= hi.x()) {
                out.append(lo);
                if (hi != lo)
                    out.append(hi);
            } else {
                out.append(hi);
                out.append(lo);
            }
        }
        if (gap)
            out.append(QPointF(out.isEmpty() ? double(fromMs) : out.last().x(), noValue()));
    }
}

} // namespace

QString seriesTitle(Series s)
{
    switch (s) {
    case Series::Power: return QStringLiteral("GPU power (all GPUs)");
    case Series::Temperature: return QStringLiteral("GPU temperature (hottest)");
    case Series::Memory: return QStringLiteral("GPU memory in use");
    case Series::Tokens: return QStringLiteral("Server generation throughput");
    }
    return {};
}

QString seriesUnit(Series s)
{
    switch (s) {
    case Series::Power: return QStringLiteral("W");
    case Series::Temperature: return QStringLiteral("\u00b0C");
    case Series::Memory: return QStringLiteral("%");
    case Series::Tokens: return QStringLiteral("tok/s");
    }
    return {};
}

Result<void> saveMinutes(const QString& host, const QList<MinuteRow>& rows)
{
    if (rows.isEmpty())
        return {};
    if (const Result<void> s = ensureSchema(); !s)
        return s;
    auto db = store::database();
    if (!db)
        return db.withoutValue();
    QSqlDatabase d = db.value();
    d.transaction();
    QSqlQuery q(d);
    q.prepare(
        QStringLiteral("INSERT OR REPLACE INTO timeline_minutes(host, t, power_w, temp_c, mem_pct, tok_s) VALUES(?, ?, "
                       "?, ?, ?, ?)"));
    for (const MinuteRow& r : rows) {
        q.addBindValue(host);
        q.addBindValue(r.t);
        for (double v : r.values)
            q.addBindValue(real(v));
        if (!q.exec()) {
            d.rollback();
            return Result<void>::failure(
                QStringLiteral("history database: cannot store series: %1").arg(q.lastError().text()));
        }
    }
    d.commit();
    return {};
}

Result<QList<MinuteRow>> loadMinutes(const QString& host, qint64 fromMs, qint64 toMs)
{
    return store::readRows(&ensureSchema,
        QStringLiteral("SELECT t, power_w, temp_c, mem_pct, tok_s FROM timeline_minutes WHERE host = ? AND t BETWEEN ? "
                       "AND ? ORDER BY t"),
        { host, fromMs, toMs }, QStringLiteral("cannot read series"), [](const QSqlQuery& q) {
            MinuteRow r;
            r.t = q.value(0).toLongLong();
            for (int i = 0; i < kSeriesCount; ++i)
                r.values[size_t(i)] = q.value(i + 1).isNull() ? noValue() : q.value(i + 1).toDouble();
            return r;
        });
}

Result<void> saveServerMinutes(const QString& host, const QList<ServerMinuteRow>& rows)
{
    for (const ServerMinuteRow& r : rows) {
        const auto q = store::exec(&ensureSchema,
            QStringLiteral(
                "INSERT OR REPLACE INTO timeline_server_minutes(host, port, model, t, tok_s) VALUES(?, ?, ?, "
                "?, ?)"),
            // A model never said is stored as '' (a null QString would bind NULL).
            { host, int(r.server.port), r.server.model.isNull() ? QStringLiteral("") : r.server.model, r.t,
                r.tokensPerS },
            QStringLiteral("cannot store series"));
        if (!q)
            return q.withoutValue();
    }
    return {};
}

Result<QList<ServerMinuteRow>> loadServerMinutes(const QString& host, qint64 fromMs, qint64 toMs)
{
    return store::readRows(&ensureSchema,
        QStringLiteral("SELECT t, port, model, tok_s FROM timeline_server_minutes WHERE host = ? AND t BETWEEN ? AND ? "
                       "ORDER BY port, model, t"),
        { host, fromMs, toMs }, QStringLiteral("cannot read series"), [](const QSqlQuery& q) {
            ServerMinuteRow r;
            r.t = q.value(0).toLongLong();
            r.server.port = quint16(q.value(1).toUInt());
            r.server.model = q.value(2).toString();
            r.tokensPerS = q.value(3).toDouble();
            return r;
        });
}

Result<int> pruneMinutes(qint64 nowMs)
{
    const qint64 before = nowMs - qint64(kRetentionDays) * 24 * 3600 * 1000;
    int pruned = 0;
    for (const QString& table : { QStringLiteral("timeline_minutes"), QStringLiteral("timeline_server_minutes") }) {
        const auto q = store::exec(&ensureSchema, QStringLiteral("DELETE FROM %1 WHERE t < ?").arg(table), { before },
            QStringLiteral("cannot prune series"));
        if (!q)
            return q.withoutValue();
        pruned += q->numRowsAffected();
    }
    return pruned;
}

struct SeriesRecorder::HostSeries
{
    std::array<SeriesBuffer, kSeriesCount> live;
    std::array<qint64, kSeriesCount> lastT {};
    // Minutes being filled: sums (maximum for temperature) and counts per series. A few stay
    // open, so that series on different clocks (the GPUs' timestamps, this machine's polls)
    // still land in the right minute.
    struct Minute
    {
        std::array<double, kSeriesCount> acc {};
        std::array<int, kSeriesCount> count {};
    };
    QMap<qint64, Minute> open;
    QList<MinuteRow> finished; // not yet written
    qint64 closedBefore = std::numeric_limits<qint64>::min();
    // Each server's tok/s: live, and its open minutes (sum, count).
    struct Server
    {
        SeriesBuffer live;
        qint64 lastT = 0;
        QMap<qint64, std::pair<double, int>> open;
    };
    QMap<ServerKey, Server> servers;
    QHash<quint16, QString> modelOf;       // the model each port last served
    QList<ServerMinuteRow> serverFinished; // not yet written

    // Moves the open minutes that start before `before` to finished.
    void close(qint64 before)
    {
        closedBefore = std::max(closedBefore, before);
        for (auto server = servers.begin(); server != servers.end(); ++server) {
            auto& open = server->open;
            for (auto it = open.begin(); it != open.end() && it.key() < before; it = open.erase(it))
                serverFinished.append({ it.key(), server.key(), it->first / it->second });
        }
        for (auto it = open.begin(); it != open.end() && it.key() < before;) {
            MinuteRow row;
            row.t = it.key();
            for (int i = 0; i < kSeriesCount; ++i) {
                const auto k = size_t(i);
                const bool max = i == int(Series::Temperature);
                row.values[k] = it->count[k] == 0 ? noValue() : (max ? it->acc[k] : it->acc[k] / it->count[k]);
            }
            finished.append(row);
            it = open.erase(it);
        }
    }
};

SeriesRecorder::SeriesRecorder(QObject* parent)
    : QObject(parent)
{
    m_flushTimer.setInterval(int(kMinuteMs));
    connect(&m_flushTimer, &QTimer::timeout, this, &SeriesRecorder::flush);
    m_flushTimer.start();
}

SeriesRecorder::~SeriesRecorder()
{
    writeFinished(true);
}

void SeriesRecorder::watch(GpuMonitorHub* hub)
{
    auto follow = [this](HostConnection* host, GpuMonitor* monitor) {
        if (!host || !monitor)
            return;
        const QString key = hostKey(host->profile());
        connect(monitor, &GpuMonitor::samplesUpdated, this,
            [this, key, monitor](const QList<GpuSample>& gpus) { addGpuBlock(key, monitor->latestTimeMs(), gpus); });
        connect(monitor, &GpuMonitor::gapRecorded, this, [this, key](qint64 from, qint64) { addGap(key, from); });
    };
    for (GpuMonitor* m : hub->monitors())
        follow(hub->hostOf(m), m);
    connect(hub, &GpuMonitorHub::monitorAdded, this, follow);
}

SeriesRecorder::HostSeries& SeriesRecorder::hostSeries(const QString& host)
{
    auto it = m_hosts.find(host);
    if (it == m_hosts.end())
        it = m_hosts.insert(host, std::make_shared<HostSeries>());
    return **it;
}

void SeriesRecorder::add(const QString& host, Series series, qint64 tMs, double value)
{
    HostSeries& h = hostSeries(host);
    const auto i = size_t(series);
    if (h.lastT[i] > 0 && tMs - h.lastT[i] > kMaxSampleGapMs)
        h.live[i].append(h.lastT[i] + 1, noValue()); // what was not measured stays a gap
    h.live[i].append(tMs, value);
    h.lastT[i] = std::max(h.lastT[i], tMs);
    if (!std::isfinite(value))
        return;
    const qint64 minute = tMs - tMs % kMinuteMs;
    if (minute < h.closedBefore)
        return; // a minute already closed (and maybe written)
    HostSeries::Minute& m = h.open[minute];
    if (series == Series::Temperature)
        m.acc[i] = m.count[i] == 0 ? value : std::max(m.acc[i], value);
    else
        m.acc[i] += value;
    ++m.count[i];
    h.close(h.open.lastKey() - kOpenMinutes * kMinuteMs);
}

void SeriesRecorder::addGpuBlock(const QString& host, qint64 tMs, const QList<GpuSample>& gpus)
{
    if (gpus.isEmpty())
        return;
    double power = 0, hottest = noValue(), used = 0, total = 0;
    bool anyPower = false;
    for (const GpuSample& g : gpus) {
        if (hasValue(g.value(GpuField::PowerDraw))) {
            power += g.value(GpuField::PowerDraw);
            anyPower = true;
        }
        if (hasValue(g.value(GpuField::TempGpu)) && !(g.value(GpuField::TempGpu) <= hottest))
            hottest = g.value(GpuField::TempGpu);
        if (hasValue(g.value(GpuField::MemUsed)) && hasValue(g.value(GpuField::MemTotal))
            && g.value(GpuField::MemTotal) > 0) {
            used += g.value(GpuField::MemUsed);
            total += g.value(GpuField::MemTotal);
        }
    }
    const qint64 t = tMs > 0 ? tMs : QDateTime::currentMSecsSinceEpoch();
    add(host, Series::Power, t, anyPower ? power : noValue());
    add(host, Series::Temperature, t, hottest);
    add(host, Series::Memory, t, total > 0 ? 100.0 * used / total : noValue());
    Q_EMIT updated(host);
}

void SeriesRecorder::addGap(const QString& host, qint64 fromMs)
{
    for (Series s : { Series::Power, Series::Temperature, Series::Memory })
        add(host, s, fromMs + 1, noValue());
    Q_EMIT updated(host);
}

void SeriesRecorder::watch(HostSessions* sessions)
{
    auto follow = [this](HostConnection*, ServerSession* session) {
        if (!session)
            return;
        const QString host = session->hostKey();
        connect(session, &ServerSession::statusUpdated, this,
            [this, host](quint16, const ServerStatus& s) { addServerStatus(host, s); });
    };
    for (ServerSession* s : sessions->serverSessions())
        follow(nullptr, s);
    connect(sessions, &HostSessions::serverSessionAdded, this, follow);
}

void SeriesRecorder::addServerStatus(const QString& host, const ServerStatus& status)
{
    HostSeries& h = hostSeries(host);
    const double tokens = status.reachable && status.hasMetrics ? status.metrics.genThroughput : noValue();
    ServerKey key { status.port, status.reachable ? status.modelPath : QString() };
    if (key.model.isEmpty())
        key.model = h.modelOf.value(status.port); // a gap in the line of the port's last server
    else
        h.modelOf.insert(status.port, key.model);
    if (!h.servers.contains(key) && !std::isfinite(tokens))
        return; // nothing measured for a server never recorded
    HostSeries::Server& server = h.servers[key];
    const qint64 t = status.timeMs > 0 ? status.timeMs : QDateTime::currentMSecsSinceEpoch();
    if (server.lastT > 0 && t - server.lastT > kMaxSampleGapMs)
        server.live.append(server.lastT + 1, noValue()); // what was not measured stays a gap
    server.live.append(t, tokens);
    server.lastT = std::max(server.lastT, t);
    const qint64 minute = t - t % kMinuteMs;
    if (std::isfinite(tokens) && minute >= h.closedBefore) {
        auto& m = server.open[minute];
        m.first += tokens;
        ++m.second;
        h.close(minute - kOpenMinutes * kMinuteMs);
    }
    Q_EMIT updated(host);
}

QList<ServerKey> SeriesRecorder::liveServers(const QString& host) const
{
    const auto it = m_hosts.constFind(host);
    return it == m_hosts.cend() ? QList<ServerKey>() : (*it)->servers.keys();
}

const SeriesBuffer* SeriesRecorder::liveServer(const QString& host, const ServerKey& server) const
{
    const auto it = m_hosts.constFind(host);
    if (it == m_hosts.cend())
        return nullptr;
    const auto s = (*it)->servers.constFind(server);
    return s == (*it)->servers.cend() ? nullptr : &s->live;
}

const SeriesBuffer* SeriesRecorder::live(const QString& host, Series series) const
{
    const auto it = m_hosts.constFind(host);
    return it == m_hosts.cend() ? nullptr : &(*it)->live[size_t(series)];
}

void SeriesRecorder::flush()
{
    writeFinished(false);
}

void SeriesRecorder::writeFinished(bool all)
{
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (auto it = m_hosts.begin(); it != m_hosts.end(); ++it) {
        HostSeries& h = **it;
        h.close(all ? std::numeric_limits<qint64>::max() : now - kOpenMinutes * kMinuteMs); // a quiet host's too
        if (!h.finished.isEmpty()) {
            if (const Result<void> s = saveMinutes(it.key(), h.finished); !s)
                log::monitor()->warn("timeline series of {}: {}", it.key(), s.error());
            h.finished.clear();
        }
        if (!h.serverFinished.isEmpty()) {
            if (const Result<void> s = saveServerMinutes(it.key(), h.serverFinished); !s)
                log::monitor()->warn("timeline server series of {}: {}", it.key(), s.error());
            h.serverFinished.clear();
        }
    }
    if (now - m_lastPrune > 3600 * 1000) {
        m_lastPrune = now;
        if (const Result<int> n = pruneMinutes(now); !n)
            log::monitor()->warn("timeline series: {}", n.error());
    }
}

namespace {

// Stored minutes (start, value) before what the live buffer covers, then the live buffer.
QList<QPointF> mergeMinutes(
    const SeriesBuffer* live, const QList<std::pair<qint64, double>>& stored, qint64 fromMs, qint64 toMs, int columns)
{
    const qint64 liveFrom = live && !live->isEmpty() ? live->firstTime() : std::numeric_limits<qint64>::max();
    QList<QPointF> points;
    qint64 last = std::numeric_limits<qint64>::min();
    for (const auto& [t, value] : stored) {
        if (t < fromMs - kMinuteMs || t > toMs || t >= liveFrom)
            continue;
        if (last != std::numeric_limits<qint64>::min() && t - last > kMinuteMs) // missing minutes
            points.append(QPointF(double(last + kMinuteMs), noValue()));
        points.append(QPointF(double(t + kMinuteMs / 2), value));
        last = t;
    }
    QList<QPointF> out;
    decimateInto(points, fromMs, toMs, columns, out);
    if (live && !live->isEmpty() && liveFrom <= toMs) {
        // The stored minutes end where the live buffer starts; a gap only where nothing was measured.
        if (!out.isEmpty() && liveFrom - (last + kMinuteMs) > kMaxSampleGapMs)
            out.append(QPointF(out.last().x(), noValue()));
        out += live->decimated(std::max(fromMs, liveFrom), toMs, columns);
    }
    return out;
}

} // namespace

QList<QPointF> mergedSeries(
    const SeriesBuffer* live, const QList<MinuteRow>& stored, Series series, qint64 fromMs, qint64 toMs, int columns)
{
    QList<std::pair<qint64, double>> minutes;
    minutes.reserve(stored.size());
    for (const MinuteRow& r : stored)
        minutes.append({ r.t, r.values[size_t(series)] });
    return mergeMinutes(live, minutes, fromMs, toMs, columns);
}

QList<LabelledSeries> serverTokenSeries(const SeriesRecorder* recorder, const QString& host,
    const QList<ServerMinuteRow>& stored, const QList<MinuteRow>& legacy, qint64 fromMs, qint64 toMs, int columns)
{
    QMap<ServerKey, QList<std::pair<qint64, double>>> minutes;
    for (const ServerMinuteRow& r : stored)
        minutes[r.server].append({ r.t, r.tokensPerS });
    if (recorder)
        for (const ServerKey& key : recorder->liveServers(host))
            minutes[key]; // a server recorded live only
    QList<LabelledSeries> out;
    for (auto it = minutes.cbegin(); it != minutes.cend(); ++it) {
        const SeriesBuffer* live = recorder ? recorder->liveServer(host, it.key()) : nullptr;
        out.append({ serverLabel(it.key().port, it.key().model), mergeMinutes(live, *it, fromMs, toMs, columns) });
    }
    const bool anyLegacy = std::any_of(legacy.cbegin(), legacy.cend(),
        [](const MinuteRow& r) { return std::isfinite(r.values[size_t(Series::Tokens)]); });
    if (anyLegacy)
        out.append({ QStringLiteral("recorded before servers were told apart"),
            mergedSeries(nullptr, legacy, Series::Tokens, fromMs, toMs, columns) });
    return out;
}

} // namespace kf::timeline
