// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/net/httpstreamdecoder.h"

#include <QtTest>

using namespace kf;

namespace {

struct Decoded
{
    QByteArray body;
    bool ok = true;
    bool complete = false;
    int status = 0;
    QString error;
};

// Feeds `data` in pieces of `step` bytes (0: all at once), then closes when asked.
Decoded decode(const QByteArray& data, int step, bool close, qint64 maxBody = kHttpMaxBodyBytes)
{
    HttpStreamDecoder d(maxBody);
    Decoded r;
    const int n = step <= 0 ? int(data.size()) : step;
    for (qsizetype i = 0; i < data.size() && r.ok; i += n)
        r.ok = d.feed(QByteArrayView(data).sliced(i, qMin<qsizetype>(n, data.size() - i)), &r.body);
    if (close)
        d.closed();
    r.complete = d.complete();
    r.status = d.status();
    r.error = d.error();
    return r;
}

} // namespace

class TestHttpStreamDecoder : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void bodies_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<bool>("close");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("chunked sse") << QByteArray("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n"
                                                   "Transfer-Encoding: chunked\r\n\r\n"
                                                   "f\r\ndata: {\"a\":1}\n\n\r\n"
                                                   "E;ext=1\r\ndata: [DONE]\n\n\r\n"
                                                   "0\r\nX-Trailer: y\r\n\r\n")
                                     << false << QByteArray("data: {\"a\":1}\n\ndata: [DONE]\n\n");
        QTest::newRow("content-length") << QByteArray("HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nhello") << false
                                        << QByteArray("hello");
        QTest::newRow("until close") << QByteArray("HTTP/1.0 200 OK\r\n\r\nstream of bytes") << true
                                     << QByteArray("stream of bytes");
        QTest::newRow("bare newlines") << QByteArray("HTTP/1.1 200 OK\nTransfer-Encoding: chunked\n\n3\nabc\n0\n\n")
                                       << false << QByteArray("abc");
        QTest::newRow("zero length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n") << false
                                     << QByteArray();
        QTest::newRow("204") << QByteArray("HTTP/1.1 204 No Content\r\n\r\n") << false << QByteArray();
    }
    void bodies()
    {
        QFETCH(QByteArray, wire);
        QFETCH(bool, close);
        QFETCH(QByteArray, body);
        // Every split gives the same body: byte by byte, in threes, all at once.
        for (int step : { 1, 3, 7, 0 }) {
            const Decoded d = decode(wire, step, close);
            QVERIFY2(d.ok, qPrintable(d.error));
            QVERIFY(d.complete);
            QCOMPARE(d.body, body);
        }
    }

    void statusAndHeaders()
    {
        HttpStreamDecoder d;
        QByteArray body;
        QVERIFY(d.feed("HTTP/1.1 503 Service Unavailable\r\nX-A: 1\r\nContent-Length: 2\r\n\r\nno", &body));
        QCOMPARE(d.status(), 503);
        QCOMPARE(d.reason(), QStringLiteral("Service Unavailable"));
        QCOMPARE(d.header("x-a"), QByteArray("1"));
        QCOMPARE(body, QByteArray("no"));
        QVERIFY(d.complete());
        // Bytes after the end are not ours.
        QVERIFY(d.feed("garbage", &body));
        QCOMPARE(body, QByteArray("no"));
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("wire");
        QTest::addColumn<bool>("close");
        QTest::addColumn<QString>("error");
        QTest::newRow("not http") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n\r\n") << false
                                  << QStringLiteral("not an HTTP/1.x status line");
        QTest::newRow("bad code") << QByteArray("HTTP/1.1 2x0 OK\r\n\r\n") << false
                                  << QStringLiteral("bad HTTP status code");
        QTest::newRow("header without colon") << QByteArray("HTTP/1.1 200 OK\r\nnonsense\r\n\r\n") << false
                                              << QStringLiteral("malformed HTTP header line");
        QTest::newRow("bad chunk size") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
                                        << false << QStringLiteral("bad chunk size line");
        QTest::newRow("chunk without crlf")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nabX\r\n") << false
            << QStringLiteral("not followed by CRLF");
        QTest::newRow("huge chunk size line")
            << (QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n") + QByteArray(2000, '1')) << false
            << QStringLiteral("a line exceeds 1024 bytes");
        QTest::newRow("closed in headers")
            << QByteArray("HTTP/1.1 200 OK\r\nX: y") << true << QStringLiteral("before the response headers ended");
        QTest::newRow("closed in length body") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc") << true
                                               << QStringLiteral("7 bytes before the end");
        QTest::newRow("closed in chunked body")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nab") << true
            << QStringLiteral("middle of a chunked response body");
        QTest::newRow("headers too large") << (QByteArray("HTTP/1.1 200 OK\r\nX: ") + QByteArray(70000, 'a')) << false
                                           << QStringLiteral("response headers exceed 65536 bytes");
    }
    void errors()
    {
        QFETCH(QByteArray, wire);
        QFETCH(bool, close);
        QFETCH(QString, error);
        for (int step : { 1, 0 }) {
            const Decoded d = decode(wire, step, close);
            QVERIFY(!d.complete);
            QVERIFY2(d.error.contains(error), qPrintable(d.error));
        }
    }

    void bodyLimit()
    {
        const QByteArray chunked = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                                   "a\r\n0123456789\r\na\r\n0123456789\r\n0\r\n\r\n";
        QVERIFY(decode(chunked, 0, false, 20).complete);
        const Decoded over = decode(chunked, 1, false, 19);
        QVERIFY(!over.ok);
        QVERIFY2(over.error.contains(QStringLiteral("response body too large")), qPrintable(over.error));
        const Decoded declared = decode("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", 0, false, 50);
        QVERIFY(declared.error.contains(QStringLiteral("100 bytes, limit 50")));
    }
};

QTEST_GUILESS_MAIN(TestHttpStreamDecoder)
#include "tst_httpstreamdecoder.moc"
