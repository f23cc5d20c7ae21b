// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #14, item 1: every tab of the real window shows the selected host's own state.
// The demo host (a real sshd) runs a server, has run a preflight and has a patch history;
// selecting a second host that cannot be reached must show none of it (and offer no action
// that would run against the demo host), and going back to the demo host must find its
// history where it was.
#include "core/store/database.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/chart/timechart.h"
#include "ui/gpu/gpucard.h"
#include "ui/gpu/gpupane.h"
#include "ui/patch/patchpane.h"
#include "ui/remotebuild/buildpane.h"
#include "ui/server/serverpane.h"

#include <QApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace kf;
using test::shown;
using test::showTab;

namespace {

qsizetype chartPoints(const QWidget* pane)
{
    qsizetype n = 0;
    for (const TimeChart* c : pane->findChildren<TimeChart*>())
        n += c->pointCount();
    return n;
}

} // namespace

class TestPerHostWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateAppState(QStringLiteral("kernelforge-perhostwindow"), m_db.path()); }

    void eachHostShowsItsOwnState()
    {
        KF_START_DEMO_HOST(demo);
        test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        MainWindow& w = *dw.window;
        HostProfile badProfile = demo.profile(QStringLiteral("unreachable"));
        badProfile.port = test::freeLocalPort(); // nothing listens there
        badProfile.isDemo = false;               // another server, not the demo one
        HostConnection* bad = dw.hosts.add(badProfile);
        QVERIFY(bad);
        bad->connectToHost();
        QTRY_VERIFY_WITH_TIMEOUT(bad->state() == ConnectionState::Failed, 30000);

        // The demo host: a server running and charted...
        QWidget* serverTab = showTab(w.tabs(), QStringLiteral("Server"));
        auto* server = shown<ServerPane>(serverTab);
        QVERIFY(server);
        ServerLaunchProfile profile = server->profile();
        profile.port = test::freeLocalPort();
        server->setProfile(profile);
        QTRY_VERIFY_WITH_TIMEOUT(shown<QPushButton>(serverTab, QStringLiteral("launchServer"))->isEnabled(), 30000);
        QTest::mouseClick(shown<QPushButton>(serverTab, QStringLiteral("launchServer")), Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(
            shown<QLabel>(serverTab, QStringLiteral("serverSummary"))->text().contains(QStringLiteral("tok/s")), 60000);
        QTRY_VERIFY_WITH_TIMEOUT(chartPoints(server) >= 2 * 9, 30000); // two polls of nine series
        QTRY_VERIFY_WITH_TIMEOUT(shown<QPlainTextEdit>(serverTab, QStringLiteral("serverLog"))
                                     ->toPlainText()
                                     .contains(QStringLiteral("Decode")),
            30000);
        const qsizetype demoPoints = chartPoints(server);
        const QString demoLog = shown<QPlainTextEdit>(serverTab, QStringLiteral("serverLog"))->toPlainText();
        const double firstPoint = server->throughputPoints().first().x();
        // ...a preflight...
        QWidget* buildTab = showTab(w.tabs(), QStringLiteral("Build"));
        auto* build = shown<BuildPane>(buildTab);
        QVERIFY(build);
        QSignalSpy preflight(build, &BuildPane::preflightDone);
        QTest::mouseClick(shown<QPushButton>(buildTab, QStringLiteral("preflight")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(preflight.size(), 1, 120000);
        auto treeRows = [](const QWidget* pane) {
            int rows = 0;
            for (const QTreeWidget* t : pane->findChildren<QTreeWidget*>())
                rows += t->topLevelItemCount();
            return rows;
        };
        const int demoBuildRows = treeRows(build);
        QVERIFY(demoBuildRows > 0);
        // ...and a patch history with something to roll back.
        QWidget* patchTab = showTab(w.tabs(), QStringLiteral("Patches"));
        auto* patches = shown<PatchPane>(patchTab);
        QVERIFY(patches);
        QTRY_VERIFY_WITH_TIMEOUT(
            shown<QTreeWidget>(patchTab, QStringLiteral("patchTree"))->topLevelItemCount() >= 2 && !patches->isBusy(),
            60000);
        QSignalSpy applied(patches, &PatchPane::applyFinished);
        patches->setConfirmHandler([](const QString&) { return true; }); // the Apply dialog (tst_patchpane reads it)
        QTest::mouseClick(shown<QPushButton>(patchTab, QStringLiteral("applyPatches")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(applied.size(), 1, 60000);
        // The history table sits on the pane's "History" tab: found in the shown pane.
        auto history
            = [&] { return shown<PatchPane>(patchTab)->findChild<QTableWidget*>(QStringLiteral("patchHistory")); };
        auto rollBack = [&] { return shown<PatchPane>(patchTab)->findChild<QPushButton*>(QStringLiteral("rollBack")); };
        QTRY_VERIFY_WITH_TIMEOUT(history()->rowCount() >= 1 && !patches->isBusy(), 30000);
        const int demoHistory = history()->rowCount();

        // The unreachable host: every tab shows its own (empty) state and offers nothing to do.
        w.selectHost(badProfile.name);
        QCOMPARE(w.currentHost(), bad);
        showTab(w.tabs(), QStringLiteral("Server"));
        auto* badServer = shown<ServerPane>(serverTab);
        QVERIFY(badServer && badServer != server);
        QVERIFY(!badServer->profile().demo); // the demo server's launch profile is the demo host's only
        QCOMPARE(shown<QLabel>(serverTab, QStringLiteral("serverSummary"))->text(), QString());
        const QString badStatus = shown<QLabel>(serverTab, QStringLiteral("serverStatus"))->text();
        QVERIFY2(!badStatus.contains(QStringLiteral("healthy")) && badStatus.contains(QStringLiteral("Not connected")),
            qPrintable(badStatus));
        QCOMPARE(chartPoints(badServer), 0);
        QVERIFY(shown<QPlainTextEdit>(serverTab, QStringLiteral("serverLog"))->toPlainText().isEmpty());
        QVERIFY(!shown<QPushButton>(serverTab, QStringLiteral("launchServer"))->isEnabled());
        QVERIFY(!shown<QPushButton>(serverTab, QStringLiteral("stopServer"))->isEnabled());
        QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("perhost-unreachable-server"))));

        showTab(w.tabs(), QStringLiteral("Build"));
        auto* badBuild = shown<BuildPane>(buildTab);
        QVERIFY(badBuild && badBuild != build);
        QCOMPARE(treeRows(badBuild), 0);
        QVERIFY(!shown<QPushButton>(buildTab, QStringLiteral("preflight"))->isEnabled());
        QVERIFY(!shown<QPushButton>(buildTab, QStringLiteral("startBuild"))->isEnabled());
        QVERIFY(!shown<QPushButton>(buildTab, QStringLiteral("cancelBuild"))->isEnabled());
        QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("perhost-unreachable-build"))));

        showTab(w.tabs(), QStringLiteral("Patches"));
        QVERIFY(shown<PatchPane>(patchTab) != patches);
        QCOMPARE(history()->rowCount(), 0);
        QCOMPARE(shown<QTreeWidget>(patchTab, QStringLiteral("patchTree"))->topLevelItemCount(), 0);
        QVERIFY(!rollBack()->isEnabled());
        QVERIFY(!shown<QPushButton>(patchTab, QStringLiteral("applyPatches"))->isEnabled());
        QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("perhost-unreachable-patches"))));

        QWidget* gpuTab = showTab(w.tabs(), QStringLiteral("GPUs"));
        for (const GpuCard* card : gpuTab->findChildren<GpuCard*>())
            QVERIFY(!card->isVisible());
        QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("perhost-unreachable-gpus"))));

        QWidget* overviewTab = showTab(w.tabs(), QStringLiteral("Overview"));
        bool namesBadHost = false;
        for (const QLabel* l : overviewTab->findChildren<QLabel*>())
            namesBadHost = namesBadHost || (l->isVisible() && l->text() == badProfile.name);
        QVERIFY(namesBadHost);

        // Back on the demo host: its history is where it was, and it goes on.
        w.selectHost(dw.host->profile().name);
        showTab(w.tabs(), QStringLiteral("Server"));
        QCOMPARE(shown<ServerPane>(serverTab), server);
        QVERIFY(shown<QPlainTextEdit>(serverTab, QStringLiteral("serverLog"))->toPlainText().startsWith(demoLog));
        QVERIFY(shown<QPushButton>(serverTab, QStringLiteral("stopServer"))->isEnabled());
        QVERIFY(chartPoints(server) >= demoPoints);
        QTRY_VERIFY_WITH_TIMEOUT(chartPoints(server) > demoPoints, 30000);
        QCOMPARE(server->throughputPoints().first().x(), firstPoint);
        showTab(w.tabs(), QStringLiteral("Build"));
        QCOMPARE(treeRows(shown<BuildPane>(buildTab)), demoBuildRows);
        showTab(w.tabs(), QStringLiteral("Patches"));
        QCOMPARE(history()->rowCount(), demoHistory);
        QVERIFY(rollBack()->isEnabled());
    }

private:
    QTemporaryDir m_db;
};

QTEST_MAIN(TestPerHostWindow)
#include "tst_perhostwindow.moc"
