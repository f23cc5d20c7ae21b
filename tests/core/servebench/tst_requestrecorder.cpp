// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The per-request definitions of SGLang's bench_serving.py / vLLM's backend_request_func.py,
// checked on event sequences whose values are worked out by hand.
#include "core/net/httpstreamdecoder.h"
#include "core/servebench/requestrecorder.h"
#include "core/servebench/sseparser.h"
#include "tests/support/testsupport.h"

#include <QtTest>

using namespace kf;

namespace {
void compareList(const QList<double>& got, const QList<double>& want)
{
    QCOMPARE(got.size(), want.size());
    for (qsizetype i = 0; i < got.size(); ++i)
        QVERIFY2(std::abs(got[i] - want[i]) < 1e-9,
            qPrintable(QStringLiteral("itl[%1] %2 != %3").arg(i).arg(got[i]).arg(want[i])));
}
} // namespace

Q_DECLARE_METATYPE(kf::ServeApi)

class TestRequestRecorder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // The whole pipeline on the demo server's responses (tests/data/servebench), byte by byte.
    void demoServerResponses_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<ServeApi>("api");
        QTest::addColumn<int>("output");
        QTest::addColumn<int>("prompt");
        QTest::newRow("completions") << QStringLiteral("servebench/demo_completions.http") << ServeApi::Completions << 4
                                     << 5;
        QTest::newRow("chat") << QStringLiteral("servebench/demo_chat.http") << ServeApi::ChatCompletions << 3 << 2;
        QTest::newRow("generate") << QStringLiteral("servebench/demo_generate.http") << ServeApi::Generate << 3 << 3;
    }
    void demoServerResponses()
    {
        QFETCH(QString, file);
        QFETCH(ServeApi, api);
        QFETCH(int, output);
        QFETCH(int, prompt);
        const QByteArray wire = test::readData(file);
        QVERIFY(!wire.isEmpty());
        HttpStreamDecoder decoder;
        SseParser sse;
        RequestRecorder r(api, 0);
        r.start(0);
        double t = 0;
        for (qsizetype i = 0; i < wire.size(); ++i) {
            QByteArray body;
            QVERIFY2(decoder.feed(wire.sliced(i, 1), &body), qPrintable(decoder.error()));
            QList<QByteArray> events;
            QVERIFY(sse.feed(body, &events));
            for (const QByteArray& e : events)
                QVERIFY2(r.onEvent(e, t += 0.01), qPrintable(r.error()));
        }
        QVERIFY(decoder.complete());
        QVERIFY(r.sawDone());
        const RequestSample s = r.finish(t);
        QVERIFY(s.ok);
        QCOMPARE(s.outputTokens, output);
        QVERIFY(s.outputTokensReported);
        QCOMPARE(s.promptTokens, prompt);
        QCOMPARE(s.itl.size(), output - 1);
    }

    void chatStream()
    {
        RequestRecorder r(ServeApi::ChatCompletions, 99);
        r.start(1.0);
        QVERIFY(
            r.onEvent(R"({"choices":[{"delta":{"role":"assistant","content":""}}]})", 1.05)); // no text: not a token
        QVERIFY(r.onEvent(R"({"choices":[{"delta":{"content":"A"}}]})", 1.2));
        QVERIFY(r.onEvent(R"({"choices":[{"delta":{"content":" b"}}]})", 1.25));
        QVERIFY(r.onEvent(R"({"choices":[{"delta":{"content":" c"}}]})", 1.35));
        QVERIFY(r.onEvent(R"({"choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3}})", 1.36));
        QVERIFY(!r.sawDone());
        QVERIFY(r.onEvent("[DONE]", 1.37));
        QVERIFY(r.sawDone());
        const RequestSample s = r.finish(1.4);
        QVERIFY(s.ok);
        QVERIFY(qFuzzyCompare(s.ttft, 0.2));
        compareList(s.itl, { 0.05, 0.1 });
        QVERIFY(qFuzzyCompare(s.latency, 0.37)); // the [DONE] event, not finish()
        QCOMPARE(s.outputTokens, 3);
        QVERIFY(s.outputTokensReported);
        QCOMPARE(s.promptTokens, 7);
        QVERIFY(s.promptTokensReported);
        QVERIFY(qFuzzyCompare(s.tpot(), (0.37 - 0.2) / 2));
    }

    void generateSplitsGapsOverNewTokens()
    {
        RequestRecorder r(ServeApi::Generate, 10);
        r.start(0);
        QVERIFY(r.onEvent(R"({"text":"a","meta_info":{"completion_tokens":1,"prompt_tokens":11}})", 0.5));
        QVERIFY(r.onEvent(R"({"text":"a b c","meta_info":{"completion_tokens":3}})", 0.7));   // 2 new: 0.1 each
        QVERIFY(r.onEvent(R"({"text":"a b c","meta_info":{"completion_tokens":3}})", 0.8));   // none new: skipped
        QVERIFY(r.onEvent(R"({"text":"a b c d","meta_info":{"completion_tokens":4}})", 0.9)); // from 0.7, not 0.8
        QVERIFY(r.onEvent("[DONE]", 0.95));
        const RequestSample s = r.finish(1.0);
        QVERIFY(s.ok);
        QVERIFY(qFuzzyCompare(s.ttft, 0.5));
        compareList(s.itl, { 0.1, 0.1, 0.2 });
        QCOMPARE(s.outputTokens, 4);
        QCOMPARE(s.promptTokens, 11);
        QVERIFY(qFuzzyCompare(s.latency, 0.95));
    }

    // A hostile /generate stream claims 2 billion tokens in one event (fuzz_servestream ran out of
    // memory appending that many gaps): the request fails with why, nothing grows.
    void impossibleTokenCountsFailTheRequest()
    {
        RequestRecorder r(ServeApi::Generate, 10);
        r.start(0);
        QVERIFY(r.onEvent(R"({"text":"a","meta_info":{"completion_tokens":1}})", 0.5));
        QVERIFY(!r.onEvent(R"({"text":"a b","meta_info":{"completion_tokens":1999999999}})", 0.6));
        const RequestSample s = r.finish(1.0);
        QVERIFY(!s.ok);
        QVERIFY2(s.error.contains(QStringLiteral("1999999999 completion tokens")), qPrintable(s.error));
        QVERIFY(s.itl.isEmpty());
    }

    void withoutUsageCountsAreEstimated()
    {
        RequestRecorder r(ServeApi::Completions, 64);
        r.start(2.0);
        QVERIFY(r.onEvent(R"({"choices":[{"text":"x"}]})", 2.1));
        QVERIFY(r.onEvent(R"({"choices":[{"text":"y"}]})", 2.2));
        // Closed without [DONE]: the last event is the end.
        const RequestSample s = r.finish(2.5);
        QVERIFY(s.ok);
        QVERIFY(qFuzzyCompare(s.latency, 0.2));
        QCOMPARE(s.outputTokens, 2);
        QVERIFY(!s.outputTokensReported);
        QCOMPARE(s.promptTokens, 64);
        QVERIFY(!s.promptTokensReported);
    }

    void failures()
    {
        RequestRecorder err(ServeApi::Generate, 1);
        err.start(0);
        QVERIFY(!err.onEvent(R"({"error":{"message":"context too long"}})", 0.1));
        RequestSample s = err.finish(0.2);
        QVERIFY(!s.ok);
        QCOMPARE(s.error, QStringLiteral("server error: context too long"));

        RequestRecorder empty(ServeApi::Completions, 1);
        empty.start(0);
        QVERIFY(empty.onEvent("[DONE]", 0.1));
        s = empty.finish(0.1);
        QVERIFY(!s.ok);
        QCOMPARE(s.error, QStringLiteral("no tokens in the response"));

        RequestRecorder cut(ServeApi::Completions, 1);
        cut.start(0);
        QVERIFY(cut.onEvent(R"({"choices":[{"text":"x"}]})", 0.1));
        s = cut.finish(0.3, QStringLiteral("cancelled"));
        QVERIFY(!s.ok);
        QCOMPARE(s.error, QStringLiteral("cancelled"));
        QCOMPARE(s.tpot(), -1.0);
    }
};

QTEST_GUILESS_MAIN(TestRequestRecorder)
#include "tst_requestrecorder.moc"
