// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// TimeChart draws what it is given: lines where there is data, nothing across a gap (NaN),
// threshold lines, nice y ranges, the palette's background, and a hover readout. Checked on
// the pixels of an offscreen render; light and dark grabs are saved for eyes.
#include "core/timeseries/seriesbuffer.h"
#include "tests/support/testsupport.h"
#include "ui/chart/timechart.h"

#include <QApplication>
#include <QImage>
#include <QPalette>
#include <QtTest>

#include <cmath>

using namespace kf;

namespace {

constexpr qint64 kT0 = 1'700'000'000'000LL;

QImage render(QWidget& w)
{
    QImage img(w.size(), QImage::Format_ARGB32);
    img.fill(Qt::magenta); // anything left unpainted shows
    w.render(&img);
    return img;
}

// How many pixels in column x (inside rows [top, bottom]) are close to the colour (an
// anti-aliased 1.5 px line covers no row fully, so "close" allows some blending).
int pixelsLike(const QImage& img, int x, int top, int bottom, const QColor& c)
{
    int n = 0;
    for (int y = top; y <= bottom; ++y) {
        const QColor p = img.pixelColor(x, y);
        if (qAbs(p.red() - c.red()) + qAbs(p.green() - c.green()) + qAbs(p.blue() - c.blue()) < 160)
            ++n;
    }
    return n;
}

QPalette darkPalette()
{
    QPalette p;
    p.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    p.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    p.setColor(QPalette::Text, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::WindowText, QColor(0xe0, 0xe0, 0xe0));
    p.setColor(QPalette::ToolTipBase, QColor(0x3a, 0x3a, 0x3a));
    p.setColor(QPalette::ToolTipText, QColor(0xf0, 0xf0, 0xf0));
    return p;
}

} // namespace

class TestTimeChart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void gapIsDrawnAsGap()
    {
        // 10 minutes at 1 Hz with a 3 minute outage in the middle, through SeriesBuffer as the
        // panes do.
        SeriesBuffer b;
        for (int i = 0; i <= 600; ++i)
            b.append(kT0 + i * 1000LL, (i >= 200 && i < 380) ? std::nan("") : 50.0);
        TimeChart chart;
        chart.resize(800, 300);
        const QColor color(0x1f, 0x77, 0xb4);
        chart.addSeries(QStringLiteral("GPU 0"), color);
        chart.setValueRange(0, 100);
        chart.setTimeWindow(kT0, kT0 + 600000);
        chart.setSeriesData(0, b.decimated(kT0, kT0 + 600000, chart.columns()));
        const QImage img = render(chart);
        QVERIFY(img.save(test::screenshotPath(QStringLiteral("timechart-gap"))));
        const QRect plot = chart.plotRect();
        auto xAt = [&](qint64 t) { return plot.left() + int(double(t - kT0) * plot.width() / 600000.0); };
        // The line at 50 % is there before and after the outage, and absent inside it.
        for (int s : { 30, 150, 450, 570 })
            QVERIFY2(pixelsLike(img, xAt(kT0 + s * 1000LL), plot.top(), plot.bottom(), color) > 0,
                qPrintable(QString::number(s)));
        for (int s : { 215, 290, 365 })
            QCOMPARE(pixelsLike(img, xAt(kT0 + s * 1000LL), plot.top(), plot.bottom(), color), 0);
        QCOMPARE(chart.valueRange(), std::make_pair(0.0, 100.0));
    }

    void thresholdAndAutoRange()
    {
        TimeChart chart;
        chart.resize(600, 260);
        chart.addSeries(QStringLiteral("temperature"));
        QList<QPointF> pts;
        for (int i = 0; i < 100; ++i)
            pts.append(QPointF(double(kT0 + i * 1000LL), 41.3 + 30 * std::sin(i / 10.0)));
        chart.setTimeWindow(kT0, kT0 + 99000);
        chart.setSeriesData(0, pts);
        // Nice numbers around 11.3 .. 71.3, from zero since the data is positive.
        auto [lo, hi] = chart.valueRange();
        QVERIFY2(lo <= 11.3 && hi >= 71.3 && hi <= 90, qPrintable(QStringLiteral("%1 .. %2").arg(lo).arg(hi)));
        QCOMPARE(std::fmod(hi, 10.0), 0.0);
        // A danger line above the data widens the range and is drawn.
        const QColor red(0xd6, 0x27, 0x28);
        chart.addThreshold(95, red, QStringLiteral("limit 95 °C"));
        std::tie(lo, hi) = chart.valueRange();
        QVERIFY(hi >= 95);
        const QImage img = render(chart);
        const QRect plot = chart.plotRect();
        const int y = plot.bottom() + 1 - int(std::lround((95 - lo) * plot.height() / (hi - lo)));
        int redPixels = 0;
        for (int x = plot.left(); x < plot.right(); ++x)
            redPixels += pixelsLike(img, x, y - 1, y + 1, red) > 0;
        QVERIFY2(redPixels > plot.width() / 3, qPrintable(QString::number(redPixels))); // dashed
        QCOMPARE(img.pixelColor(2, 2), chart.palette().color(QPalette::Base));
    }

    void followsThePaletteAndHovers()
    {
        TimeChart chart;
        chart.setPalette(darkPalette());
        chart.resize(900, 320);
        chart.setTitle(QStringLiteral("Power"));
        chart.setUnit(QStringLiteral("W"));
        QList<QList<QPointF>> data(4);
        for (int g = 0; g < 4; ++g) {
            chart.addSeries(QStringLiteral("GPU %1").arg(g), TimeChart::paletteColor(g));
            for (int i = 0; i <= 300; ++i)
                data[g].append(QPointF(double(kT0 + i * 1000LL), 120 + g * 110 + 60 * std::sin(i / (15.0 + g))));
        }
        chart.setTimeWindow(kT0, kT0 + 300000);
        for (int g = 0; g < 4; ++g)
            chart.setSeriesData(g, data[g]);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QImage plain = render(chart);
        QCOMPARE(plain.pixelColor(2, 2), QColor(0x1e, 0x1e, 0x1e));
        // Labels use the palette's light text colour somewhere left of the plot.
        const QRect plot = chart.plotRect();
        int light = 0;
        for (int x = 0; x < plot.left(); ++x)
            light += pixelsLike(plain, x, plot.top(), plot.bottom(), QColor(0xc0, 0xc0, 0xc0));
        QVERIFY(light > 10);
        QVERIFY(chart.grab().save(test::screenshotPath(QStringLiteral("timechart-dark"))));
        // Hovering draws a crosshair and a value box; leaving removes them.
        QTest::mouseMove(&chart, plot.center());
        const QImage hovered = render(chart);
        QVERIFY(hovered != plain);
        QVERIFY(chart.grab().save(test::screenshotPath(QStringLiteral("timechart-dark-hover"))));
        QEvent leave(QEvent::Leave);
        QApplication::sendEvent(&chart, &leave);
        QCOMPARE(render(chart), plain);
    }

    // An hour at 1 Hz is denser than the pixel columns: drawn as per-column spans. Every
    // column of a continuous series must be covered (no holes between columns), steps must
    // be joined vertically, and it must still look like lines (grab saved).
    void denseSeriesAreContinuous()
    {
        TimeChart chart;
        chart.resize(1200, 360);
        chart.setTitle(QStringLiteral("SM clock"));
        chart.setUnit(QStringLiteral("MHz"));
        std::vector<SeriesBuffer> buffers(4);
        const qint64 end = kT0 + 3600 * 1000LL;
        for (int g = 0; g < 4; ++g) {
            chart.addSeries(QStringLiteral("GPU %1").arg(g), TimeChart::paletteColor(g));
            for (int i = 0; i <= 3600; ++i) {
                // Idle at 345 MHz, then load with a wobble, in phases per GPU.
                const bool load = ((i + g * 400) / 900) % 2 == 1;
                buffers[size_t(g)].append(
                    kT0 + i * 1000LL, load ? 1500 + 150 * std::sin(i / (40.0 + 10 * g)) + g * 60 : 345 + g * 20);
            }
        }
        chart.setTimeWindow(kT0, end);
        for (int g = 0; g < 4; ++g)
            chart.setSeriesData(g, buffers[size_t(g)].decimated(kT0, end, chart.columns()));
        QVERIFY(chart.pointCount() >= 4 * chart.columns()); // dense
        const QImage img = render(chart);
        QVERIFY(img.save(test::screenshotPath(QStringLiteral("timechart-light-1h"))));
        // A step between two samples in neighbouring columns is joined over its full height.
        TimeChart step;
        step.resize(600, 300);
        step.setValueRange(0, 100);
        step.addSeries(QStringLiteral("step"), TimeChart::paletteColor(3));
        // A little more than one sample per column, so the two samples of the step fall in
        // neighbouring columns, each holding part of the joining segment.
        const int n = step.columns() * 11 / 10;
        QList<QPointF> stepPoints;
        for (int i = 0; i < n; ++i)
            stepPoints.append(QPointF(double(kT0) + double(end - kT0) * i / (n - 1), i < n / 2 ? 20.0 : 80.0));
        step.setTimeWindow(kT0, end);
        step.setSeriesData(0, stepPoints);
        const QImage stepImg = render(step);
        const QRect plot = step.plotRect();
        auto yOf = [&](double v) { return plot.bottom() + 1 - int(std::lround(v * plot.height() / 100.0)); };
        const int stepX = plot.left() + int(double(n / 2) / (n - 1) * plot.width());
        for (int y = yOf(78); y <= yOf(22); ++y) {
            bool covered = false;
            for (int x = stepX - 2; x <= stepX + 2; ++x)
                covered |= pixelsLike(stepImg, x, y, y, TimeChart::paletteColor(3)) > 0;
            QVERIFY2(covered, qPrintable(QStringLiteral("the step is not joined at y %1").arg(y)));
        }
    }

    // The legend picks what is drawn, as in Grafana (#38): a click shows only that series, a
    // click on it again shows all, Ctrl+click shows or hides one. Clicked where the legend is
    // drawn; 8 overlapping GPUs saved before and after for eyes.
    void legendClickIsolatesAndCtrlClickToggles()
    {
        TimeChart chart;
        chart.resize(1024, 640);
        chart.setTitle(QStringLiteral("Utilization"));
        chart.setUnit(QStringLiteral("%"));
        chart.setValueRange(0, 100);
        const qint64 end = kT0 + 3600 * 1000LL;
        std::vector<SeriesBuffer> buffers(8);
        for (int g = 0; g < 8; ++g) {
            chart.addSeries(QStringLiteral("GPU %1").arg(g), TimeChart::paletteColor(g));
            for (int i = 0; i <= 3600; ++i)
                buffers[size_t(g)].append(
                    kT0 + i * 1000LL, 50 + 40 * std::sin(i / (90.0 + 17 * g) + g) + (i * 7 + g) % 9);
        }
        chart.setTimeWindow(kT0, end);
        for (int g = 0; g < 8; ++g)
            chart.setSeriesData(g, buffers[size_t(g)].decimated(kT0, end, chart.columns()));
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        auto shown = [&] {
            QList<int> out;
            for (int g = 0; g < chart.seriesCount(); ++g) {
                if (chart.isSeriesShown(g))
                    out.append(g);
            }
            return out;
        };
        auto entry = [&](int series) {
            const ChartGeometry g = chart.geometry();
            for (const ChartGeometry::LegendItem& item : g.legend()) {
                if (item.series == series)
                    return item.bounds.center();
            }
            return QPoint(-1, -1);
        };
        // Plot columns holding a pixel of a series' very colour (not a blend of others): drawn or not.
        auto columnsOf = [&](const QImage& img, int series) {
            const QRect plot = chart.plotRect();
            const QColor c = TimeChart::paletteColor(series);
            int n = 0;
            for (int x = plot.left() + 2; x < plot.right() - 2; x += 4) {
                bool found = false;
                for (int y = plot.top(); !found && y <= plot.bottom(); ++y) {
                    const QColor p = img.pixelColor(x, y);
                    found = qAbs(p.red() - c.red()) + qAbs(p.green() - c.green()) + qAbs(p.blue() - c.blue()) < 30;
                }
                n += found;
            }
            return n;
        };
        const QList<int> all { 0, 1, 2, 3, 4, 5, 6, 7 };
        QCOMPARE(shown(), all);
        const QImage before = render(chart);
        QVERIFY(before.save(test::screenshotPath(QStringLiteral("timechart-8gpus-all"))));

        QTest::mouseClick(&chart, Qt::LeftButton, Qt::NoModifier, entry(3));
        QCOMPARE(shown(), QList<int>({ 3 }));
        QEvent leave(QEvent::Leave); // no hover crosshair in the pictures
        QApplication::sendEvent(&chart, &leave);
        const QImage isolated = render(chart);
        QVERIFY(isolated.save(test::screenshotPath(QStringLiteral("timechart-8gpus-isolated"))));
        QVERIFY(columnsOf(isolated, 3) > 50);
        QCOMPARE(columnsOf(isolated, 6), 0); // a colour no other line nor the frame is near
        QVERIFY(columnsOf(before, 6) > 50);
        // The hover reads only what is drawn.
        QCOMPARE(chart.readout(chart.plotRect().center().x()).size(), 2);

        // Another entry: isolate that one instead.
        QTest::mouseClick(&chart, Qt::LeftButton, Qt::NoModifier, entry(5));
        QCOMPARE(shown(), QList<int>({ 5 }));
        // Ctrl+click adds one, and takes it away again.
        QTest::mouseClick(&chart, Qt::LeftButton, Qt::ControlModifier, entry(1));
        QCOMPARE(shown(), QList<int>({ 1, 5 }));
        QTest::mouseClick(&chart, Qt::LeftButton, Qt::ControlModifier, entry(1));
        QCOMPARE(shown(), QList<int>({ 5 }));
        // A click on the isolated series shows all again.
        QTest::mouseClick(&chart, Qt::LeftButton, Qt::NoModifier, entry(5));
        QCOMPARE(shown(), all);
        QApplication::sendEvent(&chart, &leave);
        QCOMPARE(render(chart), before);
        // Ctrl+click from all hides just that one; a click elsewhere changes nothing.
        QTest::mouseClick(&chart, Qt::LeftButton, Qt::ControlModifier, entry(2));
        QCOMPARE(shown(), QList<int>({ 0, 1, 3, 4, 5, 6, 7 }));
        QTest::mouseClick(&chart, Qt::LeftButton, Qt::NoModifier, chart.plotRect().center());
        QCOMPARE(shown(), QList<int>({ 0, 1, 3, 4, 5, 6, 7 }));
        // The pane's own choice is kept apart: hiding a series there does not undo the legend's.
        chart.setSeriesVisible(4, false);
        QCOMPARE(shown(), QList<int>({ 0, 1, 3, 5, 6, 7 }));
        chart.setSeriesVisible(4, true);
        QCOMPARE(shown(), QList<int>({ 0, 1, 3, 4, 5, 6, 7 }));
    }

    // Every value in one hover box is read to the same precision (#38: "100.0 %" next to
    // "0.00 %"): the chart's, a thousandth of its range.
    void readoutHasOnePrecision()
    {
        TimeChart chart;
        chart.resize(800, 300);
        chart.setUnit(QStringLiteral("%"));
        chart.setValueRange(0, 100);
        const QList<double> values { 100.0, 0.0, 37.46, 5.0, -0.01 };
        auto flat = [](double v) {
            QList<QPointF> points;
            for (int i = 0; i <= 60; ++i)
                points.append(QPointF(double(kT0 + i * 1000LL), v));
            return points;
        };
        for (int g = 0; g < values.size(); ++g) {
            chart.addSeries(QStringLiteral("GPU %1").arg(g));
            chart.setSeriesData(g, flat(values[g]));
        }
        chart.setTimeWindow(kT0, kT0 + 60000);
        const QStringList lines = chart.readout(chart.plotRect().center().x());
        QCOMPARE(lines.size(), 1 + int(values.size()));
        QCOMPARE(lines.mid(1),
            QStringList({ QStringLiteral("GPU 0: 100.0 %"), QStringLiteral("GPU 1: 0.0 %"),
                QStringLiteral("GPU 2: 37.5 %"), QStringLiteral("GPU 3: 5.0 %"), QStringLiteral("GPU 4: 0.0 %") }));
        // A range of a few units reads to thousandths, the same in every row.
        TimeChart small;
        small.resize(800, 300);
        small.setUnit(QStringLiteral("GB"));
        small.setValueRange(0, 2);
        small.addSeries(QStringLiteral("a"));
        small.addSeries(QStringLiteral("b"));
        small.setSeriesData(0, flat(1.5));
        small.setSeriesData(1, flat(0.25));
        small.setTimeWindow(kT0, kT0 + 60000);
        QCOMPARE(small.readout(small.plotRect().center().x()).mid(1),
            QStringList({ QStringLiteral("a: 1.500 GB"), QStringLiteral("b: 0.250 GB") }));
        // Off the plot there is no readout.
        QVERIFY(chart.readout(1).isEmpty());
    }

    // An empty chart shows 0 .. 1 in halves, whatever its height (#38: "0.3, 0.5, 0.8").
    void emptyChartLabelsZeroToOne()
    {
        for (const int height : { 160, 260, 400, 640 }) {
            TimeChart chart;
            chart.resize(600, height);
            chart.addSeries(QStringLiteral("GPU 0"));
            chart.setTimeWindow(kT0, kT0 + 60000);
            QCOMPARE(chart.valueRange(), std::make_pair(0.0, 1.0));
            const ChartGeometry g = chart.geometry();
            QStringList labels;
            for (const double v : g.valueTicks())
                labels.append(g.valueLabel(v));
            QCOMPARE(labels, QStringList({ QStringLiteral("0.0"), QStringLiteral("0.5"), QStringLiteral("1.0") }));
        }
    }

    // A small chart's empty sentence wraps inside its plot (the Server tab's six charts at
    // 1024x640 cut "No server of this host has sent metrics yet" on both sides).
    void emptyTextStaysInsideThePlot()
    {
        TimeChart chart;
        chart.resize(240, 150);
        chart.addSeries(QStringLiteral("tok/s"));
        chart.setTimeWindow(kT0, kT0 + 60000);
        chart.setEmptyText(QStringLiteral("No server of this host has sent metrics yet: launch one or set the port"));
        const QRect text = chart.emptyTextRect();
        QVERIFY2(chart.plotRect().contains(text),
            qPrintable(QStringLiteral("%1,%2 %3x%4").arg(text.x()).arg(text.y()).arg(text.width()).arg(text.height())));
        QVERIFY(text.height() > chart.fontMetrics().height()); // wrapped, not cut
        QVERIFY(chart.grab().save(test::screenshotPath(QStringLiteral("timechart-empty-small"))));
        chart.setSeriesData(0, { QPointF(double(kT0), 1.0) });
        QVERIFY(chart.emptyTextRect().isNull());
    }

    void compactSparkline()
    {
        TimeChart chart;
        chart.setCompact(true);
        chart.resize(300, 44);
        chart.setValueRange(0, 100);
        chart.addSeries(QStringLiteral("Utilization"), TimeChart::paletteColor(2));
        QList<QPointF> pts;
        for (int i = 0; i <= 60; ++i)
            pts.append(QPointF(double(kT0 + i * 1000LL), i % 20 * 5));
        chart.setTimeWindow(kT0, kT0 + 60000);
        chart.setSeriesData(0, pts);
        QCOMPARE(chart.pointCount(), 61);
        // The plot is the whole widget: as many columns as pixels, minus a border.
        QVERIFY(chart.columns() >= 296);
        const QImage img = render(chart);
        QVERIFY(img.save(test::screenshotPath(QStringLiteral("timechart-compact"))));
        int drawn = 0;
        for (int x = 0; x < 300; x += 10)
            drawn += pixelsLike(img, x, 0, 43, TimeChart::paletteColor(2)) > 0;
        QVERIFY(drawn >= 25);
    }
};

QTEST_MAIN(TestTimeChart)
#include "tst_timechart.moc"
