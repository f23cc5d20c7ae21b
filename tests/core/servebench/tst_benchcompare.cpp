// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issues #35 and #38 (item 7): two runs compared. A change within the runs' spread (twice
// their combined standard error, from the requests' own spread, or under 1 %) is "the same",
// never better or worse: +0.3 % is noise. Levels match by concurrency and rate; what differs
// in the workload is kept apart from what differs in where and how it ran.
#include "core/servebench/benchcompare.h"

#include <QtTest>

using namespace kf;

namespace {

LevelResult level(double outputTokS, double e2eMean, double e2eStd, int completed, double ttftP50 = 0.1)
{
    LevelResult l;
    l.concurrency = 8;
    l.stats.completed = completed;
    l.stats.outputThroughput = outputTokS;
    l.stats.e2e.mean = e2eMean;
    l.stats.e2e.stddev = e2eStd;
    l.stats.e2e.count = completed;
    l.stats.ttft.p50 = ttftP50;
    l.stats.ttft.stddev = 0.02;
    l.stats.ttft.count = completed;
    return l;
}

Verdict verdict(const char* key, const LevelResult& a, const LevelResult& b)
{
    const MetricInput ia { a, 8 };
    const MetricInput ib { b, 8 };
    return compareMetric(*benchMetric(key), &ia, &ib).verdict;
}

} // namespace

class TestBenchCompare : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void withinTheSpreadIsTheSame()
    {
        // E2E cv 0.2 over 64 requests: throughput's standard error is 2.5 %, so the band is
        // 2 x sqrt(2) x 2.5 % = 7.1 %.
        const LevelResult a = level(1000, 1.0, 0.2, 64);
        QCOMPARE(verdict("output_tok_s", a, level(1003, 1.0, 0.2, 64)), Verdict::Same); // +0.3 %
        QCOMPARE(verdict("output_tok_s", a, level(1060, 1.0, 0.2, 64)), Verdict::Same); // +6 %
        QCOMPARE(verdict("output_tok_s", a, level(1200, 1.0, 0.2, 64)), Verdict::Better);
        QCOMPARE(verdict("output_tok_s", a, level(800, 1.0, 0.2, 64)), Verdict::Worse);
        const MetricInput ia { a, 8 };
        const LevelResult b = level(1060, 1.0, 0.2, 64);
        const MetricInput ib { b, 8 };
        const MetricComparison c = compareMetric(*benchMetric("output_tok_s"), &ia, &ib);
        QVERIFY(std::abs(c.band - 2 * std::hypot(25.0, 26.5)) < 1e-9);
        QVERIFY(std::abs(c.change - 0.06) < 1e-12);
        QVERIFY(c.spreadKnown);
    }

    void withoutSpreadOnePercent()
    {
        // No spread known (one request): only the 1 % floor.
        const LevelResult a = level(1000, 1.0, 0.0, 1);
        QCOMPARE(verdict("output_tok_s", a, level(1003, 1.0, 0.0, 1)), Verdict::Same);
        QCOMPARE(verdict("output_tok_s", a, level(1020, 1.0, 0.0, 1)), Verdict::Better);
        // Issue #38 (item 7): the comparison says the floor was all it had, so views say "within noise".
        const LevelResult b = level(1003, 1.0, 0.0, 1);
        const MetricInput ia { a, 1 };
        const MetricInput ib { b, 1 };
        const MetricComparison c = compareMetric(*benchMetric("output_tok_s"), &ia, &ib);
        QVERIFY(!c.spreadKnown);
        QVERIFY(std::abs(c.band - kBenchNoiseFloor * 1000) < 1e-9);
    }

    void latencyReadsTheOtherWay()
    {
        // TTFT p50 100 ms, sd 20 ms, 64 requests: se = 1.2533 x 20 / 8 = 3.1 ms, band 8.9 ms.
        const LevelResult a = level(1000, 1.0, 0.2, 64, 0.100);
        QCOMPARE(verdict("ttft_p50_ms", a, level(1000, 1.0, 0.2, 64, 0.105)), Verdict::Same);
        QCOMPARE(verdict("ttft_p50_ms", a, level(1000, 1.0, 0.2, 64, 0.130)), Verdict::Worse);
        QCOMPARE(verdict("ttft_p50_ms", a, level(1000, 1.0, 0.2, 64, 0.070)), Verdict::Better);
        const MetricInput ia { a, 8 };
        QCOMPARE(compareMetric(*benchMetric("ttft_p50_ms"), &ia, nullptr).verdict, Verdict::Unknown);
    }

    void levelsMatchByConcurrencyAndRate()
    {
        BenchRun a;
        BenchRun b;
        LevelResult c8 = level(1000, 1, 0.1, 10);
        LevelResult r4 = level(500, 1, 0.1, 10);
        r4.concurrency = 0;
        r4.requestRate = 4;
        a.levels = { c8, r4 };
        LevelResult r4b = r4;
        r4b.concurrency = 16; // a cap: another level
        b.levels = { c8, r4b };
        b.host = QStringLiteral("other");
        b.context.driver = QStringLiteral("580.1");
        const RunComparison c = compareRuns(a, b);
        QCOMPARE(c.levels.size(), 3);
        QCOMPARE(levelLabel(c.levels[0].plan), QStringLiteral("4 req/s"));
        QVERIFY(c.levels[0].a && !c.levels[0].b);
        QCOMPARE(levelLabel(c.levels[1].plan), QStringLiteral("c=8"));
        QVERIFY(c.levels[1].a && c.levels[1].b);
        QCOMPARE(levelLabel(c.levels[2].plan), QStringLiteral("4 req/s, c≤16"));
        QVERIFY(c.differences.isEmpty());
        QCOMPARE(c.contextDifferences,
            (QStringList { QStringLiteral("host ? vs other"), QStringLiteral("driver ? vs 580.1") }));
    }

    void everyMetricHasASpread()
    {
        const LevelResult a = level(1000, 1.0, 0.2, 64);
        for (const BenchMetric& m : benchMetrics())
            QVERIFY2(m.value && m.spread, m.key);
        QVERIFY(benchMetric("no_such") == nullptr);
        QVERIFY(std::isfinite(benchMetric("output_tok_s_per_gpu")->value({ a, 8 })));
        QCOMPARE(benchMetric("output_tok_s_per_gpu")->value({ a, 8 }), 125.0);
        QVERIFY(!std::isfinite(benchMetric("output_tok_s_per_gpu")->value({ a, 0 }))); // GPUs unknown
    }
};

QTEST_GUILESS_MAIN(TestBenchCompare)
#include "tst_benchcompare.moc"
