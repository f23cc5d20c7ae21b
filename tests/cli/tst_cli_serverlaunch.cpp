// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli server launch, the real binary on this machine (--local, a private HOME so
// the history is this test's own): after a verification that found no kernel image for the
// GPUs (a real sm_100a library from this machine's nvcc against the demo nvidia-smi's H200s)
// the launch is refused with the reason and exit 1; --force launches the demo server anyway.
// Against the demo sshd (whose demo servers run a worker process per GPU): TP 8 on one port,
// then TP 8 on another is refused, naming the server that has the GPUs (issue #30, item 4),
// unless --force; TP 9 on 8 GPUs is refused whatever the flags; `server stop` stops ours.
#include "core/jobs/remotejob.h"
#include "core/server/serverlifecycle.h"
#include "core/ssh/sshtransport.h"
#include "core/transport/localtransport.h"
#include "tests/support/cudafixtures.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

using namespace kf;

class TestCliServerLaunch : public QObject
{
    Q_OBJECT
    QTemporaryDir m_home;

    QStringList env() const
    {
        return { QStringLiteral("PATH=" KF_SOURCE_DIR "/resources/demo/bin:") + qEnvironmentVariable("PATH"),
            QStringLiteral("HOME=") + m_home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
    }

private Q_SLOTS:
    void usage()
    {
        auto r = test::runCli({ "server", "launch", "--local" }, 60000, env());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("give --model PATH (or --demo)"), r.err.constData());
        r = test::runCli({ "server", "launch", "--help" }, 60000, env());
        QCOMPARE(r.exitCode, 0);
        QVERIFY(r.out.contains("--force"));
    }

    void refusedAfterAFailedVerificationUnlessForced()
    {
        if (test::nvccPath().isEmpty())
            QSKIP("no nvcc (CUDA 13 at /usr/local/cuda on CI): cannot build the CUDA library to verify");
        QTemporaryDir build;
        QList<test::CudaLibrary> sm100;
        for (const test::CudaLibrary& l : test::standardCudaLibraries())
            if (l.name == QLatin1String("sm100a.so"))
                sm100 << l;
        QCOMPARE(sm100.size(), 1);
        const QString problem = test::buildCudaLibraries(build.path(), sm100);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        auto r = test::runCli({ "verify", "--local", "--dir", build.path() }, 300000, env());
        QVERIFY2(r.exitCode == 1, QByteArray(r.out + r.err).constData());

        const QString port = QString::number(test::freeLocalPort());
        r = test::runCli({ "server", "launch", "--local", "--demo", "--port", port }, 60000, env());
        QCOMPARE(r.exitCode, 1);
        const QByteArray refused = "refused: the last verification of " + QDir(build.path()).canonicalPath().toUtf8();
        QVERIFY2(r.err.contains(refused), r.err.constData());
        QVERIFY2(r.err.contains("sm100a.so cannot run on GPUs 0-7: no kernel image for 9.0"), r.err.constData());
        QVERIFY(r.err.contains("--force"));
        QVERIFY(r.out.isEmpty()); // no job

        r = test::runCli({ "server", "launch", "--local", "--demo", "--port", port, "--force" }, 60000, env());
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY(r.err.contains("--force: launching although"));
        const QString job = QString::fromUtf8(r.out.trimmed());
        QVERIFY(!job.isEmpty());
        LocalTransport transport(m_home.path());
        const QString root = m_home.path() + QStringLiteral("/.cache/kernelforge/jobs");
        const auto info = RemoteJob::info(transport, job, root);
        QVERIFY2(info, qPrintable(info.error()));
        QVERIFY(info->name == QStringLiteral("sglang-server-") + port);
        QVERIFY(RemoteJob::cancel(transport, job, root));
        Result<JobInfo> ended = info;
        QTRY_VERIFY_WITH_TIMEOUT((ended = RemoteJob::info(transport, job, root)) && ended->cancelled, 30000);
        if (ended->pgid > 1)
            ::kill(pid_t(-ended->pgid), SIGKILL); // whatever is left of the group we started
    }

    void secondLaunchOnTakenGpusOverSsh()
    {
        KF_START_DEMO_HOST(demo);
        const QStringList target = test::cliSshTarget(demo);
        const QString first = QString::number(test::freeLocalPort());
        auto r = test::runCli(
            QStringList { "server", "launch", "--demo", "--tp", "8", "--port", first } + target, 60000, env());
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        const QString firstJob = QString::fromUtf8(r.out.trimmed());

        const QString second = QString::number(test::freeLocalPort());
        r = test::runCli(
            QStringList { "server", "launch", "--demo", "--tp", "8", "--port", second } + target, 60000, env());
        QCOMPARE(r.exitCode, 1);
        const QByteArray why = QStringLiteral("GPUs 0-7 already run the server KernelForge started on port %1 (job %2)")
                                   .arg(first, firstJob)
                                   .toUtf8();
        QVERIFY2(
            r.err.contains(QByteArray(QByteArray("refused: ") + why)) && r.err.contains("launch anyway with --force"),
            r.err.constData());
        QVERIFY(r.out.isEmpty());
        auto connected = SshTransport::connect(demo.profile());
        QVERIFY2(connected, qPrintable(connected.error()));
        const auto scan = scanServers(**connected, quint16(second.toUInt()));
        QVERIFY2(scan, qPrintable(scan.error()));
        QCOMPARE(scan->runningServers().size(), 1); // nothing started on the second port

        // Beyond the host's GPUs: no flag makes that work.
        r = test::runCli(
            QStringList { "server", "launch", "--demo", "--tp", "9", "--port", second, "--force" } + target, 60000,
            env());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(r.err.contains("TP 9 needs 9 GPUs; this host has 8"), r.err.constData());

        r = test::runCli(
            QStringList { "server", "launch", "--demo", "--tp", "8", "--port", second, "--force" } + target, 60000,
            env());
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QVERIFY2(r.err.contains(QByteArray(QByteArray("--force: launching although ") + why)), r.err.constData());
        const QString secondJob = QString::fromUtf8(r.out.trimmed());
        QVERIFY(!secondJob.isEmpty());

        // server stop: the server of ours on the port, once; nothing of ours there, exit 1.
        r = test::runCli(QStringList { "server", "stop", "--port", second } + target, 60000, env());
        QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
        QCOMPARE(r.out, QStringLiteral("stopped server job %1 on port %2\n").arg(secondJob, second).toUtf8());
        r = test::runCli(QStringList { "server", "stop", "--port", second } + target, 60000, env());
        QCOMPARE(r.exitCode, 1);
        QVERIFY2(
            r.err.contains(QByteArray(QByteArray("no server KernelForge started runs on port ") + second.toUtf8())),
            r.err.constData());
        r = test::runCli(QStringList { "server", "stop" } + target, 60000, env());
        QCOMPARE(r.exitCode, 2);
        // The demo host's stop() ends the first server.
    }
};

QTEST_GUILESS_MAIN(TestCliServerLaunch)
#include "tst_cli_serverlaunch.moc"
