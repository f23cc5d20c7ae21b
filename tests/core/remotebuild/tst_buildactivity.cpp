// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The Build pane's summary line: elapsed time keeps counting between progress lines, a quiet
// step says how long it has run and how long nothing was printed, and a finished build
// (succeeded, failed, cancelled) shows neither ETA nor a running count.
#include "core/remotebuild/buildactivity.h"

#include <QtTest>

using namespace kf;

namespace {

BuildProgress progress(int done, int total, double elapsedS, double etaS, int running = 2)
{
    BuildProgress p;
    p.done = done;
    p.total = total;
    p.running = running;
    p.rate = 0.05;
    p.elapsedS = elapsedS;
    p.etaS = etaS;
    p.description = QStringLiteral("Building CUDA object k%1.cu.o").arg(done);
    return p;
}

} // namespace

class TestBuildActivity : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void durations()
    {
        QCOMPARE(durationText(0), QStringLiteral("0 s"));
        QCOMPARE(durationText(59.4), QStringLiteral("59 s"));
        QCOMPARE(durationText(134), QStringLiteral("2 min 14 s"));
        QCOMPARE(durationText(3900), QStringLiteral("1 h 5 min"));
        QCOMPARE(durationText(-1), QStringLiteral("?"));
    }

    void elapsedTicksWhileAStepIsQuiet()
    {
        BuildActivity a;
        a.attachedMs = 0;
        a.output(1000);
        a.update(progress(12, 48, 240, 550), 1000);
        QCOMPARE(
            a.text(1000), QStringLiteral("12/48 steps, 2 running, 3.0 steps/min, elapsed 4 min 0 s, ETA 9 min 10 s"));
        // 14 s later nothing new: the elapsed time moved on, nothing else is said yet.
        QCOMPARE(
            a.text(15000), QStringLiteral("12/48 steps, 2 running, 3.0 steps/min, elapsed 4 min 14 s, ETA 9 min 10 s"));
        // 2 min 14 s after the step's line, 1 min 5 s after the last output.
        a.output(70000);
        QCOMPARE(a.text(135000),
            QStringLiteral("12/48 steps, 2 running, 3.0 steps/min, elapsed 6 min 14 s, ETA 9 min 10 s \u00b7 step "
                           "running 2 min 14 s, no output for 1 min 5 s"));
        // The next step restarts the step clock; output ends the quiet.
        a.output(140000);
        a.update(progress(13, 48, 380, 500), 140000);
        QVERIFY(!a.text(141000).contains(QLatin1String("no output")));
        QVERIFY(a.text(160000).contains(QLatin1String("step running 20 s, no output for 20 s")));
        // A shorter threshold (the pane's tests) says it sooner.
        QVERIFY(a.text(142000, 1000).contains(QLatin1String("no output for 2 s")));
    }

    void nothingYet()
    {
        BuildActivity a;
        a.attachedMs = 5000;
        QCOMPARE(a.text(6000), QStringLiteral("starting, elapsed 1 s, ETA unknown"));
        QCOMPARE(a.text(25000), QStringLiteral("starting, elapsed 20 s, ETA unknown \u00b7 no output for 20 s"));
    }

    void aFinishedBuildHasNoEta_data()
    {
        QTest::addColumn<int>("done");
        QTest::addColumn<double>("eta");
        QTest::newRow("succeeded") << 48 << 0.0;
        QTest::newRow("failed") << 20 << -1.0;
        QTest::newRow("cancelled") << 30 << -1.0;
        QTest::newRow("failed, estimate left over") << 20 << 300.0;
    }
    void aFinishedBuildHasNoEta()
    {
        QFETCH(int, done);
        QFETCH(double, eta);
        BuildActivity a;
        a.attachedMs = 0;
        a.output(1000);
        a.update(progress(done, 48, 600, eta, 0), 1000);
        a.finished = true;
        const QString text = a.text(900000);
        QCOMPARE(text, QStringLiteral("%1/48 steps, elapsed 10 min 0 s").arg(done));
        QVERIFY(!text.contains(QLatin1String("ETA")));
        QVERIFY(!text.contains(QLatin1String("running")));
        QVERIFY(!text.contains(QLatin1String("no output")));
    }
};

QTEST_GUILESS_MAIN(TestBuildActivity)
#include "tst_buildactivity.moc"
