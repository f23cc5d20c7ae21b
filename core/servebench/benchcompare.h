// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/benchrun.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Two runs side by side, level by level (matched by concurrency), for `server bench compare`
// and the Server pane. The metrics compared and how they read are one list, benchMetrics().
namespace kf {

struct BenchMetric
{
    const char* key;   // JSON key, "output_tok_s"
    const char* label; // "output tok/s"
    const char* unit;  // "tok/s", "ms", "req/s"
    bool higherIsBetter;
    double (*value)(const LevelStats& s); // in `unit`; NaN when there is none
};
const QList<BenchMetric>& benchMetrics();

struct LevelComparison
{
    int concurrency = 0;
    std::optional<LevelStats> a;
    std::optional<LevelStats> b;
};

struct RunComparison
{
    // What differs between the runs' workloads or servers ("input length 1024 vs 512"):
    // figures of different workloads are not comparable as they stand.
    QStringList differences;
    QList<LevelComparison> levels; // ascending concurrency, every level of either run
};

RunComparison compareRuns(const BenchRun& a, const BenchRun& b);
// (b - a) / a, signed; NaN when either is missing or a is 0.
double relativeChange(double a, double b);

} // namespace kf
