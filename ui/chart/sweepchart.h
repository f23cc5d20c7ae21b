// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QColor>
#include <QList>
#include <QRectF>
#include <QString>
#include <QWidget>

namespace kf {

// A serving benchmark's sweep as a Pareto chart: throughput (y, e.g. output tok/s per GPU)
// against per-user throughput or a latency (x), one point per level joined in level order and
// labelled with it, one curve per run (two when runs are compared). Per curve, the goodput
// frontier: a dashed line through the levels that met the goodput target and that no other
// such level beats on both axes (core/servebench/pareto.h). A level that missed the target is
// drawn grey inside, one with estimated token counts hollow, a saturated one ringed.
// Labels go beside their dots where they collide with no other label or dot (8 places are
// tried, else the label is left to the hover box). Drawn with QPainter in TimeChart's style
// (palette colours, the same value ticks, hover box). A level without a value (NaN) is left
// out, never drawn at 0.
class SweepChart : public QWidget
{
    Q_OBJECT
public:
    struct Point
    {
        QString label; // "c=8", "4 req/s"
        double x = 0;
        double y = 0;
        bool estimated = false;  // token counts estimated: drawn hollow
        bool meetsTarget = true; // goodput target met (or none set)
        bool saturated = false;
    };
    struct Curve
    {
        QString name; // legend; empty: no legend entry
        QColor color;
        QList<Point> points; // in level order
    };

    explicit SweepChart(QWidget* parent = nullptr);

    // xHigherIsBetter: per-user tok/s (true) or a latency (false), for the frontier.
    void setAxes(const QString& xLabel, const QString& yLabel, bool xHigherIsBetter);
    void setCurves(const QList<Curve>& curves);
    const QList<Curve>& curves() const { return m_curves; }
    // Points drawn (finite ones), for tests.
    int pointCount() const;
    // The frontier of curve i: indices into its points, along x.
    QList<int> frontier(int curve) const;
    // Where the last paint put each label it drew (tests: none overlaps another).
    const QList<QRectF>& labelRects() const { return m_labelRects; }
    int hiddenLabels() const { return m_hiddenLabels; }
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
    bool m_xHigherIsBetter = false;
    QString m_emptyText;
    QPoint m_hover { -1, -1 };
    QList<QRectF> m_labelRects;
    int m_hiddenLabels = 0;
};

} // namespace kf
