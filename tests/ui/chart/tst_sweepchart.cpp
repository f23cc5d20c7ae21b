// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issues #35 and #38 (item 7): the benchmark's Pareto chart. Two compared runs with the same
// levels close together used to print "c=8" over "c=8": now no label drawn overlaps another
// or a dot, and a label that finds no free place is left to the hover box. The goodput
// frontier runs through the levels that met the target and that no other beats.
#include "ui/chart/sweepchart.h"

#include <QtTest>

using namespace kf;

namespace {

SweepChart::Curve sweep(const QString& name, QColor color, double scale)
{
    SweepChart::Curve c { name, color, {} };
    // Per-user tok/s falling and tok/s per GPU rising with concurrency, as a real sweep does.
    int i = 0;
    for (int conc : { 1, 2, 4, 8, 16, 32, 64, 128 }) {
        c.points.append({ QStringLiteral("c=%1").arg(conc), 100.0 / (1 + 0.15 * i) * scale,
            40.0 * conc / (1 + conc / 40.0) * scale, false, true, false });
        ++i;
    }
    return c;
}

} // namespace

class TestSweepChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void labelsNeverOverlap()
    {
        SweepChart chart;
        chart.resize(560, 300);
        chart.setAxes(QStringLiteral("output tok/s per user"), QStringLiteral("output tok/s per GPU"), true);
        // Run B within 0.3 % of run A: every label of B wants the place of A's.
        chart.setCurves(
            { sweep(QStringLiteral("A: run 1"), Qt::blue, 1.0), sweep(QStringLiteral("B: run 2"), Qt::red, 1.003) });
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.grab(); // paints
        const QList<QRectF>& labels = chart.labelRects();
        QVERIFY(!labels.isEmpty());
        for (int i = 0; i < labels.size(); ++i)
            for (int j = i + 1; j < labels.size(); ++j)
                QVERIFY2(!labels[i].intersects(labels[j]),
                    qPrintable(QStringLiteral("label %1 overlaps label %2").arg(i).arg(j)));
        QCOMPARE(labels.size() + chart.hiddenLabels(), 16);
        // Far apart, every label finds a place.
        chart.setCurves({ sweep(QStringLiteral("A"), Qt::blue, 1.0) });
        chart.grab();
        QCOMPARE(chart.hiddenLabels(), 0);
        QCOMPARE(chart.labelRects().size(), 8);
        QVERIFY(chart.grab().save(QStringLiteral(KF_SCREENSHOT_DIR "/sweepchart.png")));
    }

    void frontierOfTheLevelsThatMetTheTarget()
    {
        SweepChart chart;
        SweepChart::Curve c { QString(), Qt::blue, {} };
        c.points = {
            { QStringLiteral("c=1"), 90, 80, false, true, false },
            { QStringLiteral("c=4"), 70, 250, false, true, false },
            { QStringLiteral("c=16"), 40, 600, false, true, false },
            { QStringLiteral("c=64"), 15, 900, false, false, true }, // missed the goodput target
            { QStringLiteral("c=48"), 30, 500, false, true, false }, // beaten by c=16
        };
        chart.setAxes(QStringLiteral("per user"), QStringLiteral("per GPU"), true);
        chart.setCurves({ c });
        QCOMPARE(chart.frontier(0), (QList<int> { 2, 1, 0 }));
        // Against a latency, lower is better: the same points read the other way.
        chart.setAxes(QStringLiteral("TTFT"), QStringLiteral("per GPU"), false);
        QCOMPARE(chart.frontier(0), (QList<int> { 4, 2 }));
        QCOMPARE(chart.pointCount(), 5);
        c.points[0].x = std::nan("");
        chart.setCurves({ c });
        QCOMPARE(chart.pointCount(), 4); // a level without a value is not drawn at 0
    }
};

QTEST_MAIN(TestSweepChart)
#include "tst_sweepchart.moc"
