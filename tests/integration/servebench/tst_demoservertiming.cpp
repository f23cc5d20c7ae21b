// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #17: the demo SGLang server's timing model, measured with the load generator against
// the real script (resources/demo/bin/sglang-demo-server): the time to the first token grows
// with the prompt's length (prefill per prompt token), the time per output token with the
// requests generating at once (decode per request in the batch). The model's parameters are set
// so the expected ratio is 20 (TTFT) and 16 (TPOT); the test asks for 5 and 4, in the right
// direction, with no absolute threshold: a busy machine slows both sides, not the order.
#include "core/servebench/benchstats.h"
#include "core/servebench/loadgenerator.h"
#include "core/servebench/promptgenerator.h"
#include "tests/support/demosglangserver.h"

#include <QSignalSpy>
#include <QtTest>

using namespace kf;

namespace {

LoadResult run(quint16 port, int concurrency, int requests, int promptWords, int outputTokens)
{
    LoadSpec s;
    s.port = port;
    s.hostHeader = "127.0.0.1:" + QByteArray::number(port);
    s.api = ServeApi::Completions;
    s.model = QStringLiteral("demo");
    s.concurrency = concurrency;
    s.outputTokens = outputTokens;
    s.prompts = makePrompts(requests, promptWords, 11);
    s.promptTokensEstimate = promptWords;
    LoadGenerator gen;
    QSignalSpy done(&gen, &LoadGenerator::finished);
    gen.start(s);
    if (!done.wait(240000) && done.isEmpty())
        return {};
    return done.first().first().value<LoadResult>();
}

} // namespace

class TestDemoServerTiming : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<kf::LoadResult>(); }

    // Prefill 2 ms per prompt token and nothing else: 40 ms for 20 words, 800 ms for 400.
    void ttftGrowsWithThePrompt()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(
            { QStringLiteral("--no-background-load"), QStringLiteral("--prefill-base-ms"), QStringLiteral("0"),
                QStringLiteral("--prefill-per-token-ms"), QStringLiteral("2"), QStringLiteral("--decode-base-ms"),
                QStringLiteral("1"), QStringLiteral("--decode-per-request-ms"), QStringLiteral("0") }));
        QVERIFY(server.waitHealthy());
        LevelStats at[2];
        const int words[2] = { 20, 400 };
        for (int i = 0; i < 2; ++i) {
            const LoadResult r = run(server.port(), 1, 4, words[i], 4);
            QCOMPARE(r.samples.size(), 4);
            at[i] = computeLevelStats(r.samples, r.durationS, 1, 0);
            QCOMPARE(at[i].completed, 4);
            // The server counted the prompt's words as its tokens (not our estimate).
            QVERIFY(!at[i].inputTokensEstimated);
            QCOMPARE(at[i].inputTokens, qint64(4) * words[i]);
        }
        qInfo("TTFT p50: %.1f ms at %d prompt tokens, %.1f ms at %d", at[0].ttft.p50 * 1e3, words[0],
            at[1].ttft.p50 * 1e3, words[1]);
        QVERIFY2(at[1].ttft.p50 > 5 * at[0].ttft.p50,
            qPrintable(QStringLiteral("TTFT p50 %1 ms at %2 tokens, %3 ms at %4 tokens (expected x20)")
                           .arg(at[0].ttft.p50 * 1e3)
                           .arg(words[0])
                           .arg(at[1].ttft.p50 * 1e3)
                           .arg(words[1])));
    }

    // Decode 10 ms per request generating and nothing else: 10 ms a token alone, 160 ms with
    // 16 requests at once.
    void decodeGrowsWithTheBatch()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(
            { QStringLiteral("--no-background-load"), QStringLiteral("--prefill-base-ms"), QStringLiteral("0"),
                QStringLiteral("--prefill-per-token-ms"), QStringLiteral("0"), QStringLiteral("--decode-base-ms"),
                QStringLiteral("0"), QStringLiteral("--decode-per-request-ms"), QStringLiteral("10") }));
        QVERIFY(server.waitHealthy());
        LevelStats at[2];
        const int concurrency[2] = { 1, 16 };
        for (int i = 0; i < 2; ++i) {
            const int requests = concurrency[i] == 1 ? 3 : 16;
            const LoadResult r = run(server.port(), concurrency[i], requests, 16, 12);
            QCOMPARE(r.samples.size(), requests);
            at[i] = computeLevelStats(r.samples, r.durationS, concurrency[i], 0);
            QCOMPARE(at[i].completed, requests);
            QCOMPARE(at[i].outputTokens, qint64(12) * requests);
        }
        qInfo("TPOT p50: %.1f ms at concurrency %d, %.1f ms at %d", at[0].tpot.p50 * 1e3, concurrency[0],
            at[1].tpot.p50 * 1e3, concurrency[1]);
        QVERIFY2(at[1].tpot.p50 > 4 * at[0].tpot.p50,
            qPrintable(QStringLiteral("TPOT p50 %1 ms at concurrency %2, %3 ms at %4 (expected x16)")
                           .arg(at[0].tpot.p50 * 1e3)
                           .arg(concurrency[0])
                           .arg(at[1].tpot.p50 * 1e3)
                           .arg(concurrency[1])));
        QVERIFY(at[1].itl.p50 > 4 * at[0].itl.p50);
    }
};

QTEST_GUILESS_MAIN(TestDemoServerTiming)
#include "tst_demoservertiming.moc"
