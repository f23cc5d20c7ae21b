// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// HostSessions, the owner of each host's sessions: one ServerSession per host, made once the
// host is Ready and gone with the host; the running build its Build pane follows, forgotten
// when it ends (the fleet tile's build line then goes) or is deleted.
#include "core/hosts/hostconnection.h"
#include "core/jobs/remotejob.h"
#include "core/remotebuild/buildsession.h"
#include "core/server/serversession.h"
#include "core/sessions/hostsessions.h"
#include "core/store/database.h"
#include "core/transport/localtransport.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {
HostProfile local()
{
    HostProfile p;
    p.name = QStringLiteral("this machine");
    p.isLocal = true;
    return p;
}
} // namespace

class TestHostSessions : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() { store::setDatabasePath(m_dir.filePath(QStringLiteral("history.sqlite"))); }

    void oneServerSessionPerHost()
    {
        HostSessions sessions;
        QSignalSpy added(&sessions, &HostSessions::serverSessionAdded);
        auto* host = new LocalHostConnection(local());
        ServerSession* first = sessions.serverSession(host);
        QVERIFY(first); // this machine always has its transport
        QCOMPARE(first->hostKey(), QStringLiteral("local"));
        QCOMPARE(sessions.serverSession(host), first);
        QCOMPARE(added.size(), 1);
        QCOMPARE(sessions.serverSessions(), QList<ServerSession*> { first });
        QPointer<ServerSession> alive(first);
        delete host;
        QVERIFY(alive.isNull());
        QVERIFY(sessions.serverSessions().isEmpty());
        QVERIFY(!sessions.serverSession(nullptr));
    }

    void runningBuildForgottenWhenItEnds()
    {
        QTemporaryDir jobs;
        LocalHostConnection host(local());
        host.connectToHost();
        HostSessions sessions;
        JobSpec spec;
        spec.name = QStringLiteral("build");
        spec.command = QStringLiteral("echo '[1/2] a'; sleep 1; echo '[2/2] b'");
        spec.root = jobs.path();
        const auto job = RemoteJob::start(*host.transport(), spec);
        QVERIFY2(job, qPrintable(job.error()));
        BuildSession build(host.transport(), QStringLiteral("local"), job->id);
        build.setJobRoot(jobs.path());
        build.setMemoryInterval(0);
        build.setRecordHistory(false);
        QSignalSpy changed(&sessions, &HostSessions::changed);
        sessions.setRunningBuild(&host, &build);
        QCOMPARE(sessions.runningBuild(&host), &build);
        QVERIFY(!changed.isEmpty());
        QSignalSpy finished(&build, &BuildSession::finished);
        build.attach(0);
        QTRY_COMPARE_WITH_TIMEOUT(finished.size(), 1, 30000);
        QVERIFY(!sessions.runningBuild(&host));

        // Deleted while followed: forgotten too.
        auto* other = new BuildSession(host.transport(), QStringLiteral("local"), job->id);
        sessions.setRunningBuild(&host, other);
        QCOMPARE(sessions.runningBuild(&host), other);
        delete other;
        QVERIFY(!sessions.runningBuild(&host));
    }
};

QTEST_GUILESS_MAIN(TestHostSessions)
#include "tst_hostsessions.moc"
