// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// core/server/serverlifecycle (and the launch policy's port and TP checks) over the real sshd
// (DemoHost): launching the demo server as a job, finding it again, refusing a second launch on
// its port, a port another program holds and TP beyond the GPUs, and stopping servers (never builds).
#include "core/jobs/remotejob.h"
#include "core/server/launchpolicy.h"
#include "core/server/serverclient.h"
#include "core/server/serverlifecycle.h"
#include "core/ssh/sshtransport.h"
#include "core/store/database.h"
#include "core/timeline/eventstore.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFileInfo>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

class TestServerLifecycle : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesAndTensorParallel()
    {
        JobInfo job;
        job.name = serverJobName(30000);
        QCOMPARE(job.name, QStringLiteral("sglang-server-30000"));
        QVERIFY(serverJobPort(job) == quint16(30000));
        for (const char* other :
            { "sglang-server-", "sglang-server-0", "sglang-server-70000", "sglang-server-1x", "Demo sgl-kernel", "" }) {
            job.name = QString::fromLatin1(other);
            QVERIFY2(!isServerJob(job), other);
        }
        ServerLaunchProfile p;
        p.modelPath = QStringLiteral("m");
        p.tp = 8;
        QVERIFY(checkServerFits(p, 8));
        p.tp = 9;
        QVERIFY(checkServerFits(p, -1)); // GPU count not known: not refused here
        QCOMPARE(checkServerFits(p, 8).error(), QStringLiteral("TP 9 needs 9 GPUs; this host has 8"));
        p.tp = 0;
        QVERIFY(!checkServerFits(p, 8));
        p.tp = 1;
        QVERIFY(checkServerFits(p, 0).error().contains(QStringLiteral("reports none")));
        // Where the GPUs start counts too: TP 4 from GPU 6 needs GPUs 6-9.
        p.tp = 4;
        p.extraArgs = { QStringLiteral("--base-gpu-id"), QStringLiteral("6") };
        QCOMPARE(
            checkServerFits(p, 8).error(), QStringLiteral("the server would use GPUs 6-9; this host has 8 (GPUs 0-7)"));
    }

    void launchFindRefuseStop()
    {
        QTemporaryDir db;
        store::setDatabasePath(db.filePath(QStringLiteral("history.sqlite")));
        KF_START_DEMO_HOST(demo);
        auto connected = SshTransport::connect(demo.profile());
        QVERIFY2(connected, qPrintable(connected.error()));
        Transport& t = **connected;
        const quint16 port = test::freeLocalPort();

        auto scan = scanServers(t, port);
        QVERIFY2(scan, qPrintable(scan.error()));
        QVERIFY(scan->portState == ServerScan::Port::Free);
        QVERIFY(scan->servers.isEmpty());
        QVERIFY(!scan->running());

        ServerLaunchProfile p = ServerLaunchProfile::demoProfile();
        p.port = port;
        p.tp = 9;
        // The GPU count is the host's own (the demo nvidia-smi's 8).
        const auto tooWide = launchServer(t, { p });
        QVERIFY(!tooWide);
        QCOMPARE(tooWide.error(), QStringLiteral("TP 9 needs 9 GPUs; this host has 8"));
        p.tp = 8;
        const auto attempt = launchServer(t, { p });
        QVERIFY2(attempt && attempt->job, qPrintable(attempt ? attempt->refusals.join(u';') : attempt.error()));
        QCOMPARE(attempt->gpus, QList<int>({ 0, 1, 2, 3, 4, 5, 6, 7 }));
        const auto launched = *attempt->job;
        QCOMPARE(launched.name, serverJobName(port));
        // Every launch (the Server pane's, the CLI's, a recipe's) is on the host's timeline.
        const auto recorded = timeline::latest(t.describe(), timeline::kind::ServerLaunched);
        QVERIFY2(recorded && recorded->has_value(), "no server.launched event");
        QCOMPARE((*recorded)->details.value(QStringLiteral("job")).toString(), launched.id);
        QTRY_VERIFY_WITH_TIMEOUT(pollServer(t, port, nullptr, false).healthy(), 60000);

        scan = scanServers(t, port);
        QVERIFY2(scan, qPrintable(scan.error()));
        QVERIFY(scan->portState == ServerScan::Port::Listening);
        QVERIFY(scan->running());
        QCOMPARE(scan->running()->id, launched.id);
        QCOMPARE(scan->runningServers().size(), 1);
        // From another port's point of view the server still shows up among the host's servers.
        const auto elsewhere = scanServers(t, quint16(port + 1));
        QVERIFY(elsewhere && !elsewhere->running() && elsewhere->runningServers().size() == 1);

        const auto again = launchServer(t, { p });
        QVERIFY(!again);
        QVERIFY2(again.error().contains(QStringLiteral("already runs on port %1").arg(port))
                && again.error().contains(launched.id),
            qPrintable(again.error()));

        // A build is not a server: stopServer leaves it alone.
        JobSpec build;
        build.name = QStringLiteral("Demo sgl-kernel");
        build.command = QStringLiteral("sleep 30");
        const auto buildJob = RemoteJob::start(t, build);
        QVERIFY2(buildJob, qPrintable(buildJob.error()));
        const auto notAServer = stopServer(t, buildJob->id);
        QVERIFY(!notAServer);
        QVERIFY2(notAServer.error().contains(QStringLiteral("is not a server")), qPrintable(notAServer.error()));
        QVERIFY(RemoteJob::info(t, buildJob->id)->state == JobInfo::State::Running);
        QVERIFY(RemoteJob::cancel(t, buildJob->id, {}, 2));

        const auto stopped = stopServer(t, launched.id);
        QVERIFY2(stopped, qPrintable(stopped.error()));
        QTRY_VERIFY_WITH_TIMEOUT((scan = scanServers(t, port)) && scan->portState == ServerScan::Port::Free, 30000);
        QVERIFY(!scan->running());
        QCOMPARE(scan->servers.size(), 1);
        QVERIFY(scan->servers.first().cancelled);

        // A port held by another program is refused, naming it as such.
        QTcpServer squatter;
        QVERIFY(squatter.listen(QHostAddress::LocalHost, 0));
        p.port = squatter.serverPort();
        const auto taken = launchServer(t, { p });
        QVERIFY(!taken);
        QVERIFY2(taken.error().contains(QStringLiteral("already in use by a program KernelForge did not start")),
            qPrintable(taken.error()));
    }

    // With memoryGate the server's job brings the gate and the server runs with the variables
    // that put it in front of flashinfer's, DeepGEMM's and torch's JIT compiles.
    void memoryGateInFrontOfTheJit()
    {
        QTemporaryDir db;
        store::setDatabasePath(db.filePath(QStringLiteral("history.sqlite")));
        KF_START_DEMO_HOST(demo);
        auto connected = SshTransport::connect(demo.profile());
        QVERIFY2(connected, qPrintable(connected.error()));
        Transport& t = **connected;
        ServerLaunchProfile p = ServerLaunchProfile::demoProfile();
        p.port = test::freeLocalPort();
        p.memoryGate = true;
        const auto attempt = launchServer(t, { p });
        QVERIFY2(attempt, qPrintable(attempt.error()));
        QVERIFY2(attempt->job, qPrintable(attempt->refusals.join(u"; ")));
        const JobInfo* launched = &*attempt->job;
        QTRY_VERIFY_WITH_TIMEOUT(pollServer(t, p.port, nullptr, false).healthy(), 60000);
        const QString dir = demo.homeDir() + QStringLiteral("/.cache/kernelforge/jobs/") + launched->id;
        QVERIFY(QFileInfo(dir + QStringLiteral("/memgate")).isExecutable());
        QVERIFY(QFileInfo(dir + QStringLiteral("/bin/nvcc")).isSymLink()); // the prelude ran
        // A process of the server's job (its process group) has the gate's variables.
        const QByteArray pgid = test::readFile(dir + QStringLiteral("/pgid")).trimmed();
        bool gated = false;
        for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
            const QByteArray stat = test::readFile(QStringLiteral("/proc/%1/stat").arg(pid));
            const QList<QByteArray> fields = stat.mid(stat.lastIndexOf(')') + 2).split(' ');
            if (fields.size() < 3 || fields[2] != pgid)
                continue;
            const QList<QByteArray> env = test::readFile(QStringLiteral("/proc/%1/environ").arg(pid)).split('\0');
            gated = gated
                || (env.contains("FLASHINFER_NVCC_LAUNCHER=" + dir.toUtf8() + "/memgate")
                    && env.contains("DG_JIT_NVCC_COMPILER=" + dir.toUtf8() + "/bin/nvcc")
                    && env.contains("KF_MEMGATE_DIR=" + dir.toUtf8()));
        }
        QVERIFY2(gated, pgid.constData());
        QVERIFY(stopServer(t, launched->id));
    }
};

QTEST_GUILESS_MAIN(TestServerLifecycle)
#include "tst_serverlifecycle.moc"
