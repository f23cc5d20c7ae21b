// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The Server pane as a view of the host's ServerSession, on this machine with the demo
// nvidia-smi (8 GPUs) and demo SGLang servers launched as detached jobs: launch, watch, stop;
// a second launch on GPUs a server of ours uses is refused with the reason and asked about
// (issue #30, item 4); right after a launch the pane says the server runs, not what to do
// about it (issue #38, item 5); two servers are charted apart, each series named by port and
// model, in the pane and in the timeline's series; Stop is offered only for a running server of
// ours, and stopping one leaves the other followed and said.
#include "core/hosts/hostconnection.h"
#include "core/jobs/remotejob.h"
#include "core/server/launchpolicy.h"
#include "core/server/serversession.h"
#include "core/sessions/hostsessions.h"
#include "core/timeline/seriesrecorder.h"
#include "core/transport/localtransport.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/chart/timechart.h"
#include "ui/server/serverpane.h"

#include <QCheckBox>
#include <QFile>
#include <QFileInfo>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>
#include <csignal>
#include <sys/types.h>

using namespace kf;

namespace {

QString statusText(const ServerPane& pane)
{
    return test::shownText(pane.findChild<QLabel*>(QStringLiteral("serverStatus")));
}

QPushButton* button(const ServerPane& pane, const char* name)
{
    return pane.findChild<QPushButton*>(QString::fromLatin1(name));
}

int finite(const QList<QPointF>& points)
{
    return int(std::count_if(points.cbegin(), points.cend(), [](const QPointF& p) { return std::isfinite(p.y()); }));
}

// Cancels the job and kills what is left of its process group (TERM to the group does not
// always reach a python server started under /bin/sh).
void endJob(const QString& id, const QString& root)
{
    LocalTransport transport;
    if (!RemoteJob::cancel(transport, id, root, 2))
        return;
    Result<JobInfo> info = RemoteJob::info(transport, id, root);
    QTRY_VERIFY_WITH_TIMEOUT(
        (info = RemoteJob::info(transport, id, root)) && info->state == JobInfo::State::Finished, 30000);
    if (info->pgid > 1)
        ::kill(pid_t(-info->pgid), SIGKILL);
}

struct Pane
{
    QTemporaryDir jobs;
    LocalHostConnection host { test::localProfile() };
    HostSessions sessions;
    timeline::SeriesRecorder recorder;
    AppContext ctx;
    std::unique_ptr<ServerPane> pane;

    void open()
    {
        host.connectToHost();
        recorder.watch(&sessions);
        ctx.sessions = &sessions;
        ctx.timelineSeries = &recorder;
        pane = std::make_unique<ServerPane>(ctx, &host);
        pane->setJobRoot(jobs.path());
        pane->setConfirmHandler([](const QString&) { return true; }); // Stop, launch anyway: yes
        pane->resize(1300, 900);
        pane->show();
        QVERIFY(QTest::qWaitForWindowExposed(pane.get()));
        pane->setActive(true);
        QTRY_VERIFY_WITH_TIMEOUT(pane->session() && pane->session()->scannedOnce(), 30000);
        pane->session()->setPollInterval(500);
    }
    // Launches the demo server on the pane's fields and waits until it is healthy; its job id.
    QString launch(ServerLaunchProfile p)
    {
        pane->setProfile(p);
        QSignalSpy launched(pane.get(), &ServerPane::launched);
        QSignalSpy failed(pane.get(), &ServerPane::launchFailed);
        [&] { QTRY_VERIFY_WITH_TIMEOUT(button(*pane, "launchServer")->isEnabled(), 30000); }();
        QTest::mouseClick(button(*pane, "launchServer"), Qt::LeftButton);
        [&] {
            QTRY_VERIFY2_WITH_TIMEOUT(launched.size() == 1,
                qPrintable(failed.isEmpty() ? statusText(*pane) : failed.first().first().toString()), 60000);
        }();
        if (launched.isEmpty())
            return {};
        [&] { QTRY_VERIFY_WITH_TIMEOUT(pane->lastStatus().healthy() && pane->lastStatus().hasMetrics, 60000); }();
        return launched.first().first().toString();
    }
};

ServerLaunchProfile demo(quint16 port, int tp, int firstGpu, const QString& model)
{
    ServerLaunchProfile p = ServerLaunchProfile::demoProfile();
    p.port = port;
    p.tp = tp;
    p.modelPath = model;
    if (firstGpu > 0)
        p.extraArgs = { QStringLiteral("--base-gpu-id"), QString::number(firstGpu) };
    return p;
}

} // namespace

class TestServerPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("PATH", QByteArray(KF_SOURCE_DIR "/resources/demo/bin:") + qgetenv("PATH"));
    }

    void launchWatchStop()
    {
        Pane p;
        p.open();
        if (QTest::currentTestFailed())
            return;
        ServerPane& pane = *p.pane;
        QCOMPARE(pane.chartCount(), 6);
        const quint16 port = test::freeLocalPort();
        const QString job = p.launch(demo(port, 8, 0, QStringLiteral("demo/Model")));
        QVERIFY(!job.isEmpty());
        QCOMPARE(pane.jobId(), job);
        QCOMPARE(pane.lastStatus().tpSize, 8);
        // Two scrapes make a line; the log tail shows the server's own output.
        const qint64 first = pane.lastStatus().timeMs;
        QTRY_VERIFY_WITH_TIMEOUT(pane.lastStatus().timeMs > first, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(pane.logView()->toPlainText().contains(QStringLiteral("Decode batch")), 30000);
        auto* summary = pane.findChild<QLabel*>(QStringLiteral("serverSummary"));
        QVERIFY(summary->text().contains(QStringLiteral("tok/s")));
        const auto charts = pane.findChildren<TimeChart*>();
        QCOMPARE(charts.size(), 6);
        for (auto* c : charts)
            QTRY_VERIFY_WITH_TIMEOUT(c->pointCount() >= 2, 30000);
        QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("serverpane"))));

        // Issue #38, item 5: right after the launch nothing reads as an error or a to-do.
        auto* hint = pane.findChild<QLabel*>(QStringLiteral("launchHint"));
        QVERIFY2(hint->isHidden(), qPrintable(hint->text()));
        QVERIFY2(statusText(pane).contains(QStringLiteral("healthy"))
                && statusText(pane).contains(QStringLiteral("started by KernelForge (job %1)").arg(job))
                && !statusText(pane).contains(QStringLiteral("Stop it first")),
            qPrintable(statusText(pane)));

        pane.stop();
        LocalTransport transport;
        Result<JobInfo> info = RemoteJob::info(transport, job, p.jobs.path());
        QTRY_VERIFY_WITH_TIMEOUT((info = RemoteJob::info(transport, job, p.jobs.path())) && info->cancelled, 30000);
        QVERIFY(info->pgid > 1);
        ::kill(pid_t(-info->pgid), SIGKILL);
        QTRY_VERIFY_WITH_TIMEOUT(pane.logView()->toPlainText().contains(QStringLiteral(") stopped")), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!pane.lastStatus().reachable, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!button(pane, "stopServer")->isEnabled(), 30000);
    }

    // Issue #30, item 4: Launch TP 8 on one port, change the port, Launch again: refused with
    // the reason (and asked about), unless the user says to go ahead.
    void secondLaunchOnTakenGpus()
    {
        Pane p;
        p.open();
        if (QTest::currentTestFailed())
            return;
        ServerPane& pane = *p.pane;
        const quint16 first = test::freeLocalPort();
        const QString firstJob = p.launch(demo(first, 8, 0, QStringLiteral("demo/Model")));
        QVERIFY(!firstJob.isEmpty());

        const quint16 second = test::freeLocalPort();
        pane.setProfile(demo(second, 8, 0, QStringLiteral("demo/Model")));
        auto* hint = pane.findChild<QLabel*>(QStringLiteral("launchHint"));
        QTRY_VERIFY_WITH_TIMEOUT(button(pane, "launchServer")->isEnabled(), 30000);
        const QString taken = QStringLiteral("GPUs 0-7 run the server on port %1 (job %2)").arg(first).arg(firstJob);
        QTRY_VERIFY2_WITH_TIMEOUT(hint->isVisible() && hint->text().contains(taken), qPrintable(hint->text()), 30000);
        QStringList asked;
        pane.setConfirmHandler([&](const QString& question) {
            asked << question;
            return false;
        });
        QSignalSpy failed(&pane, &ServerPane::launchFailed);
        QSignalSpy launched(&pane, &ServerPane::launched);
        QTest::mouseClick(button(pane, "launchServer"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 60000);
        const QString why = QStringLiteral("GPUs 0-7 already run the server KernelForge started on port %1 (job %2)")
                                .arg(first)
                                .arg(firstJob);
        QVERIFY2(failed.first().first().toString().contains(why), qPrintable(failed.first().first().toString()));
        QCOMPARE(asked.size(), 1);
        QVERIFY2(asked.first().contains(QStringLiteral("Launch the server on port %1 anyway?").arg(second))
                && asked.first().contains(why),
            qPrintable(asked.first()));
        QVERIFY(launched.isEmpty());
        QTRY_VERIFY2_WITH_TIMEOUT(
            statusText(pane).contains(QStringLiteral("Not launched: ") + why), qPrintable(statusText(pane)), 10000);
        QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("serverpane-gpus-taken"))));
        LocalTransport transport;
        const auto jobs = RemoteJob::list(transport, p.jobs.path());
        QVERIFY2(jobs, qPrintable(jobs.error()));
        QCOMPARE(jobs->size(), 1); // nothing started on the second port
        QVERIFY(pane.jobId().isEmpty());

        // Answered "launch anyway": it starts, and says what it went past.
        pane.setConfirmHandler([](const QString&) { return true; });
        QTest::mouseClick(button(pane, "launchServer"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(launched.size(), 1, 60000);
        QTRY_VERIFY2_WITH_TIMEOUT(
            statusText(pane).contains(QStringLiteral("launched although ") + why), qPrintable(statusText(pane)), 10000);
        endJob(launched.first().first().toString(), p.jobs.path());
        endJob(firstJob, p.jobs.path());
    }

    // Two servers of the host: charted apart and named; Stop only for a running server of ours;
    // stopping one leaves the other followed, polled and said.
    void twoServersApart()
    {
        Pane p;
        p.open();
        if (QTest::currentTestFailed())
            return;
        ServerPane& pane = *p.pane;
        const quint16 a = test::freeLocalPort();
        const quint16 b = test::freeLocalPort();
        pane.setProfile(demo(a, 4, 0, QStringLiteral("demo/Alpha")));
        QTRY_VERIFY_WITH_TIMEOUT(button(pane, "launchServer")->isEnabled(), 30000);
        QVERIFY(!button(pane, "stopServer")->isEnabled()); // nothing runs on the port
        const QString jobA = p.launch(demo(a, 4, 0, QStringLiteral("demo/Alpha")));
        QVERIFY(!jobA.isEmpty());
        QVERIFY(button(pane, "stopServer")->isEnabled());
        pane.setProfile(demo(b, 4, 4, QStringLiteral("demo/Beta")));
        QTRY_VERIFY_WITH_TIMEOUT(button(pane, "launchServer")->isEnabled(), 30000);
        QVERIFY(!button(pane, "stopServer")->isEnabled()); // the port's field moved: nothing of ours there
        const QString jobB = p.launch(demo(b, 4, 4, QStringLiteral("demo/Beta")));
        QVERIFY(!jobB.isEmpty());

        // The charts: one series per server, each named by port and model, each its own points.
        TimeChart* throughput = pane.charts().first();
        const QString alpha = QStringLiteral("port %1 · demo/Alpha").arg(a);
        const QString beta = QStringLiteral("port %1 · demo/Beta").arg(b);
        const QStringList names = a < b ? QStringList { alpha, beta } : QStringList { beta, alpha };
        QTRY_COMPARE_WITH_TIMEOUT(throughput->seriesCount(), 2, 30000);
        QCOMPARE(QStringList({ throughput->seriesName(0), throughput->seriesName(1) }), names);
        QTRY_VERIFY_WITH_TIMEOUT(
            finite(throughput->seriesData(0)) >= 2 && finite(throughput->seriesData(1)) >= 2, 60000);
        TimeChart* requests = pane.charts().at(1);
        QCOMPARE(requests->seriesCount(), 4);
        QCOMPARE(requests->seriesName(0), QStringLiteral("running · ") + names.first());
        QCOMPARE(requests->seriesName(3), QStringLiteral("queued · ") + names.last());
        // The timeline's tok/s lines: the same two servers, apart.
        QStringList timelineNames;
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                timelineNames.clear();
                const qint64 now = QDateTime::currentMSecsSinceEpoch();
                for (const timeline::LabelledSeries& s :
                    timeline::serverTokenSeries(&p.recorder, QStringLiteral("local"), {}, {}, now - 600000, now, 400))
                    if (finite(s.points) >= 2)
                        timelineNames << s.label;
                return timelineNames == names;
            }(),
            30000);
        QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("serverpane-two-servers"))));

        // Stop the one the field shows: the other is still followed, polled and said.
        QVERIFY(button(pane, "stopServer")->isEnabled());
        QSignalSpy ended(&pane, &ServerPane::serverEnded);
        QTest::mouseClick(button(pane, "stopServer"), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(!button(pane, "stopServer")->isEnabled(), 30000);
        QTRY_VERIFY2_WITH_TIMEOUT(statusText(pane).contains(QStringLiteral("No server on port %1").arg(b))
                && statusText(pane).contains(
                    QStringLiteral("Also on this host: %1: healthy (job %2)").arg(alpha, jobA)),
            qPrintable(statusText(pane)), 30000);
        const qint64 polled = p.sessions.serverSessions().first()->server(a)->last.timeMs;
        QTRY_VERIFY_WITH_TIMEOUT(p.sessions.serverSessions().first()->server(a)->last.timeMs > polled, 30000);
        QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("serverpane-one-stopped"))));
        endJob(jobB, p.jobs.path());
        endJob(jobA, p.jobs.path());
    }

    // Stop means something only for a running server of ours on the port: not before there is
    // one, offered for one launched elsewhere (the CLI, a recipe) once it is found, and gone
    // once it stopped. Before the ServerSession the pane took such a server for a program
    // KernelForge did not start and offered no Stop.
    void stopOnlyForARunningServerOfOurs()
    {
        Pane p;
        p.open();
        if (QTest::currentTestFailed())
            return;
        ServerPane& pane = *p.pane;
        const quint16 port = test::freeLocalPort();
        pane.setProfile(demo(port, 8, 0, QStringLiteral("demo/Model")));
        QTRY_VERIFY_WITH_TIMEOUT(button(pane, "launchServer")->isEnabled(), 30000);
        QVERIFY(!button(pane, "stopServer")->isEnabled());
        LocalTransport transport;
        LaunchRequest elsewhere { demo(port, 8, 0, QStringLiteral("demo/Model")), p.jobs.path() };
        const auto launched = launchServer(transport, elsewhere); // as `kernelforge-cli server launch` does
        QVERIFY2(launched && launched->job, qPrintable(launched ? launched->refusals.join(u'|') : launched.error()));
        QTRY_VERIFY2_WITH_TIMEOUT(button(pane, "stopServer")->isEnabled(), qPrintable(statusText(pane)), 30000);
        QCOMPARE(pane.jobId(), launched->job->id);
        QTRY_VERIFY2_WITH_TIMEOUT(
            statusText(pane).contains(QStringLiteral("started by KernelForge (job %1)").arg(launched->job->id)),
            qPrintable(statusText(pane)), 30000);
        QVERIFY(!button(pane, "launchServer")->isEnabled());
        QTest::mouseClick(button(pane, "stopServer"), Qt::LeftButton);
        QVERIFY(!button(pane, "stopServer")->isEnabled()); // stopping: not twice
        QTRY_VERIFY_WITH_TIMEOUT(!pane.isServerRunning(), 60000);
        QVERIFY(!button(pane, "stopServer")->isEnabled());
        endJob(launched->job->id, p.jobs.path());
    }

    // Issue #33: the Server pane puts the memory gate in front of a server's JIT, as
    // `server launch --memory-gate` does: the job brings the launcher and its prelude.
    void memoryGateForTheJit()
    {
        Pane p;
        p.open();
        if (QTest::currentTestFailed())
            return;
        ServerPane& pane = *p.pane;
        auto* gate = pane.findChild<QCheckBox*>(QStringLiteral("serverMemoryGate"));
        QVERIFY(gate);
        ServerLaunchProfile profile = demo(test::freeLocalPort(), 8, 0, QStringLiteral("demo/Model"));
        QVERIFY(!profile.memoryGate);
        pane.setProfile(profile);
        QVERIFY(!gate->isChecked());
        QTest::mouseClick(gate, Qt::LeftButton);
        QVERIFY(pane.profile().memoryGate);
        profile.memoryGate = true;
        const QString job = p.launch(profile);
        QVERIFY(!job.isEmpty());
        QVERIFY(QFileInfo(p.jobs.filePath(job + QStringLiteral("/memgate"))).isExecutable());
        QVERIFY(QFileInfo::exists(p.jobs.filePath(job + QStringLiteral("/prelude"))));
        endJob(job, p.jobs.path());
    }

    void quantileAboveLastBucketIsALowerBound()
    {
        // A real HTTP server (python3's http.server) serving SGLang's docs' example page:
        // TTFT p50/p95 lie in the +Inf bucket and read "> 30 s", never "30000 ms".
        QTemporaryDir root;
        QVERIFY(QFile::copy(test::dataPath(QStringLiteral("metrics/sglang_docs_example.prom")),
            root.filePath(QStringLiteral("metrics"))));
        QFile health(root.filePath(QStringLiteral("health")));
        QVERIFY(health.open(QIODevice::WriteOnly));
        health.write("ok\n");
        health.close();
        const quint16 port = test::freeLocalPort();
        QProcess server;
        server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        server.start(QStringLiteral("python3"),
            { QStringLiteral("-m"), QStringLiteral("http.server"), QString::number(port), QStringLiteral("--bind"),
                QStringLiteral("127.0.0.1"), QStringLiteral("--directory"), root.path() });
        QVERIFY(server.waitForStarted());
        Pane p;
        p.open();
        if (QTest::currentTestFailed())
            return;
        ServerPane& pane = *p.pane;
        ServerLaunchProfile profile = ServerLaunchProfile::demoProfile();
        profile.port = port;
        pane.setProfile(profile);
        auto* summary = pane.findChild<QLabel*>(QStringLiteral("serverSummary"));
        QTRY_VERIFY_WITH_TIMEOUT(pane.lastStatus().hasMetrics, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("TTFT")), 30000);
        // What a person reads (the label's source is escaped HTML; it must be shown as rich text).
        QVERIFY2(test::shownText(summary).contains(QStringLiteral("TTFT p50/p95 > 30 s/> 30 s")),
            qPrintable(test::shownText(summary)));
        QVERIFY2(test::labelsShowingMarkup(&pane).isEmpty(), qPrintable(test::labelsShowingMarkup(&pane).join(u'\n')));
        QVERIFY(!summary->text().contains(QStringLiteral("30000")));
        // Not a server of ours: nothing to stop, and said so.
        QTRY_VERIFY2_WITH_TIMEOUT(statusText(pane).contains(QStringLiteral("not started by KernelForge")),
            qPrintable(statusText(pane)), 30000);
        QVERIFY(!button(pane, "stopServer")->isEnabled());
        QVERIFY(!button(pane, "launchServer")->isEnabled()); // the port is taken
        server.kill();
        server.waitForFinished();
    }
};

QTEST_MAIN(TestServerPane)
#include "tst_serverpane.moc"
