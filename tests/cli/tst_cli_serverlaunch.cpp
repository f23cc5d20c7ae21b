// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli server launch, the real binary on this machine (--local, a private HOME so
// the history is this test's own): after a verification that found no kernel image for the
// GPUs (a real sm_100a library from this machine's nvcc against the demo nvidia-smi's H200s)
// the launch is refused with the reason and exit 1; --force launches the demo server anyway.
#include "core/jobs/remotejob.h"
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
};

QTEST_GUILESS_MAIN(TestCliServerLaunch)
#include "tst_cli_serverlaunch.moc"
