// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/demo/demohost.h"
#include "core/hosts/hostmanager.h"
#include "tests/support/testsupport.h"
#include "ui/hosts/hostlistmodel.h"
#include "ui/mainwindow.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QListView>
#include <QMenuBar>
#include <QPushButton>
#include <QSettings>
#include <QStandardPaths>
#include <QTabWidget>
#include <QtTest>

class TestMainWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("kernelforge-test"));
        QApplication::setApplicationName(QStringLiteral("kernelforge-test"));
        QSettings().clear();
    }

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

        QCOMPARE(w.tabs()->count(), 7);
        QCOMPARE(w.tabs()->tabText(0), QStringLiteral("Overview"));
        QCOMPARE(w.tabs()->tabText(1), QStringLiteral("Patches"));
        QCOMPARE(w.tabs()->tabText(2), QStringLiteral("Build"));
        QCOMPARE(w.tabs()->tabText(3), QStringLiteral("GPUs"));
        QCOMPARE(w.tabs()->tabText(4), QStringLiteral("Server"));
        QCOMPARE(w.tabs()->tabText(5), QStringLiteral("Timeline"));
        QCOMPARE(w.tabs()->tabText(6), QStringLiteral("Fleet"));
        // The first-run tour's buttons switch to their tabs.
        const QList<QPushButton*> buttons = w.tabs()->widget(0)->findChildren<QPushButton*>();
        QVERIFY(buttons.size() >= 5);
        for (QPushButton* b : buttons) {
            if (!b->text().startsWith(QStringLiteral("Open ")))
                continue;
            const QString target = b->text().mid(QStringLiteral("Open ").size());
            b->click();
            QCOMPARE(w.tabs()->tabText(w.tabs()->currentIndex()), target);
        }
        w.tabs()->setCurrentIndex(0);
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
