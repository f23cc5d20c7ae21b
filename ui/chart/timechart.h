// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/timeseries/seriescsv.h"
#include "ui/chart/chartgeometry.h"

#include <QColor>
#include <QList>
#include <QPointF>
#include <QWidget>

#include <functional>
#include <memory>

namespace kf {

// THE chart widget: every time plot in KernelForge goes through it, so the drawing engine
// can change behind this header without touching a pane. It draws with QPainter itself
// (Qt Charts is deprecated from Qt 6.10, and its QLineSeries::replace() plus the graphics
// scene cost ~30 ms for 8 x 24 h; a direct polyline costs a few).
// It takes series that are ALREADY decimated (SeriesBuffer::decimated(): about two points
// per pixel column, x = ms since the epoch); columns() says how many columns to ask for.
// A point with a NaN y is a gap: the line stops before it and starts again after it.
// Colours come from the widget's palette (light and dark themes), series colours from
// paletteColor(). Hovering shows a crosshair with every visible series' value at that time,
// all read to one precision (ChartGeometry::readoutLabel).
// The legend picks what is drawn, as in Grafana: a click shows only that series (click it again:
// all of them), Ctrl+click (Cmd+click on macOS) shows or hides just that one. That choice is the
// reader's, kept apart from the pane's setSeriesVisible(): a series is drawn when both allow it.
// Compact mode is a sparkline: no axes, legend, title, hover or margins.
// Its context menu exports the chart (ui/chart/chartexport.h): the CSV of its series' whole
// history (history()) and a PNG of it as drawn.
class TimeChart : public QWidget
{
    Q_OBJECT
public:
    explicit TimeChart(QWidget* parent = nullptr);
    ~TimeChart() override;

    void setTitle(const QString& title);
    void setUnit(const QString& unit);
    void setCompact(bool compact);
    // Fixed y range (e.g. 0..100 %); without it the axis follows the data (nice numbers).
    void setValueRange(double min, double max);
    void setAutoRange();

    // An empty name has no legend entry (the title names a chart's only series).
    int addSeries(const QString& name, const QColor& color = {});
    int seriesCount() const;
    void clearSeries();
    void setSeriesVisible(int series, bool visible);
    // Drawn now: visible for the pane and not hidden from the legend.
    bool isSeriesShown(int series) const;
    void setSeriesData(int series, const QList<QPointF>& points);
    void setTimeWindow(qint64 fromMs, qint64 toMs);
    // A horizontal line across the plot (a limit, a danger level), labelled at its right end.
    // The automatic y range includes it.
    void addThreshold(double value, const QColor& color, const QString& label = {});
    void clearThresholds();
    // A fixed left edge of the plot (px from the widget's left; 0: room for the widest y label),
    // so charts stacked on one time axis line up with each other and with what is drawn above.
    void setPlotLeft(int px);
    // What an empty plot says (default "No data yet").
    void setEmptyText(const QString& text);
    // Plot area width in pixels: the column count to decimate to.
    int columns() const;
    // Points currently held by all series, gap markers included (for tests and the benchmark).
    qsizetype pointCount() const;
    // The y range the axis shows now (after nice-number rounding), for tests.
    std::pair<double, double> valueRange() const;
    // Where the plot is drawn inside the widget (for tests).
    QRect plotRect() const;
    // Where the sentence of a chart without data goes (wrapped inside the plot); null with data.
    QRect emptyTextRect() const;
    // Where everything goes at the chart's size, font and data now: what paintEvent draws by,
    // and what the hover readout maps the mouse with.
    ChartGeometry geometry() const;

    // The whole history of the chart's series, for CSV export. Panes that hold more than they
    // show (a SeriesBuffer behind a decimated window) set a source; without one the chart's
    // own points are the history (every point it was given, gaps as NaN).
    using HistorySource = std::function<QList<CsvSeries>()>;
    void setHistorySource(HistorySource source);
    QList<CsvSeries> history() const;
    QString title() const;
    QString unit() const;
    QString seriesName(int series) const;
    // The points a series was last given (what is drawn), for tests.
    QList<QPointF> seriesData(int series) const;
    // What the hover box says with the mouse at widget column x: the time, then one line per
    // drawn series; empty off the plot (what paintEvent draws, for tests).
    QStringList readout(int x) const;

    static QColor paletteColor(int i);

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;
    void changeEvent(QEvent* event) override;

private:
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace kf
