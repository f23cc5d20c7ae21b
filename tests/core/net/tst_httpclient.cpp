// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/net/httpclient.h"
#include "core/transport/localtransport.h"

#include <QtTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <thread>
#include <unistd.h>

using namespace kf;

class TestHttpClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void responses_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<bool>("closed");
        QTest::addColumn<bool>("complete");
        QTest::addColumn<bool>("error");
        QTest::addColumn<int>("status");
        QTest::addColumn<QByteArray>("body");
        QTest::newRow("content-length") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello") << false
                                        << true << false << 200 << QByteArray("hello");
        QTest::newRow("length, more to come") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello")
                                              << false << false << false << 200 << QByteArray();
        QTest::newRow("length, closed early") << QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhello")
                                              << true << false << true << 200 << QByteArray();
        QTest::newRow("chunked") << QByteArray(
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n7;x=y\r\n, world\r\n0\r\n\r\n")
                                 << false << true << false << 200 << QByteArray("hello, world");
        QTest::newRow("chunked, closed after the last chunk")
            << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nok\r\n0\r\n") << true << true
            << false << 200 << QByteArray("ok"); // trailers do not matter once the last chunk came
        QTest::newRow("chunked, partial") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhel")
                                          << false << false << false << 200 << QByteArray();
        QTest::newRow("bad chunk size") << QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n")
                                        << false << false << true << 200 << QByteArray();
        QTest::newRow("until close") << QByteArray("HTTP/1.0 200 OK\nContent-Type: text/plain\n\nbody") << true << true
                                     << false << 200 << QByteArray("body");
        QTest::newRow("until close, open") << QByteArray("HTTP/1.0 200 OK\nContent-Type: text/plain\n\nbody") << false
                                           << false << false << 200 << QByteArray();
        QTest::newRow("503 starting") << QByteArray("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 2\r\n\r\n{}")
                                      << false << true << false << 503 << QByteArray("{}");
        QTest::newRow("headers unfinished")
            << QByteArray("HTTP/1.1 200 OK\r\nContent-Le") << false << false << false << 200 << QByteArray();
        QTest::newRow("not http") << QByteArray("SSH-2.0-OpenSSH_9.2\r\n") << false << false << true << 0
                                  << QByteArray();
        QTest::newRow("closed, nothing") << QByteArray() << true << false << true << 0 << QByteArray();
        QTest::newRow("204 without length")
            << QByteArray("HTTP/1.1 204 No Content\r\n\r\n") << false << true << false << 204 << QByteArray();
    }
    void responses()
    {
        QFETCH(QByteArray, data);
        QFETCH(bool, closed);
        QFETCH(bool, complete);
        QFETCH(bool, error);
        QFETCH(int, status);
        QFETCH(QByteArray, body);
        const HttpParse p = parseHttpResponse(data, closed);
        QCOMPARE(p.complete, complete);
        QCOMPARE(!p.error.isEmpty(), error);
        if (complete) {
            QCOMPARE(p.response.status, status);
            QCOMPARE(p.response.body, body);
        }
    }

    void headersCaseInsensitive()
    {
        const HttpParse p = parseHttpResponse(
            QByteArray("HTTP/1.1 200 OK\r\ncontent-type: text/plain; version=0.0.4\r\nContent-Length: 0\r\n\r\n"),
            false);
        QVERIFY(p.complete);
        QCOMPARE(p.response.header("Content-Type"), QByteArray("text/plain; version=0.0.4"));
        QCOMPARE(p.response.reason, QStringLiteral("OK"));
    }

    // What a server may send is bounded: endless headers and oversized bodies are errors
    // that name the limit, whatever the framing.
    void limits()
    {
        QByteArray endlessHeaders = "HTTP/1.1 200 OK\r\n";
        while (endlessHeaders.size() <= kHttpMaxHeaderBytes)
            endlessHeaders += "X-Endless: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa\r\n";
        HttpParse p = parseHttpResponse(endlessHeaders, false);
        QVERIFY2(p.error.contains(QLatin1String("response headers exceed 65536 bytes")), qPrintable(p.error));
        // One endless header line too.
        p = parseHttpResponse(
            QByteArray(QByteArray("HTTP/1.1 200 OK\r\nX: ") + QByteArray(kHttpMaxHeaderBytes, 'a')), false);
        QVERIFY2(p.error.contains(QLatin1String("headers exceed")), qPrintable(p.error));
        // Content-Length over the caller's limit is refused before the body arrives.
        p = parseHttpResponse(QByteArray("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nabc"), false, 10);
        QCOMPARE(p.error, QStringLiteral("response body too large (100 bytes, limit 10)"));
        p = parseHttpResponse(
            QByteArray("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n"), false, 10);
        QVERIFY2(p.error.startsWith(QLatin1String("response body too large (at least 16 bytes, limit 10)")),
            qPrintable(p.error));
        p = parseHttpResponse(QByteArray(QByteArray("HTTP/1.0 200 OK\r\n\r\n") + QByteArray(11, 'x')), false, 10);
        QVERIFY2(p.error.startsWith(QLatin1String("response body too large (at least 11 bytes")), qPrintable(p.error));
        // At the limit is fine.
        p = parseHttpResponse(QByteArray(QByteArray("HTTP/1.0 200 OK\r\n\r\n") + QByteArray(10, 'x')), true, 10);
        QVERIFY(p.complete);
        QCOMPARE(p.response.body.size(), 10);
    }
    void requestHeaders()
    {
        // A real socket on 127.0.0.1: one connection, records the request, answers 200.
        const int listener = ::socket(AF_INET, SOCK_STREAM, 0);
        QVERIFY(listener >= 0);
        sockaddr_in a {};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        QCOMPARE(::bind(listener, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
        QCOMPARE(::listen(listener, 1), 0);
        socklen_t len = sizeof a;
        QCOMPARE(::getsockname(listener, reinterpret_cast<sockaddr*>(&a), &len), 0);
        QByteArray request;
        std::thread server([&] {
            const int c = ::accept(listener, nullptr, nullptr);
            char buf[4096];
            while (!request.contains("\r\n\r\n")) {
                const ssize_t n = ::read(c, buf, sizeof buf);
                if (n <= 0)
                    break;
                request.append(buf, n);
            }
            const char reply[] = "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok";
            (void)!::write(c, reply, sizeof reply - 1);
            ::close(c);
        });
        LocalTransport local;
        const auto r
            = httpGet(local, QStringLiteral("127.0.0.1"), ntohs(a.sin_port), QStringLiteral("/api/v1/query?query=up"),
                10000, kHttpMaxBodyBytes, { { "Authorization", "Bearer s3cret" } });
        server.join();
        ::close(listener);
        QVERIFY2(r, qPrintable(r.error()));
        QCOMPARE(r->body, "ok");
        QVERIFY2(request.contains("\r\nAuthorization: Bearer s3cret\r\n"), request.constData());
        QVERIFY(request.startsWith("GET /api/v1/query?query=up HTTP/1.1\r\n"));
        QVERIFY(request.endsWith("\r\n\r\n"));
        // A header that would smuggle another one is refused before anything is sent; the
        // message names the header, never its value (a token).
        const auto bad = httpGet(local, QStringLiteral("127.0.0.1"), ntohs(a.sin_port), QStringLiteral("/"), 2000,
            kHttpMaxBodyBytes, { { "Authorization", "Bearer x\r\nX-Evil: 1" } });
        QVERIFY(!bad);
        QVERIFY2(bad.error().startsWith("invalid header Authorization"), qPrintable(bad.error()));
        QVERIFY(!bad.error().contains("Evil"));
    }
};

QTEST_GUILESS_MAIN(TestHttpClient)
#include "tst_httpclient.moc"
