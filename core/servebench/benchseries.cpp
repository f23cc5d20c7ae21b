// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/benchseries.h"

#include "core/gpu/gpufield.h"
#include "core/servebench/benchstats.h"
#include "core/server/serverclient.h"

namespace kf {

GpuPoint gpuPoint(const GpuSample& g, qint64 timeMs)
{
    GpuPoint p;
    p.timeMs = timeMs;
    p.gpu = g.index;
    p.utilPercent = g.value(GpuField::UtilGpu);
    p.powerW = g.value(GpuField::PowerDraw);
    p.memUsedMiB = g.value(GpuField::MemUsed);
    p.smClockMhz = g.value(GpuField::ClockSm);
    p.memClockMhz = g.value(GpuField::ClockMem);
    p.reasons = g.reasons;
    p.hasReasons = g.hasReasons;
    p.smActivePercent = g.value(GpuField::SmActive);
    p.tensorActivePercent = g.value(GpuField::TensorActive);
    p.dramActivePercent = g.value(GpuField::DramActive);
    return p;
}

MetricsPoint metricsPoint(const ServerStatus& s)
{
    MetricsPoint p;
    p.timeMs = s.timeMs;
    if (!s.hasMetrics)
        return p;
    const ServerMetrics& m = s.metrics;
    p.running = m.running;
    p.queued = m.queued;
    p.genThroughput = m.genThroughput;
    p.kvUsage = m.kvUsage;
    p.cacheHitRate = m.cacheHitRate;
    p.promptTokensTotal = m.promptTokensTotal;
    p.generationTokensTotal = m.generationTokensTotal;
    p.cachedTokensTotal = m.cachedTokensTotal;
    return p;
}

QJsonObject toJson(const MetricsPoint& p)
{
    return { { QStringLiteral("time_ms"), p.timeMs }, { QStringLiteral("running"), jsonValue(p.running) },
        { QStringLiteral("queued"), jsonValue(p.queued) },
        { QStringLiteral("gen_throughput"), jsonValue(p.genThroughput) },
        { QStringLiteral("kv_usage"), jsonValue(p.kvUsage) },
        { QStringLiteral("cache_hit_rate"), jsonValue(p.cacheHitRate) },
        { QStringLiteral("prompt_tokens_total"), jsonValue(p.promptTokensTotal) },
        { QStringLiteral("generation_tokens_total"), jsonValue(p.generationTokensTotal) },
        { QStringLiteral("cached_tokens_total"), jsonValue(p.cachedTokensTotal) } };
}

MetricsPoint metricsPointFromJson(const QJsonObject& o)
{
    MetricsPoint p;
    p.timeMs = o.value(QLatin1String("time_ms")).toInteger();
    p.running = numberFromJson(o.value(QLatin1String("running")));
    p.queued = numberFromJson(o.value(QLatin1String("queued")));
    p.genThroughput = numberFromJson(o.value(QLatin1String("gen_throughput")));
    p.kvUsage = numberFromJson(o.value(QLatin1String("kv_usage")));
    p.cacheHitRate = numberFromJson(o.value(QLatin1String("cache_hit_rate")));
    p.promptTokensTotal = numberFromJson(o.value(QLatin1String("prompt_tokens_total")));
    p.generationTokensTotal = numberFromJson(o.value(QLatin1String("generation_tokens_total")));
    p.cachedTokensTotal = numberFromJson(o.value(QLatin1String("cached_tokens_total")));
    return p;
}

} // namespace kf
