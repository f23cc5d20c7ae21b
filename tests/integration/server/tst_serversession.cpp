// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// ServerSession over the real sshd (DemoHost): every server of ours on the host is followed
// (launched here, or found again after a launch elsewhere), polled and charted on its own,
// each named by port and model; stopping one leaves the other followed and polled (issue #30,
// item 4: after Stop on 30001 the pane only knew "No server on port 30001" while 30000 served,
// unmonitored); polls stop when nobody asks for them.
#include "core/server/launchpolicy.h"
#include "core/server/serversession.h"
#include "core/ssh/sshtransport.h"
#include "core/store/database.h"
#include "tests/support/testsupport.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace kf;

namespace {

ServerLaunchProfile demoOn(quint16 port, int tp, int firstGpu, const QString& model)
{
    ServerLaunchProfile p = ServerLaunchProfile::demoProfile();
    p.port = port;
    p.tp = tp;
    p.modelPath = model;
    p.extraArgs = { QStringLiteral("--base-gpu-id"), QString::number(firstGpu) };
    return p;
}

int finitePoints(const ServerState* s)
{
    if (!s || s->series.empty())
        return 0;
    int n = 0;
    for (const QPointF& p : s->series[size_t(ServerSeries::Throughput)].history())
        n += std::isfinite(p.y()) ? 1 : 0;
    return n;
}

} // namespace

class TestServerSession : public QObject
{
    Q_OBJECT
    QTemporaryDir m_db;

private Q_SLOTS:
    void initTestCase() { store::setDatabasePath(m_db.filePath(QStringLiteral("history.sqlite"))); }

    void everyServerFollowedApart()
    {
        KF_START_DEMO_HOST(demo);
        auto connected = SshTransport::connect(demo.profile());
        QVERIFY2(connected, qPrintable(connected.error()));
        std::shared_ptr<Transport> transport(std::move(*connected));
        ServerSession session(transport, transport->describe());
        session.setPollInterval(500);
        QObject viewer;
        session.setPolling(&viewer, true);
        QVERIFY(session.isPolling());

        // One launched through the session...
        const quint16 a = test::freeLocalPort();
        QSignalSpy launched(&session, &ServerSession::launchFinished);
        session.launch({ demoOn(a, 4, 0, QStringLiteral("demo/Alpha")) });
        QTRY_COMPARE_WITH_TIMEOUT(launched.size(), 1, 60000);
        QVERIFY2(launched.first().at(2).toString().isEmpty(), qPrintable(launched.first().at(2).toString()));
        // ...one launched elsewhere (the CLI, another window): found by the next scan.
        const quint16 b = test::freeLocalPort();
        const auto elsewhere = launchServer(*transport, { demoOn(b, 4, 4, QStringLiteral("demo/Beta")) });
        QVERIFY2(
            elsewhere && elsewhere->job, qPrintable(elsewhere ? elsewhere->refusals.join(u'|') : elsewhere.error()));
        session.refresh();
        QTRY_COMPARE_WITH_TIMEOUT(session.runningPorts(), (QList<quint16> { std::min(a, b), std::max(a, b) }), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(finitePoints(session.server(a)) >= 2 && finitePoints(session.server(b)) >= 2, 60000);
        QCOMPARE(session.server(a)->label(), QStringLiteral("port %1 · demo/Alpha").arg(a));
        QCOMPARE(session.server(b)->label(), QStringLiteral("port %1 · demo/Beta").arg(b));
        QCOMPARE(session.server(b)->job->id, elsewhere->job->id);
        // Each follows its own job's log.
        QTRY_VERIFY_WITH_TIMEOUT(session.server(b)->log.contains("Decode batch"), 30000);

        // Stop one: the other stays followed and polled.
        QSignalSpy ended(&session, &ServerSession::serverEnded);
        session.stop(a);
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 1, 60000);
        QVERIFY(ended.first().first().value<JobInfo>().cancelled);
        QVERIFY(!session.server(a)->running());
        QVERIFY(session.server(a)->log.contains(QStringLiteral(") stopped").toUtf8()));
        const qint64 before = session.server(b)->last.timeMs;
        QTRY_VERIFY_WITH_TIMEOUT(session.server(b)->last.timeMs > before && session.server(b)->last.healthy(), 30000);
        QCOMPARE(session.runningPorts(), QList<quint16> { b });
        // Stop means something only for a running server of ours.
        QSignalSpy stopFailed(&session, &ServerSession::stopFailed);
        session.stop(a);
        QCOMPARE(stopFailed.size(), 1);

        // Nobody asks any more: polls stop.
        session.setPolling(&viewer, false);
        QVERIFY(!session.isPolling());
        const qint64 last = session.server(b)->last.timeMs;
        QTest::qWait(2000);
        QCOMPARE(session.server(b)->last.timeMs, last);
        session.setPolling(&viewer, true);
        session.stop(b);
        QTRY_COMPARE_WITH_TIMEOUT(ended.size(), 2, 60000);
    }
};

QTEST_GUILESS_MAIN(TestServerSession)
#include "tst_serversession.moc"
