// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #38, item 9: the window as the last one was left. Two MainWindows on the same settings
// are two starts of the app: the second has the first one's size and place (not 1440x900, and
// not 20 px lower each time), its host and tab, its sidebar; a host's tab whose host is gone
// is not shown empty, the first screen is.
#include "core/hosts/hostmanager.h"
#include "tests/support/testsupport.h"
#include "ui/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QListView>
#include <QMenuBar>
#include <QScreen>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace kf;

namespace {

struct Hosts
{
    HostManager hosts;
    AppContext ctx;
    Hosts()
    {
        hosts.add(test::localProfile(QStringLiteral("This machine")));
        HostProfile second = test::localProfile(QStringLiteral("second local"));
        hosts.add(second);
        ctx.hosts = &hosts;
    }
};

QAction* action(MainWindow& w, const QString& name)
{
    return w.menuBar()->findChild<QAction*>(name);
}

} // namespace

class TestRestartWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init()
    {
        test::isolateAppState(QStringLiteral("kernelforge-restartwindow"));
        QSettings().clear();
    }

    void sizeAndPlaceAreKept()
    {
        Hosts h;
        const QRect screen = QApplication::primaryScreen()->availableGeometry();
        QVERIFY2(screen.width() >= 1200 && screen.height() >= 800,
            qPrintable(QStringLiteral("the test screen is %1x%2").arg(screen.width()).arg(screen.height())));
        QRect left;
        {
            // The first start: 1440x900 (or the screen, when smaller).
            MainWindow w(h.ctx);
            QCOMPARE(w.size(), QSize(1440, 900).boundedTo(screen.size()));
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.resize(1024, 640);
            w.move(screen.topLeft() + QPoint(120, 90));
            QTRY_COMPARE_WITH_TIMEOUT(w.size(), QSize(1024, 640), 10000);
            left = w.geometry();
            QVERIFY(w.close());
        }
        for (int start = 2; start <= 3; ++start) {
            MainWindow w(h.ctx);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            QTRY_COMPARE_WITH_TIMEOUT(w.geometry(), left, 10000); // no drift, start after start
            QVERIFY(w.close());
        }
    }

    void hostTabAndSidebarAreKept()
    {
        Hosts h;
        {
            MainWindow w(h.ctx);
            w.show();
            QVERIFY(QTest::qWaitForWindowExposed(&w));
            w.selectHost(QStringLiteral("second local"));
            w.showTab(MainWindow::Tab::Gpus);
            QVERIFY(w.isSidebarShown());
            QAction* sidebar = action(w, QStringLiteral("toggleSidebar"));
            QVERIFY(sidebar);
            QCOMPARE(sidebar->shortcut(), QKeySequence(Qt::CTRL | Qt::Key_B));
            sidebar->trigger();
            QVERIFY(!w.isSidebarShown());
            QTRY_VERIFY_WITH_TIMEOUT(w.hostList()->visibleRegion().isEmpty(), 10000); // folded away
            QVERIFY(w.close());
        }
        MainWindow w(h.ctx);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QVERIFY(w.currentHost());
        QCOMPARE(w.currentHost()->profile().name, QStringLiteral("second local"));
        QCOMPARE(w.tabs()->currentWidget(), w.tab(MainWindow::Tab::Gpus));
        QVERIFY(!w.isSidebarShown());
        QVERIFY(!action(w, QStringLiteral("toggleSidebar"))->isChecked());
        // Back at a readable width.
        action(w, QStringLiteral("toggleSidebar"))->trigger();
        QVERIFY(w.isSidebarShown());
        QTRY_VERIFY_WITH_TIMEOUT(!w.hostList()->visibleRegion().isEmpty() && w.hostList()->width() >= 150, 10000);
    }

    void aHostsTabWithoutItsHostIsNotRestored()
    {
        // Closed on the demo server's GPUs; this start has no demo and no other server.
        QSettings s;
        s.setValue(QStringLiteral("window/lastHost"), QStringLiteral("demo-gpu-server"));
        s.setValue(QStringLiteral("window/lastTab"), QStringLiteral("gpus"));
        HostManager hosts;
        hosts.add(test::localProfile(QStringLiteral("This machine")));
        AppContext ctx;
        ctx.hosts = &hosts;
        MainWindow w(ctx);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.currentHost(), nullptr);
        QCOMPARE(w.tabs()->currentWidget(), w.tab(MainWindow::Tab::Overview)); // the first screen
        QVERIFY(w.close());
        QVERIFY(!QSettings().contains(QStringLiteral("window/lastHost")));
    }
};

// A screen as large as the one of the issue (1600x1000; offscreen's own is 800x600), so that
// restoreGeometry has no reason to move or shrink the window.
int main(int argc, char** argv)
{
    QTemporaryDir dir;
    const QString config = dir.filePath(QStringLiteral("screens.json"));
    QFile f(config);
    if (f.open(QIODevice::WriteOnly))
        f.write(R"({"screens":[{"name":"big","x":0,"y":0,"width":1600,"height":1000,"logicalDpi":96,)"
                R"("logicalBaseDpi":96,"dpr":1}]})");
    f.close();
    if (qgetenv("QT_QPA_PLATFORM").startsWith("offscreen"))
        qputenv("QT_QPA_PLATFORM", QByteArray("offscreen:configfile=") + config.toLocal8Bit());
    QApplication app(argc, argv);
    TestRestartWindow test;
    QTEST_SET_MAIN_SOURCE_PATH
    return QTest::qExec(&test, argc, argv);
}
#include "tst_restartwindow.moc"
