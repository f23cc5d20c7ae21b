// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// ServerClient against sglang-demo-server on 127.0.0.1, through LocalTransport::openTunnel
// (a plain socket; over SSH the same code runs through direct-tcpip).
#include "core/server/serverclient.h"
#include "core/ssh/sshtransport.h"
#include "core/transport/localtransport.h"
#include "tests/support/demosglangserver.h"
#include "tests/support/testsupport.h"

#include <QSignalSpy>
#include <QtTest>

#include <cmath>

using namespace kf;

class TestServerClient : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void pollsABusyServer()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start({ QStringLiteral("--tp"), QStringLiteral("2"), QStringLiteral("--enable-metrics") }));
        LocalTransport transport;
        ServerStatus first;
        QTRY_VERIFY_WITH_TIMEOUT((first = pollServer(transport, server.port())).healthy(), 30000);
        QCOMPARE(first.infoEndpoint, QStringLiteral("/server_info"));
        QCOMPARE(first.modelPath, QStringLiteral("Qwen/Qwen3.5-397B-A17B-NVFP4"));
        QCOMPARE(first.tpSize, 2);
        QVERIFY(first.hasMetrics);
        QCOMPARE(first.metrics.vocabulary, QStringLiteral("sglang"));
        QCOMPARE(first.metrics.tpRanksReporting, 2);
        QVERIFY(first.metrics.genThroughput > 1500 && first.metrics.genThroughput < 2500);
        QVERIFY(first.metrics.running > 0);
        QVERIFY(first.metrics.kvUsage > 0 && first.metrics.kvUsage < 1);
        QVERIFY(first.metrics.ttftP50.value > 0 && first.metrics.ttftP50.value < first.metrics.ttftP95.value);
        QVERIFY(first.metrics.itlP50.value > 0 && first.metrics.itlP50.value < first.metrics.itlP95.value);
        QVERIFY(first.metrics.cacheHitRate > 0.3);
        QVERIFY(!std::isnan(first.metrics.generationTokensTotal));
    }

    void clientSignalsAndMetricsOff()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(
            { QStringLiteral("--tp"), QStringLiteral("2"), QStringLiteral("--rank0-only") })); // no --enable-metrics
        auto transport = std::make_shared<LocalTransport>();
        ServerClient client(transport, server.port());
        QSignalSpy spy(&client, &ServerClient::statusUpdated);
        client.start(300);
        QTRY_VERIFY_WITH_TIMEOUT(client.last().healthy(), 30000);
        QVERIFY(!client.last().hasMetrics);
        QVERIFY(client.last().metrics.note.contains(QStringLiteral("--enable-metrics")));
        QVERIFY(spy.size() >= 1);
        client.stop();
    }

    void throughTheSshTunnel()
    {
        // The server listens on the server's loopback; the client reaches it over direct-tcpip.
        test::DemoSglangServer server;
        QVERIFY(server.start({ QStringLiteral("--tp"), QStringLiteral("2"), QStringLiteral("--enable-metrics") }));
        KF_START_DEMO_HOST(demo);
        auto connected = SshTransport::connect(demo.profile());
        QVERIFY2(connected, qPrintable(connected.error()));
        std::shared_ptr<Transport> transport = connected.value();
        ServerClient client(transport, server.port());
        client.start(500);
        QTRY_VERIFY_WITH_TIMEOUT(client.last().healthy() && client.last().hasMetrics, 60000);
        const qint64 first = client.last().timeMs;
        QTRY_VERIFY_WITH_TIMEOUT(client.last().timeMs > first, 30000);
        QCOMPARE(client.last().tpSize, 2);
        QVERIFY(client.last().metrics.genThroughput > 1500);
        QVERIFY(client.last().metrics.itlP95.value > 0);
        client.stop();
    }

    void nothingListening()
    {
        LocalTransport transport;
        const ServerStatus s = pollServer(transport, test::freeLocalPort());
        QVERIFY(!s.reachable);
        QVERIFY(!s.error.isEmpty());
    }

    void startingServerIs503()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start({ QStringLiteral("--tp"), QStringLiteral("2"), QStringLiteral("--startup-seconds"),
            QStringLiteral("60") }));
        LocalTransport transport;
        ServerStatus s;
        QTRY_VERIFY_WITH_TIMEOUT((s = pollServer(transport, server.port())).reachable, 30000);
        QCOMPARE(s.healthStatus, 503);
        QVERIFY(!s.healthy());
    }
};

QTEST_GUILESS_MAIN(TestServerClient)
#include "tst_serverclient.moc"
