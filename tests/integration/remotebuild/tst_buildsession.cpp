// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #30 item 6, one clock per job: a job that "configures" (prints a CMake percentage) for two
// seconds and then runs ninja (our NINJA_STATUS, whose %e starts at 0 when ninja does). Elapsed
// time never goes back when ninja starts, the end shows the job's whole duration, and that is the
// history row's duration and what the next run is compared with. Detached jobs over LocalTransport.
#include "core/remotebuild/buildhistory.h"
#include "core/remotebuild/buildsession.h"
#include "core/remotebuild/buildstart.h"
#include "core/store/database.h"
#include "core/transport/localtransport.h"

#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using kf::BuildProgress;
using kf::JobInfo;

class TestBuildSession : public QObject
{
    Q_OBJECT
    std::shared_ptr<kf::LocalTransport> m_t = std::make_shared<kf::LocalTransport>();
    QTemporaryDir m_tmp;

    kf::BuildProfile profile() const
    {
        kf::BuildProfile p;
        p.name = QStringLiteral("configure then compile");
        p.workingDirectory = m_tmp.path();
        // Nothing but a percentage for 2 s (configure), then ninja's clock from 0.
        p.command = QStringLiteral("sleep 1; echo '[ 40%] Configuring'; sleep 1; echo '[ 90%] Generating'; "
                                   "printf '[kf 1/3 1 0.100] CXX a.o\\n'; sleep 1; "
                                   "printf '[kf 2/3 1 1.100] CXX b.o\\n[kf 3/3 0 1.200] Link x\\n'");
        return p;
    }

    struct Run
    {
        QList<BuildProgress> progress;
        JobInfo info;
        QString comparison; // the last previousRunKnown
        QString jobId;
    };

    Run run()
    {
        Run out;
        kf::BuildStartOptions options;
        options.host = m_t->describe();
        options.jobRoot = m_tmp.filePath(QStringLiteral("jobs"));
        const auto started = kf::startRecordedBuild(*m_t, profile(), options);
        if (!started)
            return out;
        out.jobId = started->job.id;
        kf::BuildSession session(m_t, m_t->describe(), started->job.id);
        session.setJobRoot(options.jobRoot);
        session.setProfile(profile());
        session.setMemoryInterval(0);
        QSignalSpy finished(&session, &kf::BuildSession::finished);
        connect(
            &session, &kf::BuildSession::progressChanged, this, [&out](const BuildProgress& p) { out.progress << p; });
        connect(&session, &kf::BuildSession::previousRunKnown, this,
            [&out](const kf::BuildRecord&, const QString& text) { out.comparison = text; });
        session.attach(0);
        if (!finished.wait(60000))
            return out;
        out.info = finished.first().first().value<JobInfo>();
        return out;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        kf::store::setDatabasePath(m_tmp.filePath(QStringLiteral("history.sqlite")));
    }

    void elapsedCountsTheJobFromStartToEnd()
    {
        const Run first = run();
        QVERIFY(!first.jobId.isEmpty());
        QCOMPARE(first.info.exitStatus, 0);
        QVERIFY(first.progress.size() >= 3);
        // Never back in time while it runs: configure's percentages, then ninja's steps from its own 0.
        QStringList seen;
        for (const BuildProgress& p : first.progress)
            seen << QString::number(p.elapsedS, 'f', 3);
        for (qsizetype i = 1; i + 1 < first.progress.size(); ++i)
            QVERIFY2(first.progress[i].elapsedS >= first.progress[i - 1].elapsedS, qPrintable(seen.join(' ')));
        // The end is the server's own count (its started and ended files, in milliseconds): what the
        // running count said, up to the round trip that read the server's clock.
        QVERIFY2(first.progress.last().elapsedS + 1.0 > first.progress[first.progress.size() - 2].elapsedS,
            qPrintable(seen.join(' ')));
        // A ninja step is on the job's clock: after the configure percentages, not at ninja's 0.1 s.
        const auto firstStep = std::find_if(
            first.progress.begin(), first.progress.end(), [](const BuildProgress& p) { return p.done == 1; });
        QVERIFY(firstStep != first.progress.end());
        const auto configure = std::find_if(
            first.progress.begin(), first.progress.end(), [](const BuildProgress& p) { return p.percent == 40; });
        QVERIFY(configure != first.progress.end());
        QVERIFY2(firstStep->elapsedS >= configure->elapsedS, qPrintable(seen.join(' ')));
        // Each update knows the job's start on this machine's clock (the chart's origin).
        QVERIFY(first.progress.last().startedMs > 0);
        // The end: the job's whole duration on the server (its started/ended), the history row's too.
        const BuildProgress& end = first.progress.last();
        QCOMPARE(end.done, 3);
        const double duration = double(first.info.started.msecsTo(first.info.ended)) / 1000.0;
        QCOMPARE(end.elapsedS, duration);
        const auto row = kf::buildhistory::find(m_t->describe(), first.jobId);
        QVERIFY(row && row->has_value());
        QCOMPARE((*row)->durationMs(), first.info.started.msecsTo(first.info.ended));
        QCOMPARE((*row)->started, first.info.started);
        QCOMPARE((*row)->folder(), m_tmp.path());
        QVERIFY((*row)->firstError.isEmpty());

        // The next run is compared with this one on the same clock: "N s vs M s".
        const Run second = run();
        QCOMPARE(second.info.exitStatus, 0);
        const double secondDuration = double(second.info.started.msecsTo(second.info.ended)) / 1000.0;
        QVERIFY2(second.comparison.contains(
                     QStringLiteral("%1 s vs %2 s").arg(qint64(secondDuration)).arg(qint64(duration))),
            qPrintable(second.comparison));
    }
};

QTEST_GUILESS_MAIN(TestBuildSession)
#include "tst_buildsession.moc"
