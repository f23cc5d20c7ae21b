// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// core/server/launchpolicy over the real sshd (DemoHost, whose demo servers run a real worker
// process per GPU they use): a second server on GPUs a server of ours already uses is refused
// with the reason (issue #30, item 4: TP 8 on one port, then TP 8 on another, was accepted),
// on other GPUs it starts, forced it starts and says (and records) what it went past; a GPU
// whose memory a process KernelForge did not start holds refuses too, naming the process.
#include "core/jobs/remotejob.h"
#include "core/server/launchpolicy.h"
#include "core/server/serverclient.h"
#include "core/server/serverlifecycle.h"
#include "core/ssh/sshtransport.h"
#include "core/store/database.h"
#include "core/timeline/eventstore.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

ServerLaunchProfile demoOn(quint16 port, int tp, const QStringList& extra = {})
{
    ServerLaunchProfile p = ServerLaunchProfile::demoProfile();
    p.port = port;
    p.tp = tp;
    p.extraArgs = extra;
    return p;
}

QString said(const Result<LaunchAttempt>& a)
{
    if (!a)
        return QStringLiteral("failed: ") + a.error();
    return QStringLiteral("job %1; refusals: %2; notes: %3")
        .arg(a->job ? a->job->id : QStringLiteral("none"), a->refusals.join(u'|'), a->notes.join(u'|'));
}

} // namespace

class TestLaunchPolicy : public QObject
{
    Q_OBJECT
    QTemporaryDir m_db;

private Q_SLOTS:
    void initTestCase() { store::setDatabasePath(m_db.filePath(QStringLiteral("history.sqlite"))); }

    void secondServerOnTakenGpus()
    {
        KF_START_DEMO_HOST(demo);
        auto connected = SshTransport::connect(demo.profile());
        QVERIFY2(connected, qPrintable(connected.error()));
        Transport& t = **connected;
        const quint16 first = test::freeLocalPort();
        const auto a = launchServer(t, { demoOn(first, 8) });
        QVERIFY2(a && a->job && a->refusals.isEmpty(), qPrintable(said(a)));
        QTRY_VERIFY_WITH_TIMEOUT(pollServer(t, first, nullptr, false).healthy(), 60000);

        // TP 8 on another port: GPUs 0-7 run the first server. Refused, and nothing starts.
        const quint16 second = test::freeLocalPort();
        const auto refused = launchServer(t, { demoOn(second, 8) });
        QVERIFY2(refused && !refused->job, qPrintable(said(refused)));
        const QString why = QStringLiteral("GPUs 0-7 already run the server KernelForge started on port %1 (job %2)")
                                .arg(first)
                                .arg(a->job->id);
        QVERIFY2(refused->refusals.contains(why), qPrintable(said(refused)));
        QCOMPARE(refused->refusals.size(), 1); // its ranks' memory is the server's, not said twice
        const auto scan = scanServers(t, second);
        QVERIFY2(scan, qPrintable(scan.error()));
        QCOMPARE(scan->runningServers().size(), 1);
        QVERIFY(scan->portState == ServerScan::Port::Free);

        // Half of them, from GPU 4: still taken. The GPUs the server would use are named.
        const auto half
            = launchServer(t, { demoOn(second, 4, { QStringLiteral("--base-gpu-id"), QStringLiteral("4") }) });
        QVERIFY2(half && !half->job, qPrintable(said(half)));
        QCOMPARE(half->gpus, QList<int>({ 4, 5, 6, 7 }));
        QVERIFY2(half->refusals.join(u'|').startsWith(QStringLiteral("GPUs 4-7 already run the server")),
            qPrintable(said(half)));

        // Forced: it starts, says what it went past, and the timeline records that.
        LaunchRequest forced { demoOn(second, 8) };
        forced.force = true;
        const auto b = launchServer(t, forced);
        QVERIFY2(b && b->job, qPrintable(said(b)));
        QCOMPARE(b->refusals, QStringList { why });
        const auto event = timeline::latest(t.describe(), timeline::kind::ServerLaunched);
        QVERIFY(event && event->has_value());
        QCOMPARE((*event)->details.value(QStringLiteral("forced_past")).toArray().first().toString(), why);
        QVERIFY((*event)->summary.endsWith(QStringLiteral(", forced")));
        QVERIFY(stopServer(t, b->job->id));
        QVERIFY(stopServer(t, a->job->id));
    }

    void gpuMemoryHeldByAnotherProgram()
    {
        KF_START_DEMO_HOST(demo);
        auto connected = SshTransport::connect(demo.profile());
        QVERIFY2(connected, qPrintable(connected.error()));
        Transport& t = **connected;
        // A demo server KernelForge did not start (a job of another name): its ranks hold GPUs 2 and 3.
        const quint16 other = test::freeLocalPort();
        JobSpec spec;
        spec.name = QStringLiteral("not-ours");
        spec.command = demoOn(other, 2, { QStringLiteral("--base-gpu-id"), QStringLiteral("2") }).command();
        const auto job = RemoteJob::start(t, spec);
        QVERIFY2(job, qPrintable(job.error()));
        QTRY_VERIFY_WITH_TIMEOUT(pollServer(t, other, nullptr, false).healthy(), 60000);

        const quint16 port = test::freeLocalPort();
        Result<LaunchAttempt> refused = Result<LaunchAttempt>::failure(QStringLiteral("not asked"));
        // Its ranks are listed once they run (the demo nvidia-smi reads them as the server starts them).
        QTRY_VERIFY2_WITH_TIMEOUT(
            (refused = launchServer(t, { demoOn(port, 8) })) && !refused->job && !refused->refusals.isEmpty(),
            qPrintable(said(refused)), 30000);
        const QString why = refused->refusals.join(u'|');
        QVERIFY2(why.startsWith(QStringLiteral("GPUs 2-3 have memory held by 2 process(es) KernelForge did not start: "
                                               "pid ")),
            qPrintable(why));
        QVERIFY2(why.contains(QStringLiteral("on GPU 2 (")) && why.contains(QStringLiteral("sglang-demo-worker")),
            qPrintable(why));
        // GPUs 0 and 1 are free: a server there starts.
        const auto fits = launchServer(t, { demoOn(port, 2) });
        QVERIFY2(fits && fits->job, qPrintable(said(fits)));
        QVERIFY(stopServer(t, fits->job->id));
        QVERIFY(RemoteJob::cancel(t, job->id));
    }
};

QTEST_GUILESS_MAIN(TestLaunchPolicy)
#include "tst_launchpolicy.moc"
