// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostconnection.h"
#include "core/hosts/hostmanager.h"
#include "tests/support/testsupport.h"
#include "ui/fleet/fleetview.h"

#include <QLabel>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTextDocument>
#include <QtTest>

using namespace kf;

class TestFleetView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("PATH", QByteArray(KF_SOURCE_DIR "/resources/demo/bin:") + qgetenv("PATH"));
    }

    void tilesPerHost()
    {
        HostManager hosts;
        hosts.setFactory([](const HostProfile& p, QObject* parent) -> HostConnection* {
            return new LocalHostConnection(p, parent);
        });
        HostProfile a;
        a.name = QStringLiteral("gpu-node-a");
        a.isLocal = true;
        HostProfile b = a;
        b.name = QStringLiteral("gpu-node-b (offline)");
        hosts.add(a)->connectToHost();
        hosts.add(b);
        GpuMonitorHub hub;
        GpuMonitor::Options options;
        options.processIntervalMs = 0;
        options.env.insert(QStringLiteral("KF_DEMO_HOT_GPU"), QStringLiteral("2"));
        hub.setOptions(options);
        AppContext ctx;
        ctx.hosts = &hosts;
        ctx.gpuMonitors = &hub;
        FleetView view(ctx);
        view.resize(1100, 400);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        QCOMPARE(view.tileCount(), 2);
        QTRY_VERIFY_WITH_TIMEOUT(
            view.tileText(QStringLiteral("gpu-node-a")).contains(QStringLiteral("8 × NVIDIA H200")), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(view.tileText(QStringLiteral("gpu-node-a")).contains(QStringLiteral("alert")), 30000);
        QVERIFY(view.tileText(QStringLiteral("gpu-node-b (offline)")).contains(QStringLiteral("Disconnected")));
        QCOMPARE(hub.monitors().size(), 1); // the offline host has no stream
        HostProfile c = a;
        c.name = QStringLiteral("gpu-node-c");
        hosts.add(c);
        QCOMPARE(view.tileCount(), 3);
        QSignalSpy activated(&view, &FleetView::hostActivated);
        QVERIFY(view.grab().save(test::screenshotPath(QStringLiteral("fleet"))));
        // Issue #38 item 8: the view says what the bars' colours mean (red is busy, not broken).
        auto* legend = view.findChild<QLabel*>(QStringLiteral("fleetLegend"));
        QVERIFY(legend);
        QVERIFY(legend->isVisible());
        QTextDocument doc;
        doc.setHtml(legend->text());
        const QString words = doc.toPlainText();
        for (const char* meaning : { "idle", "half", "fully busy", "no value or stale", "hover a bar for its GPU" })
            QVERIFY2(words.contains(QLatin1String(meaning)), qPrintable(words));
    }
};

QTEST_MAIN(TestFleetView)
#include "tst_fleetview.moc"
