// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// ServeBench end to end: a sweep over the real sshd (the demo host: every request a
// direct-tcpip channel of one SSH session, through a LocalPortForward) to the demo SGLang
// server, stored and compared; and a cancelled run that leaves nothing running on the server.
// Issue #35, against servers whose timing is known exactly: a server with fixed TTFT/ITL and
// a capacity beyond which it queues is flagged saturated past it and not below it; one whose
// /metrics counts fewer tokens than it streams is flagged; the demo server's background load
// is reported as other load; goodput counts match the SLO outcomes the demo server's timing
// model predicts request by request; a goodput search finds the test server's capacity.
#include "core/servebench/benchcompare.h"
#include "core/servebench/benchstore.h"
#include "core/servebench/servebench.h"
#include "core/ssh/sshtransport.h"
#include "core/store/database.h"
#include "core/transport/localtransport.h"
#include "tests/support/demosglangserver.h"
#include "tests/support/streamtestserver.h"
#include "tests/support/testsupport.h"

#include <QSet>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace kf;

namespace {

// Only the requests we send: num_running_reqs is exactly the requests in flight.
const QStringList kServerArgs { QStringLiteral("--tp"), QStringLiteral("2"), QStringLiteral("--enable-metrics"),
    QStringLiteral("--no-background-load"), QStringLiteral("--decode-base-ms"), QStringLiteral("10") };

BenchRun runToEnd(ServeBench& bench, const BenchParams& p)
{
    QSignalSpy finished(&bench, &ServeBench::finished);
    bench.start(p);
    if (finished.isEmpty() && !finished.wait(240000))
        return {};
    return finished.first().first().value<BenchRun>();
}

double running(Transport& t, quint16 port)
{
    const ServerStatus s = pollServer(t, port, nullptr, false);
    return s.hasMetrics ? s.metrics.running : -1;
}

// A run against a server on this machine, not stored, with /metrics polled often enough to
// see a queue within a short level.
BenchRun runLocal(quint16 port, BenchParams p)
{
    ServeBench bench(std::make_shared<LocalTransport>(), QStringLiteral("local"));
    bench.setStoreResults(false);
    p.serverPort = port;
    p.metricsIntervalMs = 250;
    p.gpuIntervalMs = 500;
    return runToEnd(bench, p);
}

const SaturationCheck* check(const LevelResult& l, const char* key)
{
    for (const SaturationCheck& c : l.analysis.saturation.checks)
        if (c.key == QLatin1String(key))
            return &c;
    return nullptr;
}

} // namespace

class TestServeBench : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        store::setDatabasePath(m_dir.filePath(QStringLiteral("history.sqlite")));
    }

    void sweepOverSshStoredAndCompared()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(kServerArgs));
        KF_START_DEMO_HOST(demo);
        auto connected = SshTransport::connect(demo.profile());
        QVERIFY2(connected, qPrintable(connected.error()));
        const std::shared_ptr<Transport> transport = connected.value();
        QTRY_VERIFY_WITH_TIMEOUT(pollServer(*transport, server.port()).healthy(), 60000);

        ServeBench bench(transport, QStringLiteral("demo"));
        QList<int> levels;
        connect(
            &bench, &ServeBench::levelStarted, this, [&](int, const LevelPlan& l, int) { levels << l.concurrency; });
        BenchParams p;
        p.serverPort = server.port();
        p.concurrencies = { 1, 4 };
        p.requests = 8;
        p.inputTokens = 40;
        p.outputTokens = 24;
        p.gpuIntervalMs = 300;
        p.metricsIntervalMs = 300;
        const BenchRun run = runToEnd(bench, p);
        QVERIFY2(run.status == QLatin1String("completed"), qPrintable(run.status + QStringLiteral(": ") + run.error));
        QCOMPARE(levels, (QList<int> { 1, 4 }));
        QCOMPARE(run.levels.size(), 2);
        for (const LevelResult& l : run.levels) {
            QCOMPARE(l.stats.completed, 8);
            QCOMPARE(l.stats.failed, 0);
            QCOMPARE(l.stats.outputTokens, 8 * 24); // the server's own counts
            QVERIFY(!l.stats.outputTokensEstimated && !l.stats.inputTokensEstimated);
            QCOMPARE(l.stats.meanInputTokens, 40.0); // the warm-up calibrated the prompt length
            QVERIFY(l.stats.ttft.p50 > 0 && l.stats.itl.p50 > 0 && l.stats.tpot.p50 > 0);
            QCOMPARE(l.samples.size(), 8);
        }
        QVERIFY(run.promptCalibrated);
        // Who the server is: from /server_info and /v1/models through the tunnel.
        QCOMPARE(run.facts.model, QStringLiteral("Qwen/Qwen3.5-397B-A17B-NVFP4"));
        QCOMPARE(run.facts.serverVersion, QStringLiteral("0.5.6.demo"));
        QCOMPARE(run.facts.precision, QStringLiteral("FP4"));
        QCOMPARE(run.facts.tpSize, 2);
        QCOMPARE(run.facts.gpuCount, 2);
        // The demo host's nvidia-smi (replaying an H200 capture) and /metrics were sampled.
        QVERIFY2(!run.gpu.isEmpty(), qPrintable(run.gpuNote));
        QVERIFY(run.facts.gpuName.contains(QStringLiteral("H200")));
        // GPM (the H200 has it): in the samples, or why not when the run ended before its stream's
        // first line (issue #37).
        const bool gpm = std::any_of(
            run.gpu.cbegin(), run.gpu.cend(), [](const GpuPoint& g) { return std::isfinite(g.smActivePercent); });
        QVERIFY2(gpm != !run.gpmNote.isEmpty(), qPrintable(run.gpmNote));
        QVERIFY(!run.metrics.isEmpty());

        // Stored with everything, and listed.
        QVERIFY2(run.id > 0, qPrintable(run.saveError));
        auto stored = benchstore::load(run.id);
        QVERIFY2(stored, qPrintable(stored.error()));
        QCOMPARE(stored->levels.size(), 2);
        QCOMPARE(stored->levels[1].samples.size(), 8);
        QCOMPARE(stored->gpu.size(), run.gpu.size());
        QCOMPARE(stored->metrics.size(), run.metrics.size());
        QCOMPARE(stored->levels[0].stats.outputThroughput, run.levels[0].stats.outputThroughput);

        // A second run with the native API, compared with the first.
        p.api = ServeApi::Generate;
        p.concurrencies = { 4 };
        const BenchRun second = runToEnd(bench, p);
        QVERIFY2(second.status == QLatin1String("completed"), qPrintable(second.error));
        const RunComparison c = compareRuns(stored.value(), second);
        QCOMPARE(c.differences, QStringList { QStringLiteral("API openai vs sglang") });
        QCOMPARE(c.levels.size(), 2);
        QVERIFY(c.levels[0].a && !c.levels[0].b);
        QVERIFY(c.levels[1].a && c.levels[1].b);
        auto listed = benchstore::list(QStringLiteral("demo"));
        QVERIFY(listed);
        QCOMPARE(listed->size(), 2);
    }

    // The generator runs on its own thread; its timers must run there too.
    void requestTimeoutOnTheGeneratorThread()
    {
        test::DemoSglangServer server;
        QVERIFY(
            server.start(kServerArgs + QStringList { QStringLiteral("--prefill-base-ms"), QStringLiteral("120000") }));
        auto transport = std::make_shared<LocalTransport>();
        QTRY_VERIFY_WITH_TIMEOUT(pollServer(*transport, server.port()).healthy(), 60000);
        ServeBench bench(transport, QStringLiteral("local"));
        bench.setStoreResults(false);
        QList<int> progress;
        connect(&bench, &ServeBench::progress, this, [&](int, int done, int) { progress << done; });
        BenchParams p;
        p.serverPort = server.port();
        p.concurrencies = { 2 };
        p.requests = 2;
        p.inputTokens = 8;
        p.outputTokens = 4;
        p.warmup = false;
        p.requestTimeoutS = 1;
        const BenchRun run = runToEnd(bench, p);
        QCOMPARE(run.status, QStringLiteral("failed"));
        QCOMPARE(run.levels.size(), 1);
        QCOMPARE(run.levels[0].stats.failureReasons.value(QStringLiteral("no complete response after 1 s")), 2);
        QVERIFY(run.error.contains(QStringLiteral("every request at c=2 failed")));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last(), 2);
        QCOMPARE(run.id, 0); // setStoreResults(false)
    }

    // A server that generates 4 requests at once (TTFT 0.3 s, 10 tokens 20 ms apart: 0.48 s
    // each, so at most 8.3 requests/s) and queues the rest: 1.5 requests/s stays below it,
    // 25 requests/s is far past it.
    void saturationPastCapacityOnly()
    {
        test::StreamTestServer server({ 0.3, 0.02, false, 0, 4, 1.0 });
        QVERIFY(server.start());
        BenchParams p;
        p.rates = { 1.5, 25 };
        p.requests = 30;
        p.inputTokens = 16;
        p.outputTokens = 10;
        p.warmup = false;
        const BenchRun run = runLocal(server.port(), p);
        QVERIFY2(run.status == QLatin1String("completed"), qPrintable(run.status + u' ' + run.error));
        QCOMPARE(run.levels.size(), 2);
        const LevelResult& below = run.levels[0];
        const LevelResult& past = run.levels[1];
        QCOMPARE(below.requestRate, 1.5);
        QCOMPARE(below.stats.completed, 30);
        QVERIFY2(!below.analysis.saturation.saturated(), qPrintable(below.analysis.saturation.summary()));
        QVERIFY(check(below, "rate")->available);
        QVERIFY2(past.analysis.saturation.saturated(), qPrintable(past.analysis.saturation.summary()));
        QVERIFY2(check(past, "rate")->fired, qPrintable(check(past, "rate")->detail));
        QVERIFY2(check(past, "queue")->fired, qPrintable(check(past, "queue")->detail));
        QVERIFY2(check(past, "ttft")->fired, qPrintable(check(past, "ttft")->detail));
        QVERIFY(server.peakQueued() > 10);
        // Tokens streamed and counted alike (no other load on this server).
        for (const LevelResult& l : run.levels) {
            QVERIFY2(
                l.analysis.agreement.checked && l.analysis.agreement.agrees, qPrintable(l.analysis.agreement.detail));
            QCOMPARE(l.analysis.otherRunning, 0.0);
        }

        // Asked to, the sweep stops at the first saturated level.
        p.rates = { 25, 1.5 };
        const BenchRun stopped = runLocal(server.port(), [&] {
            BenchParams q = p;
            q.stopOnSaturation = true;
            return q;
        }());
        QCOMPARE(stopped.status, QStringLiteral("completed"));
        QCOMPARE(stopped.levels.size(), 1);
        QVERIFY2(
            stopped.note.startsWith(QStringLiteral("stopped after 25 req/s: saturated")), qPrintable(stopped.note));
    }

    // A closed loop beyond the capacity: the server's queue holds requests the whole time.
    void closedLoopPastCapacity()
    {
        test::StreamTestServer server({ 0.05, 0.01, false, 0, 2, 1.0 });
        QVERIFY(server.start());
        BenchParams p;
        p.concurrencies = { 2, 8 };
        p.requests = 24;
        p.inputTokens = 8;
        p.outputTokens = 20;
        p.warmup = false;
        const BenchRun run = runLocal(server.port(), p);
        QVERIFY2(run.status == QLatin1String("completed"), qPrintable(run.error));
        QVERIFY2(
            !run.levels[0].analysis.saturation.saturated(), qPrintable(run.levels[0].analysis.saturation.summary()));
        QVERIFY2(check(run.levels[1], "queue")->fired, qPrintable(check(run.levels[1], "queue")->detail));
    }

    void metricsCountingFewerTokensIsFlagged()
    {
        test::StreamTestServer honest({ 0.02, 0.005, false, 0, 0, 1.0 });
        test::StreamTestServer halves({ 0.02, 0.005, false, 0, 0, 0.5 });
        QVERIFY(honest.start() && halves.start());
        BenchParams p;
        p.concurrencies = { 2 };
        p.requests = 8;
        p.inputTokens = 8;
        p.outputTokens = 24;
        const BenchRun good = runLocal(honest.port(), p);
        const BenchRun bad = runLocal(halves.port(), p);
        QVERIFY2(good.status == QLatin1String("completed") && bad.status == QLatin1String("completed"),
            qPrintable(good.error + bad.error));
        const ServerAgreement& a = good.levels[0].analysis.agreement;
        QVERIFY2(a.checked && a.agrees, qPrintable(a.detail));
        QCOMPARE(a.clientTokens, qint64(8 * 24));
        QCOMPARE(a.serverTokens, 8.0 * 24);
        const ServerAgreement& b = bad.levels[0].analysis.agreement;
        QVERIFY(b.checked);
        QVERIFY(!b.agrees);
        QCOMPARE(b.serverTokens, 8.0 * 24 / 2);
        QVERIFY2(b.detail.contains(QStringLiteral("counts fewer tokens than it streams")), qPrintable(b.detail));
    }

    // The demo server's background load (about 50 requests of other traffic) is reported, and
    // its tokens make the server's count disagree with ours.
    void otherLoadIsReported()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(
            { QStringLiteral("--enable-metrics"), QStringLiteral("--decode-base-ms"), QStringLiteral("2") }));
        QVERIFY(server.waitHealthy());
        BenchParams p;
        p.concurrencies = { 2 };
        p.requests = 4;
        p.inputTokens = 8;
        p.outputTokens = 8;
        const BenchRun run = runLocal(server.port(), p);
        QVERIFY2(run.status == QLatin1String("completed"), qPrintable(run.error));
        QVERIFY2(run.context.otherRunning > 10, qPrintable(QString::number(run.context.otherRunning)));
        QVERIFY(contextLines(run.context).join(u'\n').contains(QStringLiteral("OTHER LOAD before the run")));
        const LevelAnalysis& a = run.levels[0].analysis;
        QVERIFY(a.otherRunning > 10);
        QVERIFY2(a.agreement.checked && !a.agreement.agrees, qPrintable(a.agreement.detail));
        QVERIFY(a.agreement.detail.contains(QStringLiteral("other traffic")));
    }

    // The demo server's timing model: TTFT = 4 ms per prompt token, nothing else at
    // concurrency 1. Prompts of 4 to 95 tokens (vLLM's range ratio 0.9 around 50), SLO TTFT
    // 200 ms: a request of fewer than 50 tokens meets it, one of more misses it. Requests within
    // 15 tokens of the line may go either way on a busy machine; every other one is judged as
    // the model says.
    void goodputMatchesTheTimingModel()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start({ QStringLiteral("--no-background-load"), QStringLiteral("--enable-metrics"),
            QStringLiteral("--prefill-base-ms"), QStringLiteral("0"), QStringLiteral("--prefill-per-token-ms"),
            QStringLiteral("4"), QStringLiteral("--decode-base-ms"), QStringLiteral("1"),
            QStringLiteral("--decode-per-request-ms"), QStringLiteral("0") }));
        QVERIFY(server.waitHealthy());
        BenchParams p;
        p.concurrencies = { 1 };
        p.requests = 40;
        p.inputTokens = 50;
        p.outputTokens = 4;
        p.rangeRatio = 0.9;
        p.rangeMeaning = RangeMeaning::Vllm;
        p.slo.ttftMs = 200;
        const BenchRun run = runLocal(server.port(), p);
        QVERIFY2(run.status == QLatin1String("completed"), qPrintable(run.error));
        const LevelResult& l = run.levels[0];
        int predictedGood = 0;
        int unsure = 0;
        QSet<int> lengths;
        for (const RequestSample& r : l.samples) {
            QVERIFY(r.ok && r.promptTokensReported);
            lengths.insert(r.promptTokens);
            const double modelMs = 4.0 * r.promptTokens;
            if (std::abs(modelMs - 200) < 60) {
                ++unsure;
                continue;
            }
            predictedGood += modelMs < 200 ? 1 : 0;
            QVERIFY2(meetsSlo(r, p.slo) == (modelMs < 200),
                qPrintable(QStringLiteral("%1 tokens: TTFT %2 ms").arg(r.promptTokens).arg(r.ttft * 1000)));
        }
        QVERIFY(lengths.size() > 20); // the range ratio varied them
        const Goodput& g = l.analysis.goodput;
        QVERIFY2(g.good >= predictedGood && g.good <= predictedGood + unsure,
            qPrintable(QStringLiteral("%1 good, %2 predicted, %3 unsure").arg(g.good).arg(predictedGood).arg(unsure)));
        QCOMPARE(g.requests, 40);
        QVERIFY(std::abs(g.requestGoodput - g.good / l.stats.durationS) < 1e-9);
    }

    // The goodput search finds the capacity of the test server: with 2 places and an SLO on
    // TTFT of twice its prefill, a closed loop of 2 keeps every request within it, 4 cannot.
    void goodputSearchFindsTheCapacity()
    {
        test::StreamTestServer server({ 0.2, 0.01, false, 0, 2, 1.0 });
        QVERIFY(server.start());
        BenchParams p;
        p.search = SearchKind::Concurrency;
        p.searchMax = 16;
        p.requests = 12;
        p.inputTokens = 8;
        p.outputTokens = 5;
        p.slo.ttftMs = 400;
        p.goodputTarget = 0.9;
        p.warmup = false;
        const BenchRun run = runLocal(server.port(), p);
        QVERIFY2(run.status == QLatin1String("completed"), qPrintable(run.error));
        QVERIFY2(run.note.contains(QStringLiteral("highest concurrency meeting the target: 2 (3 misses it)")),
            qPrintable(run.note));
        QList<int> tried;
        for (const LevelResult& l : run.levels)
            tried << l.concurrency;
        QCOMPARE(tried, (QList<int> { 1, 2, 4, 3 }));
    }

    // The demo server with a prefix cache: shared-prefix groups hit it, unique prefixes never do.
    void cacheHitWorkloadAndItsBaseline()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(test::DemoSglangServer::kQuietArgs
            + QStringList { QStringLiteral("--enable-metrics"), QStringLiteral("--prefix-cache") }));
        QVERIFY(server.waitHealthy());
        BenchParams p;
        p.concurrencies = { 1 };
        p.dataset = Dataset::SharedPrefix;
        p.prefixGroups = 2;
        p.prefixPerGroup = 4;
        p.prefixTokens = 200;
        p.questionTokens = 20;
        p.outputTokens = 4;
        const BenchRun shared = runLocal(server.port(), p);
        QVERIFY2(shared.status == QLatin1String("completed"), qPrintable(shared.error));
        QCOMPARE(shared.levels[0].stats.completed, 8);
        // Per group the first prompt misses, the three others find its 200 words: 1200 of 1760.
        const double hits = shared.levels[0].analysis.cacheHitRate;
        QVERIFY2(std::abs(hits - 1200.0 / 1760.0) < 0.01, qPrintable(QString::number(hits)));

        BenchParams base;
        base.concurrencies = { 1 };
        base.requests = 8;
        base.inputTokens = 220;
        base.outputTokens = 4;
        base.uniquePrefix = true;
        const BenchRun cold = runLocal(server.port(), base);
        QVERIFY2(cold.status == QLatin1String("completed"), qPrintable(cold.error));
        QCOMPARE(cold.levels[0].analysis.cacheHitRate, 0.0);
        // The same seed without unique prefixes: the second run finds the first one's prompts.
        base.uniquePrefix = false;
        const BenchRun first = runLocal(server.port(), base);
        const BenchRun repeat = runLocal(server.port(), base);
        QVERIFY2(repeat.levels[0].analysis.cacheHitRate > 0.9,
            qPrintable(QString::number(repeat.levels[0].analysis.cacheHitRate)));
        QVERIFY(first.levels[0].analysis.cacheHitRate < 0.05);
    }

    void cancelLeavesNothingRunning()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(kServerArgs));
        KF_START_DEMO_HOST(demo);
        auto connected = SshTransport::connect(demo.profile());
        QVERIFY2(connected, qPrintable(connected.error()));
        const std::shared_ptr<Transport> transport = connected.value();
        QTRY_VERIFY_WITH_TIMEOUT(pollServer(*transport, server.port()).healthy(), 60000);

        ServeBench bench(transport, QStringLiteral("demo"));
        QSignalSpy finished(&bench, &ServeBench::finished);
        BenchParams p;
        p.serverPort = server.port();
        p.concurrencies = { 8 };
        p.requests = 40;
        p.inputTokens = 16;
        p.outputTokens = 5000; // about a minute per request
        p.warmup = false;
        bench.start(p);
        QTRY_COMPARE_WITH_TIMEOUT(running(*transport, server.port()), 8.0, 60000);
        bench.cancel();
        QVERIFY(finished.wait(60000) || !finished.isEmpty());
        const BenchRun run = finished.first().first().value<BenchRun>();
        QCOMPARE(run.status, QStringLiteral("cancelled"));
        QCOMPARE(run.levels.size(), 1);
        QVERIFY(run.levels[0].cancelled);
        QCOMPARE(run.levels[0].stats.requests, 8);
        QCOMPARE(run.levels[0].notSent, 32);
        QCOMPARE(run.levels[0].stats.failureReasons.value(QStringLiteral("cancelled")), 8);
        // The server aborted every request whose client went away.
        QTRY_COMPARE_WITH_TIMEOUT(running(*transport, server.port()), 0.0, 60000);
        const ServerStatus s = pollServer(*transport, server.port(), nullptr, false);
        QCOMPARE(s.metricsText.sum(u"sglang:num_aborted_requests_total"), 8.0);
        auto stored = benchstore::load(run.id, false);
        QVERIFY(stored);
        QCOMPARE(stored->status, QStringLiteral("cancelled"));
    }
};

QTEST_GUILESS_MAIN(TestServeBench)
#include "tst_servebench.moc"
