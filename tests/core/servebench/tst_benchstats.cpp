// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Aggregates as SGLang's calculate_metrics() and numpy compute them, against values worked out
// by hand (numpy.percentile's linear method: h = (n-1) q / 100, interpolate between neighbours).
#include "core/servebench/benchstats.h"

#include <QtTest>

#include <cmath>

using namespace kf;

namespace {
bool near(double a, double b)
{
    return std::abs(a - b) < 1e-9 * std::max(1.0, std::abs(b));
}
RequestSample ok(double ttft, double latency, int output, int prompt, QList<double> itl)
{
    RequestSample s;
    s.ok = true;
    s.ttft = ttft;
    s.latency = latency;
    s.outputTokens = output;
    s.outputTokensReported = true;
    s.promptTokens = prompt;
    s.promptTokensReported = true;
    s.itl = std::move(itl);
    return s;
}
} // namespace

class TestBenchStats : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void percentiles_data()
    {
        QTest::addColumn<QList<double>>("values");
        QTest::addColumn<double>("q");
        QTest::addColumn<double>("expected");
        const QList<double> ten { 10, 9, 8, 7, 6, 5, 4, 3, 2, 1 }; // unsorted on purpose
        QTest::newRow("1..10 p50") << ten << 50.0 << 5.5;
        QTest::newRow("1..10 p90") << ten << 90.0 << 9.1;  // h = 8.1: 9 + 0.1
        QTest::newRow("1..10 p95") << ten << 95.0 << 9.55; // h = 8.55
        QTest::newRow("1..10 p99") << ten << 99.0 << 9.91; // h = 8.91
        QTest::newRow("1..10 p0") << ten << 0.0 << 1.0;
        QTest::newRow("1..10 p100") << ten << 100.0 << 10.0;
        const QList<double> five { 15, 20, 35, 40, 50 };
        QTest::newRow("5 p50") << five << 50.0 << 35.0;
        QTest::newRow("5 p90") << five << 90.0 << 46.0; // h = 3.6: 40 + 0.6 x 10
        QTest::newRow("5 p99") << five << 99.0 << 49.6; // h = 3.96
        QTest::newRow("one value") << QList<double> { 7 } << 99.0 << 7.0;
        QTest::newRow("two values p50") << QList<double> { 0.1, 0.3 } << 50.0 << 0.2;
        QTest::newRow("two values p99") << QList<double> { 0.1, 0.3 } << 99.0 << 0.298;
    }
    void percentiles()
    {
        QFETCH(QList<double>, values);
        QFETCH(double, q);
        QFETCH(double, expected);
        std::sort(values.begin(), values.end());
        QVERIFY2(near(percentileSorted(values, q), expected),
            qPrintable(QStringLiteral("%1 != %2").arg(percentileSorted(values, q)).arg(expected)));
    }

    void summary()
    {
        const Distribution d = summarize({ 50, 15, 40, 20, 35 });
        QCOMPARE(d.count, 5);
        QVERIFY(near(d.mean, 32));
        QVERIFY(near(d.stddev, std::sqrt(166.0))); // population std: (289+144+9+64+324)/5
        QVERIFY(near(d.p50, 35));
        QVERIFY(near(d.max, 50));
        const Distribution none = summarize({});
        QCOMPARE(none.count, 0);
        QVERIFY(std::isnan(none.mean) && std::isnan(none.p99));
    }

    void level()
    {
        QList<RequestSample> samples;
        samples << ok(0.1, 1.0, 10, 100, QList<double>(9, 0.1)) // TPOT 0.9 / 9 = 0.1
                << ok(0.3, 2.1, 7, 100, QList<double>(6, 0.3)); // TPOT 1.8 / 6 = 0.3
        RequestSample failed;
        failed.error = QStringLiteral("HTTP 503 Service Unavailable");
        samples << failed << failed;
        const LevelStats s = computeLevelStats(samples, 2.5, 4, 0);
        QCOMPARE(s.requests, 4);
        QCOMPARE(s.completed, 2);
        QCOMPARE(s.failed, 2);
        QCOMPARE(s.failureReasons.value(QStringLiteral("HTTP 503 Service Unavailable")), 2);
        QCOMPARE(s.inputTokens, 200);
        QCOMPARE(s.outputTokens, 17);
        QVERIFY(near(s.requestThroughput, 0.8));
        QVERIFY(near(s.outputThroughput, 6.8));
        QVERIFY(near(s.inputThroughput, 80));
        QVERIFY(near(s.totalThroughput, 86.8));
        QVERIFY(near(s.achievedConcurrency, 3.1 / 2.5));
        QVERIFY(near(s.ttft.mean, 0.2));
        QVERIFY(near(s.ttft.p99, 0.298));
        QVERIFY(near(s.tpot.mean, 0.2));
        QCOMPARE(s.itl.count, 15); // every gap of every request, pooled
        QVERIFY(near(s.itl.mean, (9 * 0.1 + 6 * 0.3) / 15));
        QVERIFY(near(s.itl.p50, 0.1));
        QVERIFY(near(s.e2e.p50, 1.55));
        QVERIFY(!s.inputTokensEstimated && !s.outputTokensEstimated);
        // One request whose counts the server did not report makes the totals estimates.
        samples[0].outputTokensReported = false;
        QVERIFY(computeLevelStats(samples, 2.5, 4, 0).outputTokensEstimated);
    }

    void jsonRoundTrip()
    {
        QList<RequestSample> samples { ok(0.1, 1.0, 10, 100, { 0.1, 0.2 }) };
        RequestSample failed;
        failed.error = QStringLiteral("timed out");
        samples << failed;
        const LevelStats s = computeLevelStats(samples, 2.0, 2, 1.5);
        const LevelStats back = levelStatsFromJson(toJson(s));
        QCOMPARE(back.concurrency, 2);
        QCOMPARE(back.requestRate, 1.5);
        QCOMPARE(back.failureReasons, s.failureReasons);
        QVERIFY(near(back.outputThroughput, s.outputThroughput));
        QVERIFY(near(back.itl.p99, s.itl.p99));
        QCOMPARE(back.tpot.count, 1);
        // No value stays no value (null in JSON).
        const LevelStats empty = levelStatsFromJson(toJson(computeLevelStats({ failed }, 1.0, 1, 0)));
        QVERIFY(std::isnan(empty.ttft.mean));
        QVERIFY(toJson(computeLevelStats({ failed }, 1.0, 1, 0))
                    .value(QStringLiteral("ttft_s"))
                    .toObject()
                    .value(QStringLiteral("mean"))
                    .isNull());
    }
};

QTEST_GUILESS_MAIN(TestBenchStats)
#include "tst_benchstats.moc"
