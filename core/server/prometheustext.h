// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/novalue.h"

#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <limits>
#include <optional>
#include <utility>

// Prometheus text exposition format 0.0.4 (what SGLang's and vLLM's /metrics serve):
//
//   # HELP sglang:num_running_reqs The number of running requests.
//   # TYPE sglang:num_running_reqs gauge
//   sglang:num_running_reqs{model_name="qwen",tp_rank="0"} 12.0
//   sglang:time_to_first_token_seconds_bucket{le="0.1",model_name="qwen"} 105.0 1700000000000
//   sglang:time_to_first_token_seconds_sum{model_name="qwen"} 12.5
//   sglang:time_to_first_token_seconds_count{model_name="qwen"} 120.0
//
// - metric names [a-zA-Z_:][a-zA-Z0-9_:]*; label values are double-quoted with the escapes
//   \\ \" \n; labels may end with a trailing comma; whitespace around tokens is allowed.
// - values are floats, or NaN, +Inf, -Inf (also Inf); an optional integer timestamp in ms
//   follows the value.
// - HELP text escapes \\ and \n. TYPE is counter, gauge, histogram, summary or untyped.
// - histograms expose <name>_bucket{le="..."} (cumulative, le="+Inf" last), <name>_sum,
//   <name>_count. Unparseable lines are counted and skipped, never fatal.
namespace kf {

struct PromSample
{
    QString name;
    QList<std::pair<QString, QString>> labels;
    double value = 0;
    std::optional<qint64> timestampMs;

    QString label(QStringView key) const
    {
        for (const auto& [k, v] : labels) {
            if (k == key)
                return v;
        }
        return {};
    }
};

struct PromText
{
    QList<PromSample> samples;
    QHash<QString, QString> types; // family name -> "counter", "gauge", "histogram", ...
    QHash<QString, QString> help;
    int badLines = 0;
    QStringList errors; // first few problems, "line 12: ..."

    bool has(QStringView name) const;
    // Samples named exactly `name`.
    QList<const PromSample*> find(QStringView name) const;
    // Sum of all samples named `name` (across label sets, e.g. tp ranks); noValue() if none.
    double sum(QStringView name) const;
};

PromText parsePrometheusText(QByteArrayView data);

struct HistogramBucket
{
    double upperBound = 0; // le; +Inf for the last
    double count = 0;      // cumulative
};

struct Histogram
{
    QList<HistogramBucket> buckets; // sorted by upperBound
    double sum = 0;
    double count = 0;
    bool isEmpty() const { return buckets.isEmpty(); }
};

// Collects family `name` (without _bucket) summed over every label set (ranks, models), in
// O(n log n) for n bucket samples (a page may carry tens of thousands of le= buckets).
// Buckets whose le is not a number (or NaN) are skipped.
Histogram histogramFrom(const PromText& text, QStringView name);
// later - earlier, bucket by bucket (the observations between two scrapes); when the
// counter went backwards (server restart) returns `later` unchanged.
Histogram histogramDelta(const Histogram& later, const Histogram& earlier);
// A quantile estimated from a histogram. When the rank falls in the +Inf bucket the true
// value is unknown, only that it exceeds the largest finite bound: `above` is set and
// `value` is that bound (show "> 30 s", never 30 s).
struct Quantile
{
    double value = noValue();
    bool above = false;
    bool known() const { return hasValue(value); }
    // The value when it is an estimate; noValue() when unknown or only a lower bound.
    double estimate() const { return above ? noValue() : value; }
};

// Prometheus' histogram_quantile(): linear interpolation inside the bucket holding rank
// q*count; the lowest bucket starts at 0; a rank in the +Inf bucket gives the largest finite
// bound with `above` set (Prometheus returns that bound as if it were the value). NaN when
// there are no observations (or only a +Inf bucket).
Quantile histogramQuantile(const Histogram& h, double q);

} // namespace kf
