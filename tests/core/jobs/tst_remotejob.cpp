// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Detached jobs over LocalTransport (the over-sshd version lives in tests/integration/remotebuild/tst_buildssh.cpp).
#include "core/jobs/remotejob.h"
#include "core/transport/localtransport.h"

#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using kf::JobInfo;

class TestRemoteJob : public QObject
{
    Q_OBJECT
    std::shared_ptr<kf::LocalTransport> m_transport = std::make_shared<kf::LocalTransport>();
    QTemporaryDir m_dir;
    QString root() const { return m_dir.path() + QStringLiteral("/jobs"); }

    QByteArray serverLog(const QString& id) const
    {
        QFile f(root() + QLatin1Char('/') + id + QStringLiteral("/log"));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void parseListing()
    {
        const QByteArray text("job\t20261129-1-ab\trunning\t\t4242\t4242\t1764400000\t\t1234\t0\tsgl-kernel (pip)\n"
                              "cmd\tpip install -v .\n"
                              "dir\t~/sglang/sgl-kernel\n"
                              "job\tb\tfinished\t2\t77\t77\t1764400000\t1764400100\t5\t1\t\n"
                              "garbage\n");
        const auto l = kf::jobs::parseJobList(text);
        QCOMPARE(l.jobs.size(), 2);
        QCOMPARE(l.malformedLines, 1);
        QCOMPARE(l.jobs[0].id, QStringLiteral("20261129-1-ab"));
        QCOMPARE(int(l.jobs[0].state), int(JobInfo::State::Running));
        QCOMPARE(l.jobs[0].pid, 4242);
        QCOMPARE(l.jobs[0].logSize, 1234);
        QCOMPARE(l.jobs[0].name, QStringLiteral("sgl-kernel (pip)"));
        QCOMPARE(l.jobs[0].command, QStringLiteral("pip install -v ."));
        QCOMPARE(l.jobs[0].workingDirectory, QStringLiteral("~/sglang/sgl-kernel"));
        QCOMPARE(l.jobs[0].exitStatus, -1);
        QCOMPARE(int(l.jobs[1].state), int(JobInfo::State::Finished));
        QCOMPARE(l.jobs[1].exitStatus, 2);
        QVERIFY(l.jobs[1].cancelled);
        QCOMPARE(l.jobs[1].ended.toSecsSinceEpoch(), 1764400100);
    }

    // The listing ends with the server's clock: a job's time is counted on it (one clock per job).
    void listingSaysTheServersClock()
    {
        const auto l = kf::jobs::parseJobList("job\tb\trunning\t\t7\t7\t1764400000\t\t5\t0\tx\n"
                                              "now\t1764400042\n");
        QCOMPARE(l.malformedLines, 0);
        QCOMPARE(l.serverNow.toSecsSinceEpoch(), 1764400042);
        QCOMPARE(l.jobs.first().listedAt, l.serverNow);
        QCOMPARE(l.jobs.first().started.secsTo(l.jobs.first().listedAt), 42);
        // The real script on this machine says it too.
        kf::LocalTransport local;
        kf::CommandSpec c;
        c.command = kf::jobs::listScript(root());
        QVERIFY(QDir().mkpath(root()));
        const auto listed = kf::jobs::parseJobList(local.exec(c, 30000).stdOut);
        QVERIFY(listed.serverNow.isValid());
    }

    void idsAreValidated()
    {
        QVERIFY(kf::jobs::isValidJobId(kf::jobs::newJobId()));
        QVERIFY(!kf::jobs::isValidJobId(QStringLiteral("../x")));
        QVERIFY(!kf::jobs::isValidJobId(QStringLiteral("a b")));
        QVERIFY(!kf::jobs::isValidJobId(QStringLiteral("..")));
        kf::JobSpec spec;
        spec.id = QStringLiteral("a;rm");
        spec.command = QStringLiteral("true");
        QVERIFY(!kf::RemoteJob::start(*m_transport, spec));
    }

    void runsToTheEndWithEnvAndDir()
    {
        kf::JobSpec spec;
        spec.root = root();
        spec.name = QStringLiteral("test job");
        spec.workingDirectory = m_dir.path();
        spec.env.insert(QStringLiteral("NINJA_STATUS"), QStringLiteral("[kf %f/%t %r %e] "));
        spec.env.insert(QStringLiteral("ODD"), QStringLiteral("it's $HOME \"q\""));
        spec.command = QStringLiteral(
            "echo \"status=$NINJA_STATUS\"\necho \"odd=$ODD\"\npwd\necho to-stderr >&2\nsleep 0.3\nexit 3");
        const auto started = kf::RemoteJob::start(*m_transport, spec);
        QVERIFY2(started, qPrintable(started.error()));
        QVERIFY(started->pid > 0);
        kf::RemoteJob job(m_transport, started->id, root());
        QSignalSpy done(&job, &kf::RemoteJob::finished);
        QByteArray got;
        qint64 expectedOffset = 0;
        connect(&job, &kf::RemoteJob::logReceived, this, [&](qint64 at, const QByteArray& data) {
            QCOMPARE(at, expectedOffset);
            expectedOffset += data.size();
            got += data;
        });
        job.attach(0);
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 20000);
        const auto info = done.first().first().value<kf::JobInfo>();
        QCOMPARE(info.exitStatus, 3);
        QCOMPARE(int(info.state), int(JobInfo::State::Finished));
        QCOMPARE(info.name, QStringLiteral("test job"));
        QVERIFY(info.started.isValid() && info.ended.isValid());
        QCOMPARE(got, serverLog(started->id));
        QVERIFY(got.contains("status=[kf %f/%t %r %e] \n"));
        QVERIFY(got.contains("odd=it's $HOME \"q\"\n"));
        QVERIFY(got.contains(QByteArray(m_dir.path().toUtf8() + '\n')));
        QVERIFY(got.contains("to-stderr\n"));
    }

    // Files a job brings land in its folder before the command (an executable one runnable, one
    // without a final newline and an empty one as they are); a prelude is sourced first and sees
    // the environment and KF_JOB_DIR; the runner keeps its cgroup and the memory at the start.
    void filesPreludeAndJobDir()
    {
        kf::JobSpec spec;
        spec.root = root();
        spec.workingDirectory = m_dir.path();
        spec.env.insert(QStringLiteral("FROM_ENV"), QStringLiteral("e"));
        const QByteArray tricky = "line one\nKFFILE-0-0 looks like a marker\n\tlast without newline";
        spec.files = { { QStringLiteral("tool"), "#!/bin/sh\necho \"tool ran with $1\"\n", true },
            { QStringLiteral("data.txt"), tricky, false }, { QStringLiteral("empty"), {}, false },
            { QStringLiteral("prelude"), "FROM_PRELUDE=\"p-$FROM_ENV\"; export FROM_PRELUDE\n:\n", false } };
        spec.command = QStringLiteral(
            "echo \"prelude=$FROM_PRELUDE dir=$KF_JOB_DIR\"\n\"$KF_JOB_DIR/tool\" x\ncat \"$KF_JOB_DIR/data.txt\"");
        const auto started = kf::RemoteJob::start(*m_transport, spec);
        QVERIFY2(started, qPrintable(started.error()));
        kf::RemoteJob job(m_transport, started->id, root());
        QSignalSpy done(&job, &kf::RemoteJob::finished);
        job.attach(0);
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 20000);
        QCOMPARE(done.first().first().value<kf::JobInfo>().exitStatus, 0);
        const QString dir = root() + QLatin1Char('/') + started->id;
        const QByteArray log = serverLog(started->id);
        QVERIFY2(log.contains(QByteArray("prelude=p-e dir=" + dir.toUtf8() + '\n')), log.constData());
        QVERIFY2(log.contains("tool ran with x\n"), log.constData());
        QCOMPARE(kf::test::readFile(dir + QStringLiteral("/data.txt")), tricky + '\n');
        QVERIFY(QFileInfo::exists(dir + QStringLiteral("/empty")));
        QCOMPARE(QFileInfo(dir + QStringLiteral("/empty")).size(), 0);
        QVERIFY(!QFileInfo::exists(dir + QStringLiteral("/env"))); // read and deleted, as without files
        QCOMPARE(kf::test::readFile(dir + QStringLiteral("/cgroup")),
            kf::test::readFile(QStringLiteral("/proc/self/cgroup")));
        QVERIFY(kf::test::readFile(dir + QStringLiteral("/memview.start")).contains("mem_total_kb="));
        // Names that are not files of their own are refused before anything starts.
        for (const QString& bad : { QStringLiteral("log"), QStringLiteral("../x"), QStringLiteral(".hidden"),
                 QStringLiteral("a/b"), QString() }) {
            spec.files = { { bad, "x", false } };
            QVERIFY2(!kf::RemoteJob::start(*m_transport, spec), qPrintable(bad));
        }
    }

    void resumesFromOffsetWithoutGapsOrRepeats()
    {
        kf::JobSpec spec;
        spec.root = root();
        spec.command = QStringLiteral("i=0; while [ $i -lt 40 ]; do echo \"line $i\"; i=$((i+1)); sleep 0.05; done");
        const auto started = kf::RemoteJob::start(*m_transport, spec);
        QVERIFY2(started, qPrintable(started.error()));
        QByteArray got;
        {
            kf::RemoteJob first(m_transport, started->id, root());
            connect(&first, &kf::RemoteJob::logReceived, this, [&](qint64, const QByteArray& d) { got += d; });
            first.attach(0);
            QTRY_VERIFY_WITH_TIMEOUT(got.contains("line 5\n"), 20000);
            first.detach(); // the app closes
        }
        // A new client (after a restart) resumes from what it had.
        kf::RemoteJob second(m_transport, started->id, root());
        QSignalSpy done(&second, &kf::RemoteJob::finished);
        connect(&second, &kf::RemoteJob::logReceived, this, [&](qint64 at, const QByteArray& d) {
            QCOMPARE(at, qint64(got.size()));
            got += d;
        });
        second.attach(got.size());
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 20000);
        QCOMPARE(got, serverLog(started->id));
        QCOMPARE(got.count('\n'), 40);
    }

    void cancelKillsTheProcessGroup()
    {
        kf::JobSpec spec;
        spec.root = root();
        const QString pids = m_dir.path() + QStringLiteral("/pids");
        // Children and grandchildren, like ninja -> nvcc -> cicc.
        spec.command = QStringLiteral(
            "sh -c 'sleep 300 & echo $! >> %1; sleep 300' &\necho $! >> %1\nsleep 300 &\necho $! >> %1\nwait")
                           .arg(pids);
        const auto started = kf::RemoteJob::start(*m_transport, spec);
        QVERIFY2(started, qPrintable(started.error()));
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                QFile f(pids);
                return f.open(QIODevice::ReadOnly) && f.readAll().count('\n') == 3;
            }(),
            20000);
        QFile f(pids);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QList<pid_t> children;
        for (const QByteArray& l : f.readAll().split('\n'))
            if (!l.isEmpty())
                children << pid_t(l.toInt());
        const auto running = kf::RemoteJob::info(*m_transport, started->id, root());
        QVERIFY(running);
        QCOMPARE(int(running->state), int(JobInfo::State::Running));
        const auto listed = kf::RemoteJob::list(*m_transport, root());
        QVERIFY(listed);
        QVERIFY(std::any_of(listed->begin(), listed->end(), [&](const JobInfo& j) { return j.id == started->id; }));

        const auto s = kf::RemoteJob::cancel(*m_transport, started->id, root(), 5);
        QVERIFY2(s, qPrintable(s.error()));
        // A killed process can linger as a zombie until its new parent reaps it; count those as gone.
        auto alive = [](pid_t p) {
            QFile stat(QStringLiteral("/proc/%1/stat").arg(p));
            if (!stat.open(QIODevice::ReadOnly))
                return false;
            const QByteArray s = stat.readAll();
            return s.mid(s.lastIndexOf(')') + 2, 1) != "Z";
        };
        for (pid_t p : children)
            QTRY_VERIFY2_WITH_TIMEOUT(!alive(p),
                qPrintable(QString::fromUtf8(kf::test::runProgram(QStringLiteral("ps"),
                    { QStringLiteral("-o"), QStringLiteral("pid,ppid,pgid,stat,comm"), QStringLiteral("-p"),
                        QString::number(p) })
                                                 .out)),
                10000);
        QVERIFY(!alive(pid_t(started->pid)));
        const auto after = kf::RemoteJob::info(*m_transport, started->id, root());
        QVERIFY(after);
        QCOMPARE(int(after->state), int(JobInfo::State::Finished));
        QVERIFY(after->cancelled);
        QVERIFY(after->exitStatus != 0);
    }

    // The job ends between the listing script's read of rc and its `kill -0` of the pid: a
    // `cat` on PATH that writes rc just as the first read of it fails makes that order certain.
    // The job finished; it was reported "lost" with exit status -1.
    void jobEndingDuringTheListingIsFinishedNotLost()
    {
        QProcess gone;
        gone.start(QStringLiteral("/bin/true"));
        QVERIFY(gone.waitForFinished());
        const qint64 deadPid = gone.processId() > 0 ? gone.processId() : 999999;
        const QString d = root() + QStringLiteral("/kf-race-1");
        QVERIFY(QDir().mkpath(d));
        QVERIFY(kf::test::writeFile(d + QStringLiteral("/cmd"), "true\n"));
        QVERIFY(kf::test::writeFile(d + QStringLiteral("/pid"), QByteArray::number(deadPid)));
        QVERIFY(kf::test::writeFile(d + QStringLiteral("/log"), ""));
        const QString bin = m_dir.path() + QStringLiteral("/racebin");
        QVERIFY(QDir().mkpath(bin));
        QVERIFY(kf::test::writeFile(bin + QStringLiteral("/cat"),
            "#!/bin/sh\ncase \"$1\" in */rc) if [ ! -e \"$1.seen\" ]; then : > \"$1.seen\"; "
            "printf 0 > \"$1\"; exit 1; fi ;; esac\nexec /bin/cat \"$@\"\n"));
        QVERIFY(QFile::setPermissions(
            bin + QStringLiteral("/cat"), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QByteArray path = qgetenv("PATH");
        qputenv("PATH", bin.toUtf8() + ':' + path);
        const auto info = kf::RemoteJob::info(*m_transport, QStringLiteral("kf-race-1"), root());
        qputenv("PATH", path);
        QVERIFY2(info, qPrintable(info.error()));
        QCOMPARE(int(info->state), int(JobInfo::State::Finished));
        QCOMPARE(info->exitStatus, 0);
    }

    void attachToMissingJobFails()
    {
        kf::RemoteJob job(m_transport, QStringLiteral("no-such-job"), root());
        QSignalSpy failed(&job, &kf::RemoteJob::failed);
        job.attach(0);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 10000);
    }
};

QTEST_GUILESS_MAIN(TestRemoteJob)
#include "tst_remotejob.moc"
