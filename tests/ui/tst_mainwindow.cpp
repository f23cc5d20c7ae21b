// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/demo/demohost.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostmanager.h"
#include "core/server/serversession.h"
#include "tests/support/testsupport.h"
#include "ui/common/hostpane.h"
#include "ui/common/hostpanestack.h"
#include "ui/gpu/gpupane.h"
#include "ui/hosts/hostlistmodel.h"
#include "ui/mainwindow.h"
#include "ui/server/serverpane.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QListView>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>

namespace {
// Resident memory of this process in KiB (for the log; no threshold).
qint64 rssKiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').first().toLongLong();
    return -1;
}

} // namespace

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { kf::test::isolateAppState(QStringLiteral("kernelforge-test")); }

    void tabsSidebarAndGrab()
    {
        kf::HostManager hosts;
        kf::HostProfile local;
        local.name = QStringLiteral("This machine");
        local.isLocal = true;
        hosts.add(local)->connectToHost();
        kf::HostProfile other = local;
        other.name = QStringLiteral("second local");
        hosts.add(other);

        kf::AppContext ctx;
        ctx.hosts = &hosts;
        kf::MainWindow w(ctx);
        QAbstractItemModelTester tester(w.hostList()->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        w.resize(1400, 850);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        // Only this machine: nothing is selected at first (the first screen, tst_firstrun).
        QCOMPARE(w.currentHost(), nullptr);
        w.selectHost(QStringLiteral("This machine"));

        QCOMPARE(w.tabs()->count(), 7);
        QCOMPARE(w.tabs()->tabText(0), QStringLiteral("Overview"));
        QCOMPARE(w.tabs()->tabText(1), QStringLiteral("Patches"));
        QCOMPARE(w.tabs()->tabText(2), QStringLiteral("Build"));
        QCOMPARE(w.tabs()->tabText(3), QStringLiteral("GPUs"));
        QCOMPARE(w.tabs()->tabText(4), QStringLiteral("Server"));
        QCOMPARE(w.tabs()->tabText(5), QStringLiteral("Timeline"));
        QCOMPARE(w.tabs()->tabText(6), QStringLiteral("Fleet"));
        // The first-run tour's buttons switch to their tabs.
        const QList<QPushButton*> buttons = w.pane(kf::MainWindow::Tab::Overview)->findChildren<QPushButton*>();
        QVERIFY(buttons.size() >= 5);
        for (QPushButton* b : buttons) {
            if (!b->text().startsWith(QStringLiteral("Open ")))
                continue;
            const QString target = b->text().mid(QStringLiteral("Open ").size());
            b->click();
            QCOMPARE(w.tabs()->tabText(w.tabs()->currentIndex()), target);
        }
        w.showTab(kf::MainWindow::Tab::Overview);
        QCOMPARE(w.hostList()->model()->rowCount(), 2);
        QVERIFY(w.hostList()->model()->index(0, 0).data().toString().contains(QStringLiteral("Connected")));
        QVERIFY(w.currentHost());
        QCOMPARE(w.currentHost()->profile().name, QStringLiteral("This machine"));

        // A host's state change reaches the sidebar row.
        hosts.find(QStringLiteral("second local"))->connectToHost();
        QVERIFY(w.hostList()->model()->index(1, 0).data().toString().contains(QStringLiteral("Connected")));

        // Adding and removing hosts updates the sidebar.
        kf::HostProfile third = local;
        third.name = QStringLiteral("third");
        hosts.add(third);
        QCOMPARE(w.hostList()->model()->rowCount(), 3);
        hosts.remove(QStringLiteral("third"));
        QCOMPARE(w.hostList()->model()->rowCount(), 2);

        QStringList menus;
        for (QAction* a : w.menuBar()->actions())
            menus << a->text();
        QVERIFY(menus.contains(QStringLiteral("&Help")));

        const QString png = kf::test::screenshotPath(QStringLiteral("mainwindow"));
        QVERIFY(w.grab().save(png));
        qInfo("screenshot: %s", qPrintable(png));
    }

    void remembersLastHostAndGeometry()
    {
        kf::HostManager hosts;
        kf::HostProfile a;
        a.name = QStringLiteral("alpha");
        a.isLocal = true;
        kf::HostProfile b = a;
        b.name = QStringLiteral("beta");
        hosts.add(a);
        hosts.add(b);
        kf::AppContext ctx;
        ctx.hosts = &hosts;
        {
            kf::MainWindow w(ctx);
            w.resize(1000, 700);
            w.show();
            w.selectHost(QStringLiteral("beta"));
            w.close();
        }
        kf::MainWindow again(ctx);
        QVERIFY(again.currentHost());
        QCOMPARE(again.currentHost()->profile().name, QStringLiteral("beta"));
    }

    // Sixteen hosts, each selected once: a pane per host and tab, one server poll in all (the
    // selected host's), and removing a host removes its panes.
    void sixteenHostsPollOnce()
    {
        kf::HostManager hosts;
        kf::AppContext ctx;
        ctx.hosts = &hosts;
        kf::GpuMonitorHub monitors;
        kf::GpuMonitor::Options options;
        options.nvidiaSmi = QStringLiteral(KF_SOURCE_DIR "/resources/demo/bin/nvidia-smi");
        options.intervalMs = 5000; // sixteen replaying streams on a 2-core CI machine
        options.processIntervalMs = 0;
        monitors.setOptions(options);
        ctx.gpuMonitors = &monitors;
        QStringList names;
        for (int i = 1; i <= 16; ++i) {
            kf::HostProfile p;
            p.name = QStringLiteral("local %1").arg(i);
            p.isLocal = true;
            hosts.add(p)->connectToHost();
            names << p.name;
        }
        kf::MainWindow w(ctx);
        w.resize(1440, 900);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        w.showTab(kf::MainWindow::Tab::Server);
        // Every host's GPU stream runs (the fleet view asks for all), each with its history.
        QTRY_VERIFY_WITH_TIMEOUT(monitors.monitors().size() == 16, 30000);
        const auto everyStreamHasBlocks = [&] {
            const QList<kf::GpuMonitor*> all = monitors.monitors(); // a new list each call: one copy
            return std::all_of(all.cbegin(), all.cend(), [](const kf::GpuMonitor* m) { return m->blocks() > 0; });
        };
        QTRY_VERIFY_WITH_TIMEOUT(everyStreamHasBlocks(), 60000);
        const qint64 before = rssKiB();
        for (const QString& name : names) {
            w.selectHost(name);
            QTRY_VERIFY_WITH_TIMEOUT(qobject_cast<kf::ServerPane*>(w.pane(kf::MainWindow::Tab::Server))->session()
                    && qobject_cast<kf::ServerPane*>(w.pane(kf::MainWindow::Tab::Server))->session()->isPolling(),
                10000);
        }
        // The panes' share (the GPU histories grow on their own while the streams run).
        qInfo(
            "resident memory with 16 hosts streaming: %lld KiB; after selecting each once: %lld KiB", before, rssKiB());
        w.showTab(kf::MainWindow::Tab::Gpus);
        QTRY_VERIFY_WITH_TIMEOUT(
            qobject_cast<kf::GpuPane*>(w.pane(kf::MainWindow::Tab::Gpus))->cardCount() == 8, 30000);
        const auto servers = w.findChildren<kf::ServerPane*>();
        QCOMPARE(servers.size(), 16);
        QCOMPARE(std::count_if(servers.cbegin(), servers.cend(),
                     [](const kf::ServerPane* p) { return p->session() && p->session()->isPolling(); }),
            1);
        QCOMPARE(monitors.monitors().size(), 16); // one nvidia-smi stream a host, shared with the fleet view
        for (auto* stack : w.findChildren<kf::HostPaneStack*>())
            QCOMPARE(stack->paneCount(), 16);

        hosts.remove(QStringLiteral("local 5"));
        QTRY_COMPARE_WITH_TIMEOUT(w.findChildren<kf::ServerPane*>().size(), 15, 5000);
        for (auto* stack : w.findChildren<kf::HostPaneStack*>())
            QCOMPARE(stack->paneCount(), 15);
        QVERIFY(w.currentHost());
        QCOMPARE(w.tab(kf::MainWindow::Tab::Gpus)->isVisible(), true);
    }

    void demoHostShowsUpInTheSidebar()
    {
        KF_START_DEMO_HOST(demo, kf::DemoHost::Options { {}, false });
        kf::HostManager hosts;
        // Without the SSH layer's factory, a local stand-in must not be used for the demo:
        // HostManager refuses remote profiles rather than faking a connection.
        hosts.setFactory([](const kf::HostProfile& p, QObject* parent) -> kf::HostConnection* {
            return new kf::LocalHostConnection(p, parent);
        });
        auto* h = hosts.add(demo.profile(QStringLiteral("demo-gpu-server")));
        QVERIFY(h);
        kf::AppContext ctx;
        ctx.hosts = &hosts;
        ctx.demo = &demo;
        kf::MainWindow w(ctx);
        w.selectHost(QStringLiteral("demo-gpu-server"));
        const QString row = w.hostList()->model()->index(0, 0).data().toString();
        QVERIFY2(row.contains(QStringLiteral("demo-gpu-server (demo)")), qPrintable(row));
        QVERIFY2(row.contains(QStringLiteral("127.0.0.1:%1").arg(demo.port())), qPrintable(row));
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
