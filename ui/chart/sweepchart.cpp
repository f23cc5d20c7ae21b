// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/chart/sweepchart.h"

#include "ui/chart/axisticks.h"

#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <optional>

namespace kf {

namespace {

constexpr int kPad = 6;
constexpr int kDot = 4;         // point radius
constexpr int kHoverReach = 12; // px around a point that show its values

bool finite(const SweepChart::Point& p)
{
    return std::isfinite(p.latencyMs) && std::isfinite(p.throughput);
}

// Upper end of a value axis from 0: the data's maximum plus a little room, in whole steps.
std::pair<double, double> axisFromZero(double max, int ticks)
{
    if (!(max > 0))
        max = 1;
    const double step = chart::niceStep(max * 1.08 / ticks);
    return { std::ceil(max * 1.08 / step - 1e-9) * step, step };
}

} // namespace

SweepChart::SweepChart(QWidget* parent)
    : QWidget(parent)
{
    setMouseTracking(true);
    setMinimumHeight(180);
}

void SweepChart::setAxes(const QString& latencyLabel, const QString& throughputLabel)
{
    m_xLabel = latencyLabel;
    m_yLabel = throughputLabel;
    update();
}

void SweepChart::setCurves(const QList<Curve>& curves)
{
    m_curves = curves;
    update();
}

int SweepChart::pointCount() const
{
    int n = 0;
    for (const Curve& c : m_curves)
        for (const Point& p : c.points)
            n += finite(p) ? 1 : 0;
    return n;
}

void SweepChart::setEmptyText(const QString& text)
{
    m_emptyText = text;
    update();
}

SweepChart::Ranges SweepChart::ranges(int plotW, int plotH) const
{
    double xMax = 0, yMax = 0;
    for (const Curve& c : m_curves)
        for (const Point& p : c.points)
            if (finite(p)) {
                xMax = std::max(xMax, p.latencyMs);
                yMax = std::max(yMax, p.throughput);
            }
    const int lineH = fontMetrics().height();
    Ranges r;
    std::tie(r.xHi, r.xStep) = axisFromZero(xMax, qBound(2, plotW / qMax(1, lineH * 5), 10));
    std::tie(r.yHi, r.yStep) = axisFromZero(yMax, qBound(2, plotH / qMax(1, lineH * 2), 8));
    return r;
}

QRect SweepChart::plotRect(const Ranges& r) const
{
    const QFontMetrics fm = fontMetrics();
    const int lineH = fm.height();
    const int decimals = chart::decimalsFor(r.yStep);
    const int labelW = fm.horizontalAdvance(chart::valueLabel(r.yHi, decimals));
    const int left = kPad + lineH + 4 + labelW + 6; // the rotated axis title, then the tick labels
    const bool legend = m_curves.size() > 1;
    const int top = kPad + (legend ? lineH + kPad : 0);
    const int bottom = height() - kPad - 2 * lineH - 4; // tick labels and the axis title
    const int right = width() - kPad - fm.horizontalAdvance(QStringLiteral("0000")) / 2;
    return QRect(QPoint(left, top), QPoint(qMax(left + 10, right), qMax(top + 10, bottom)));
}

void SweepChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette pal = palette();
    const QColor text = pal.color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(38);
    QColor faint = text;
    faint.setAlpha(170);
    const QFontMetrics fm = fontMetrics();
    p.fillRect(rect(), pal.color(QPalette::Base));
    // The ranges follow the plot's size, which follows the widest label: one refinement suffices.
    Ranges r = ranges(width() - 80, height() - 60);
    QRect plot = plotRect(r);
    r = ranges(plot.width(), plot.height());
    plot = plotRect(r);
    auto toX = [&](double v) { return plot.left() + v / r.xHi * plot.width(); };
    auto toY = [&](double v) { return plot.bottom() + 1 - v / r.yHi * plot.height(); };

    // Grid, tick labels, axis titles.
    const int yDecimals = chart::decimalsFor(r.yStep);
    for (int i = 0; i * r.yStep <= r.yHi + r.yStep * 1e-6; ++i) {
        const double v = i * r.yStep;
        const int y = int(std::lround(toY(v)));
        p.setPen(grid);
        p.drawLine(plot.left(), y, plot.right(), y);
        p.setPen(faint);
        p.drawText(QRect(0, y - fm.height() / 2, plot.left() - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
            chart::valueLabel(v, yDecimals));
    }
    const int xDecimals = chart::decimalsFor(r.xStep);
    const int xLabelW = fm.horizontalAdvance(chart::valueLabel(r.xHi, xDecimals)) + 8;
    for (int i = 0; i * r.xStep <= r.xHi + r.xStep * 1e-6; ++i) {
        const double v = i * r.xStep;
        const int x = int(std::lround(toX(v)));
        p.setPen(grid);
        p.drawLine(x, plot.top(), x, plot.bottom());
        p.setPen(faint);
        p.drawText(QRect(x - xLabelW, plot.bottom() + 3, 2 * xLabelW, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
            chart::valueLabel(v, xDecimals));
    }
    p.setPen(grid);
    p.drawRect(plot);
    p.setPen(text);
    p.drawText(
        QRect(plot.left(), plot.bottom() + fm.height() + 5, plot.width(), fm.height()), Qt::AlignHCenter, m_xLabel);
    p.save();
    p.translate(kPad, plot.center().y());
    p.rotate(-90);
    p.drawText(QRect(-plot.height() / 2, 0, plot.height(), fm.height()), Qt::AlignHCenter, m_yLabel);
    p.restore();

    if (pointCount() == 0) {
        p.setPen(faint);
        p.drawText(plot, Qt::AlignCenter, m_emptyText.isEmpty() ? tr("No levels measured yet") : m_emptyText);
    }

    // Curves: a line through the levels in concurrency order, a dot per level, its concurrency beside it.
    p.setRenderHint(QPainter::Antialiasing, true);
    struct Hit
    {
        const Curve* curve;
        const Point* point;
        QPointF at;
    };
    std::optional<Hit> hover;
    double hoverDistance = kHoverReach;
    for (const Curve& c : std::as_const(m_curves)) {
        QList<const Point*> points;
        for (const Point& pt : c.points)
            if (finite(pt))
                points.append(&pt);
        std::sort(points.begin(), points.end(),
            [](const Point* a, const Point* b) { return a->concurrency < b->concurrency; });
        QPolygonF line;
        for (const Point* pt : std::as_const(points))
            line << QPointF(toX(pt->latencyMs), toY(pt->throughput));
        p.setPen(QPen(c.color, 1.8, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.setBrush(Qt::NoBrush);
        if (line.size() > 1)
            p.drawPolyline(line);
        for (int i = 0; i < points.size(); ++i) {
            const QPointF at = line.at(i);
            p.setPen(QPen(c.color, 1.8));
            p.setBrush(points[i]->estimated ? pal.color(QPalette::Base) : c.color);
            p.drawEllipse(at, kDot, kDot);
            p.setPen(faint);
            const QString label = QStringLiteral("c=%1").arg(points[i]->concurrency);
            const int w = fm.horizontalAdvance(label);
            // Beside the dot, inside the plot.
            const qreal lx = at.x() + kDot + 3 + w > plot.right() ? at.x() - kDot - 3 - w : at.x() + kDot + 3;
            const qreal ly = at.y() - kDot - 2 < plot.top() + fm.ascent() ? at.y() + fm.ascent() + kDot : at.y() - kDot;
            p.drawText(QPointF(lx, ly), label);
            const double d = std::hypot(at.x() - m_hover.x(), at.y() - m_hover.y());
            if (d < hoverDistance) {
                hoverDistance = d;
                hover = Hit { &c, points[i], at };
            }
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);

    // Legend above the plot when there is more than one run.
    if (m_curves.size() > 1) {
        int x = plot.left();
        for (const Curve& c : std::as_const(m_curves)) {
            if (c.name.isEmpty())
                continue;
            const int cy = kPad + fm.height() / 2;
            p.setPen(QPen(c.color, 3));
            p.drawLine(x, cy, x + 14, cy);
            p.setPen(text);
            const int w = fm.horizontalAdvance(c.name);
            p.drawText(QRect(x + 18, kPad, w + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, c.name);
            x += 18 + w + 16;
        }
    }

    // Hover: the level's numbers in a box next to it.
    if (hover) {
        const QStringList lines {
            (hover->curve->name.isEmpty() ? QString() : hover->curve->name + QStringLiteral(" · "))
                + tr("concurrency %1").arg(hover->point->concurrency),
            QStringLiteral("%1: %2").arg(m_yLabel, QString::number(hover->point->throughput, 'f', 1))
                + (hover->point->estimated ? tr(" (estimated tokens)") : QString()),
            QStringLiteral("%1: %2").arg(m_xLabel, QString::number(hover->point->latencyMs, 'f', 1)),
        };
        int boxW = 0;
        for (const QString& l : lines)
            boxW = qMax(boxW, fm.horizontalAdvance(l));
        boxW += 2 * kPad;
        const int boxH = int(lines.size()) * fm.height() + 2 * kPad - 2;
        int bx = int(hover->at.x()) + 12;
        if (bx + boxW > plot.right())
            bx = int(hover->at.x()) - 12 - boxW;
        int by = int(hover->at.y()) + 8;
        if (by + boxH > plot.bottom())
            by = int(hover->at.y()) - 8 - boxH;
        const QRect box(qMax(0, bx), qMax(0, by), boxW, boxH);
        QColor boxBg = pal.color(QPalette::ToolTipBase);
        boxBg.setAlpha(235);
        p.setPen(grid);
        p.setBrush(boxBg);
        p.drawRect(box);
        p.setPen(pal.color(QPalette::ToolTipText));
        int y = box.top() + kPad - 1;
        for (const QString& l : lines) {
            p.drawText(QRect(box.left() + kPad, y, boxW, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, l);
            y += fm.height();
        }
    }
}

void SweepChart::mouseMoveEvent(QMouseEvent* event)
{
    m_hover = event->position().toPoint();
    update();
    QWidget::mouseMoveEvent(event);
}

void SweepChart::leaveEvent(QEvent* event)
{
    m_hover = QPoint(-1, -1);
    update();
    QWidget::leaveEvent(event);
}

} // namespace kf
