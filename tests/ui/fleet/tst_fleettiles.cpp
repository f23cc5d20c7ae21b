// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// What a fleet tile says about a host's server and build: unknown is said as unknown, never 0.
#include "ui/fleet/fleettiles.h"

#include <QtTest>

using namespace kf;
using fleet::FleetHost;

class TestFleetTiles : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void serverLine()
    {
        const qint64 now = 1'800'000'000'000LL;
        FleetHost ssh;
        ssh.viaSsh = true;
        QCOMPARE(FleetTiles::serverLine(ssh, now), QStringLiteral("server –")); // never polled
        FleetHost prom;
        QCOMPARE(FleetTiles::serverLine(prom, now), QStringLiteral("no server metrics"));
        prom.serverKind = QStringLiteral("vllm");
        prom.serverTokensPerS = 812.4;
        QCOMPARE(FleetTiles::serverLine(prom, now), QStringLiteral("vllm · 812 tok/s · – running"));

        ssh.serverPolledMs = now - 2000;
        ssh.serverPort = 30000;
        QCOMPARE(FleetTiles::serverLine(ssh, now), QStringLiteral("no server on port 30000"));
        ssh.serverReachable = true;
        ssh.serverHealthStatus = 503;
        QCOMPARE(FleetTiles::serverLine(ssh, now), QStringLiteral("server starting (HTTP 503)"));
        ssh.serverHealthStatus = 200;
        QCOMPARE(FleetTiles::serverLine(ssh, now), QStringLiteral("server healthy · – tok/s · – running"));
        ssh.serverTokensPerS = 1240;
        ssh.serverRunning = 0; // a measured 0 is a value
        QCOMPARE(FleetTiles::serverLine(ssh, now), QStringLiteral("server healthy · 1240 tok/s · 0 running"));
        // Only the selected host is polled: an old answer says its age.
        ssh.serverPolledMs = now - 5 * 60 * 1000;
        QCOMPARE(
            FleetTiles::serverLine(ssh, now), QStringLiteral("server healthy · 1240 tok/s · 0 running (5 min ago)"));
        ssh.serverPolledMs = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(FleetTiles::tileLines(ssh).contains(QStringLiteral("server healthy · 1240 tok/s · 0 running")));
    }

    void buildLine()
    {
        FleetHost h;
        h.viaSsh = true;
        QVERIFY(!FleetTiles::tileLines(h).join(u'\n').contains(QStringLiteral("build"))); // none running
        h.buildJob = QStringLiteral("build-1");
        QCOMPARE(FleetTiles::buildLine(h), QStringLiteral("build build-1 running · steps –"));
        h.buildDone = 120;
        h.buildTotal = 560;
        QCOMPARE(FleetTiles::buildLine(h), QStringLiteral("build 120/560 (21 %) · ETA –"));
        h.buildEtaS = 370;
        QCOMPARE(FleetTiles::buildLine(h), QStringLiteral("build 120/560 (21 %) · ETA 6 min"));
        h.buildEtaS = 3 * 3600 + 125;
        QCOMPARE(FleetTiles::buildLine(h), QStringLiteral("build 120/560 (21 %) · ETA 3 h 2 min"));
        QVERIFY(FleetTiles::tileLines(h).contains(FleetTiles::buildLine(h)));
    }
};

QTEST_MAIN(TestFleetTiles)
#include "tst_fleettiles.moc"
