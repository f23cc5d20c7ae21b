// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/timeseries/seriesbuffer.h"

#include <cmath>
#include <limits>

namespace kf {

void SeriesBuffer::Ring::push(const Point& p)
{
    const int cap = int(data.size());
    if (count < cap) {
        data[size_t((head + count) % cap)] = p;
        ++count;
    } else {
        data[size_t(head)] = p;
        head = (head + 1) % cap;
    }
}

int SeriesBuffer::Ring::lowerBound(qint64 t) const
{
    int lo = 0;
    int hi = count;
    while (lo < hi) {
        const int mid = (lo + hi) / 2;
        if (at(mid).t < t)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

SeriesBuffer::SeriesBuffer(const QList<Level>& levels)
{
    for (const auto& l : levels) {
        Ring r;
        r.bucketMs = l.bucketMs;
        r.data.resize(size_t(qMax(1, l.capacity)));
        m_levels.push_back(std::move(r));
    }
    if (m_levels.empty()) {
        Ring r;
        r.data.resize(1);
        m_levels.push_back(std::move(r));
    }
}

void SeriesBuffer::clear()
{
    for (auto& r : m_levels) {
        r.head = 0;
        r.count = 0;
        r.hasOpen = false;
    }
    m_lastT = 0;
    m_lastValue = 0;
}

void SeriesBuffer::append(qint64 tMs, double value)
{
    if (!isEmpty() && tMs < m_lastT)
        return;
    m_lastT = tMs;
    m_lastValue = value;
    const float v = float(value);
    for (auto& r : m_levels) {
        if (r.bucketMs <= 0) {
            r.push({ tMs, v, v });
            continue;
        }
        const qint64 start = tMs - (tMs % r.bucketMs);
        if (r.hasOpen && r.open.t != start) {
            if (!std::isnan(r.open.min))
                r.push(r.open);
            r.hasOpen = false;
        }
        if (!r.hasOpen) {
            r.open = { start, v, v };
            r.hasOpen = true;
        } else if (!std::isnan(v)) {
            // fmin/fmax ignore NaN, so a bucket that began with a gap takes the first value.
            r.open.min = std::fmin(r.open.min, v);
            r.open.max = std::fmax(r.open.max, v);
        }
    }
}

qint64 SeriesBuffer::firstTime() const
{
    qint64 first = std::numeric_limits<qint64>::max();
    for (const auto& r : m_levels) {
        if (r.count > 0)
            first = qMin(first, r.at(0).t);
        else if (r.hasOpen)
            first = qMin(first, r.open.t);
    }
    return first == std::numeric_limits<qint64>::max() ? 0 : first;
}

std::vector<SeriesBuffer::Point> SeriesBuffer::points(int level, qint64 fromMs, qint64 toMs) const
{
    std::vector<Point> out;
    const Ring& r = m_levels[size_t(level)];
    for (int i = r.lowerBound(fromMs); i < r.count && r.at(i).t <= toMs; ++i)
        out.push_back(r.at(i));
    if (r.hasOpen && r.open.t >= fromMs && r.open.t <= toMs && !std::isnan(r.open.min))
        out.push_back(r.open);
    return out;
}

int SeriesBuffer::levelFor(qint64 fromMs) const
{
    // The finest level that still holds the window start: one that reaches back to it, or
    // one that never dropped anything (not yet wrapped). Otherwise the one reaching furthest.
    int best = int(m_levels.size()) - 1;
    qint64 bestFirst = std::numeric_limits<qint64>::max();
    for (int i = 0; i < int(m_levels.size()); ++i) {
        const Ring& r = m_levels[size_t(i)];
        if (r.count == 0 && !r.hasOpen)
            continue;
        const qint64 first = r.count > 0 ? r.at(0).t : r.open.t;
        if (first <= fromMs || r.count < int(r.data.size()))
            return i;
        if (first < bestFirst) {
            bestFirst = first;
            best = i;
        }
    }
    return best;
}

QList<QPointF> SeriesBuffer::decimated(qint64 fromMs, qint64 toMs, int columns) const
{
    QList<QPointF> out;
    if (toMs <= fromMs || columns <= 0 || isEmpty())
        return out;
    const int level = levelFor(fromMs);
    const Ring& r = m_levels[size_t(level)];
    const double span = double(toMs - fromMs);
    out.reserve(2 * columns + 2);

    int column = -1;
    Point lo {}, hi {};
    qint64 loT = 0, hiT = 0;
    bool have = false;
    auto flush = [&]() {
        if (!have)
            return;
        if (loT == hiT && lo.min == hi.max) {
            out.append(QPointF(double(loT), double(lo.min)));
        } else if (loT <= hiT) {
            out.append(QPointF(double(loT), double(lo.min)));
            out.append(QPointF(double(hiT), double(hi.max)));
        } else {
            out.append(QPointF(double(hiT), double(hi.max)));
            out.append(QPointF(double(loT), double(lo.min)));
        }
        have = false;
    };
    // A gap (a NaN sample in the raw level, a missing bucket in an aggregated one) becomes
    // one NaN point between the data around it, so a chart stops the line there.
    bool gapPending = false;
    qint64 gapT = 0;
    qint64 prevT = std::numeric_limits<qint64>::min();
    auto take = [&](const Point& p) {
        if (std::isnan(p.min)) {
            if (!gapPending) {
                gapPending = true;
                gapT = p.t;
            }
            return;
        }
        if (r.bucketMs > 0 && prevT != std::numeric_limits<qint64>::min() && p.t - prevT > r.bucketMs && !gapPending) {
            gapPending = true;
            gapT = prevT + r.bucketMs;
        }
        prevT = p.t;
        if (gapPending) {
            gapPending = false;
            if (have || !out.isEmpty()) {
                flush();
                out.append(QPointF(double(gapT), std::numeric_limits<double>::quiet_NaN()));
            }
        }
        const int c = qBound(0, int(double(p.t - fromMs) * columns / span), columns - 1);
        if (c != column) {
            flush();
            column = c;
        }
        if (!have) {
            lo = hi = p;
            loT = hiT = p.t;
            have = true;
            return;
        }
        if (p.min < lo.min) {
            lo = p;
            loT = p.t;
        }
        if (p.max > hi.max) {
            hi = p;
            hiT = p.t;
        }
    };
    for (int i = r.lowerBound(fromMs); i < r.count; ++i) {
        const Point& p = r.at(i);
        if (p.t > toMs)
            break;
        take(p);
    }
    if (r.hasOpen && r.open.t >= fromMs && r.open.t <= toMs)
        take(r.open);
    flush();
    if (gapPending && !out.isEmpty())
        out.append(QPointF(double(gapT), std::numeric_limits<double>::quiet_NaN()));
    return out;
}

QList<QPointF> SeriesBuffer::history() const
{
    QList<QPointF> out;
    // Coarsest first, each level only before what the finer ones hold.
    qint64 before = std::numeric_limits<qint64>::max();
    std::vector<QList<QPointF>> parts(m_levels.size());
    for (size_t level = 0; level < m_levels.size(); ++level) {
        const Ring& r = m_levels[level];
        QList<QPointF>& part = parts[level];
        auto take = [&](const Point& p) {
            if (p.t < before)
                part.append(QPointF(double(p.t), (double(p.min) + double(p.max)) / 2));
        };
        for (int i = 0; i < r.count; ++i)
            take(r.at(i));
        if (r.hasOpen && !std::isnan(r.open.min))
            take(r.open);
        if (!part.isEmpty())
            before = qMin(before, qint64(part.first().x()));
        if (r.count < int(r.data.size()))
            break; // this level never dropped a sample: it holds everything since the first
    }
    for (auto it = parts.rbegin(); it != parts.rend(); ++it)
        out += *it;
    return out;
}

size_t SeriesBuffer::memoryBytes() const
{
    size_t bytes = sizeof(*this);
    for (const auto& r : m_levels)
        bytes += sizeof(Ring) + r.data.capacity() * sizeof(Point);
    return bytes;
}

} // namespace kf
