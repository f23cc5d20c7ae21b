// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// ChartGeometry is the one place a TimeChart's coordinates come from: time <-> x and
// value <-> y invert each other and put the window's ends on the plot's edges, the y range
// is fixed or nice around the data, and the legend is laid out once, in centred rows inside
// the widget under the time labels, with the plot shrinking by exactly the rows it takes.
#include "ui/chart/chartgeometry.h"
#include "ui/chart/chartwindowbar.h"

#include <QApplication>
#include <QFontMetrics>
#include <QMap>
#include <QtTest>

#include <algorithm>
#include <cmath>

using namespace kf;

namespace {

constexpr qint64 kT0 = 1'700'000'000'000LL;
constexpr qint64 kTenMinutes = 600'000;

ChartGeometry::Input input(QSize size)
{
    ChartGeometry::Input in;
    in.size = size;
    in.titled = true;
    in.from = kT0;
    in.to = kT0 + kTenMinutes;
    in.dataExtent = std::make_pair(12.0, 87.0);
    return in;
}

QList<ChartGeometry::LegendEntry> gpuNames(int n)
{
    QList<ChartGeometry::LegendEntry> names;
    for (int i = 0; i < n; ++i)
        names.append({ 2 * i, QStringLiteral("GPU %1 (NVIDIA H200)").arg(i) });
    return names;
}

} // namespace

class TestChartGeometry : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void timeAndXInvertEachOther()
    {
        const QFontMetrics fm(QApplication::font());
        for (const bool compact : { false, true }) {
            ChartGeometry::Input in = input(QSize(800, 300));
            in.compact = compact;
            const ChartGeometry g = ChartGeometry::compute(in, fm);
            const QRect plot = g.plot();
            QVERIFY(plot.width() > 100);
            // The window's ends are the plot's left and right edges.
            QCOMPARE(g.timeToX(double(kT0)), double(plot.left()));
            QCOMPARE(g.timeToX(double(kT0 + kTenMinutes)), double(plot.left() + plot.width()));
            QCOMPARE(g.plotX(double(kT0)), 0.0);
            for (qint64 dt = 0; dt <= kTenMinutes; dt += 7'919) {
                const double t = double(kT0 + dt);
                QVERIFY(qAbs(g.xToTime(g.timeToX(t)) - t) < 1e-3);
                QVERIFY(qAbs(g.timeToX(t) - (plot.left() + g.plotX(t))) < 1e-9);
            }
            for (int x = plot.left(); x <= plot.right(); ++x)
                QCOMPARE(std::lround(g.timeToX(g.xToTime(x))), long(x));
            // The hover maps a column to a time only over the plot.
            QVERIFY(!g.timeAt(plot.left() - 1));
            QVERIFY(!g.timeAt(plot.right() + 1));
            QCOMPARE(*g.timeAt(plot.left()), double(kT0));
            QVERIFY(qAbs(*g.timeAt(plot.right()) - (kT0 + kTenMinutes * (plot.width() - 1.0) / plot.width())) < 1e-3);
        }
    }

    void valueAndYInvertEachOther()
    {
        const QFontMetrics fm(QApplication::font());
        ChartGeometry::Input in = input(QSize(640, 260));
        in.fixedRange = std::make_pair(0.0, 100.0);
        const ChartGeometry g = ChartGeometry::compute(in, fm);
        const QRect plot = g.plot();
        QCOMPARE(g.lo(), 0.0);
        QCOMPARE(g.hi(), 100.0);
        // y grows downwards: the bottom of the range on the plot's bottom edge, the top on its top.
        QCOMPARE(g.valueToY(0), double(plot.bottom() + 1));
        QCOMPARE(g.valueToY(100), double(plot.top()));
        QCOMPARE(g.plotY(100), 0.0);
        QCOMPARE(g.plotY(0), double(plot.height()));
        QVERIFY(g.valueToY(75) < g.valueToY(25));
        for (double v = -10; v <= 110; v += 3.7) {
            QVERIFY(qAbs(g.yToValue(g.valueToY(v)) - v) < 1e-9);
            QVERIFY(qAbs(g.valueToY(v) - (plot.top() + g.plotY(v))) < 1e-9);
        }
        for (int y = plot.top(); y <= plot.bottom(); ++y)
            QCOMPARE(std::lround(g.valueToY(g.yToValue(y))), long(y));
    }

    void autoRangeIsNiceAndHoldsTheData()
    {
        const QFontMetrics fm(QApplication::font());
        ChartGeometry::Input in = input(QSize(640, 260));
        in.dataExtent = std::make_pair(-3.2, 41.7);
        const ChartGeometry g = ChartGeometry::compute(in, fm);
        QVERIFY(g.lo() <= -3.2);
        QVERIFY(g.hi() >= 41.7);
        const QList<double> ticks = g.valueTicks();
        QVERIFY(ticks.size() >= 3);
        QCOMPARE(ticks.first(), g.lo());
        QVERIFY(qAbs(ticks.last() - g.hi()) < 1e-9);
        for (const double v : ticks) // whole multiples of the step
            QVERIFY(qAbs(v / g.valueStep() - std::round(v / g.valueStep())) < 1e-6);
        // Nothing to show yet: a unit range, not a collapsed one.
        in.dataExtent.reset();
        const ChartGeometry none = ChartGeometry::compute(in, fm);
        QCOMPARE(none.lo(), 0.0);
        QVERIFY(none.hi() >= 1.0);
    }

    // A tick label reads its own value at every height and extent: 0.25 steps print "0.25",
    // never "0.3" (#38). An empty chart shows 0, 0.5 and 1.
    void tickLabelsReadTheirValue()
    {
        const QFontMetrics fm(QApplication::font());
        const QList<std::pair<double, double>> extents { { 0.0, 1.0 }, { 0.0, 0.9 }, { 0.1, 0.35 }, { 0.0, 9.0 },
            { 0.0, 24.0 }, { -2.0, 7.5 }, { 3.0, 3.0 }, { 0.0, 0.004 } };
        for (const auto& extent : extents) {
            for (int height = 80; height <= 900; height += 20) {
                ChartGeometry::Input in = input(QSize(640, height));
                in.dataExtent = extent;
                const ChartGeometry g = ChartGeometry::compute(in, fm);
                for (const double v : g.valueTicks()) {
                    const QString label = g.valueLabel(v);
                    QVERIFY2(qAbs(label.toDouble() - v) < 1e-9 * qMax(1.0, qAbs(v)),
                        qPrintable(QStringLiteral("%1 .. %2 at %3 px: tick %4 labelled %5")
                                       .arg(extent.first)
                                       .arg(extent.second)
                                       .arg(height)
                                       .arg(v)
                                       .arg(label)));
                }
            }
        }
        for (int height = 80; height <= 900; height += 20) {
            ChartGeometry::Input in = input(QSize(640, height));
            in.dataExtent.reset();
            const ChartGeometry g = ChartGeometry::compute(in, fm);
            QStringList labels;
            for (const double v : g.valueTicks())
                labels.append(g.valueLabel(v));
            QCOMPARE(labels, QStringList({ QStringLiteral("0.0"), QStringLiteral("0.5"), QStringLiteral("1.0") }));
        }
    }

    void timeTicksStayInTheWindow()
    {
        const QFontMetrics fm(QApplication::font());
        const ChartGeometry g = ChartGeometry::compute(input(QSize(800, 300)), fm);
        const ChartGeometry::TimeTicks ticks = g.timeTicks();
        QVERIFY(ticks.times.size() >= 3);
        for (const qint64 t : ticks.times) {
            QVERIFY(t >= kT0 && t <= kT0 + kTenMinutes);
            const double x = g.timeToX(double(t));
            QVERIFY(x >= g.plot().left() && x <= g.plot().left() + g.plot().width());
        }
        // Labels do not collide: neighbouring ticks are at least a label apart.
        for (qsizetype i = 1; i < ticks.times.size(); ++i)
            QVERIFY(g.timeToX(double(ticks.times[i])) - g.timeToX(double(ticks.times[i - 1])) >= ticks.labelWidth);
        // The 0..1 placeholder window before any data has no labels.
        ChartGeometry::Input placeholder = input(QSize(800, 300));
        placeholder.from = 0;
        placeholder.to = 1;
        QVERIFY(ChartGeometry::compute(placeholder, fm).timeTicks().times.isEmpty());
    }

    // Every window the bar offers gets a handful of readable ticks at a wide and a small size,
    // and a window over midnight names the day there (a 24 h axis of bare "HH:mm" is ambiguous).
    void timeTicksSuitEveryWindow()
    {
        const QFontMetrics fm(QApplication::font());
        const QDateTime noon(QDate(2026, 3, 10), QTime(12, 0));
        const qint64 end = noon.toMSecsSinceEpoch();
        for (const auto& [label, ms] : ChartWindowBar::windows()) {
            const qint64 span = ms > 0 ? ms : 3LL * 24 * 3600 * 1000; // "all": three days of history
            for (const int width : { 1400, 420 }) {
                ChartGeometry::Input in = input(QSize(width, 300));
                const auto [from, to] = ChartWindowBar::range(ms, end - span, end);
                QCOMPARE(to - from, span);
                in.from = from;
                in.to = to;
                const ChartGeometry g = ChartGeometry::compute(in, fm);
                const ChartGeometry::TimeTicks ticks = g.timeTicks();
                QVERIFY2(ticks.times.size() >= 2 && ticks.times.size() <= 16,
                    qPrintable(QStringLiteral("%1 at %2 px: %3 ticks").arg(label).arg(width).arg(ticks.times.size())));
                QCOMPARE(ticks.labels.size(), ticks.times.size());
                for (qsizetype i = 1; i < ticks.times.size(); ++i)
                    QVERIFY(
                        g.timeToX(double(ticks.times[i])) - g.timeToX(double(ticks.times[i - 1])) >= ticks.labelWidth);
                for (qsizetype i = 0; i < ticks.times.size(); ++i) {
                    const QDateTime at = QDateTime::fromMSecsSinceEpoch(ticks.times[i]);
                    if (at.time() == QTime(0, 0) && span > 3600000)
                        QCOMPARE(ticks.labels[i], at.toString(QStringLiteral("MMM d")));
                    else
                        QCOMPARE(ticks.labels[i], at.toString(ticks.format));
                }
                if (span >= 24LL * 3600 * 1000) // crosses midnight: some tick says which day
                    QVERIFY(std::any_of(ticks.labels.cbegin(), ticks.labels.cend(),
                        [](const QString& l) { return l.startsWith(QStringLiteral("Mar")); }));
            }
        }
        // "All" of a young history is still 10 s wide; of an old one, all of it.
        QVERIFY(ChartWindowBar::range(0, end - 5000, end) == std::make_pair(end - 10000, end));
        QVERIFY(ChartWindowBar::range(0, end - 30000, end) == std::make_pair(end - 30000, end));
        QVERIFY(ChartWindowBar::range(0, end - 7200000, end) == std::make_pair(end - 7200000, end));
        QVERIFY(ChartWindowBar::range(0, 0, end) == std::make_pair(end - 10000, end)); // nothing yet
    }

    void legendRowsAreLaidOutOnce()
    {
        const QFontMetrics fm(QApplication::font());
        const int width = 520;
        ChartGeometry::Input in = input(QSize(width, 400));
        const ChartGeometry bare = ChartGeometry::compute(in, fm);
        QCOMPARE(bare.legendRows(), 0);
        QVERIFY(bare.legend().isEmpty());

        in.legend = gpuNames(1);
        const ChartGeometry one = ChartGeometry::compute(in, fm);
        QCOMPARE(one.legendRows(), 1);
        in.legend = gpuNames(8);
        const ChartGeometry eight = ChartGeometry::compute(in, fm);
        QVERIFY2(eight.legendRows() >= 3, "eight long names wrap on a narrow chart");

        // The legend takes its rows from the plot's height, row for row.
        QCOMPARE(bare.plot().height() - one.plot().height(), fm.height() + 2 + ChartGeometry::kPad);
        QCOMPARE(one.plot().height() - eight.plot().height(), (eight.legendRows() - 1) * (fm.height() + 2));

        // One item per named series, in order, each as wide as its swatch and name.
        const auto& items = eight.legend();
        QCOMPARE(items.size(), 8);
        QMap<int, QList<QRect>> rows; // by top
        for (int i = 0; i < items.size(); ++i) {
            QCOMPARE(items[i].series, 2 * i);
            QCOMPARE(items[i].bounds.width(), ChartGeometry::kSwatch + 4 + fm.horizontalAdvance(in.legend[i].name));
            QCOMPARE(items[i].bounds.height(), fm.height());
            QVERIFY(items[i].bounds.left() >= ChartGeometry::kPad);
            QVERIFY(items[i].bounds.right() < width - ChartGeometry::kPad);
            rows[items[i].bounds.top()].append(items[i].bounds);
        }
        QCOMPARE(int(rows.size()), eight.legendRows());
        // Under the time labels, inside the widget, one line apart.
        const QList<int> tops = rows.keys();
        QVERIFY(tops.first() >= eight.plot().bottom() + fm.height());
        QVERIFY(tops.last() + fm.height() <= in.size.height());
        for (qsizetype r = 1; r < tops.size(); ++r)
            QCOMPARE(tops[r] - tops[r - 1], fm.height() + 2);
        for (const QList<QRect>& row : std::as_const(rows)) {
            // Left to right without overlap, and centred.
            for (qsizetype i = 1; i < row.size(); ++i)
                QCOMPARE(row[i].left() - row[i - 1].right() - 1, ChartGeometry::kLegendGap);
            const int leftMargin = row.first().left();
            const int rightMargin = width - 1 - row.last().right();
            QVERIFY2(qAbs(leftMargin - rightMargin) <= 1,
                qPrintable(QStringLiteral("%1 vs %2").arg(leftMargin).arg(rightMargin)));
        }
    }

    void compactHasNoMargins()
    {
        const QFontMetrics fm(QApplication::font());
        ChartGeometry::Input in = input(QSize(120, 24));
        in.compact = true;
        in.legend = gpuNames(2);
        const ChartGeometry g = ChartGeometry::compute(in, fm);
        QCOMPARE(g.plot(), QRect(1, 2, 118, 20));
        QCOMPARE(g.legendRows(), 0);
        QVERIFY(g.legend().isEmpty());
    }
};

QTEST_MAIN(TestChartGeometry)
#include "tst_chartgeometry.moc"
