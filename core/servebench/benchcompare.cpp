// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/benchcompare.h"

#include <QMap>

#include <cmath>
#include <cstring>
#include <utility>

namespace kf {

namespace {

const LevelStats& st(const MetricInput& in)
{
    return in.level.stats;
}

const LevelAnalysis& an(const MetricInput& in)
{
    return in.level.analysis;
}

// The relative standard error of a level's throughput: that of its mean E2E (throughput is
// requests over a duration that the requests' latencies make up).
double relThroughputSe(const MetricInput& in)
{
    const LevelStats& s = st(in);
    if (!(s.e2e.mean > 0) || s.completed < 2)
        return noValue();
    return s.e2e.stddev / s.e2e.mean / std::sqrt(double(s.completed));
}

double throughputSe(double value, const MetricInput& in)
{
    return std::abs(value) * relThroughputSe(in);
}

// The standard error of a distribution's mean, and of its quantiles under a normal
// approximation: sqrt(q (1 - q)) / phi(z_q) times sigma / sqrt(n).
double distSe(const Distribution& d, double factor)
{
    return d.count >= 2 ? factor * d.stddev / std::sqrt(double(d.count)) * 1000.0 : noValue();
}
constexpr double kMean = 1.0;
constexpr double kP50 = 1.2533;
constexpr double kP90 = 1.7094;
constexpr double kP99 = 3.7302;

#define KF_THROUGHPUT(expr)                                                                                            \
    [](const MetricInput& in) { return expr; }, [](const MetricInput& in) { return throughputSe(expr, in); }
#define KF_LATENCY(dist, field, factor)                                                                                \
    [](const MetricInput& in) { return st(in).dist.field * 1000; },                                                    \
        [](const MetricInput& in) { return distSe(st(in).dist, factor); }

} // namespace

const QList<BenchMetric>& benchMetrics()
{
    // clang-format off
    static const QList<BenchMetric> metrics {
        { "output_tok_s", "output tok/s", "tok/s", true, KF_THROUGHPUT(st(in).outputThroughput) },
        { "total_tok_s", "total tok/s", "tok/s", true, KF_THROUGHPUT(st(in).totalThroughput) },
        { "request_per_s", "requests/s", "req/s", true, KF_THROUGHPUT(st(in).requestThroughput) },
        { "output_tok_s_per_gpu", "output tok/s per GPU", "tok/s", true, KF_THROUGHPUT(perGpu(st(in).outputThroughput, in.gpus)) },
        { "total_tok_s_per_gpu", "total tok/s per GPU", "tok/s", true, KF_THROUGHPUT(perGpu(st(in).totalThroughput, in.gpus)) },
        { "output_tok_s_per_user", "output tok/s per user (1/TPOT p50)", "tok/s", true,
            [](const MetricInput& in) { return perUserOutput(st(in)); },
            [](const MetricInput& in) {
                const double v = perUserOutput(st(in));
                return st(in).tpot.p50 > 0 ? v * distSe(st(in).tpot, kP50) / 1000.0 / st(in).tpot.p50 : noValue();
            } },
        { "request_goodput", "goodput (req/s)", "req/s", true, KF_THROUGHPUT(an(in).goodput.requestGoodput) },
        { "output_goodput", "output goodput tok/s", "tok/s", true, KF_THROUGHPUT(an(in).goodput.outputGoodput) },
        { "good_pct", "requests meeting the SLOs", "%", true,
            [](const MetricInput& in) { return an(in).goodput.fraction * 100; },
            [](const MetricInput& in) {
                const double p = an(in).goodput.fraction;
                const int n = an(in).goodput.requests;
                return n > 0 ? std::sqrt(p * (1 - p) / n) * 100 : noValue();
            } },
        { "steady_output_tok_s", "steady-window output tok/s", "tok/s", true, KF_THROUGHPUT(an(in).steady.outputThroughput) },
        { "ttft_mean_ms", "TTFT mean", "ms", false, KF_LATENCY(ttft, mean, kMean) },
        { "ttft_p50_ms", "TTFT p50", "ms", false, KF_LATENCY(ttft, p50, kP50) },
        { "ttft_p90_ms", "TTFT p90", "ms", false, KF_LATENCY(ttft, p90, kP90) },
        { "ttft_p99_ms", "TTFT p99", "ms", false, KF_LATENCY(ttft, p99, kP99) },
        { "tpot_mean_ms", "TPOT mean", "ms", false, KF_LATENCY(tpot, mean, kMean) },
        { "tpot_p50_ms", "TPOT p50", "ms", false, KF_LATENCY(tpot, p50, kP50) },
        { "tpot_p90_ms", "TPOT p90", "ms", false, KF_LATENCY(tpot, p90, kP90) },
        { "tpot_p99_ms", "TPOT p99", "ms", false, KF_LATENCY(tpot, p99, kP99) },
        { "itl_mean_ms", "ITL mean", "ms", false, KF_LATENCY(itl, mean, kMean) },
        { "itl_p50_ms", "ITL p50", "ms", false, KF_LATENCY(itl, p50, kP50) },
        { "itl_p90_ms", "ITL p90", "ms", false, KF_LATENCY(itl, p90, kP90) },
        { "itl_p99_ms", "ITL p99", "ms", false, KF_LATENCY(itl, p99, kP99) },
        { "e2e_mean_ms", "E2E mean", "ms", false, KF_LATENCY(e2e, mean, kMean) },
        { "e2e_p50_ms", "E2E p50", "ms", false, KF_LATENCY(e2e, p50, kP50) },
        { "e2e_p90_ms", "E2E p90", "ms", false, KF_LATENCY(e2e, p90, kP90) },
        { "e2e_p99_ms", "E2E p99", "ms", false, KF_LATENCY(e2e, p99, kP99) },
        { "joules_per_output_token", "GPU energy per output token", "J", false,
            KF_THROUGHPUT(an(in).energy.joulesPerOutputToken) },
        { "failed", "failed requests", "", false, [](const MetricInput& in) { return double(st(in).failed); },
            [](const MetricInput& in) { return std::sqrt(std::max(1.0, double(st(in).failed))); } },
    };
    // clang-format on
    return metrics;
}

#undef KF_THROUGHPUT
#undef KF_LATENCY

const BenchMetric* benchMetric(const char* key)
{
    for (const BenchMetric& m : benchMetrics())
        if (std::strcmp(m.key, key) == 0)
            return &m;
    return nullptr;
}

double relativeChange(double a, double b)
{
    if (!std::isfinite(a) || !std::isfinite(b) || a == 0)
        return std::numeric_limits<double>::quiet_NaN();
    return (b - a) / a;
}

QString verdictName(Verdict v)
{
    switch (v) {
    case Verdict::Same: return QStringLiteral("same");
    case Verdict::Better: return QStringLiteral("better");
    case Verdict::Worse: return QStringLiteral("worse");
    case Verdict::Unknown: break;
    }
    return QStringLiteral("unknown");
}

MetricComparison compareMetric(const BenchMetric& m, const MetricInput* a, const MetricInput* b)
{
    MetricComparison c;
    if (a)
        c.a = m.value(*a);
    if (b)
        c.b = m.value(*b);
    c.change = relativeChange(c.a, c.b);
    if (!std::isfinite(c.a) || !std::isfinite(c.b))
        return c;
    auto se = [&m, &c](const MetricInput* in) {
        const double v = m.spread(*in);
        c.spreadKnown |= std::isfinite(v);
        return std::isfinite(v) ? v : 0.0;
    };
    c.band = std::max(2.0 * std::hypot(se(a), se(b)), kBenchNoiseFloor * std::abs(c.a));
    if (std::abs(c.b - c.a) <= c.band)
        c.verdict = Verdict::Same;
    else
        c.verdict = ((c.b > c.a) == m.higherIsBetter) ? Verdict::Better : Verdict::Worse;
    return c;
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
    const BenchParams& pa = a.params;
    const BenchParams& pb = b.params;
    differ(QStringLiteral("API"), serveApiName(pa.api), serveApiName(pb.api));
    differ(QStringLiteral("dataset"), datasetName(pa.dataset), datasetName(pb.dataset));
    differ(QStringLiteral("input length"), QString::number(pa.inputTokens), QString::number(pb.inputTokens));
    differ(QStringLiteral("output length"), QString::number(pa.outputTokens), QString::number(pb.outputTokens));
    auto ratio = [](const BenchParams& p) {
        return p.rangeRatio >= 0 ? QStringLiteral("%1 (%2)").arg(p.rangeRatio).arg(rangeMeaningName(p.rangeMeaning))
                                 : QStringLiteral("none");
    };
    differ(QStringLiteral("range ratio"), ratio(pa), ratio(pb));
    differ(QStringLiteral("arrivals"), arrivalSummary(pa.arrivalShape({ 1, pa.requestRate })),
        arrivalSummary(pb.arrivalShape({ 1, pb.requestRate })));
    differ(QStringLiteral("unique prefixes"), pa.uniquePrefix ? QStringLiteral("yes") : QStringLiteral("no"),
        pb.uniquePrefix ? QStringLiteral("yes") : QStringLiteral("no"));
    differ(QStringLiteral("SLO"), sloText(pa.slo), sloText(pb.slo));
    differ(QStringLiteral("model"), a.facts.model, b.facts.model);
    differ(QStringLiteral("precision"), a.facts.precision, b.facts.precision);
    // Where it ran: what a replay on another host or build changes on purpose.
    const QStringList workload = std::exchange(c.differences, {});
    differ(QStringLiteral("host"), a.host, b.host);
    differ(QStringLiteral("server version"), a.facts.serverVersion, b.facts.serverVersion);
    differ(QStringLiteral("GPUs"), QStringLiteral("%1 x %2").arg(a.facts.gpuCount).arg(a.facts.gpuName),
        QStringLiteral("%1 x %2").arg(b.facts.gpuCount).arg(b.facts.gpuName));
    c.contextDifferences = std::exchange(c.differences, workload) + contextDifferences(a.context, b.context);
    QMap<std::pair<int, double>, LevelComparison> byLevel;
    for (const LevelResult& l : a.levels) {
        LevelComparison& lc = byLevel[{ l.concurrency, l.requestRate }];
        lc.plan = l.plan();
        lc.a = l;
    }
    for (const LevelResult& l : b.levels) {
        LevelComparison& lc = byLevel[{ l.concurrency, l.requestRate }];
        lc.plan = l.plan();
        lc.b = l;
    }
    c.levels = byLevel.values();
    return c;
}

} // namespace kf
