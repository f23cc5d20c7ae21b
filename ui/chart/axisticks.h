// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

#include <algorithm>
#include <cmath>

// Value-axis ticks shared by the charts (TimeChart, SweepChart): steps a reader can count in
// and labels that never read "-0".
namespace kf::chart {

// 1, 2, 2.5 or 5 times a power of ten, at least raw.
inline double niceStep(double raw)
{
    if (!(raw > 0) || !std::isfinite(raw))
        return 1;
    const double p = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : { 1.0, 2.0, 2.5, 5.0, 10.0 }) {
        if (m * p >= raw * (1 - 1e-9))
            return m * p;
    }
    return 10 * p;
}

// Decimals a tick label needs at that step: every multiple of it printed exactly (0.25 steps
// need two, 2.5 steps one), never rounded to a neighbour's label ("0.3" for 0.25).
inline int decimalsFor(double step)
{
    if (!(step > 0) || !std::isfinite(step))
        return 0;
    for (int d = 0; d < 6; ++d) {
        const double scaled = step * std::pow(10.0, d);
        if (std::abs(scaled - std::round(scaled)) < 1e-6 * std::max(1.0, scaled))
            return d;
    }
    return 6;
}

// Decimals of a value read out (the hover box) on an axis showing `span` (hi - lo): a thousandth
// of the span, so a chart (one unit, one scale) reads every series to the same precision.
inline int readoutDecimals(double span)
{
    if (!(span > 0) || !std::isfinite(span))
        return 2;
    return std::clamp(int(std::ceil(-std::log10(span / 1000) - 1e-9)), 0, 6);
}

inline QString valueLabel(double v, int decimals)
{
    if (std::abs(v) < 1e-12)
        v = 0; // no "-0"
    if (std::abs(v) >= 100000)
        return QString::number(v / 1000, 'f', 0) + u'k';
    return QString::number(v, 'f', decimals);
}

} // namespace kf::chart
