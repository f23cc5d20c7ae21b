// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/hostactivity.h"
#include "core/remotebuild/buildsession.h"
#include "core/server/serverclient.h"

#include <QSignalSpy>
#include <QtTest>

using namespace kf;

class TestHostActivity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void serverPollsAreKeptPerHost()
    {
        HostActivity a;
        QSignalSpy changed(&a, &HostActivity::changed);
        QVERIFY(!a.server(QStringLiteral("gpu-a")));
        ServerStatus none; // no poll yet: nothing learnt
        a.setServer(QStringLiteral("gpu-a"), none);
        QVERIFY(!a.server(QStringLiteral("gpu-a")));
        QCOMPARE(changed.size(), 0);

        ServerStatus s;
        s.timeMs = 1000;
        s.port = 30000;
        s.reachable = true;
        s.healthStatus = 200;
        s.hasMetrics = true;
        s.metrics.genThroughput = 1240;
        s.metrics.running = 3;
        a.setServer(QStringLiteral("gpu-a"), s);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().first().toString(), QStringLiteral("gpu-a"));
        const auto got = a.server(QStringLiteral("gpu-a"));
        QVERIFY(got && got->healthy());
        QCOMPARE(got->tokensPerS, 1240.0);
        QCOMPARE(got->running, 3.0);
        QCOMPARE(got->port, quint16(30000));
        QVERIFY(!a.server(QStringLiteral("gpu-b")));

        // Answering without /metrics: healthy, tok/s not known (never 0).
        s.hasMetrics = false;
        s.timeMs = 2000;
        a.setServer(QStringLiteral("gpu-a"), s);
        QVERIFY(!hasValue(a.server(QStringLiteral("gpu-a"))->tokensPerS));
        // Nothing on the port.
        ServerStatus gone;
        gone.timeMs = 3000;
        gone.port = 30000;
        a.setServer(QStringLiteral("gpu-a"), gone);
        QVERIFY(!a.server(QStringLiteral("gpu-a"))->reachable);
        QVERIFY(!a.server(QStringLiteral("gpu-a"))->healthy());
    }

    void buildProgressUntilItEnds()
    {
        HostActivity a;
        a.setBuild(QStringLiteral("gpu-a"), QStringLiteral("job-1"), BuildProgress(), 10);
        auto b = a.build(QStringLiteral("gpu-a"));
        QVERIFY(b);
        QCOMPARE(b->job, QStringLiteral("job-1"));
        QCOMPARE(b->done, -1); // running, steps not known yet
        QVERIFY(!hasValue(b->etaS));
        BuildProgress p;
        p.done = 120;
        p.total = 560;
        p.etaS = 360;
        a.setBuild(QStringLiteral("gpu-a"), QStringLiteral("job-1"), p, 20);
        b = a.build(QStringLiteral("gpu-a"));
        QCOMPARE(b->done, 120);
        QCOMPARE(b->total, 560);
        QCOMPARE(b->etaS, 360.0);
        // A line without step counts keeps the last ones; an ETA of -1 is not known.
        BuildProgress text;
        text.etaS = -1;
        a.setBuild(QStringLiteral("gpu-a"), QStringLiteral("job-1"), text, 30);
        b = a.build(QStringLiteral("gpu-a"));
        QCOMPARE(b->done, 120);
        QVERIFY(!hasValue(b->etaS));
        // Another job starts from nothing.
        a.setBuild(QStringLiteral("gpu-a"), QStringLiteral("job-2"), BuildProgress(), 40);
        QCOMPARE(a.build(QStringLiteral("gpu-a"))->done, -1);
        QSignalSpy changed(&a, &HostActivity::changed);
        a.clearBuild(QStringLiteral("gpu-a"));
        QVERIFY(!a.build(QStringLiteral("gpu-a")));
        QCOMPARE(changed.size(), 1);
        a.clearBuild(QStringLiteral("gpu-a")); // nothing to clear: no signal
        QCOMPARE(changed.size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestHostActivity)
#include "tst_hostactivity.moc"
