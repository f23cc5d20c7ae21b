// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/timeseries/seriesbuffer.h"
#include "core/util/result.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointF>
#include <QString>
#include <QTimer>

#include <array>
#include <memory>

// The measurements drawn under a host's timeline: the GPUs' power (all GPUs together, W),
// temperature (the hottest GPU, °C) and memory in use (all GPUs, % of their total), and the
// inference server's generation throughput (tok/s, from /metrics).
//
// While the app runs, SeriesRecorder keeps them per host in memory (SeriesBuffer: 65 min at
// full rate, 24 h of 10 s buckets) and writes one row per host and minute to the history
// database (timeline_minutes, created with the events: core/timeline/eventstore.h): the mean
// of each (the maximum for temperature), NULL for a series without a sample in that minute.
// Rows older than kRetentionDays are deleted, so the table holds at most 35 x 1440 rows per
// host (about 60 bytes each: ~3 MB a host), whatever the uptime.
//
// Nothing is invented: only what KernelForge measured is stored, a minute without samples
// has no row, a sample that follows the previous one of its series after more than
// kMaxSampleGapMs starts a new line (a NaN point first), and mergedSeries() draws gaps there.
namespace kf {

class GpuMonitorHub;
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

Result<void> saveMinutes(const QString& host, const QList<MinuteRow>& rows);
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
    void addGpuBlock(const QString& host, qint64 tMs, const QList<GpuSample>& gpus);
    // The GPU stream recorded a gap: the GPU lines stop at fromMs.
    void addGap(const QString& host, qint64 fromMs);
    // A /metrics poll: tokens/s, or a gap when the server did not answer with metrics.
    void addServerStatus(const QString& host, const ServerStatus& status);

    // Null when nothing was recorded for host since the app started.
    const SeriesBuffer* live(const QString& host, Series series) const;
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

} // namespace timeline
} // namespace kf
