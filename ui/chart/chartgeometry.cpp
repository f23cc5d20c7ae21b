// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/chart/chartgeometry.h"

#include "ui/chart/axisticks.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

namespace kf {

namespace {

using chart::decimalsFor;
using chart::niceStep;

// Time steps a reader can count in: seconds, minutes and hours that divide the next unit.
qint64 niceTimeStep(qint64 raw)
{
    static const qint64 steps[] = { 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000,
        1800000, 3600000, 7200000, 10800000, 21600000, 43200000, 86400000, 172800000, 604800000 };
    for (qint64 s : steps) {
        if (s >= raw)
            return s;
    }
    return steps[std::size(steps) - 1];
}

struct ValueAxis
{
    double lo = 0;
    double hi = 1;
    double step = 0.2;
};

// The shown y range for a plot of that height (more room, more ticks).
ValueAxis valueAxis(const ChartGeometry::Input& in, int plotHeight, int lineHeight)
{
    const int ticks = qBound(2, plotHeight / qMax(1, lineHeight * 2), 8);
    if (in.fixedRange) {
        const auto [lo, hi] = *in.fixedRange;
        return { lo, hi, niceStep((hi - lo) / ticks) };
    }
    if (!in.dataExtent)
        return { 0, 1, 0.5 }; // nothing to show yet: 0, 0.5, 1, not a padded range's odd steps
    auto [lo0, hi0] = *in.dataExtent;
    if (hi0 - lo0 < 1e-9) {
        // A flat line sits in the middle of a unit-sized range, not on the edge.
        const double half = std::max(0.5, std::abs(hi0) * 0.05);
        lo0 -= half;
        hi0 += half;
    }
    const bool nonNegative = lo0 >= 0;
    const double pad = (hi0 - lo0) * 0.05;
    lo0 -= pad;
    hi0 += pad;
    if (nonNegative && lo0 < 0)
        lo0 = 0;
    ValueAxis a;
    a.step = niceStep((hi0 - lo0) / ticks);
    a.lo = std::floor(lo0 / a.step + 1e-9) * a.step;
    a.hi = std::ceil(hi0 / a.step - 1e-9) * a.step;
    return a;
}

} // namespace

ChartGeometry ChartGeometry::compute(const Input& in, const QFontMetrics& fm)
{
    ChartGeometry g;
    g.m_from = in.from;
    g.m_to = qMax(in.from + 1, in.to);
    g.m_lineHeight = fm.height();
    g.m_timeLabelWidth = fm.horizontalAdvance(QStringLiteral("00:00:00"));
    const int lineH = g.m_lineHeight;
    const int width = in.size.width();
    auto setAxis = [&](int plotHeight) {
        const ValueAxis a = valueAxis(in, plotHeight, lineH);
        g.m_lo = a.lo;
        g.m_hi = a.hi;
        g.m_step = a.step;
    };

    if (in.compact) {
        g.m_plot = QRect(QPoint(0, 0), in.size).adjusted(1, 2, -1, -2);
        setAxis(g.m_plot.height());
    } else {
        // The legend wraps into rows of at most the widget's width less the padding; each row is
        // centred, so it is measured first and placed once the plot's bottom is known.
        const int legendWidth = width - 2 * kPad;
        QList<int> rowWidth;
        QList<int> rowOf;
        int x = 0;
        for (const LegendEntry& e : in.legend) {
            const int w = kSwatch + 4 + fm.horizontalAdvance(e.name);
            if (rowWidth.isEmpty() || (x > 0 && x + w > legendWidth)) {
                rowWidth.append(0);
                x = 0;
            }
            g.m_legend.append({ e.series, QRect(x, 0, w, lineH) });
            rowOf.append(int(rowWidth.size()) - 1);
            x += w + kLegendGap;
            rowWidth.last() = x - kLegendGap;
        }
        g.m_legendRows = int(rowWidth.size());

        const int titleH = in.titled ? lineH + kPad + 2 : kPad;
        const int legendH = g.m_legendRows > 0 ? g.m_legendRows * (lineH + 2) + kPad : 0;
        const int xLabelsH = lineH + kPad;
        const int top = titleH;
        const int bottom = in.size.height() - legendH - xLabelsH - kPad / 2;
        const int plotH = qMax(10, bottom - top);
        setAxis(plotH);
        // The widest y label decides the left margin.
        const int decimals = decimalsFor(g.m_step);
        int labelW = fm.horizontalAdvance(chart::valueLabel(g.m_lo, decimals));
        labelW = qMax(labelW, fm.horizontalAdvance(chart::valueLabel(g.m_hi, decimals)));
        labelW = qMax(labelW, fm.horizontalAdvance(chart::valueLabel(-std::abs(g.m_step), decimals)) * int(g.m_lo < 0));
        const int left = in.plotLeft > 0 ? in.plotLeft : kPad + labelW + 6;
        const int right = width - kPad - fm.horizontalAdvance(QStringLiteral("00:00")) / 2;
        g.m_plot = QRect(QPoint(left, top), QPoint(qMax(left + 10, right), top + plotH));

        // Legend rows under the time labels.
        const int legendTop = g.m_plot.bottom() + lineH + kPad + 2;
        for (qsizetype i = 0; i < g.m_legend.size(); ++i) {
            const int row = rowOf[i];
            g.m_legend[i].bounds.translate((width - rowWidth[row]) / 2, legendTop + row * (lineH + 2));
        }
    }
    g.m_sx = g.m_plot.width() / double(g.m_to - g.m_from);
    g.m_sy = g.m_plot.height() / (g.m_hi - g.m_lo);
    return g;
}

int ChartGeometry::valueDecimals() const
{
    return decimalsFor(m_step);
}

QString ChartGeometry::readoutLabel(double v) const
{
    const int decimals = chart::readoutDecimals(m_hi - m_lo);
    if (std::abs(v) < 0.5 * std::pow(10.0, -decimals))
        v = 0; // no "-0.0"
    return QString::number(v, 'f', decimals);
}

QString ChartGeometry::valueLabel(double v) const
{
    return chart::valueLabel(v, valueDecimals());
}

double ChartGeometry::timeToX(double t) const
{
    return m_plot.left() + (t - double(m_from)) * m_sx;
}

double ChartGeometry::xToTime(double x) const
{
    return double(m_from) + (x - m_plot.left()) / m_sx;
}

double ChartGeometry::valueToY(double v) const
{
    return m_plot.bottom() + 1 - (v - m_lo) * m_sy;
}

double ChartGeometry::yToValue(double y) const
{
    return m_lo + (m_plot.bottom() + 1 - y) / m_sy;
}

double ChartGeometry::plotX(double t) const
{
    return (t - double(m_from)) * m_sx;
}

double ChartGeometry::plotY(double v) const
{
    return double(m_plot.height()) - (v - m_lo) * m_sy;
}

std::optional<double> ChartGeometry::timeAt(int x) const
{
    if (x < m_plot.left() || x > m_plot.right())
        return std::nullopt;
    return xToTime(x);
}

QList<double> ChartGeometry::valueTicks() const
{
    QList<double> ticks;
    for (int i = 0;; ++i) {
        const double v = m_lo + i * m_step;
        if (v > m_hi + m_step * 1e-6)
            break;
        ticks.append(v);
    }
    return ticks;
}

ChartGeometry::TimeTicks ChartGeometry::timeTicks() const
{
    TimeTicks ticks;
    ticks.labelWidth = m_timeLabelWidth;
    const double span = double(m_to - m_from);
    const qint64 step = niceTimeStep(qint64(span * (m_timeLabelWidth + 24) / qMax(1, m_plot.width())));
    ticks.format = step < 60000 ? QStringLiteral("HH:mm:ss")
        : step < 86400000       ? QStringLiteral("HH:mm")
                                : QStringLiteral("MMM d");
    // Before any data the window is the 0..1 placeholder: no time to label.
    if (m_from == 0 && m_to == 1)
        return ticks;
    // Aligned to the local clock.
    const qint64 offset = qint64(QDateTime::fromMSecsSinceEpoch(m_from).offsetFromUtc()) * 1000;
    qint64 t = ((m_from + offset + step - 1) / step) * step - offset;
    if (t < m_from)
        t += step;
    for (; t <= m_to; t += step)
        ticks.times.append(t);
    // A window of hours or days crosses midnight: the tick there names the day, so "02:00"
    // cannot be read as today's when it was yesterday's.
    const bool clock = ticks.format != QStringLiteral("MMM d");
    for (const qint64 tick : std::as_const(ticks.times)) {
        const QDateTime when = QDateTime::fromMSecsSinceEpoch(tick);
        const bool midnight = clock && step >= 60000 && when.time() == QTime(0, 0);
        ticks.labels.append(when.toString(midnight ? QStringLiteral("MMM d") : ticks.format));
    }
    return ticks;
}

} // namespace kf
