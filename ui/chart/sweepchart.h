// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QColor>
#include <QList>
#include <QString>
#include <QWidget>

namespace kf {

// A serving benchmark's sweep: throughput (y) against latency (x), one point per concurrency
// level joined in concurrency order and labelled with it, one curve per run (two when runs
// are compared). Drawn with QPainter in TimeChart's style (palette colours, the same value
// ticks, hover box); the curve that bends right is where more concurrency buys latency, not
// throughput. A level without a value (NaN: no successful request) is left out, never drawn at 0.
class SweepChart : public QWidget
{
    Q_OBJECT
public:
    struct Point
    {
        int concurrency = 0;
        double latencyMs = 0;
        double throughput = 0;
        bool estimated = false; // token counts estimated: drawn hollow
    };
    struct Curve
    {
        QString name; // legend; empty: no legend entry
        QColor color;
        QList<Point> points;
    };

    explicit SweepChart(QWidget* parent = nullptr);

    void setAxes(const QString& latencyLabel, const QString& throughputLabel);
    void setCurves(const QList<Curve>& curves);
    const QList<Curve>& curves() const { return m_curves; }
    // Points drawn (finite ones), for tests.
    int pointCount() const;
    void setEmptyText(const QString& text);
    QSize sizeHint() const override { return { 560, 300 }; }
    QSize minimumSizeHint() const override { return { 280, 180 }; }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    struct Ranges
    {
        double xHi = 1, xStep = 0.2, yHi = 1, yStep = 0.2;
    };
    Ranges ranges(int plotW, int plotH) const;
    QRect plotRect(const Ranges& r) const;

    QList<Curve> m_curves;
    QString m_xLabel;
    QString m_yLabel;
    QString m_emptyText;
    QPoint m_hover { -1, -1 };
};

} // namespace kf
