// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// BuildChart's time window: before the first sample it starts at the present and moves with the
// clock (#38: it froze at the time the window opened); once the build has samples it is the
// build's. Driven by an injected clock and the chart's own tick, never by sleeping.
#include "ui/chart/timechart.h"
#include "ui/remotebuild/buildchart.h"

#include <QTimer>
#include <QtTest>

using namespace kf;

namespace {

constexpr qint64 kT0 = 1'700'000'000'000LL;

// The left edge of a chart's time window.
qint64 windowStart(const TimeChart* chart)
{
    const ChartGeometry g = chart->geometry();
    return qint64(std::llround(g.xToTime(g.plot().left())));
}

} // namespace

class TestBuildChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void emptyWindowFollowsTheClock()
    {
        qint64 now = kT0;
        BuildChart chart;
        chart.resize(700, 400);
        chart.setClock([&now] { return now; });
        QCOMPARE(windowStart(chart.stepsChart()), kT0);
        QCOMPARE(windowStart(chart.memoryChart()), kT0);
        auto* tick = chart.findChild<QTimer*>(QStringLiteral("buildChartEmptyTick"));
        QVERIFY(tick);
        QVERIFY(tick->isActive());
        // An hour later, with nothing built yet, the axis is at the present.
        now += 3600 * 1000LL;
        QVERIFY(QMetaObject::invokeMethod(tick, "timeout"));
        QCOMPARE(windowStart(chart.stepsChart()), now);
        QCOMPARE(windowStart(chart.memoryChart()), now);

        // The build starts: the window is its own and no longer follows the clock.
        const qint64 started = now;
        chart.addMemory({ started, 8 * 1048576LL, 16 * 1048576LL, QStringLiteral("MemAvailable") });
        QVERIFY(!tick->isActive());
        now += 600 * 1000LL;
        QVERIFY(QMetaObject::invokeMethod(tick, "timeout"));
        QCOMPARE(windowStart(chart.stepsChart()), started);

        // Cleared for the next build: empty again, following the clock again.
        chart.clear();
        QVERIFY(tick->isActive());
        QCOMPARE(windowStart(chart.stepsChart()), now);
    }
};

QTEST_MAIN(TestBuildChart)
#include "tst_buildchart.moc"
