// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// ServeBench end to end: a sweep over the real sshd (the demo host: every request a
// direct-tcpip channel of one SSH session, through a LocalPortForward) to the demo SGLang
// server, stored and compared; and a cancelled run that leaves nothing running on the server.
#include "core/servebench/benchcompare.h"
#include "core/servebench/benchstore.h"
#include "core/servebench/servebench.h"
#include "core/ssh/sshtransport.h"
#include "core/store/database.h"
#include "core/transport/localtransport.h"
#include "tests/support/demosglangserver.h"
#include "tests/support/testsupport.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

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
        connect(&bench, &ServeBench::levelStarted, this, [&](int, int c, int) { levels << c; });
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
        QVERIFY(run.error.contains(QStringLiteral("every request at concurrency 2 failed")));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last(), 2);
        QCOMPARE(run.id, 0); // setStoreResults(false)
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
