// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/benchrun.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Two runs side by side, level by level (matched by concurrency and rate), for `server bench
// compare` and the Server pane. The metrics compared and how they read are one list,
// benchMetrics(); whether a change is a difference at all is compareMetric()'s.
namespace kf {

// What a metric is read from: a level and the GPUs of its server.
struct MetricInput
{
    const LevelResult& level;
    int gpus = 0;
};

struct BenchMetric
{
    const char* key;   // JSON key, "output_tok_s"
    const char* label; // "output tok/s"
    const char* unit;  // "tok/s", "ms", "req/s", "J", "%"
    bool higherIsBetter;
    double (*value)(const MetricInput& in); // in `unit`; NaN when there is none
    // The standard error of the value from the level's own spread (its requests), in `unit`;
    // NaN when not known.
    double (*spread)(const MetricInput& in);
};
const QList<BenchMetric>& benchMetrics();
// The metric with that key (nullptr if none).
const BenchMetric* benchMetric(const char* key);

struct LevelComparison
{
    LevelPlan plan;
    std::optional<LevelResult> a;
    std::optional<LevelResult> b;
};

struct RunComparison
{
    // What differs between the runs' workloads or servers ("input length 1024 vs 512"):
    // figures of different workloads are not comparable as they stand.
    QStringList differences;
    // What differs in the context they ran in (build, driver, server arguments): what a
    // replay is there to compare.
    QStringList contextDifferences;
    QList<LevelComparison> levels; // ascending concurrency, then rate; every level of either run
};

RunComparison compareRuns(const BenchRun& a, const BenchRun& b);
// (b - a) / a, signed; NaN when either is missing or a is 0.
double relativeChange(double a, double b);

// Whether B differs from A on a metric: Same when |B - A| is within the runs' spread, 2 x the
// combined standard error sqrt(se_a^2 + se_b^2), or under the noise floor, 1 % of A; else
// Better or Worse as the metric reads. Unknown when either value is missing. Without a spread
// (one sample per level) the floor alone decides: "within noise".
constexpr double kBenchNoiseFloor = 0.01;
enum class Verdict { Unknown, Same, Better, Worse };
struct MetricComparison
{
    double a = noValue();
    double b = noValue();
    double change = noValue(); // relative
    double band = noValue();   // the |B - A| below which it is Same
    bool spreadKnown = false;  // either run has a spread for it; false: the band is the noise floor
    Verdict verdict = Verdict::Unknown;
};
MetricComparison compareMetric(const BenchMetric& metric, const MetricInput* a, const MetricInput* b);
QString verdictName(Verdict v); // "unknown", "same", "better", "worse"

} // namespace kf
