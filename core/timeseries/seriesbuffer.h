// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QPointF>

#include <vector>

namespace kf {

// One time series in bounded memory: a ring of raw samples for the recent past plus rings
// of fixed-width min/max buckets for the long view (multi-resolution). Defaults: 1 h 5 min of
// raw 1 Hz samples and 24 h of 10 s buckets, about 200 KB a series whatever the uptime.
// decimated() answers a window with about two points per pixel column (the min and the max
// of each column, in time order), from the finest level that still covers the window, so a
// chart never receives more points than it can draw.
// Not thread-safe: owned and used by one thread (the UI thread in the app).
class SeriesBuffer
{
public:
    struct Level
    {
        qint64 bucketMs = 0; // 0: raw samples
        int capacity = 0;
    };
    struct Point
    {
        qint64 t = 0; // ms since the epoch (bucket start for aggregated levels)
        float min = 0;
        float max = 0;
    };

    static QList<Level> defaultLevels() { return { { 0, 3900 }, { 10000, 8640 } }; }
    explicit SeriesBuffer(const QList<Level>& levels = defaultLevels());

    // Samples must come in time order; an older timestamp (clock jump back) is dropped.
    // NaN is stored in the raw level as a gap and ignored by the min/max buckets (a bucket
    // with no value at all is not stored, so the gap shows as a missing bucket there).
    void append(qint64 tMs, double value);
    void clear();

    bool isEmpty() const { return m_levels.front().count == 0; }
    qint64 lastTime() const { return m_lastT; }
    double lastValue() const { return m_lastValue; }
    // Oldest time any level still holds.
    qint64 firstTime() const;
    int levelCount() const { return int(m_levels.size()); }
    int levelSize(int level) const { return m_levels[size_t(level)].count; }
    // Stored points of one level within [fromMs, toMs], oldest first (for CSV export, tests).
    std::vector<Point> points(int level, qint64 fromMs, qint64 toMs) const;
    // The level decimated() uses for a window starting at fromMs.
    int levelFor(qint64 fromMs) const;
    // x = ms since the epoch, y = value: at most 2 * columns data points, plus one point with
    // a NaN y for each gap (a NaN sample, or a missing bucket in an aggregated level) with
    // data before it; charts draw a gap there instead of joining across it.
    QList<QPointF> decimated(qint64 fromMs, qint64 toMs, int columns) const;
    // Everything held, oldest first, at the finest level that has it (what a chart's CSV export
    // writes): the raw samples (NaN gaps kept), and once the raw ring has dropped samples, before
    // the first it kept, from the coarser levels, one point per bucket (at its start, the middle
    // of its min and max).
    QList<QPointF> history() const;
    size_t memoryBytes() const;

private:
    struct Ring
    {
        qint64 bucketMs = 0;
        std::vector<Point> data;
        int head = 0; // index of the oldest element
        int count = 0;
        // The bucket being filled (aggregated levels only); not yet in data.
        Point open;
        bool hasOpen = false;
        const Point& at(int i) const { return data[size_t((head + i) % int(data.size()))]; }
        void push(const Point& p);
        int lowerBound(qint64 t) const;
    };
    std::vector<Ring> m_levels;
    qint64 m_lastT = 0;
    double m_lastValue = 0;
};

} // namespace kf
