// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QColor>
#include <QList>
#include <QPointF>
#include <QWidget>

#include <memory>

namespace kf {

// THE chart widget: every plot in KernelForge goes through it. Qt Charts sits behind it
// (deprecated from Qt 6.10), so swapping the engine touches this folder only.
// It takes series that are ALREADY decimated (SeriesBuffer::decimated(): about two points
// per pixel column, x = ms since the epoch); columns() says how many columns to ask for.
// Compact mode is a sparkline: no axes, legend, title or margins.
class TimeChart : public QWidget
{
    Q_OBJECT
public:
    explicit TimeChart(QWidget* parent = nullptr);
    ~TimeChart() override;

    void setTitle(const QString& title);
    void setUnit(const QString& unit);
    void setCompact(bool compact);
    // Fixed y range (e.g. 0..100 %); without it the axis follows the data.
    void setValueRange(double min, double max);
    void setAutoRange();

    int addSeries(const QString& name, const QColor& color = {});
    int seriesCount() const;
    void clearSeries();
    void setSeriesVisible(int series, bool visible);
    void setSeriesData(int series, const QList<QPointF>& points);
    void setTimeWindow(qint64 fromMs, qint64 toMs);
    // Plot area width in pixels: the column count to decimate to.
    int columns() const;
    // Points currently held by all series (for tests and the benchmark).
    qsizetype pointCount() const;

    static QColor paletteColor(int i);

private:
    void applyRange();
    struct Private;
    std::unique_ptr<Private> d;
};

} // namespace kf
