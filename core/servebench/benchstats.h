// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/requestrecorder.h"
#include "core/util/novalue.h"

#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

#include <limits>

// The aggregates of one concurrency level, as SGLang's bench_serving.py calculate_metrics()
// and vLLM's benchmark_serving.py compute them (docs/design/servebench.md):
//   over successful requests only: TTFT, TPOT (per request), E2E (per request), ITL (every gap
//   of every request pooled into one list);
//   mean (arithmetic), std (population, numpy's ddof=0), percentiles as numpy.percentile's
//   default "linear" method: for n sorted values and q in [0,100], h = (n-1)*q/100, the value
//   is x[floor(h)] + (h - floor(h)) * (x[floor(h)+1] - x[floor(h)]); p50 is the median;
//   request throughput = completed / duration; output = sum of output tokens / duration;
//   input = sum of prompt tokens / duration; total = (input + output) / duration;
//   achieved concurrency = sum of E2E / duration;
//   duration = from the first request issued to the last one finished.
// An empty set of values has no statistics: noValue() in memory, null in JSON.
namespace kf {

// numpy.percentile(values, q) with the default linear interpolation; `sorted` ascending.
double percentileSorted(const QList<double>& sorted, double q);

struct Distribution
{
    int count = 0;
    double mean = noValue();
    double stddev = noValue();
    double p50 = noValue();
    double p90 = noValue();
    double p95 = noValue();
    double p99 = noValue();
    double max = noValue();
};
Distribution summarize(QList<double> values);

struct LevelStats
{
    int concurrency = 0;
    double requestRate = 0; // requests/s offered; 0: all at once
    int requests = 0;       // issued
    int completed = 0;
    int failed = 0;
    QMap<QString, int> failureReasons;
    double durationS = 0;
    qint64 inputTokens = 0;             // successful requests
    qint64 outputTokens = 0;            // successful requests
    bool inputTokensEstimated = false;  // some prompt count was not reported by the server
    bool outputTokensEstimated = false; // some output count was not reported by the server
    double meanInputTokens = noValue();
    double meanOutputTokens = noValue();
    double requestThroughput = noValue();
    double inputThroughput = noValue();
    double outputThroughput = noValue();
    double totalThroughput = noValue();
    double achievedConcurrency = noValue();
    Distribution ttft;
    Distribution tpot;
    Distribution itl;
    Distribution e2e;
};

LevelStats computeLevelStats(
    const QList<RequestSample>& samples, double durationS, int concurrency, double requestRate);

// A JSON number as a value, anything else (null, missing) as noValue(): jsonValue()'s inverse.
double numberFromJson(const QJsonValue& v);

QJsonObject toJson(const Distribution& d); // seconds
Distribution distributionFromJson(const QJsonObject& o);
QJsonObject toJson(const LevelStats& s);
LevelStats levelStatsFromJson(const QJsonObject& o);

} // namespace kf
