// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QJsonValue>

#include <cmath>
#include <limits>

// One "no value" for measured values (GPU samples, server metrics, server facts): a double
// that is NaN. nvidia-smi's [N/A], [Not Supported], [Unknown Error] and [Insufficient
// Permissions], a metric the server does not export and a fact the script could not read are
// all noValue(), never 0 or -1 (those are values). SeriesBuffer and TimeChart draw it as a
// gap, JSON writes null, text shows a dash. Ids and counts that are not measured (a GPU
// index, a pid, a CPU count) keep their integer types.
namespace kf {

constexpr double noValue()
{
    return std::numeric_limits<double>::quiet_NaN();
}

inline bool hasValue(double v)
{
    return !std::isnan(v);
}

// Equal, or both without a value (NaN is not equal to itself).
inline bool sameValue(double a, double b)
{
    return a == b || (!hasValue(a) && !hasValue(b));
}

// null for no value (and for infinities, which JSON cannot hold).
inline QJsonValue jsonValue(double v)
{
    return std::isfinite(v) ? QJsonValue(v) : QJsonValue(QJsonValue::Null);
}

} // namespace kf
