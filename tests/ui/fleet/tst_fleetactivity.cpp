// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #20: a fleet tile says what the app knows of the host's server and build, read from the
// host's sessions (HostSessions: its ServerSession and running BuildSession). The demo host (a
// real sshd) with a demo SGLang server running that KernelForge did not start: the tile says
// "server –" until the Server pane's port polled it, then "server :PORT healthy · N tok/s"; with
// nothing on the port, "no server on port N". A build followed in the Build pane shows its steps
// and ETA on the tile until it ends. Issue #30, item 5: a server of ours on another port than the
// pane's field is the host's server all the same: the tile names it, never "no server on port N".
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostmanager.h"
#include "core/remotebuild/buildprofile.h"
#include "core/server/serverclient.h"
#include "core/sessions/hostsessions.h"
#include "core/ssh/sshhostconnection.h"
#include "core/store/database.h"
#include "core/transport/localtransport.h"
#include "tests/support/testsupport.h"
#include "ui/fleet/fleetview.h"
#include "ui/remotebuild/buildpane.h"
#include "ui/server/serverpane.h"

#include <QComboBox>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

// The demo SGLang server as a local process (the demo sshd's loopback is this machine's).
struct DemoServer
{
    QProcess process;
    quint16 port = 0;
    bool start()
    {
        port = test::freeLocalPort();
        process.setStandardErrorFile(QProcess::nullDevice());
        process.start(QStringLiteral(KF_SOURCE_DIR "/resources/demo/bin/sglang-demo-server"),
            { QStringLiteral("--port"), QString::number(port), QStringLiteral("--tp"), QStringLiteral("8"),
                QStringLiteral("--enable-metrics") });
        if (!process.waitForStarted(10000))
            return false;
        LocalTransport t;
        for (int i = 0; i < 300; ++i) {
            if (pollServer(t, port, nullptr, false).healthy())
                return true;
            QTest::qWait(100);
        }
        return false;
    }
    ~DemoServer()
    {
        process.terminate();
        if (!process.waitForFinished(5000))
            process.kill();
        process.waitForFinished(5000);
    }
};

} // namespace

class TestFleetActivity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        store::setDatabasePath(m_dir.filePath(QStringLiteral("history.sqlite")));
    }

    void tileShowsServerAndBuild()
    {
        DemoServer server;
        QVERIFY(server.start());
        KF_START_DEMO_HOST(demo);
        HostManager hosts;
        hosts.setFactory(SshHostConnection::factory(nullptr));
        HostConnection* host = hosts.add(demo.profile(QStringLiteral("gpu-a")));
        QVERIFY(host);
        host->connectToHost();
        QTRY_VERIFY2_WITH_TIMEOUT(host->state() == ConnectionState::Ready, qPrintable(host->stateReason()), 30000);
        GpuMonitorHub hub;
        HostSessions sessions;
        AppContext ctx;
        ctx.hosts = &hosts;
        ctx.gpuMonitors = &hub;
        ctx.sessions = &sessions;
        FleetView fleet(ctx);
        fleet.resize(1000, 400);
        fleet.show();
        QVERIFY(QTest::qWaitForWindowExposed(&fleet));
        auto tile = [&] { return fleet.tileText(QStringLiteral("gpu-a")); };
        QTRY_VERIFY_WITH_TIMEOUT(tile().contains(QStringLiteral("8 × NVIDIA H200")), 30000);
        // Nothing polled the server yet: unknown, not "0 tok/s".
        QVERIFY2(tile().contains(QStringLiteral("server –")), qPrintable(tile()));
        QVERIFY(!tile().contains(QStringLiteral("tok/s")));

        // The Server pane polls the demo server: healthy, and its throughput once known.
        QTemporaryDir jobs;
        ServerPane serverPane(ctx, host);
        serverPane.setJobRoot(jobs.path());
        ServerLaunchProfile profile = serverPane.profile();
        profile.port = server.port;
        serverPane.setProfile(profile);
        serverPane.setActive(true);
        static const QRegularExpression healthy(
            QStringLiteral("server :%1 healthy · \\d+ tok/s · \\d+ running").arg(server.port));
        QTRY_VERIFY2_WITH_TIMEOUT(healthy.match(tile()).hasMatch(), qPrintable(tile()), 60000);

        // A build followed in the Build pane: steps and ETA on the tile, gone when it ends.
        QTemporaryDir work;
        BuildProfile p;
        p.name = QStringLiteral("steps");
        p.workingDirectory = work.path();
        p.command = QStringLiteral(
            "i=1; while [ $i -le 30 ]; do echo \"[$i/30] Building CXX object step$i.o\"; sleep 0.3; i=$((i+1)); done");
        QVERIFY(saveUserBuildProfiles(builtInBuildProfiles() << p));
        BuildPane buildPane(ctx, host);
        buildPane.setJobRoot(jobs.filePath(QStringLiteral("builds")));
        buildPane.setConfirmCancel(false);
        buildPane.resize(1000, 700);
        buildPane.profilePicker()->setCurrentIndex(buildPane.profilePicker()->findData(p.name));
        QCOMPARE(buildPane.profilePicker()->currentData().toString(), p.name);
        QSignalSpy finished(&buildPane, &BuildPane::buildFinished);
        buildPane.findChild<QPushButton*>(QStringLiteral("startBuild"))->click();
        static const QRegularExpression building(QStringLiteral("build \\d+/30 \\(\\d+ %\\) · ETA (\\d+ s|–)"));
        QTRY_VERIFY2_WITH_TIMEOUT(building.match(tile()).hasMatch(), qPrintable(tile()), 60000);
        QVERIFY(fleet.grab().save(test::screenshotPath(QStringLiteral("fleet-activity"))));
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 120000);
        QTRY_VERIFY2_WITH_TIMEOUT(!tile().contains(QStringLiteral("build ")), qPrintable(tile()), 10000);

        // Nothing on the port the pane watches: said so, with the port.
        const quint16 nothing = test::freeLocalPort();
        profile.port = nothing;
        serverPane.setProfile(profile);
        QTRY_VERIFY2_WITH_TIMEOUT(
            tile().contains(QStringLiteral("no server on port %1").arg(nothing)), qPrintable(tile()), 60000);

        // A server of ours launched on one port, then the pane's field set to another (issue #30,
        // item 5): the tile names the host's server, not the field's empty port.
        const quint16 ours = test::freeLocalPort();
        profile = ServerLaunchProfile::demoProfile();
        profile.port = ours;
        serverPane.setProfile(profile);
        QSignalSpy launched(&serverPane, &ServerPane::launched);
        QTRY_VERIFY_WITH_TIMEOUT(
            serverPane.findChild<QPushButton*>(QStringLiteral("launchServer"))->isEnabled(), 30000);
        serverPane.launch();
        QTRY_COMPARE_WITH_TIMEOUT(launched.size(), 1, 60000);
        const QRegularExpression oursHealthy(QStringLiteral("server :%1 healthy · \\d+ tok/s").arg(ours));
        QTRY_VERIFY2_WITH_TIMEOUT(oursHealthy.match(tile()).hasMatch(), qPrintable(tile()), 60000);
        const quint16 elsewhere = test::freeLocalPort();
        profile.port = elsewhere;
        serverPane.setProfile(profile);
        QTRY_VERIFY_WITH_TIMEOUT(serverPane.lastStatus().timeMs > 0, 30000); // the field's port was polled
        QTRY_VERIFY2_WITH_TIMEOUT(oursHealthy.match(tile()).hasMatch(), qPrintable(tile()), 30000);
        QVERIFY2(!tile().contains(QStringLiteral("no server on port")), qPrintable(tile()));
        QVERIFY(fleet.grab().save(test::screenshotPath(QStringLiteral("fleet-server-other-port"))));
        serverPane.setConfirmHandler([](const QString&) { return true; });
        profile.port = ours;
        serverPane.setProfile(profile);
        serverPane.stop();
        QTRY_VERIFY2_WITH_TIMEOUT(!tile().contains(QStringLiteral("healthy")), qPrintable(tile()), 60000);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestFleetActivity)
#include "tst_fleetactivity.moc"
