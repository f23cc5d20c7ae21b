// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// What a fleet tile says about a host's server and build: unknown is said as unknown, never 0.
#include "ui/fleet/fleettiles.h"

#include <QApplication>
#include <QHelpEvent>
#include <QToolTip>
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

        fleet::FleetServer field; // the port the Server pane watches
        field.port = 30001;
        field.polledMs = now - 2000;
        ssh.servers = { field };
        QCOMPARE(FleetTiles::serverLine(ssh, now), QStringLiteral("no server on port 30001"));
        ssh.servers[0].reachable = true;
        ssh.servers[0].healthStatus = 503;
        QCOMPARE(FleetTiles::serverLine(ssh, now), QStringLiteral("server :30001 starting (HTTP 503)"));
        ssh.servers[0].healthStatus = 200;
        QCOMPARE(FleetTiles::serverLine(ssh, now), QStringLiteral("server :30001 healthy · – tok/s · – running"));

        // Issue #30, item 5: a server of ours on 30000 while the field says 30001, where nothing
        // answers: the host serves, on 30000.
        fleet::FleetServer ours;
        ours.port = 30000;
        ours.polledMs = now - 1000;
        ours.reachable = true;
        ours.healthStatus = 200;
        ours.tokensPerS = 1240;
        ours.running = 0; // a measured 0 is a value
        ours.jobRunning = true;
        ssh.servers = { ours, field };
        ssh.servers[1].reachable = false;
        QCOMPARE(FleetTiles::serverLine(ssh, now), QStringLiteral("server :30000 healthy · 1240 tok/s · 0 running"));
        // Both serve: both said, apart.
        ssh.servers[1].reachable = true;
        ssh.servers[1].healthStatus = 200;
        QCOMPARE(FleetTiles::serverLine(ssh, now),
            QStringLiteral("2 servers :30000 healthy · 1240 tok/s · 0 running | :30001 healthy · – tok/s · – running"));
        // Launched, not answering yet.
        ssh.servers = { ours };
        ssh.servers[0].polledMs = 0;
        QCOMPARE(FleetTiles::serverLine(ssh, now), QStringLiteral("server :30000 starting (no answer yet)"));
        // Only the selected host is polled: an old answer says its age.
        ssh.servers = { ours };
        ssh.servers[0].polledMs = now - 5 * 60 * 1000;
        QCOMPARE(FleetTiles::serverLine(ssh, now),
            QStringLiteral("server :30000 healthy · 1240 tok/s · 0 running (5 min ago)"));
        ssh.servers[0].polledMs = QDateTime::currentMSecsSinceEpoch();
        QVERIFY(FleetTiles::tileLines(ssh).contains(QStringLiteral("server :30000 healthy · 1240 tok/s · 0 running")));
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

    // Issue #38 (item 8): a GPU's bar turned red with nothing saying why. Each bar has a tool tip
    // with its GPU, its values and what the colour means.
    void gpuBarsHaveToolTips()
    {
        FleetHost h;
        h.name = QStringLiteral("gpu-node-1");
        h.viaSsh = true;
        for (int i = 0; i < 4; ++i) {
            GpuSample g;
            g.index = i;
            g.setText(GpuField::Name, QStringLiteral("NVIDIA H200"));
            g.setValue(GpuField::UtilGpu, i == 2 ? 98 : 5);
            g.setValue(GpuField::MemUsed, 40 * 1024);
            g.setValue(GpuField::MemTotal, 141 * 1024);
            g.setValue(GpuField::TempGpu, 61);
            g.setValue(GpuField::PowerDraw, 480);
            h.gpus << g;
        }
        FleetTiles tiles;
        tiles.resize(600, 300);
        tiles.setFleet({ h }, { fleet::FleetGroup { QString(), { 0 } } });
        tiles.show();
        QVERIFY(QTest::qWaitForWindowExposed(&tiles));
        const QRect busy = tiles.gpuRect(0, 2);
        QVERIFY(!busy.isEmpty());
        QVERIFY(tiles.gpuRect(0, 1).right() < busy.left()); // bars side by side
        QHelpEvent help(QEvent::ToolTip, busy.center(), tiles.mapToGlobal(busy.center()));
        QApplication::sendEvent(&tiles, &help);
        QTRY_VERIFY_WITH_TIMEOUT(QToolTip::isVisible(), 10000);
        const QString tip = QToolTip::text();
        QVERIFY2(tip.contains(QStringLiteral("GPU 2: NVIDIA H200")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("utilisation 98 %")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("memory 40.0 / 141.0 GiB")), qPrintable(tip));
        QVERIFY2(tip.contains(QStringLiteral("red fully busy")), qPrintable(tip));
        QCOMPARE(FleetTiles::gpuToolTip(h, 2),
            QStringLiteral("GPU 2: NVIDIA H200\nutilisation 98 %\nmemory 40.0 / 141.0 "
                           "GiB · 61 °C · 480 W\nThe bar's height and colour are "
                           "the utilisation: green idle, yellow half, red fully busy "
                           "(busy, not an error; alerts are written on the tile)."));
        // Stale: the bars are grey and the tip says why.
        h.stale = true;
        h.staleReason = QStringLiteral("no sample for 2 min");
        QVERIFY(FleetTiles::gpuToolTip(h, 0).contains(QStringLiteral("Grey: the host is stale (no sample for 2 min)")));
    }
};

QTEST_MAIN(TestFleetTiles)
#include "tst_fleettiles.moc"
