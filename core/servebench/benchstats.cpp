// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/benchstats.h"

#include <QJsonValue>

#include <algorithm>
#include <cmath>

namespace kf {

double percentileSorted(const QList<double>& sorted, double q)
{
    if (sorted.isEmpty())
        return noValue();
    const double h = double(sorted.size() - 1) * std::clamp(q, 0.0, 100.0) / 100.0;
    const auto lo = qsizetype(std::floor(h));
    const qsizetype hi = std::min(lo + 1, sorted.size() - 1);
    return sorted.at(lo) + (h - double(lo)) * (sorted.at(hi) - sorted.at(lo));
}

Distribution summarize(QList<double> values)
{
    Distribution d;
    d.count = int(values.size());
    if (values.isEmpty())
        return d;
    std::sort(values.begin(), values.end());
    double sum = 0;
    for (double v : values)
        sum += v;
    d.mean = sum / double(values.size());
    double sq = 0;
    for (double v : values)
        sq += (v - d.mean) * (v - d.mean);
    d.stddev = std::sqrt(sq / double(values.size()));
    d.p50 = percentileSorted(values, 50);
    d.p90 = percentileSorted(values, 90);
    d.p95 = percentileSorted(values, 95);
    d.p99 = percentileSorted(values, 99);
    d.max = values.last();
    return d;
}

LevelStats computeLevelStats(const QList<RequestSample>& samples, double durationS, int concurrency, double requestRate)
{
    LevelStats s;
    s.concurrency = concurrency;
    s.requestRate = requestRate;
    s.requests = int(samples.size());
    s.durationS = durationS;
    QList<double> ttft;
    QList<double> tpot;
    QList<double> itl;
    QList<double> e2e;
    double e2eSum = 0;
    for (const RequestSample& r : samples) {
        if (!r.ok) {
            ++s.failed;
            ++s.failureReasons[r.error];
            continue;
        }
        ++s.completed;
        s.inputTokens += r.promptTokens;
        s.outputTokens += r.outputTokens;
        s.inputTokensEstimated = s.inputTokensEstimated || !r.promptTokensReported;
        s.outputTokensEstimated = s.outputTokensEstimated || !r.outputTokensReported;
        ttft.append(r.ttft);
        if (const double t = r.tpot(); t >= 0)
            tpot.append(t);
        itl.append(r.itl);
        e2e.append(r.latency);
        e2eSum += r.latency;
    }
    if (s.completed > 0) {
        s.meanInputTokens = double(s.inputTokens) / s.completed;
        s.meanOutputTokens = double(s.outputTokens) / s.completed;
    }
    if (durationS > 0) {
        s.requestThroughput = s.completed / durationS;
        s.inputThroughput = double(s.inputTokens) / durationS;
        s.outputThroughput = double(s.outputTokens) / durationS;
        s.totalThroughput = double(s.inputTokens + s.outputTokens) / durationS;
        s.achievedConcurrency = e2eSum / durationS;
    }
    s.ttft = summarize(std::move(ttft));
    s.tpot = summarize(std::move(tpot));
    s.itl = summarize(std::move(itl));
    s.e2e = summarize(std::move(e2e));
    return s;
}

double numberFromJson(const QJsonValue& v)
{
    return v.isDouble() ? v.toDouble() : noValue();
}

QJsonObject toJson(const Distribution& d)
{
    return QJsonObject { { QStringLiteral("count"), d.count }, { QStringLiteral("mean"), jsonValue(d.mean) },
        { QStringLiteral("std"), jsonValue(d.stddev) }, { QStringLiteral("p50"), jsonValue(d.p50) },
        { QStringLiteral("p90"), jsonValue(d.p90) }, { QStringLiteral("p95"), jsonValue(d.p95) },
        { QStringLiteral("p99"), jsonValue(d.p99) }, { QStringLiteral("max"), jsonValue(d.max) } };
}

Distribution distributionFromJson(const QJsonObject& o)
{
    Distribution d;
    d.count = o.value(QLatin1String("count")).toInt();
    d.mean = numberFromJson(o.value(QLatin1String("mean")));
    d.stddev = numberFromJson(o.value(QLatin1String("std")));
    d.p50 = numberFromJson(o.value(QLatin1String("p50")));
    d.p90 = numberFromJson(o.value(QLatin1String("p90")));
    d.p95 = numberFromJson(o.value(QLatin1String("p95")));
    d.p99 = numberFromJson(o.value(QLatin1String("p99")));
    d.max = numberFromJson(o.value(QLatin1String("max")));
    return d;
}

QJsonObject toJson(const LevelStats& s)
{
    QJsonObject reasons;
    for (auto it = s.failureReasons.cbegin(); it != s.failureReasons.cend(); ++it)
        reasons.insert(it.key(), it.value());
    return QJsonObject {
        { QStringLiteral("concurrency"), s.concurrency },
        { QStringLiteral("request_rate"), s.requestRate },
        { QStringLiteral("requests"), s.requests },
        { QStringLiteral("completed"), s.completed },
        { QStringLiteral("failed"), s.failed },
        { QStringLiteral("failure_reasons"), reasons },
        { QStringLiteral("duration_s"), s.durationS },
        { QStringLiteral("input_tokens"), s.inputTokens },
        { QStringLiteral("output_tokens"), s.outputTokens },
        { QStringLiteral("input_tokens_estimated"), s.inputTokensEstimated },
        { QStringLiteral("output_tokens_estimated"), s.outputTokensEstimated },
        { QStringLiteral("mean_input_tokens"), jsonValue(s.meanInputTokens) },
        { QStringLiteral("mean_output_tokens"), jsonValue(s.meanOutputTokens) },
        { QStringLiteral("request_throughput"), jsonValue(s.requestThroughput) },
        { QStringLiteral("input_throughput"), jsonValue(s.inputThroughput) },
        { QStringLiteral("output_throughput"), jsonValue(s.outputThroughput) },
        { QStringLiteral("total_throughput"), jsonValue(s.totalThroughput) },
        { QStringLiteral("achieved_concurrency"), jsonValue(s.achievedConcurrency) },
        { QStringLiteral("ttft_s"), toJson(s.ttft) },
        { QStringLiteral("tpot_s"), toJson(s.tpot) },
        { QStringLiteral("itl_s"), toJson(s.itl) },
        { QStringLiteral("e2e_s"), toJson(s.e2e) },
    };
}

LevelStats levelStatsFromJson(const QJsonObject& o)
{
    LevelStats s;
    s.concurrency = o.value(QLatin1String("concurrency")).toInt();
    s.requestRate = o.value(QLatin1String("request_rate")).toDouble();
    s.requests = o.value(QLatin1String("requests")).toInt();
    s.completed = o.value(QLatin1String("completed")).toInt();
    s.failed = o.value(QLatin1String("failed")).toInt();
    const QJsonObject reasons = o.value(QLatin1String("failure_reasons")).toObject();
    for (auto it = reasons.constBegin(); it != reasons.constEnd(); ++it)
        s.failureReasons.insert(it.key(), it.value().toInt());
    s.durationS = o.value(QLatin1String("duration_s")).toDouble();
    s.inputTokens = qint64(o.value(QLatin1String("input_tokens")).toDouble());
    s.outputTokens = qint64(o.value(QLatin1String("output_tokens")).toDouble());
    s.inputTokensEstimated = o.value(QLatin1String("input_tokens_estimated")).toBool();
    s.outputTokensEstimated = o.value(QLatin1String("output_tokens_estimated")).toBool();
    s.meanInputTokens = numberFromJson(o.value(QLatin1String("mean_input_tokens")));
    s.meanOutputTokens = numberFromJson(o.value(QLatin1String("mean_output_tokens")));
    s.requestThroughput = numberFromJson(o.value(QLatin1String("request_throughput")));
    s.inputThroughput = numberFromJson(o.value(QLatin1String("input_throughput")));
    s.outputThroughput = numberFromJson(o.value(QLatin1String("output_throughput")));
    s.totalThroughput = numberFromJson(o.value(QLatin1String("total_throughput")));
    s.achievedConcurrency = numberFromJson(o.value(QLatin1String("achieved_concurrency")));
    s.ttft = distributionFromJson(o.value(QLatin1String("ttft_s")).toObject());
    s.tpot = distributionFromJson(o.value(QLatin1String("tpot_s")).toObject());
    s.itl = distributionFromJson(o.value(QLatin1String("itl_s")).toObject());
    s.e2e = distributionFromJson(o.value(QLatin1String("e2e_s")).toObject());
    return s;
}

} // namespace kf
