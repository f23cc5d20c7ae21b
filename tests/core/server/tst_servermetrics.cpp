// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Derived server numbers (throughput, queue, KV use, latency quantiles) from /metrics text.
#include "core/server/serverlaunchprofile.h"
#include "core/server/servermetrics.h"
#include "tests/support/testsupport.h"

#include <QtTest>

#include <cmath>

using namespace kf;

namespace {
bool near(double a, double b)
{
    return std::abs(a - b) < 1e-9;
}
// An estimate (not only a lower bound) close to b.
bool near(const Quantile& q, double b)
{
    return !q.above && near(q.value, b);
}
} // namespace

class TestServerMetrics : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sglangTwoRanks()
    {
        const PromText t = parsePrometheusText(test::readData(QStringLiteral("metrics/sglang_tp2.prom")));
        const ServerMetrics m = deriveServerMetrics(t);
        QCOMPARE(m.vocabulary, QStringLiteral("sglang"));
        // TP ranks of one batch repeat the same gauge; they are not added up.
        QCOMPARE(m.running, 12.0);
        QCOMPARE(m.queued, 3.0);
        QCOMPARE(m.kvUsage, 0.62);
        QCOMPARE(m.genThroughput, 2087.5);
        QVERIFY(!m.throughputFromRate);
        QCOMPARE(m.cacheHitRate, 0.41);
        QCOMPARE(m.tpRanksReporting, 2);
        QVERIFY(m.note.isEmpty());
        QVERIFY(near(m.ttftP50, 0.3));
        QVERIFY(near(m.ttftP95, 0.75));
        QVERIFY(near(m.itlP50, 0.01));
        QVERIFY(near(m.itlP95, 0.02 + 0.03 * 0.5));
    }

    void dpRanksAreSummed()
    {
        const QByteArray text = "sglang:num_running_reqs{dp_rank=\"0\",tp_rank=\"0\"} "
                                "5\nsglang:num_running_reqs{dp_rank=\"0\",tp_rank=\"1\"} 5\n"
                                "sglang:num_running_reqs{dp_rank=\"1\",tp_rank=\"0\"} 7\n";
        QCOMPARE(deriveServerMetrics(parsePrometheusText(text)).running, 12.0);
    }

    // The prefix cache's counter, in each server's spelling, counted once per label group like
    // every other quantity: before it was read apart (core/servebench) and summed over TP ranks,
    // so a TP 2 server's benchmark saw twice the cached tokens it served.
    void cachedTokensOnceInEachSpelling_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<double>("cached");
        QTest::newRow("sglang, two TP ranks") << QByteArray("sglang:cached_tokens_total{tp_rank=\"0\"} 40\n"
                                                            "sglang:cached_tokens_total{tp_rank=\"1\"} 40\n")
                                              << 40.0;
        QTest::newRow("sglang_") << QByteArray("sglang_cached_tokens_total 9\n") << 9.0;
        QTest::newRow("vllm") << QByteArray("vllm:prefix_cache_hits_total{model_name=\"m\"} 7\n") << 7.0;
        QTest::newRow("vllm, older") << QByteArray("vllm:prefix_cache_hits 3\n") << 3.0;
    }
    void cachedTokensOnceInEachSpelling()
    {
        QFETCH(QByteArray, text);
        QFETCH(double, cached);
        QCOMPARE(deriveServerMetrics(parsePrometheusText(text)).cachedTokensTotal, cached);
    }

    void onlyRankZeroNote()
    {
        const QByteArray text = "sglang:num_running_reqs{tp_rank=\"0\"} 5\n";
        const ServerMetrics m = deriveServerMetrics(parsePrometheusText(text));
        QCOMPARE(m.tpRanksReporting, 1);
        QVERIFY(m.note.contains(QStringLiteral("rank 0")));
    }

    void vllmRatesThroughput()
    {
        const QByteArray before = test::readData(QStringLiteral("metrics/vllm.prom"));
        QByteArray after = before;
        after.replace("vllm:generation_tokens_total{engine=\"0\",model_name=\"meta-llama/Llama-3.1-8B\"} 50000.0",
            "vllm:generation_tokens_total{engine=\"0\",model_name=\"meta-llama/Llama-3.1-8B\"} 60000.0");
        QVERIFY(after != before);
        const PromText a = parsePrometheusText(before);
        const PromText b = parsePrometheusText(after);
        const ServerMetrics first = deriveServerMetrics(a);
        QCOMPARE(first.vocabulary, QStringLiteral("vllm"));
        QVERIFY(std::isnan(first.genThroughput));
        const ServerMetrics m = deriveServerMetrics(b, &a, 5.0);
        QCOMPARE(m.genThroughput, 2000.0);
        QVERIFY(m.throughputFromRate);
        QCOMPARE(m.running, 7.0);
        QCOMPARE(m.queued, 1.0);
        QCOMPARE(m.kvUsage, 0.25);
        QVERIFY(near(m.ttftP50, 0.05));
        QVERIFY(near(m.itlP50, 0.01));
    }

    void latencyOverTheLastInterval()
    {
        const QByteArray a = "sglang:time_to_first_token_seconds_bucket{le=\"0.1\"} "
                             "100\nsglang:time_to_first_token_seconds_bucket{le=\"1\"} 100\n"
                             "sglang:time_to_first_token_seconds_bucket{le=\"+Inf\"} 100\n";
        const QByteArray b = "sglang:time_to_first_token_seconds_bucket{le=\"0.1\"} "
                             "100\nsglang:time_to_first_token_seconds_bucket{le=\"1\"} 110\n"
                             "sglang:time_to_first_token_seconds_bucket{le=\"+Inf\"} 110\n";
        const PromText pa = parsePrometheusText(a);
        const PromText pb = parsePrometheusText(b);
        // Lifetime: mostly fast. Last interval: every new request took 0.1..1 s.
        QVERIFY(deriveServerMetrics(pb).ttftP50.value < 0.1);
        QVERIFY(near(deriveServerMetrics(pb, &pa, 1).ttftP50, 0.55));
    }

    void sglangDocsExampleAboveLastBucket()
    {
        // SGLang's docs' example page: 2513 of 11008 TTFTs are <= 30 s, the rest only "> 30 s".
        // p50 and p95 lie in the +Inf bucket: a lower bound, never "30000 ms".
        const ServerMetrics m = deriveServerMetrics(
            parsePrometheusText(test::readData(QStringLiteral("metrics/sglang_docs_example.prom"))));
        QCOMPARE(m.vocabulary, QStringLiteral("sglang"));
        QCOMPARE(m.running, 162.0);
        QCOMPARE(m.queued, 2826.0);
        QVERIFY(m.ttftP50.above);
        QVERIFY(m.ttftP95.above);
        QCOMPARE(m.ttftP50.value, 30.0);
        QVERIFY(std::isnan(m.ttftP95.estimate()));
        QCOMPARE(quantileText(m.ttftP50, 1), QStringLiteral("> 30 s"));
        QCOMPARE(quantileText(m.ttftP95, 1), QStringLiteral("> 30 s"));
        // time_per_output_token (older name of ITL): p50 inside the 0.075..0.1 bucket, p95 inside
        // 0.1..0.15; both real estimates.
        QVERIFY(!m.itlP50.above && !m.itlP95.above);
        const double p50 = 0.075 + 0.025 * ((7.400757e6 * 0.5 - 433413.0) / (4.950195e6 - 433413.0));
        QVERIFY(near(m.itlP50, p50));
        QCOMPARE(quantileText(m.itlP50, 2), QString::number(p50 * 1000, 'f', 2) + QStringLiteral(" ms"));
        // Sub-second bounds read in ms; unknown reads as the placeholder.
        QCOMPARE(quantileText(Quantile { 0.25, true }, 1), QStringLiteral("> 250 ms"));
        QCOMPARE(quantileText(Quantile {}, 1, QStringLiteral("n/a")), QStringLiteral("n/a"));
    }

    void launchCommand()
    {
        ServerLaunchProfile p;
        p.modelPath = QStringLiteral("/models/Qwen3.5 397B");
        p.tp = 8;
        p.extraArgs = { QStringLiteral("--mem-fraction-static"), QStringLiteral("0.85") };
        QCOMPARE(p.command(),
            QStringLiteral("python -m sglang.launch_server --model-path '/models/Qwen3.5 397B' --tp 8 --port 30000 "
                           "--host 127.0.0.1 "
                           "--enable-metrics --mem-fraction-static 0.85"));
        QVERIFY(ServerLaunchProfile::demoProfile().command().startsWith(
            QStringLiteral("sglang-demo-server --model-path Qwen/Qwen3.5-397B-A17B-NVFP4 --tp 8")));
    }

    // A server (or whatever answers on its port) that says +Inf or -Inf: no value, as for NaN.
    void nonFiniteGaugesAreNoValue()
    {
        const ServerMetrics m = deriveServerMetrics(parsePrometheusText(
            "sglang:num_running_reqs{tp_rank=\"0\"} +Inf\nsglang:num_queue_reqs{tp_rank=\"0\"} -Inf\n"
            "sglang:gen_throughput{tp_rank=\"0\"} NaN\nsglang:token_usage{tp_rank=\"0\"} 0.5\n"));
        QVERIFY(std::isnan(m.running));
        QVERIFY(std::isnan(m.queued));
        QVERIFY(std::isnan(m.genThroughput));
    }

    void nothingKnown()
    {
        const ServerMetrics m = deriveServerMetrics(parsePrometheusText("process_cpu_seconds_total 3\n"));
        QVERIFY(m.vocabulary.isEmpty());
        QVERIFY(m.note.contains(QStringLiteral("--enable-metrics")));
        QVERIFY(std::isnan(m.running));
    }
};

QTEST_GUILESS_MAIN(TestServerMetrics)
#include "tst_servermetrics.moc"
