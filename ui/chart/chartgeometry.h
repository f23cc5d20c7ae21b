// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QFontMetrics>
#include <QList>
#include <QRect>
#include <QSize>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

namespace kf {

// Where everything of one TimeChart goes, for one size, font, time window, value range and set
// of legend names: the plot rectangle, time <-> x and value <-> y, the grid ticks and the legend
// rows. A value computed once per paint (or per question); painting, hovering and tests read the
// same numbers, so what is drawn and what a hover reports cannot drift apart.
class ChartGeometry
{
public:
    // Legend items: a short line in the series colour and the name; wrapped into centred rows.
    static constexpr int kSwatch = 14;
    static constexpr int kLegendGap = 14;
    static constexpr int kPad = 6;

    struct LegendEntry
    {
        int series = 0; // the caller's index
        QString name;
    };
    struct Input
    {
        QSize size;
        bool compact = false;      // a sparkline: no title, axes, legend or margins
        bool titled = false;       // a title/unit line above the plot
        QList<LegendEntry> legend; // the named series, in order
        int plotLeft = 0;          // fixed left edge of the plot; 0: room for the widest y label
        qint64 from = 0;           // the time window, ms since the epoch
        qint64 to = 1;
        // The y range: fixed (e.g. 0..100 %), or nice numbers around the data extent
        // (min and max of the data and thresholds; none: nothing to show yet).
        std::optional<std::pair<double, double>> fixedRange;
        std::optional<std::pair<double, double>> dataExtent;
    };
    struct LegendItem
    {
        int series = 0;
        QRect bounds; // swatch, 4 px, name
    };
    struct TimeTicks
    {
        QList<qint64> times; // on the local clock's round numbers
        QString format;      // QDateTime format for their labels
        QStringList labels;  // one per time: in the format, but "Dec 3" at midnight for clock-time formats
        int labelWidth = 0;
    };

    static ChartGeometry compute(const Input& in, const QFontMetrics& fm);

    QRect plot() const { return m_plot; }
    // The shown value range after nice-number rounding, and its tick step.
    double lo() const { return m_lo; }
    double hi() const { return m_hi; }
    double valueStep() const { return m_step; }
    int valueDecimals() const;
    QString valueLabel(double v) const;
    // A value as the hover box reads it: one precision for the whole chart (its shown range).
    QString readoutLabel(double v) const;

    // Widget coordinates. y grows downwards: lo() sits on the plot's bottom edge, hi() on its top.
    double timeToX(double t) const;
    double xToTime(double x) const;
    double valueToY(double v) const;
    double yToValue(double y) const;
    // The same mapping relative to the plot's top-left corner (for a plot-sized layer).
    double plotX(double t) const;
    double plotY(double v) const;
    double pixelsPerMs() const { return m_sx; }
    // The time under widget column x, when x is over the plot (hover).
    std::optional<double> timeAt(int x) const;

    QList<double> valueTicks() const;
    TimeTicks timeTicks() const;

    int legendRows() const { return m_legendRows; }
    const QList<LegendItem>& legend() const { return m_legend; }
    int lineHeight() const { return m_lineHeight; }

private:
    QRect m_plot;
    qint64 m_from = 0;
    qint64 m_to = 1;
    double m_lo = 0;
    double m_hi = 1;
    double m_step = 0.2;
    double m_sx = 1;
    double m_sy = 1;
    int m_lineHeight = 0;
    int m_timeLabelWidth = 0;
    int m_legendRows = 0;
    QList<LegendItem> m_legend;
};

} // namespace kf
