// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <vector>

#include <unistd.h>

// One line per measured comparison, collected by scripts/bench into docs/PERFORMANCE.md:
//   KF-RESULT<TAB>area<TAB>what<TAB>ours<TAB>anchor name<TAB>anchor value<TAB>unit<TAB>ratio<TAB>spread<TAB>load
// ratio > 1 means KernelForge is better (faster, more throughput, less time), whatever the unit.
// anchorValue <= 0 means "no anchor": ratio is printed as "-" and the goal column says why.
// spread: "x0.9-x1.1 of 5" for rows measured by interleaved(), "1 run" otherwise; load: the
// 1-minute load average when the row was measured, and whether the machine was quiet then.
namespace kf::bench {

// The 1-minute load average, and "quiet" when it is at most 3/4 of the cores (the benchmark
// itself keeps about one core busy).
inline const char* loadNote()
{
    static char note[64];
    double load = -1;
    if (FILE* f = fopen("/proc/loadavg", "r")) {
        if (fscanf(f, "%lf", &load) != 1)
            load = -1;
        fclose(f);
    }
    const long cores = std::max(1L, long(sysconf(_SC_NPROCESSORS_ONLN)));
    if (load < 0)
        snprintf(note, sizeof note, "unknown");
    else
        snprintf(note, sizeof note, "%.2f (%s)", load, load <= 0.75 * double(cores) ? "quiet" : "busy");
    return note;
}

inline double ratioOf(double ours, double anchor, bool higherIsBetter)
{
    return higherIsBetter ? ours / anchor : anchor / ours;
}

inline void reportLine(const char* area, const char* what, double ours, const char* anchorName, double anchorValue,
    const char* unit, bool higherIsBetter, const char* spread)
{
    if (anchorValue > 0 && ours > 0) {
        printf("KF-RESULT\t%s\t%s\t%.4g\t%s\t%.4g\t%s\tx%.2f\t%s\t%s\n", area, what, ours, anchorName, anchorValue,
            unit, ratioOf(ours, anchorValue, higherIsBetter), spread, loadNote());
    } else {
        printf(
            "KF-RESULT\t%s\t%s\t%.4g\t%s\t-\t%s\t-\t%s\t%s\n", area, what, ours, anchorName, unit, spread, loadNote());
    }
    fflush(stdout);
}

inline void report(const char* area, const char* what, double ours, const char* anchorName, double anchorValue,
    const char* unit, bool higherIsBetter)
{
    reportLine(area, what, ours, anchorName, anchorValue, unit, higherIsBetter, "1 run");
}

// How many interleaved runs: KF_BENCH_REPEATS, default 5.
inline int repeats()
{
    const char* env = getenv("KF_BENCH_REPEATS");
    const int n = env ? atoi(env) : 5;
    return std::clamp(n, 1, 1000);
}

template <typename T> T medianOf(std::vector<T> v)
{
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// Runs ours() then anchor() in turn, repeats() times, so that a change in the machine's load
// touches both; reports the medians of each and the median ratio with its min-max.
struct Interleaved
{
    std::vector<double> ours;
    std::vector<double> anchor;
};
inline Interleaved interleaved(const std::function<double()>& ours, const std::function<double()>& anchor)
{
    Interleaved r;
    for (int i = 0; i < repeats(); ++i) {
        r.ours.push_back(ours());
        r.anchor.push_back(anchor());
    }
    return r;
}
inline void report(const char* area, const char* what, const Interleaved& runs, const char* anchorName,
    const char* unit, bool higherIsBetter)
{
    std::vector<double> ratios;
    for (size_t i = 0; i < runs.ours.size(); ++i)
        ratios.push_back(ratioOf(runs.ours[i], runs.anchor[i], higherIsBetter));
    char spread[96];
    const double lo = *std::min_element(ratios.begin(), ratios.end());
    const double hi = *std::max_element(ratios.begin(), ratios.end());
    // x1 is where KernelForge and the anchor (or the goal) meet: a spread across it decides nothing.
    snprintf(spread, sizeof spread, "x%.2f-x%.2f of %zu%s", lo, hi, ratios.size(),
        lo < 1.0 && hi >= 1.0 ? ", crosses x1" : "");
    const double ours = medianOf(runs.ours);
    const double anchor = medianOf(runs.anchor);
    if (ours <= 0 || anchor <= 0) {
        reportLine(area, what, ours, anchorName, anchor, unit, higherIsBetter, spread);
        return;
    }
    printf("KF-RESULT\t%s\t%s\t%.4g\t%s\t%.4g\t%s\tx%.2f\t%s\t%s\n", area, what, ours, anchorName, anchor, unit,
        medianOf(ratios), spread, loadNote());
    fflush(stdout);
}

} // namespace kf::bench
