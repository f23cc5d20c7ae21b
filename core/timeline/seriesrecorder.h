// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/timeseries/seriesbuffer.h"
#include "core/util/result.h"

#include <QHash>
#include <QList>
#include <QMap>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QTimer>

#include <array>
#include <memory>

// The measurements drawn under a host's timeline: the GPUs' power (all GPUs together, W),
// temperature (the hottest GPU, °C) and memory in use (all GPUs, % of their total), and each
// inference server's generation throughput (tok/s, from /metrics), a series per server named by
// its port and model (ServerKey), never two servers in one line.
//
// While the app runs, SeriesRecorder keeps them per host in memory (SeriesBuffer: 65 min at
// full rate, 24 h of 10 s buckets) and writes one row per host and minute to the history
// database (timeline_minutes, created with the events: core/timeline/eventstore.h): the mean
// of each (the maximum for temperature), NULL for a series without a sample in that minute;
// a server's tok/s goes to timeline_server_minutes, one row per host, server and minute with a
// sample. timeline_minutes' tok_s column is what was recorded before servers were told apart:
// read (serverTokenSeries() draws it as a series of its own), no longer written.
// Rows older than kRetentionDays are deleted, so the table holds at most 35 x 1440 rows per
// host (about 60 bytes each: ~3 MB a host), whatever the uptime.
//
// Nothing is invented: only what KernelForge measured is stored, a minute without samples
// has no row, a sample that follows the previous one of its series after more than
// kMaxSampleGapMs starts a new line (a NaN point first), and mergedSeries() draws gaps there.
namespace kf {

class GpuMonitorHub;
class HostSessions;
struct GpuSample;
struct ServerStatus;

namespace timeline {

enum class Series { Power, Temperature, Memory, Tokens };
constexpr int kSeriesCount = 4;
QString seriesTitle(Series s); // "GPU power"
QString seriesUnit(Series s);  // "W"

constexpr int kRetentionDays = 35;
constexpr qint64 kMaxSampleGapMs = 30000;

struct MinuteRow
{
    qint64 t = 0;                            // start of the minute, ms since the epoch
    std::array<double, kSeriesCount> values; // NaN: no sample
};

// A server of a host, as its tok/s is recorded: its port and the model it serves (empty when it
// never said).
struct ServerKey
{
    quint16 port = 0;
    QString model;
    bool operator==(const ServerKey&) const = default;
    bool operator<(const ServerKey& o) const { return port != o.port ? port < o.port : model < o.model; }
};

struct ServerMinuteRow
{
    qint64 t = 0; // start of the minute, ms since the epoch
    ServerKey server;
    double tokensPerS = 0; // the minute's mean
};

Result<void> saveMinutes(const QString& host, const QList<MinuteRow>& rows);
Result<void> saveServerMinutes(const QString& host, const QList<ServerMinuteRow>& rows);
// Oldest first within each server, minutes starting in [fromMs, toMs].
Result<QList<ServerMinuteRow>> loadServerMinutes(const QString& host, qint64 fromMs, qint64 toMs);
// Oldest first, minutes starting in [fromMs, toMs].
Result<QList<MinuteRow>> loadMinutes(const QString& host, qint64 fromMs, qint64 toMs);
// Deletes rows older than nowMs - kRetentionDays; returns how many.
Result<int> pruneMinutes(qint64 nowMs);

// Per-host series in memory plus the minutes stored. Lives in the GUI thread.
class SeriesRecorder : public QObject
{
    Q_OBJECT
public:
    explicit SeriesRecorder(QObject* parent = nullptr);
    ~SeriesRecorder() override; // writes the minutes not yet written

    // Records every host's GPU blocks and gaps from the hub's monitors, present and future.
    void watch(GpuMonitorHub* hub);
    // Records every poll of every host's servers (their ServerSessions), present and future.
    void watch(HostSessions* sessions);
    void addGpuBlock(const QString& host, qint64 tMs, const QList<GpuSample>& gpus);
    // The GPU stream recorded a gap: the GPU lines stop at fromMs.
    void addGap(const QString& host, qint64 fromMs);
    // A /metrics poll of the server on status.port: its tokens/s, or a gap when it did not answer
    // with metrics (kept in the line of the model that port last served).
    void addServerStatus(const QString& host, const ServerStatus& status);

    // Null when nothing was recorded for host since the app started (Series::Tokens: see liveServer).
    const SeriesBuffer* live(const QString& host, Series series) const;
    // The servers recorded for host since the app started, and one's tok/s (null: not recorded).
    QList<ServerKey> liveServers(const QString& host) const;
    const SeriesBuffer* liveServer(const QString& host, const ServerKey& server) const;
    // Writes every finished minute (also done every minute by a timer).
    void flush();

Q_SIGNALS:
    void updated(const QString& host);

private:
    struct HostSeries;
    HostSeries& hostSeries(const QString& host);
    void add(const QString& host, Series series, qint64 tMs, double value);
    void writeFinished(bool all);

    QHash<QString, std::shared_ptr<HostSeries>> m_hosts;
    QTimer m_flushTimer;
    qint64 m_lastPrune = 0;
};

// The points to draw for one series in [fromMs, toMs]: stored minutes before what the live
// buffer covers, then the live buffer (null: stored minutes only); at most about 2 x columns
// points, NaN where nothing was recorded.
QList<QPointF> mergedSeries(
    const SeriesBuffer* live, const QList<MinuteRow>& stored, Series series, qint64 fromMs, qint64 toMs, int columns);

struct LabelledSeries
{
    QString label; // "port 30000 · Qwen/Qwen3-8B"
    QList<QPointF> points;
};

// The tok/s lines to draw in [fromMs, toMs]: one per server (stored minutes, then what the
// recorder holds live; recorder may be null), ordered by port and model, then the minutes
// recorded before servers were told apart (legacy: timeline_minutes' tok_s), if any, as their own
// line labelled so.
QList<LabelledSeries> serverTokenSeries(const SeriesRecorder* recorder, const QString& host,
    const QList<ServerMinuteRow>& stored, const QList<MinuteRow>& legacy, qint64 fromMs, qint64 toMs, int columns);

} // namespace timeline
} // namespace kf
