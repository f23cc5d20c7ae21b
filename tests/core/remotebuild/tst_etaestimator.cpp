// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/etaestimator.h"
#include "core/remotebuild/ninjalog.h"

#include "tests/support/testsupport.h"

#include <QtTest>

class TestEtaEstimator : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void unknownWithoutData()
    {
        kf::EtaEstimator e;
        QVERIFY(!e.etaSeconds());
        e.addSample(0, 0, 100);
        QVERIFY(!e.etaSeconds());
    }

    void steadyRate()
    {
        kf::EtaEstimator e;
        // 2 steps/s for 30 s.
        for (int t = 0; t <= 30; ++t)
            e.addSample(t * 1000LL, 2 * t, 400);
        QVERIFY(e.rate());
        QVERIFY(qAbs(*e.rate() - 2.0) < 0.01);
        QVERIFY(qAbs(*e.etaSeconds() - (400 - 60) / 2.0) < 1.0);
    }

    void smoothsBursts()
    {
        kf::EtaEstimator e;
        // Steps arrive in bursts of 10 every 5 s (2/s on average) with one 40-step burst.
        int done = 0;
        for (int t = 0; t <= 60; t += 5) {
            done += (t == 30 ? 40 : 10);
            e.addSample(t * 1000LL, done, 1000);
        }
        // A raw last-window rate would say 8 steps/s right after the burst; smoothing keeps it near 2-4.
        QVERIFY(*e.rate() > 1.5);
        QVERIFY(*e.rate() < 5.0);
    }

    void seededFromNinjaLog()
    {
        const auto log = kf::parseNinjaLog(kf::test::readData(QStringLiteral("buildlogs/ninja_log_v5_two_runs.txt")));
        kf::EtaEstimator e;
        e.seed(log); // 3 steps in 93 s
        e.addSample(0, 0, 3);
        QVERIFY(e.etaSeconds());
        QVERIFY(qAbs(*e.etaSeconds() - 93.0) < 0.5);
    }

    void finishedIsZero()
    {
        kf::EtaEstimator e;
        e.addSample(0, 0, 10);
        e.addSample(1000, 10, 10);
        QCOMPARE(*e.etaSeconds(), 0.0);
    }

    void restartedCounterDoesNotGoNegative()
    {
        kf::EtaEstimator e;
        for (int t = 0; t <= 10; ++t)
            e.addSample(t * 1000LL, t * 3, 100);
        e.addSample(11000, 1, 50); // CMake re-ran: a new ninja count
        for (int t = 12; t <= 20; ++t)
            e.addSample(t * 1000LL, 1 + (t - 11) * 3, 50);
        QVERIFY(e.rate());
        QVERIFY(*e.rate() > 0);
        QVERIFY(*e.etaSeconds() >= 0);
    }
};

QTEST_GUILESS_MAIN(TestEtaEstimator)
#include "tst_etaestimator.moc"
