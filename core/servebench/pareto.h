// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>

#include <algorithm>
#include <cmath>
#include <utility>

// The Pareto frontier of a sweep's points (x, y) with y higher-is-better and x higher- or
// lower-is-better (per-user tok/s, or a latency): the points no other point beats on both
// (at least as good on each, better on one). Points without a value (NaN) are left out.
// Returns their indices ordered along x, best y last for a latency axis: the line the
// benchmark's chart draws as its frontier.
namespace kf {

inline QList<int> paretoFrontier(const QList<std::pair<double, double>>& xy, bool xHigherIsBetter)
{
    auto better = [xHigherIsBetter](double a, double b) { return xHigherIsBetter ? a > b : a < b; };
    QList<int> out;
    for (int i = 0; i < xy.size(); ++i) {
        const auto [x, y] = xy.at(i);
        if (!std::isfinite(x) || !std::isfinite(y))
            continue;
        bool dominated = false;
        for (int j = 0; j < xy.size() && !dominated; ++j) {
            const auto [xj, yj] = xy.at(j);
            if (j == i || !std::isfinite(xj) || !std::isfinite(yj))
                continue;
            const bool noWorse = !better(x, xj) && yj >= y;
            const bool strictly = better(xj, x) || yj > y;
            dominated = noWorse && strictly;
        }
        if (!dominated)
            out.append(i);
    }
    std::sort(out.begin(), out.end(), [&xy](int a, int b) { return xy.at(a).first < xy.at(b).first; });
    return out;
}

} // namespace kf
