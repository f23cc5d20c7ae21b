// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/chart/sweepchart.h"

#include "core/servebench/pareto.h"
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
    return std::isfinite(p.x) && std::isfinite(p.y);
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

void SweepChart::setAxes(const QString& xLabel, const QString& yLabel, bool xHigherIsBetter)
{
    m_xLabel = xLabel;
    m_yLabel = yLabel;
    m_xHigherIsBetter = xHigherIsBetter;
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

QList<int> SweepChart::frontier(int curve) const
{
    if (curve < 0 || curve >= m_curves.size())
        return {};
    const QList<Point>& points = m_curves.at(curve).points;
    QList<std::pair<double, double>> xy;
    QList<int> index;
    for (int i = 0; i < points.size(); ++i) {
        if (!points[i].meetsTarget || !finite(points[i]))
            continue;
        xy.append({ points[i].x, points[i].y });
        index.append(i);
    }
    QList<int> out;
    for (int k : paretoFrontier(xy, m_xHigherIsBetter))
        out.append(index.at(k));
    return out;
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
                xMax = std::max(xMax, p.x);
                yMax = std::max(yMax, p.y);
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
    const int left = kPad + lineH + 4 + labelW + 6;     // the rotated axis title, then the tick labels
    const int top = kPad + lineH + kPad;                // the legend: the runs' names and the frontier's key
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
    // Rotated along the plot's height, and cut to it (whole in the hover box).
    p.drawText(QRect(-plot.height() / 2, 0, plot.height(), fm.height()), Qt::AlignHCenter,
        fm.elidedText(m_yLabel, Qt::ElideRight, plot.height()));
    p.restore();

    if (pointCount() == 0) {
        p.setPen(faint);
        p.drawText(plot.adjusted(6, 2, -6, -2), Qt::AlignCenter | Qt::TextWordWrap,
            m_emptyText.isEmpty() ? tr("No levels measured yet") : m_emptyText);
    }

    // Curves: a line through the levels in level order, a dot per level; the frontier dashed.
    p.setRenderHint(QPainter::Antialiasing, true);
    struct Hit
    {
        const Curve* curve;
        const Point* point;
        QPointF at;
    };
    std::optional<Hit> hover;
    double hoverDistance = kHoverReach;
    QList<QRectF> occupied; // every dot, then every label placed
    QList<std::pair<const Point*, QPointF>> dots;
    for (int ci = 0; ci < m_curves.size(); ++ci) {
        const Curve& c = m_curves.at(ci);
        QPolygonF line;
        for (const Point& pt : c.points) {
            if (!finite(pt))
                continue;
            const QPointF at(toX(pt.x), toY(pt.y));
            line << at;
            dots.append({ &pt, at });
            occupied.append(QRectF(at.x() - kDot - 1, at.y() - kDot - 1, 2 * kDot + 2, 2 * kDot + 2));
        }
        p.setPen(QPen(c.color, 1.4, Qt::SolidLine, Qt::RoundCap, Qt::RoundJoin));
        p.setBrush(Qt::NoBrush);
        if (line.size() > 1)
            p.drawPolyline(line);
        QPolygonF front;
        for (int i : frontier(ci))
            front << QPointF(toX(c.points[i].x), toY(c.points[i].y));
        if (front.size() > 1) {
            p.setPen(QPen(c.color.darker(130), 2.6, Qt::DashLine, Qt::RoundCap, Qt::RoundJoin));
            p.drawPolyline(front);
        }
        for (const Point& pt : c.points) {
            if (!finite(pt))
                continue;
            const QPointF at(toX(pt.x), toY(pt.y));
            if (pt.saturated) {
                p.setPen(QPen(QColor(0xd6, 0x27, 0x28), 1.6));
                p.setBrush(Qt::NoBrush);
                p.drawEllipse(at, kDot + 3, kDot + 3);
            }
            p.setPen(QPen(c.color, 1.8));
            p.setBrush(pt.estimated ? pal.color(QPalette::Base) : pt.meetsTarget ? c.color : faint);
            p.drawEllipse(at, kDot, kDot);
            const double d = std::hypot(at.x() - m_hover.x(), at.y() - m_hover.y());
            if (d < hoverDistance) {
                hoverDistance = d;
                hover = Hit { &c, &pt, at };
            }
        }
    }
    // Labels where they collide with nothing: right, left, above, below, then the corners.
    m_labelRects.clear();
    m_hiddenLabels = 0;
    p.setPen(faint);
    for (const auto& [pt, at] : std::as_const(dots)) {
        const QSizeF size(fm.horizontalAdvance(pt->label) + 2, fm.height());
        const qreal gap = kDot + 3;
        const QPointF tries[] = {
            { at.x() + gap, at.y() - size.height() / 2 },
            { at.x() - gap - size.width(), at.y() - size.height() / 2 },
            { at.x() - size.width() / 2, at.y() - gap - size.height() },
            { at.x() - size.width() / 2, at.y() + gap },
            { at.x() + gap, at.y() - gap - size.height() },
            { at.x() + gap, at.y() + gap },
            { at.x() - gap - size.width(), at.y() - gap - size.height() },
            { at.x() - gap - size.width(), at.y() + gap },
        };
        bool placed = false;
        for (const QPointF& topLeft : tries) {
            const QRectF r(topLeft, size);
            if (!QRectF(plot).contains(r)
                || std::any_of(occupied.cbegin(), occupied.cend(), [&r](const QRectF& o) { return o.intersects(r); }))
                continue;
            p.drawText(r, Qt::AlignLeft | Qt::AlignVCenter, pt->label);
            occupied.append(r);
            m_labelRects.append(r);
            placed = true;
            break;
        }
        m_hiddenLabels += placed ? 0 : 1;
    }
    p.setRenderHint(QPainter::Antialiasing, false);

    // Legend above the plot: the runs (when more than one) and the frontier's key.
    int legendX = plot.left();
    const int legendY = kPad + fm.height() / 2;
    for (const Curve& c : std::as_const(m_curves)) {
        if (c.name.isEmpty() || m_curves.size() < 2)
            continue;
        p.setPen(QPen(c.color, 3));
        p.drawLine(legendX, legendY, legendX + 14, legendY);
        p.setPen(text);
        const int w = fm.horizontalAdvance(c.name);
        p.drawText(QRect(legendX + 18, kPad, w + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, c.name);
        legendX += 18 + w + 16;
    }
    if (pointCount() > 0) {
        const QString key = tr("goodput frontier");
        p.setPen(QPen(faint, 2.6, Qt::DashLine));
        p.drawLine(legendX, legendY, legendX + 20, legendY);
        p.setPen(faint);
        p.drawText(QRect(legendX + 24, kPad, fm.horizontalAdvance(key) + 2, fm.height()),
            Qt::AlignLeft | Qt::AlignVCenter, key);
    }

    // Hover: the level's numbers in a box next to it.
    if (hover) {
        QStringList lines {
            (hover->curve->name.isEmpty() ? QString() : hover->curve->name + QStringLiteral(" · "))
                + hover->point->label,
            QStringLiteral("%1: %2").arg(m_yLabel, QString::number(hover->point->y, 'f', 1))
                + (hover->point->estimated ? tr(" (estimated tokens)") : QString()),
            QStringLiteral("%1: %2").arg(m_xLabel, QString::number(hover->point->x, 'f', 1)),
        };
        if (!hover->point->meetsTarget)
            lines << tr("missed the goodput target");
        if (hover->point->saturated)
            lines << tr("saturated");
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
