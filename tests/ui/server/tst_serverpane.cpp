// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Launch the demo server as a detached job from the Server pane, watch it, stop it.
#include "core/hosts/hostconnection.h"
#include "core/jobs/remotejob.h"
#include "core/transport/localtransport.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/chart/timechart.h"
#include "ui/server/serverpane.h"

#include <QFile>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>
#include <sys/types.h>

using namespace kf;

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
        quint16 port = 0;
        {
            QTcpServer s;
            s.listen(QHostAddress::LocalHost, 0);
            port = s.serverPort();
        }
        QTemporaryDir jobs;
        LocalHostConnection host(test::localProfile());
        host.connectToHost();
        AppContext ctx;
        ServerPane pane(ctx, &host);
        pane.setJobRoot(jobs.path());
        pane.setConfirmHandler([](const QString&) { return true; });
        pane.resize(1300, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        ServerLaunchProfile p = ServerLaunchProfile::demoProfile();
        p.port = port;
        pane.setProfile(p);
        pane.setActive(true);
        QCOMPARE(pane.chartCount(), 6);
        QSignalSpy launched(&pane, &ServerPane::launched);
        pane.launch();
        QTRY_COMPARE_WITH_TIMEOUT(launched.size(), 1, 30000);
        QVERIFY(!pane.jobId().isEmpty());
        QVERIFY(pane.client());
        QTRY_VERIFY_WITH_TIMEOUT(pane.client()->last().healthy() && pane.client()->last().hasMetrics, 30000);
        QCOMPARE(pane.client()->last().tpSize, 8);
        // Two scrapes make a line; the log tail shows the server's own output.
        const qint64 first = pane.client()->last().timeMs;
        QTRY_VERIFY_WITH_TIMEOUT(pane.client()->last().timeMs > first, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(pane.logView()->toPlainText().contains(QStringLiteral("Decode batch")), 30000);
        auto* summary = pane.findChild<QLabel*>(QStringLiteral("serverSummary"));
        QVERIFY(summary->text().contains(QStringLiteral("tok/s")));
        QVERIFY(pane.findChild<QLabel*>(QStringLiteral("serverStatus"))->text().contains(QStringLiteral("healthy")));
        const auto charts = pane.findChildren<TimeChart*>();
        QCOMPARE(charts.size(), 6);
        for (auto* c : charts)
            QVERIFY(c->pointCount() >= 2);
        QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("serverpane"))));

        pane.stop();
        // The job record says cancelled (RemoteJob::cancel signals the job's process group).
        LocalTransport transport;
        Result<JobInfo> info = RemoteJob::info(transport, pane.jobId(), jobs.path());
        QTRY_VERIFY_WITH_TIMEOUT(
            (info = RemoteJob::info(transport, pane.jobId(), jobs.path())) && info->cancelled, 30000);
        QVERIFY(info->pgid > 1);
        // Whatever is left of the group we started goes too (see the report: TERM to the
        // group does not always reach the server process).
        ::kill(pid_t(-info->pgid), SIGKILL);
        QTRY_VERIFY_WITH_TIMEOUT(pane.logView()->toPlainText().contains(QStringLiteral(") stopped")), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(!pane.client()->last().reachable, 30000);
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
        quint16 port = 0;
        {
            QTcpServer s;
            s.listen(QHostAddress::LocalHost, 0);
            port = s.serverPort();
        }
        QProcess server;
        server.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        server.start(QStringLiteral("python3"),
            { QStringLiteral("-m"), QStringLiteral("http.server"), QString::number(port), QStringLiteral("--bind"),
                QStringLiteral("127.0.0.1"), QStringLiteral("--directory"), root.path() });
        QVERIFY(server.waitForStarted());
        LocalHostConnection host(test::localProfile());
        host.connectToHost();
        AppContext ctx;
        ServerPane pane(ctx, &host);
        pane.resize(1300, 900);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        ServerLaunchProfile p = ServerLaunchProfile::demoProfile();
        p.port = port;
        pane.setProfile(p);
        pane.setActive(true);
        auto* summary = pane.findChild<QLabel*>(QStringLiteral("serverSummary"));
        QTRY_VERIFY_WITH_TIMEOUT(pane.client() && pane.client()->last().hasMetrics, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(summary->text().contains(QStringLiteral("TTFT")), 30000);
        // What a person reads (the label's source is escaped HTML; it must be shown as rich text).
        QVERIFY2(test::shownText(summary).contains(QStringLiteral("TTFT p50/p95 > 30 s/> 30 s")),
            qPrintable(test::shownText(summary)));
        QVERIFY2(test::labelsShowingMarkup(&pane).isEmpty(), qPrintable(test::labelsShowingMarkup(&pane).join(u'\n')));
        QVERIFY(!summary->text().contains(QStringLiteral("30000")));
        server.kill();
        server.waitForFinished();
    }
};

QTEST_MAIN(TestServerPane)
#include "tst_serverpane.moc"
