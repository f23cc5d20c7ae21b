// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Real CMake + Ninja builds of tests/data/buildlogs/demo-project as detached jobs, over
// LocalTransport (the same code runs over SSH once SshTransport is merged).
#include "core/jobs/remotejob.h"
#include "core/remotebuild/buildsession.h"
#include "core/remotebuild/ninjalog.h"
#include "core/store/database.h"
#include "core/transport/localtransport.h"

#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using kf::BuildProgress;
using kf::JobInfo;

class TestBuildLocal : public QObject
{
    Q_OBJECT
    std::shared_ptr<kf::LocalTransport> m_t = std::make_shared<kf::LocalTransport>();
    QTemporaryDir m_tmp;
    QString root() const { return m_tmp.filePath(QStringLiteral("jobs")); }

    QString copyProject(const QString& name)
    {
        const QString src = kf::test::dataPath(QStringLiteral("buildlogs/demo-project"));
        const QString dst = m_tmp.filePath(name);
        QDirIterator it(src, QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext()) {
            const QString f = it.next();
            const QString target = dst + f.mid(src.size());
            QDir().mkpath(QFileInfo(target).absolutePath());
            if (!QFile::copy(f, target))
                return {};
            QFile::setPermissions(target, QFile(f).permissions());
        }
        return dst;
    }

    kf::JobSpec buildSpec(
        const QString& dir, const QString& cmakeArgs = {}, const QString& delay = QStringLiteral("0.3"))
    {
        kf::BuildProfile p;
        p.name = QStringLiteral("demo");
        p.workingDirectory = dir;
        p.buildDir = QStringLiteral("build");
        p.command = QStringLiteral("cmake -S . -B build -G Ninja $CMAKE_ARGS && cmake --build build -j 2");
        if (!cmakeArgs.isEmpty())
            p.cmakeArgs << cmakeArgs.split(QLatin1Char(' '));
        p.env.insert(QStringLiteral("KF_SLOWCC_DELAY"), delay);
        kf::JobSpec s = p.toJobSpec();
        s.root = root();
        return s;
    }

    QByteArray serverLog(const QString& id)
    {
        QFile f(root() + QLatin1Char('/') + id + QStringLiteral("/log"));
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        kf::store::setDatabasePath(m_tmp.filePath(QStringLiteral("history.sqlite")));
        if (QStandardPaths::findExecutable(QStringLiteral("cmake")).isEmpty()
            || QStandardPaths::findExecutable(QStringLiteral("ninja")).isEmpty())
            QSKIP("cmake and ninja are needed");
    }

    void buildSucceedsWithProgressAndEta()
    {
        const QString dir = copyProject(QStringLiteral("ok"));
        QVERIFY(!dir.isEmpty());
        const auto started = kf::RemoteJob::start(*m_t, buildSpec(dir));
        QVERIFY2(started, qPrintable(started.error()));
        kf::BuildSession s(m_t, QStringLiteral("local"), started->id);
        s.setJobRoot(root());
        s.setMemoryInterval(500);
        QList<BuildProgress> progress;
        QByteArray log;
        connect(&s, &kf::BuildSession::progressChanged, this, [&](const BuildProgress& p) { progress << p; });
        connect(&s, &kf::BuildSession::logReceived, this, [&](qint64, const QByteArray& d) { log += d; });
        QSignalSpy mem(&s, &kf::BuildSession::memorySampled);
        QSignalSpy gate(&s, &kf::BuildSession::gateStatusChanged);
        QSignalSpy done(&s, &kf::BuildSession::finished);
        s.attach(0);
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000);
        QCOMPARE(done.first().first().value<JobInfo>().exitStatus, 0);
        // Every compile went through the memory gate; its last word came before finished(), and
        // the peaks it measured are this machine's history for the profile (the job's name).
        QVERIFY(gate.size() >= 1);
        // The 12 units, and the compiler check of CMake's first configure (not learned).
        QCOMPARE(s.gateStatus().done, 13);
        QCOMPARE(s.gateStatus().failed, 0);
        const auto learned = kf::buildhistory::learnedPeaks(QStringLiteral("local"), QStringLiteral("demo"));
        QVERIFY2(learned, qPrintable(learned.error()));
        QCOMPARE(learned->size(), 12);
        for (const kf::UnitPeak& u : *learned)
            QVERIFY2(u.peakKb > 0 && u.unit.startsWith(QLatin1String("CMakeFiles/demo.dir/unit")), qPrintable(u.unit));
        QVERIFY(!progress.isEmpty());
        QCOMPARE(progress.last().done, progress.last().total);
        QVERIFY(progress.last().total >= 13);
        const bool etaMidway = std::any_of(progress.begin(), progress.end(),
            [](const BuildProgress& p) { return p.done < p.total && p.done > 0 && p.etaS > 0; });
        QVERIFY2(etaMidway, "no ETA while the build was running");
        QCOMPARE(log, serverLog(started->id));
        QVERIFY(mem.size() >= 1);
        QVERIFY(mem.first().first().value<kf::MemorySample>().availableKb > 0);
        // .ninja_log is where the profile says, and seeds the next run.
        const auto nl = m_t->readFile(dir + QStringLiteral("/build/.ninja_log"));
        QVERIFY(nl);
        const auto parsed = kf::parseNinjaLog(*nl);
        QVERIFY(parsed);
        QVERIFY(parsed.lastRun.size() >= 13);
        QVERIFY(parsed.slowest(3).first().durationMs() >= 300);
        const auto row = kf::buildhistory::find(QStringLiteral("local"), started->id);
        QVERIFY(row && row->has_value());
        QCOMPARE((*row)->result, QStringLiteral("succeeded"));
        QCOMPARE((*row)->stepsDone, progress.last().total);
    }

    void cccl_failsWithDiagnosticThenPasses()
    {
        if (!QFile::exists(QStringLiteral("/usr/local/cuda/include/cccl/thrust/version.h")))
            QSKIP("needs CUDA 13 at /usr/local/cuda (CCCL under include/cccl)");
        const QString dir = copyProject(QStringLiteral("cccl"));
        const auto bad = kf::RemoteJob::start(
            *m_t, buildSpec(dir, QStringLiteral("-DKF_USE_CUDA_HEADERS=ON"), QStringLiteral("0")));
        QVERIFY2(bad, qPrintable(bad.error()));
        kf::BuildSession s(m_t, QStringLiteral("local"), bad->id);
        s.setJobRoot(root());
        s.setMemoryInterval(0);
        QSignalSpy done(&s, &kf::BuildSession::finished);
        s.attach(0);
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 120000);
        QVERIFY(done.first().first().value<JobInfo>().exitStatus != 0);
        const auto& diags = s.diagnostics();
        auto it = std::find_if(diags.begin(), diags.end(),
            [](const kf::Diagnostic& d) { return d.kind == kf::Diagnostic::Kind::Compiler; });
        QVERIFY2(it != diags.end(), serverLog(bad->id).constData());
        QVERIFY(it->file.endsWith(QStringLiteral("src/thrust_user.cpp")));
        QCOMPARE(it->line, 2);
        QCOMPARE(it->column, 10);
        QCOMPARE(int(it->hint), int(kf::Diagnostic::Hint::Cccl));
        QVERIFY(std::any_of(
            diags.begin(), diags.end(), [](const kf::Diagnostic& d) { return d.kind == kf::Diagnostic::Kind::Ninja; }));

        // The fix the CCCL patch applies makes it build.
        const auto good = kf::RemoteJob::start(
            *m_t, buildSpec(dir, QStringLiteral("-DKF_USE_CUDA_HEADERS=ON -DKF_CCCL_FIX=ON"), QStringLiteral("0")));
        QVERIFY2(good, qPrintable(good.error()));
        kf::BuildSession s2(m_t, QStringLiteral("local"), good->id);
        s2.setJobRoot(root());
        s2.setMemoryInterval(0);
        QSignalSpy done2(&s2, &kf::BuildSession::finished);
        s2.attach(0);
        QTRY_COMPARE_WITH_TIMEOUT(done2.size(), 1, 120000);
        QVERIFY2(done2.first().first().value<JobInfo>().exitStatus == 0, serverLog(good->id).constData());
    }

    void clientGoneMidBuildThenReattach()
    {
        const QString dir = copyProject(QStringLiteral("reattach"));
        const auto started = kf::RemoteJob::start(*m_t, buildSpec(dir));
        QVERIFY2(started, qPrintable(started.error()));
        QByteArray received;
        {
            auto s = std::make_unique<kf::BuildSession>(m_t, QStringLiteral("local"), started->id);
            s->setJobRoot(root());
            s->setMemoryInterval(0);
            connect(s.get(), &kf::BuildSession::logReceived, this, [&](qint64, const QByteArray& d) { received += d; });
            s->attach(0);
            QTRY_VERIFY_WITH_TIMEOUT(s->progress().done >= 2, 60000);
            // The client dies: its stream goes away without a goodbye.
        }
        const qint64 resumeAt = received.size();
        // The build goes on without anyone watching.
        QTRY_COMPARE_WITH_TIMEOUT(
            int(kf::RemoteJob::info(*m_t, started->id, root())->state), int(JobInfo::State::Finished), 120000);
        kf::BuildSession again(m_t, QStringLiteral("local"), started->id);
        again.setJobRoot(root());
        again.setMemoryInterval(0);
        connect(&again, &kf::BuildSession::logReceived, this, [&](qint64 at, const QByteArray& d) {
            QCOMPARE(at, qint64(received.size()));
            received += d;
        });
        QSignalSpy done(&again, &kf::BuildSession::finished);
        again.attach(resumeAt);
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 60000);
        QCOMPARE(done.first().first().value<JobInfo>().exitStatus, 0);
        QCOMPARE(received, serverLog(started->id));
    }

    void cancelLeavesNoCompilers()
    {
        const QString dir = copyProject(QStringLiteral("cancel"));
        const auto started = kf::RemoteJob::start(*m_t, buildSpec(dir, {}, QStringLiteral("30")));
        QVERIFY2(started, qPrintable(started.error()));
        kf::BuildSession s(m_t, QStringLiteral("local"), started->id);
        s.setJobRoot(root());
        s.setMemoryInterval(0);
        QSignalSpy done(&s, &kf::BuildSession::finished);
        s.attach(0);
        // Compiles are under way (each sleeps 30 s in slowcc).
        QTRY_VERIFY_WITH_TIMEOUT(
            s.progress().running >= 1 || serverLog(started->id).contains("Build files have been written"), 60000);
        // ninja runs each compile in a process group of its own: look at the whole session.
        const QString sid = QString::number(started->pid);
        auto sessionMembers = [&] {
            QList<QByteArray> live;
            const auto ps = kf::test::runProgram(QStringLiteral("ps"),
                { QStringLiteral("-e"), QStringLiteral("-o"), QStringLiteral("pid=,sid=,stat=,args=") });
            for (const QByteArray& line : ps.out.split('\n')) {
                const QList<QByteArray> f = line.simplified().split(' ');
                if (f.size() >= 3 && f[1] == sid.toUtf8() && !f[2].startsWith('Z'))
                    live << line.simplified();
            }
            return live;
        };
        auto compiling = [&] {
            const auto live = sessionMembers();
            return std::any_of(live.cbegin(), live.cend(), [](const QByteArray& l) { return l.contains("sleep 30"); });
        };
        QTRY_VERIFY_WITH_TIMEOUT(compiling(), 60000);
        QVERIFY(kf::RemoteJob::cancel(*m_t, started->id, root(), 5));
        QTRY_COMPARE_WITH_TIMEOUT(done.size(), 1, 30000);
        const auto info = done.first().first().value<JobInfo>();
        QVERIFY(info.cancelled);
        QVERIFY(info.exitStatus != 0);
        // Nothing of the session is left: no compiler, no ninja, no runner.
        const auto left = sessionMembers();
        QVERIFY2(left.isEmpty(), left.join('\n').constData());
    }
};

QTEST_GUILESS_MAIN(TestBuildLocal)
#include "tst_buildlocal.moc"
