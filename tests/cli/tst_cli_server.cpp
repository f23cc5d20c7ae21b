// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "tests/support/testsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// A server that answers every request with an endless body (mode "body") or an endless
// header section (mode "headers"); prints its port first.
const char* kEndlessServer = R"PY(
import socket, sys, threading
mode = sys.argv[1]
s = socket.socket()
s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0))
s.listen(16)
print(s.getsockname()[1], flush=True)
def serve(c):
    try:
        c.recv(65536)
        if mode == "body":
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n")
            chunk = b"x" * 65536
        else:
            c.sendall(b"HTTP/1.1 200 OK\r\n")
            chunk = (b"X-Endless: " + b"a" * 1000 + b"\r\n") * 64
        while True:
            c.sendall(chunk)
    except OSError:
        pass
    finally:
        c.close()
while True:
    c, _ = s.accept()
    threading.Thread(target=serve, args=(c,), daemon=True).start()
)PY";

} // namespace

class TestCliServer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // `server status` against a server that never stops sending stops at the cap with a
    // clear message, locally and through the demo sshd's tunnel.
    void endlessResponsesStopAtTheCap_data()
    {
        QTest::addColumn<QString>("mode");
        QTest::addColumn<QString>("message");
        QTest::newRow("endless body") << "body"
                                      << "response body too large";
        QTest::newRow("endless headers") << "headers"
                                         << "response headers exceed 65536 bytes";
    }
    void endlessResponsesStopAtTheCap()
    {
        QFETCH(QString, mode);
        QFETCH(QString, message);
        QProcess server;
        server.setStandardErrorFile(QProcess::nullDevice());
        server.start(QStringLiteral("python3"), { QStringLiteral("-c"), QString::fromUtf8(kEndlessServer), mode });
        QVERIFY(server.waitForStarted());
        QVERIFY(server.waitForReadyRead(30000));
        const QString port = QString::fromUtf8(server.readLine().trimmed());
        QVERIFY(!port.isEmpty());
        auto r = kf::test::runCli({ QStringLiteral("server"), QStringLiteral("status"), QStringLiteral("--local"),
                                      QStringLiteral("--port"), port, QStringLiteral("--json") },
            120000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QByteArray(r.out + r.err).contains(message.toUtf8()), QByteArray(r.out + r.err).constData());
        KF_START_DEMO_HOST(demo);
        r = kf::test::runCli(
            { QStringLiteral("server"), QStringLiteral("status"), QStringLiteral("-p"), QString::number(demo.port()),
                QStringLiteral("-i"), demo.clientKeyPath(), QStringLiteral("--known-hosts"), demo.knownHostsPath(),
                demo.user() + QStringLiteral("@127.0.0.1"), QStringLiteral("--port"), port, QStringLiteral("--json") },
            120000);
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(QByteArray(r.out + r.err).contains(message.toUtf8()), QByteArray(r.out + r.err).constData());
        server.kill();
        server.waitForFinished(10000);
    }

    void metricsFromFile()
    {
        auto r = kf::test::runCli({ QStringLiteral("server"), QStringLiteral("metrics"), QStringLiteral("--from-file"),
            kf::test::dataPath(QStringLiteral("metrics/sglang_tp2.prom")), QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("vocabulary")).toString(), QStringLiteral("sglang"));
        QCOMPARE(o.value(QStringLiteral("gen_throughput")).toDouble(), 2087.5);
        QCOMPARE(o.value(QStringLiteral("running")).toDouble(), 12.0);
        QCOMPARE(o.value(QStringLiteral("tp_ranks_reporting")).toInt(), 2);
        QVERIFY(qAbs(o.value(QStringLiteral("ttft_p50_s")).toDouble() - 0.3) < 1e-9);
        r = kf::test::runCli({ QStringLiteral("server"), QStringLiteral("metrics"), QStringLiteral("--from-file"),
            kf::test::dataPath(QStringLiteral("metrics/vllm.prom")) });
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("running/queued  7 / 1"));
        r = kf::test::runCli({ QStringLiteral("server"), QStringLiteral("metrics"), QStringLiteral("--from-file"),
            QStringLiteral("/nonexistent") });
        QCOMPARE(r.exitCode, 1);

        // A line the parser skips is said on stderr, with its number; stdout stays the report.
        QTemporaryDir dir;
        const QString page = dir.filePath(QStringLiteral("bad.prom"));
        QFile good(kf::test::dataPath(QStringLiteral("metrics/vllm.prom")));
        QVERIFY(good.open(QIODevice::ReadOnly));
        const QByteArray text = good.readAll();
        QVERIFY(kf::test::writeFile(page, text + "vllm:num_requests_running{model_name=\"m\" 3\n"));
        const int badLine = int(text.count('\n')) + 1;
        r = kf::test::runCli(
            { QStringLiteral("server"), QStringLiteral("metrics"), QStringLiteral("--from-file"), page });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.out.contains("skipped"), r.out.constData());
        QVERIFY2(r.err.startsWith(QStringLiteral("server metrics: 1 line skipped\n  line %1: ").arg(badLine).toUtf8()),
            r.err.constData());
    }

    void metricsUsageErrors()
    {
        for (const auto& [args, says] :
            QList<std::pair<QStringList, QByteArray>> { { { "server", "metrics" }, "--from-file FILE is required" },
                { { "server", "metrics", "--from-file" }, "option --from-file needs a value" },
                { { "server", "metrics", "--frob" }, "unknown option --frob" } }) {
            const auto r = kf::test::runCli(args);
            QVERIFY2(r.exitCode == 2, qPrintable(args.join(u' ') + QStringLiteral(": ") + QString::fromUtf8(r.err)));
            QVERIFY2(r.err.contains(says), r.err.constData());
        }
    }

    void quantileAboveLastBucket()
    {
        // SGLang's docs' example page: TTFT p50/p95 lie in the +Inf bucket (> 30 s).
        const QString page = kf::test::dataPath(QStringLiteral("metrics/sglang_docs_example.prom"));
        auto r = kf::test::runCli(
            { QStringLiteral("server"), QStringLiteral("metrics"), QStringLiteral("--from-file"), page });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("TTFT p50/p95    > 30 s / > 30 s\n"), r.out.constData());
        QVERIFY(!r.out.contains("30000"));
        r = kf::test::runCli({ QStringLiteral("server"), QStringLiteral("metrics"), QStringLiteral("--from-file"), page,
            QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QVERIFY(o.value(QStringLiteral("ttft_p50_s")).isNull());
        QVERIFY(o.value(QStringLiteral("ttft_p95_s")).isNull());
        QCOMPARE(o.value(QStringLiteral("ttft_p50_above_s")).toDouble(), 30.0);
        QCOMPARE(o.value(QStringLiteral("ttft_p95_above_s")).toDouble(), 30.0);
        // ITL is inside a finite bucket: a value, and no lower bound.
        QVERIFY(o.value(QStringLiteral("itl_p50_s")).toDouble() > 0.075);
        QVERIFY(o.value(QStringLiteral("itl_p50_above_s")).isNull());
    }

    void statusAgainstDemoServer()
    {
        quint16 port = 0;
        {
            QTcpServer s;
            s.listen(QHostAddress::LocalHost, 0);
            port = s.serverPort();
        }
        // Nothing there yet: unreachable, exit 1.
        auto r = kf::test::runCli({ QStringLiteral("server"), QStringLiteral("status"), QStringLiteral("--local"),
            QStringLiteral("--port"), QString::number(port) });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.out.contains("not reachable"));

        QProcess server;
        server.setStandardErrorFile(QProcess::nullDevice());
        server.start(QStringLiteral(KF_SOURCE_DIR "/resources/demo/bin/sglang-demo-server"),
            { QStringLiteral("--port"), QString::number(port), QStringLiteral("--enable-metrics"),
                QStringLiteral("--tp"), QStringLiteral("8") });
        QVERIFY(server.waitForStarted());
        QJsonObject o;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                r = kf::test::runCli({ QStringLiteral("server"), QStringLiteral("status"), QStringLiteral("--local"),
                    QStringLiteral("--port"), QString::number(port), QStringLiteral("--json") });
                o = QJsonDocument::fromJson(r.out).object();
                return r.exitCode == 0;
            }(),
            30000);
        QCOMPARE(o.value(QStringLiteral("tp_size")).toInt(), 8);
        QCOMPARE(o.value(QStringLiteral("server_info_endpoint")).toString(), QStringLiteral("/server_info"));
        const QJsonObject m = o.value(QStringLiteral("metrics")).toObject();
        QVERIFY(m.value(QStringLiteral("gen_throughput")).toDouble() > 1500);
        QCOMPARE(m.value(QStringLiteral("tp_ranks_reporting")).toInt(), 8);
        // The same server through the demo sshd: /metrics over a direct-tcpip tunnel.
        KF_START_DEMO_HOST(demo);
        r = kf::test::runCli(
            { QStringLiteral("server"), QStringLiteral("status"), QStringLiteral("-p"), QString::number(demo.port()),
                QStringLiteral("-i"), demo.clientKeyPath(), QStringLiteral("--known-hosts"), demo.knownHostsPath(),
                demo.user() + QStringLiteral("@127.0.0.1"), QStringLiteral("--port"), QString::number(port),
                QStringLiteral("--json") },
            90000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("host")).toString(), QStringLiteral("127.0.0.1"));
        QVERIFY(
            o.value(QStringLiteral("metrics")).toObject().value(QStringLiteral("gen_throughput")).toDouble() > 1500);
        server.terminate();
        server.waitForFinished(5000);
    }
};

QTEST_GUILESS_MAIN(TestCliServer)
#include "tst_cli_server.moc"
