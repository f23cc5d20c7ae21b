// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <cstdio>

// One line per measured comparison, collected by scripts/bench into docs/PERFORMANCE.md:
//   KF-RESULT<TAB>area<TAB>what<TAB>ours<TAB>anchor name<TAB>anchor value<TAB>unit<TAB>ratio
// ratio > 1 means KernelForge is better (faster, more throughput, less time), whatever the unit.
// anchorValue <= 0 means "no anchor": ratio is printed as "-" and the goal column says why.
namespace kf::bench {

inline void report(const char* area, const char* what, double ours, const char* anchorName, double anchorValue,
    const char* unit, bool higherIsBetter)
{
    if (anchorValue > 0 && ours > 0) {
        const double ratio = higherIsBetter ? ours / anchorValue : anchorValue / ours;
        printf(
            "KF-RESULT\t%s\t%s\t%.4g\t%s\t%.4g\t%s\tx%.2f\n", area, what, ours, anchorName, anchorValue, unit, ratio);
    } else {
        printf("KF-RESULT\t%s\t%s\t%.4g\t%s\t-\t%s\t-\n", area, what, ours, anchorName, unit);
    }
    fflush(stdout);
}

} // namespace kf::bench
