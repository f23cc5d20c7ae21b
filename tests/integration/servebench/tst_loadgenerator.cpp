// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The load generator against real sockets: the accuracy test (what it measures against what a
// server with an exact token schedule really did, at concurrency 1 and 64), the three APIs'
// token counts, cancel, timeouts and the failures a server can cause.
#include "core/servebench/arrivals.h"
#include "core/servebench/benchstats.h"
#include "core/servebench/loadgenerator.h"
#include "core/servebench/promptgenerator.h"
#include "tests/support/sanitizer.h"
#include "tests/support/streamtestserver.h"

#include <QSignalSpy>
#include <QTcpServer>
#include <QTcpSocket>
#include <QtTest>

#include <cmath>

using namespace kf;
using kf::test::StreamTestServer;

Q_DECLARE_METATYPE(kf::ServeApi)

namespace {

LoadSpec spec(quint16 port, ServeApi api, int concurrency, int requests, int outputTokens)
{
    LoadSpec s;
    s.port = port;
    s.hostHeader = "127.0.0.1:" + QByteArray::number(port);
    s.api = api;
    s.model = QStringLiteral("m");
    s.concurrency = concurrency;
    s.outputTokens = outputTokens;
    s.prompts = makePrompts(requests, 16, 7);
    s.promptTokensEstimate = 16;
    return s;
}

LoadResult run(const LoadSpec& s, int timeoutMs = 120000)
{
    LoadGenerator gen;
    QSignalSpy done(&gen, &LoadGenerator::finished);
    gen.start(s);
    if (!done.wait(timeoutMs) && done.isEmpty())
        return {};
    return done.first().first().value<LoadResult>();
}

// The server's side of the same definitions, from the times it really wrote each token.
struct ServerView
{
    QList<double> ttft;
    QList<double> itl;
    QList<double> tpot;
};
ServerView serverView(const QList<StreamTestServer::Trace>& traces)
{
    ServerView v;
    for (const auto& t : traces) {
        if (t.tokenNs.isEmpty())
            continue;
        v.ttft << double(t.tokenNs.first() - t.arrivedNs) * 1e-9;
        for (qsizetype k = 1; k < t.tokenNs.size(); ++k)
            v.itl << double(t.tokenNs[k] - t.tokenNs[k - 1]) * 1e-9;
        if (t.tokenNs.size() > 1)
            v.tpot << double(t.tokenNs.last() - t.tokenNs.first()) * 1e-9 / double(t.tokenNs.size() - 1);
    }
    return v;
}

// Within 5% of what the server did.
void close5(const char* what, double client, double server)
{
    const double rel = std::abs(client - server) / server;
    qInfo("%s: client %.2f ms, server %.2f ms (%.2f%%)", what, client * 1e3, server * 1e3, rel * 100);
    QVERIFY2(rel <= 0.05,
        qPrintable(QStringLiteral("%1: client %2 ms vs server %3 ms")
                       .arg(QLatin1String(what))
                       .arg(client * 1e3)
                       .arg(server * 1e3)));
}

} // namespace

class TestLoadGenerator : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qRegisterMetaType<kf::LoadResult>(); }

    // Intervals of 500 ms (prefill) and 60 ms (per token) keep scheduling noise of a loaded
    // two-core machine far below 5%, and the comparison is with the times the server really
    // wrote its tokens, so a late server timer cannot fail it.
    void accuracy_data()
    {
        QTest::addColumn<int>("concurrency");
        QTest::addColumn<int>("requests");
        QTest::newRow("concurrency 1") << 1 << 4;
        QTest::newRow("concurrency 64") << 64 << 128;
    }
    void accuracy()
    {
        QFETCH(int, concurrency);
        QFETCH(int, requests);
        StreamTestServer server({ 0.5, 0.06, false });
        QVERIFY(server.start());
        const LoadResult r = run(spec(server.port(), ServeApi::Completions, concurrency, requests, 12));
        QCOMPARE(r.samples.size(), requests);
        const LevelStats s = computeLevelStats(r.samples, r.durationS, concurrency, 0);
        QCOMPARE(s.completed, requests);
        QCOMPARE(s.outputTokens, qint64(12) * requests);
        QVERIFY(!s.outputTokensEstimated);
        const ServerView v = serverView(server.traces());
        QCOMPARE(v.ttft.size(), requests);
        // 64 streams in this one event loop with the server: instrumented code falls behind them
        // (ASan measured the client 28% late on TTFT), which says nothing about the generator.
        if (kf::test::kUnderSanitizer && concurrency > 1)
            QSKIP("timing accuracy at 64 streams is not measured under AddressSanitizer");
        const Distribution ttft = summarize(v.ttft);
        const Distribution itl = summarize(v.itl);
        const Distribution tpot = summarize(v.tpot);
        QCOMPARE(s.itl.count, itl.count);
        close5("TTFT mean", s.ttft.mean, ttft.mean);
        close5("TTFT p50", s.ttft.p50, ttft.p50);
        close5("ITL mean", s.itl.mean, itl.mean);
        close5("ITL p50", s.itl.p50, itl.p50);
        close5("TPOT mean", s.tpot.mean, tpot.mean);
    }

    void apis_data()
    {
        QTest::addColumn<ServeApi>("api");
        QTest::newRow("openai") << ServeApi::Completions;
        QTest::newRow("openai-chat") << ServeApi::ChatCompletions;
        QTest::newRow("sglang") << ServeApi::Generate;
    }
    void apis()
    {
        QFETCH(ServeApi, api);
        StreamTestServer server({ 0.02, 0.01, false });
        QVERIFY(server.start());
        const LoadResult r = run(spec(server.port(), api, 4, 8, 6));
        const LevelStats s = computeLevelStats(r.samples, r.durationS, 4, 0);
        QCOMPARE(s.completed, 8);
        QCOMPARE(s.outputTokens, 48);
        QCOMPARE(s.inputTokens, 8 * 16); // the server counted the 16 words of each prompt
        QVERIFY(!s.inputTokensEstimated && !s.outputTokensEstimated);
        QCOMPARE(s.itl.count, 8 * 5);
        for (const auto& t : server.traces())
            QCOMPARE(t.path, QByteArray(serveApiPath(api)));
    }

    void requestRateSpacesArrivals()
    {
        StreamTestServer server({ 0.0, 0.0, true });
        QVERIFY(server.start());
        LoadSpec s = spec(server.port(), ServeApi::Completions, 100, 20, 2);
        s.arrivals = arrivalTimes({ 40, 1 }, 20, 1); // Poisson: 20 arrivals in 0.5 s
        const LoadResult r = run(s);
        QCOMPARE(r.samples.size(), 20);
        // Requests start at their due times, in order, not all at 0, none before it is due.
        double last = -1;
        int distinct = 0;
        for (int i = 0; i < r.samples.size(); ++i) {
            const RequestSample& x = r.samples[i];
            QVERIFY(x.start >= last);
            QCOMPARE(x.scheduled, s.arrivals[i]);
            QVERIFY(x.start >= x.scheduled);
            distinct += x.start > last + 1e-4 ? 1 : 0;
            last = x.start;
        }
        QVERIFY(distinct > 10);
    }

    void cancelClosesEveryRequest()
    {
        StreamTestServer server({ 0.05, 0.05, false });
        QVERIFY(server.start());
        LoadGenerator gen;
        QSignalSpy done(&gen, &LoadGenerator::finished);
        gen.start(spec(server.port(), ServeApi::Completions, 6, 30, 2000)); // 100 s per request
        QTRY_COMPARE_WITH_TIMEOUT(server.openConnections(), 6, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(server.traces().size() == 6 && !server.traces().last().tokenNs.isEmpty(), 30000);
        gen.cancel();
        QCOMPARE(done.size(), 1); // at once, not after the streams end
        const LoadResult r = done.first().first().value<LoadResult>();
        QVERIFY(r.cancelled);
        QCOMPARE(r.samples.size(), 6);
        QCOMPARE(r.notSent, 24);
        for (const RequestSample& s : r.samples)
            QCOMPARE(s.error, QStringLiteral("cancelled"));
        QCOMPARE(gen.inFlight(), 0);
        // The server sees every client go away.
        QTRY_COMPARE_WITH_TIMEOUT(server.openConnections(), 0, 30000);
        for (const auto& t : server.traces())
            QVERIFY(t.clientGone);
    }

    void timeout()
    {
        StreamTestServer server({ 30.0, 0.1, false });
        QVERIFY(server.start());
        LoadSpec s = spec(server.port(), ServeApi::Completions, 2, 2, 4);
        s.requestTimeoutMs = 300;
        const LoadResult r = run(s);
        QCOMPARE(r.samples.size(), 2);
        QCOMPARE(r.samples[0].error, QStringLiteral("no complete response after 0.3 s"));
        QTRY_COMPARE_WITH_TIMEOUT(server.openConnections(), 0, 30000);
    }

    void connectionRefused()
    {
        quint16 port = 0;
        {
            QTcpServer probe;
            QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
            port = probe.serverPort();
        }
        const LoadResult r = run(spec(port, ServeApi::Completions, 2, 3, 4));
        QCOMPARE(r.samples.size(), 3);
        QVERIFY2(r.samples[0].error.contains(QStringLiteral("refused"), Qt::CaseInsensitive),
            qPrintable(r.samples[0].error));
    }

    // A server answering each request with `reply` and closing.
    void serverFailures_data()
    {
        QTest::addColumn<QByteArray>("reply");
        QTest::addColumn<QString>("error");
        QTest::newRow("503") << QByteArray("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 10\r\n\r\noverloaded")
                             << QStringLiteral("HTTP 503 Service Unavailable: overloaded");
        QTest::newRow("cut in a chunk") << QByteArray(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n40\r\ndata: {\"choices\"")
                                        << QStringLiteral("connection closed in the middle of a chunked response body");
        QTest::newRow("error event") << QByteArray(
            "HTTP/1.1 200 OK\r\n\r\ndata: {\"object\":\"error\",\"message\":\"The model `x` does not "
            "exist.\"}\n\n") << QStringLiteral("server error: The model `x` does not exist.");
        QTest::newRow("not http") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n\r\n")
                                  << QStringLiteral("not an HTTP/1.x status line");
    }
    void serverFailures()
    {
        QFETCH(QByteArray, reply);
        QFETCH(QString, error);
        QTcpServer server;
        QVERIFY(server.listen(QHostAddress::LocalHost, 0));
        connect(&server, &QTcpServer::newConnection, this, [&] {
            while (QTcpSocket* s = server.nextPendingConnection()) {
                connect(s, &QTcpSocket::readyRead, s, [s, reply] {
                    if (!s->readAll().contains("\r\n\r\n"))
                        return;
                    s->write(reply);
                    s->disconnectFromHost();
                });
                connect(s, &QTcpSocket::disconnected, s, &QObject::deleteLater);
            }
        });
        const LoadResult r = run(spec(server.serverPort(), ServeApi::Completions, 1, 1, 4));
        QCOMPARE(r.samples.size(), 1);
        QVERIFY(!r.samples[0].ok);
        QVERIFY2(r.samples[0].error.startsWith(error), qPrintable(r.samples[0].error));
    }
};

QTEST_GUILESS_MAIN(TestLoadGenerator)
#include "tst_loadgenerator.moc"
