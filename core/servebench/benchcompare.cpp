// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/benchcompare.h"

#include <QMap>

#include <cmath>

namespace kf {

const QList<BenchMetric>& benchMetrics()
{
    static const QList<BenchMetric> metrics {
        { "output_tok_s", "output tok/s", "tok/s", true, [](const LevelStats& s) { return s.outputThroughput; } },
        { "total_tok_s", "total tok/s", "tok/s", true, [](const LevelStats& s) { return s.totalThroughput; } },
        { "request_per_s", "requests/s", "req/s", true, [](const LevelStats& s) { return s.requestThroughput; } },
        { "ttft_mean_ms", "TTFT mean", "ms", false, [](const LevelStats& s) { return s.ttft.mean * 1000; } },
        { "ttft_p50_ms", "TTFT p50", "ms", false, [](const LevelStats& s) { return s.ttft.p50 * 1000; } },
        { "ttft_p90_ms", "TTFT p90", "ms", false, [](const LevelStats& s) { return s.ttft.p90 * 1000; } },
        { "ttft_p99_ms", "TTFT p99", "ms", false, [](const LevelStats& s) { return s.ttft.p99 * 1000; } },
        { "tpot_mean_ms", "TPOT mean", "ms", false, [](const LevelStats& s) { return s.tpot.mean * 1000; } },
        { "tpot_p50_ms", "TPOT p50", "ms", false, [](const LevelStats& s) { return s.tpot.p50 * 1000; } },
        { "tpot_p90_ms", "TPOT p90", "ms", false, [](const LevelStats& s) { return s.tpot.p90 * 1000; } },
        { "tpot_p99_ms", "TPOT p99", "ms", false, [](const LevelStats& s) { return s.tpot.p99 * 1000; } },
        { "itl_mean_ms", "ITL mean", "ms", false, [](const LevelStats& s) { return s.itl.mean * 1000; } },
        { "itl_p50_ms", "ITL p50", "ms", false, [](const LevelStats& s) { return s.itl.p50 * 1000; } },
        { "itl_p90_ms", "ITL p90", "ms", false, [](const LevelStats& s) { return s.itl.p90 * 1000; } },
        { "itl_p99_ms", "ITL p99", "ms", false, [](const LevelStats& s) { return s.itl.p99 * 1000; } },
        { "e2e_mean_ms", "E2E mean", "ms", false, [](const LevelStats& s) { return s.e2e.mean * 1000; } },
        { "e2e_p50_ms", "E2E p50", "ms", false, [](const LevelStats& s) { return s.e2e.p50 * 1000; } },
        { "e2e_p90_ms", "E2E p90", "ms", false, [](const LevelStats& s) { return s.e2e.p90 * 1000; } },
        { "e2e_p99_ms", "E2E p99", "ms", false, [](const LevelStats& s) { return s.e2e.p99 * 1000; } },
        { "failed", "failed requests", "", false, [](const LevelStats& s) { return double(s.failed); } },
    };
    return metrics;
}

double relativeChange(double a, double b)
{
    if (!std::isfinite(a) || !std::isfinite(b) || a == 0)
        return std::numeric_limits<double>::quiet_NaN();
    return (b - a) / a;
}

RunComparison compareRuns(const BenchRun& a, const BenchRun& b)
{
    RunComparison c;
    auto differ = [&](const QString& what, const QString& va, const QString& vb) {
        if (va != vb)
            c.differences << QStringLiteral("%1 %2 vs %3")
                                 .arg(what, va.isEmpty() ? QStringLiteral("?") : va,
                                     vb.isEmpty() ? QStringLiteral("?") : vb);
    };
    differ(QStringLiteral("API"), serveApiName(a.params.api), serveApiName(b.params.api));
    differ(
        QStringLiteral("input length"), QString::number(a.params.inputTokens), QString::number(b.params.inputTokens));
    differ(QStringLiteral("output length"), QString::number(a.params.outputTokens),
        QString::number(b.params.outputTokens));
    differ(QStringLiteral("request rate"),
        a.params.requestRate > 0 ? QString::number(a.params.requestRate) : QStringLiteral("all at once"),
        b.params.requestRate > 0 ? QString::number(b.params.requestRate) : QStringLiteral("all at once"));
    differ(QStringLiteral("model"), a.facts.model, b.facts.model);
    differ(QStringLiteral("server version"), a.facts.serverVersion, b.facts.serverVersion);
    differ(QStringLiteral("precision"), a.facts.precision, b.facts.precision);
    differ(QStringLiteral("GPUs"), QStringLiteral("%1 x %2").arg(a.facts.gpuCount).arg(a.facts.gpuName),
        QStringLiteral("%1 x %2").arg(b.facts.gpuCount).arg(b.facts.gpuName));
    differ(QStringLiteral("host"), a.host, b.host);
    QMap<int, LevelComparison> byConcurrency;
    for (const LevelResult& l : a.levels) {
        byConcurrency[l.concurrency].concurrency = l.concurrency;
        byConcurrency[l.concurrency].a = l.stats;
    }
    for (const LevelResult& l : b.levels) {
        byConcurrency[l.concurrency].concurrency = l.concurrency;
        byConcurrency[l.concurrency].b = l.stats;
    }
    c.levels = byConcurrency.values();
    return c;
}

} // namespace kf
