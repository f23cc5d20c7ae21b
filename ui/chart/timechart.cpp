// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/chart/timechart.h"

#include "ui/chart/axisticks.h"

#include <QDateTime>
#include <QEvent>
#include <QImage>
#include <QMouseEvent>
#include <QPainter>
#include <QPainterPath>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

namespace kf {

namespace {

using chart::decimalsFor;
using chart::niceStep;
using chart::valueLabel;

constexpr int kPad = 6;

// Time steps a reader can count in: seconds, minutes and hours that divide the next unit.
qint64 niceTimeStep(qint64 raw)
{
    static const qint64 steps[] = { 1000, 2000, 5000, 10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000,
        1800000, 3600000, 7200000, 10800000, 21600000, 43200000, 86400000, 172800000, 604800000 };
    for (qint64 s : steps) {
        if (s >= raw)
            return s;
    }
    return steps[std::size(steps) - 1];
}

// Draws one dense series into `layer` (plot-sized, premultiplied ARGB): in every pixel column
// the vertical span its points cover there, joined to the neighbouring columns (linearly
// across columns without points), widened to the line width and anti-aliased at both ends
// by pixel coverage. A NaN point is a gap: nothing joins across it.
void drawDenseSeries(QImage& layer, const QList<QPointF>& points, const QColor& color, double from, double sx,
    double lo, double sy, double lineWidth)
{
    const int w = layer.width();
    const int h = layer.height();
    const double half = lineWidth / 2;
    const QRgb rgb = color.rgb();
    const uint cr = uint(qRed(rgb)), cg = uint(qGreen(rgb)), cb = uint(qBlue(rgb));
    const QRgb solid = 0xff000000u | (cr << 16) | (cg << 8) | cb;
    // Raw pixel access: scanLine() per pixel costs more than the blend (it checks for detach).
    uchar* bits = layer.bits();
    const qsizetype stride = layer.bytesPerLine();
    auto blend = [&](QRgb* px, double cover) {
        const uint c = uint(cover * 256);
        const uint inv = 256 - c;
        const QRgb dst = *px;
        *px = qRgba(int((cr * c + uint(qRed(dst)) * inv) >> 8), int((cg * c + uint(qGreen(dst)) * inv) >> 8),
            int((cb * c + uint(qBlue(dst)) * inv) >> 8), int((255 * c + uint(qAlpha(dst)) * inv) >> 8));
    };
    auto span = [&](int x, double top, double bottom) {
        if (x < 0 || x >= w)
            return;
        const double a = std::max(0.0, top - half);
        const double b = std::min(double(h), bottom + half);
        if (b <= a)
            return;
        const int ya = int(a);
        const int yb = std::min(h - 1, int(std::ceil(b)) - 1);
        uchar* column = bits + qsizetype(x) * 4;
        if (ya == yb) {
            blend(reinterpret_cast<QRgb*>(column + ya * stride), b - a);
            return;
        }
        // Partial first and last pixel, solid between.
        blend(reinterpret_cast<QRgb*>(column + ya * stride), double(ya + 1) - a);
        for (int y = ya + 1; y < yb; ++y)
            *reinterpret_cast<QRgb*>(column + y * stride) = solid;
        blend(reinterpret_cast<QRgb*>(column + yb * stride), b - double(yb));
    };
    const double bottomY = double(h);
    auto toY = [&](double v) { return bottomY - (v - lo) * sy; };
    int column = std::numeric_limits<int>::min();
    double top = 0, bottom = 0;
    bool open = false;   // a column collects points
    bool joined = false; // the previous point is there to join to
    double prevX = 0, prevY = 0;
    auto flushColumn = [&] {
        if (open)
            span(column, top, bottom);
        open = false;
    };
    for (const QPointF& pt : points) {
        if (std::isnan(pt.y())) {
            flushColumn();
            joined = false;
            continue;
        }
        const double x = (pt.x() - from) * sx;
        const double y = toY(pt.y());
        const int c = int(std::floor(x));
        if (open && c == column) {
            top = std::min(top, y);
            bottom = std::max(bottom, y);
        } else {
            double entry = y;
            if (joined) {
                // The joining segment: its part in the previous point's column (which is still
                // open), in the columns between, and in this one.
                const int pc = int(std::floor(prevX));
                const double slope = x > prevX ? (y - prevY) / (x - prevX) : 0;
                auto at = [&](double cx) { return prevY + slope * (cx - prevX); };
                if (open) {
                    const double exit = at(double(pc + 1));
                    top = std::min(top, exit);
                    bottom = std::max(bottom, exit);
                }
                for (int k = pc + 1; k < c; ++k) {
                    const double y0 = at(double(k));
                    const double y1 = at(double(k + 1));
                    span(k, std::min(y0, y1), std::max(y0, y1));
                }
                entry = c > pc ? at(double(c)) : prevY;
            }
            flushColumn();
            top = std::min(y, entry);
            bottom = std::max(y, entry);
            column = c;
            open = true;
        }
        joined = true;
        prevX = x;
        prevY = y;
    }
    flushColumn();
}

} // namespace

struct TimeChart::Private
{
    struct Series
    {
        QString name;
        QColor color;
        bool visible = true;
        QList<QPointF> points;
    };
    struct Threshold
    {
        double value = 0;
        QColor color;
        QString label;
    };
    QList<Series> series;
    QList<Threshold> thresholds;
    QString title;
    QString unit;
    bool compact = false;
    bool fixedRange = false;
    double min = 0;
    double max = 1;
    qint64 from = 0;
    qint64 to = 1;
    int hoverX = -1;
    int plotLeft = 0; // 0: from the widest y label
    QString emptyText;

    // Derived, recomputed lazily: the shown y range and its tick step.
    mutable bool rangeDirty = true;
    mutable double lo = 0;
    mutable double hi = 1;
    mutable double step = 0.2;
    mutable int rangeForHeight = -1;
    // Reused between paints: one series' points in pixels, the layer of dense series.
    std::vector<QPointF> scratch;
    QImage layer;

    // Brings the shown y range up to date for a plot of that height (ticks follow height).
    void ensureRange(int plotHeight, int lineHeight) const;
};

TimeChart::TimeChart(QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Private>())
{
    setMouseTracking(true);
    setAttribute(Qt::WA_OpaquePaintEvent, false);
    setMinimumHeight(60);
}

TimeChart::~TimeChart() = default;

QColor TimeChart::paletteColor(int i)
{
    // Distinguishable on light and dark backgrounds, in GPU index order.
    static const QColor colors[]
        = { QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28),
              QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf) };
    return colors[qAbs(i) % 8];
}

void TimeChart::setTitle(const QString& title)
{
    if (d->title == title)
        return;
    d->title = title;
    update();
}

void TimeChart::setUnit(const QString& unit)
{
    if (d->unit == unit)
        return;
    d->unit = unit;
    update();
}

void TimeChart::setCompact(bool compact)
{
    d->compact = compact;
    d->hoverX = -1;
    d->rangeDirty = true;
    setMinimumHeight(compact ? 24 : 60);
    update();
}

void TimeChart::setValueRange(double min, double max)
{
    d->fixedRange = true;
    d->min = min;
    d->max = max > min ? max : min + 1;
    d->rangeDirty = true;
    update();
}

void TimeChart::setAutoRange()
{
    d->fixedRange = false;
    d->rangeDirty = true;
    update();
}

int TimeChart::addSeries(const QString& name, const QColor& color)
{
    d->series.append({ name, color.isValid() ? color : paletteColor(int(d->series.size())), true, {} });
    d->rangeDirty = true;
    update();
    return int(d->series.size() - 1);
}

int TimeChart::seriesCount() const
{
    return int(d->series.size());
}

void TimeChart::clearSeries()
{
    d->series.clear();
    d->rangeDirty = true;
    update();
}

void TimeChart::setSeriesVisible(int series, bool visible)
{
    if (series < 0 || series >= d->series.size() || d->series[series].visible == visible)
        return;
    d->series[series].visible = visible;
    d->rangeDirty = true;
    update();
}

void TimeChart::setSeriesData(int series, const QList<QPointF>& points)
{
    if (series < 0 || series >= d->series.size())
        return;
    d->series[series].points = points;
    d->rangeDirty = true;
    update();
}

void TimeChart::setTimeWindow(qint64 fromMs, qint64 toMs)
{
    d->from = fromMs;
    d->to = qMax(fromMs + 1, toMs);
    update();
}

void TimeChart::addThreshold(double value, const QColor& color, const QString& label)
{
    d->thresholds.append({ value, color, label });
    d->rangeDirty = true;
    update();
}

void TimeChart::clearThresholds()
{
    d->thresholds.clear();
    d->rangeDirty = true;
    update();
}

qsizetype TimeChart::pointCount() const
{
    qsizetype n = 0;
    for (const auto& s : std::as_const(d->series))
        n += s.points.size();
    return n;
}

namespace {

// Legend items: a short line in the series colour and the name; wrapped into rows.
constexpr int kSwatch = 14;
constexpr int kLegendGap = 14;

int legendRows(const QFontMetrics& fm, const QStringList& names, int width)
{
    if (names.isEmpty())
        return 0;
    int rows = 1;
    int x = 0;
    for (const QString& n : names) {
        const int w = kSwatch + 4 + fm.horizontalAdvance(n);
        if (x > 0 && x + w > width) {
            ++rows;
            x = 0;
        }
        x += w + kLegendGap;
    }
    return rows;
}

} // namespace

void TimeChart::Private::ensureRange(int plotHeight, int lineHeight) const
{
    const Private& d = *this;
    if (!d.rangeDirty && d.rangeForHeight == plotHeight)
        return;
    d.rangeDirty = false;
    d.rangeForHeight = plotHeight;
    const int ticks = qBound(2, plotHeight / qMax(1, lineHeight * 2), 8);
    if (d.fixedRange) {
        d.lo = d.min;
        d.hi = d.max;
        d.step = niceStep((d.hi - d.lo) / ticks);
        return;
    }
    double lo0 = std::numeric_limits<double>::max();
    double hi0 = std::numeric_limits<double>::lowest();
    for (const auto& s : d.series) {
        if (!s.visible)
            continue;
        for (const QPointF& p : s.points) {
            const double y = p.y();
            if (std::isnan(y))
                continue;
            lo0 = std::min(lo0, y);
            hi0 = std::max(hi0, y);
        }
    }
    for (const auto& t : d.thresholds) {
        lo0 = std::min(lo0, t.value);
        hi0 = std::max(hi0, t.value);
    }
    if (lo0 > hi0) {
        lo0 = 0;
        hi0 = 1;
    }
    if (hi0 - lo0 < 1e-9) {
        // A flat line sits in the middle of a unit-sized range, not on the edge.
        const double half = std::max(0.5, std::abs(hi0) * 0.05);
        lo0 -= half;
        hi0 += half;
    }
    const bool nonNegative = lo0 >= 0;
    const double pad = (hi0 - lo0) * 0.05;
    lo0 -= pad;
    hi0 += pad;
    if (nonNegative && lo0 < 0)
        lo0 = 0;
    d.step = niceStep((hi0 - lo0) / ticks);
    d.lo = std::floor(lo0 / d.step + 1e-9) * d.step;
    d.hi = std::ceil(hi0 / d.step - 1e-9) * d.step;
}

std::pair<double, double> TimeChart::valueRange() const
{
    const QRect plot = plotRect();
    d->ensureRange(plot.height(), fontMetrics().height());
    return { d->lo, d->hi };
}

QRect TimeChart::plotRect() const
{
    if (d->compact) {
        const QRect plot = rect().adjusted(1, 2, -1, -2);
        d->ensureRange(plot.height(), fontMetrics().height());
        return plot;
    }
    const QFontMetrics fm = fontMetrics();
    const int lineH = fm.height();
    const int titleH = (d->title.isEmpty() && d->unit.isEmpty()) ? kPad : lineH + kPad + 2;
    QStringList names; // a series without a name has no legend entry
    for (const auto& s : std::as_const(d->series))
        if (!s.name.isEmpty())
            names.append(s.name);
    const int rows = legendRows(fm, names, width() - 2 * kPad);
    const int legendH = rows > 0 ? rows * (lineH + 2) + kPad : 0;
    const int xLabelsH = lineH + kPad;
    const int top = titleH;
    const int bottom = height() - legendH - xLabelsH - kPad / 2;
    const int plotH = qMax(10, bottom - top);
    d->ensureRange(plotH, lineH);
    // The widest y label decides the left margin.
    const int decimals = decimalsFor(d->step);
    int labelW = fm.horizontalAdvance(valueLabel(d->lo, decimals));
    labelW = qMax(labelW, fm.horizontalAdvance(valueLabel(d->hi, decimals)));
    labelW = qMax(labelW, fm.horizontalAdvance(valueLabel(-std::abs(d->step), decimals)) * int(d->lo < 0));
    const int left = d->plotLeft > 0 ? d->plotLeft : kPad + labelW + 6;
    const int right = width() - kPad - fm.horizontalAdvance(QStringLiteral("00:00")) / 2;
    return QRect(QPoint(left, top), QPoint(qMax(left + 10, right), top + plotH));
}

void TimeChart::setPlotLeft(int px)
{
    d->plotLeft = px;
    update();
}

void TimeChart::setEmptyText(const QString& text)
{
    d->emptyText = text;
    update();
}

int TimeChart::columns() const
{
    return qMax(10, plotRect().width());
}

void TimeChart::resizeEvent(QResizeEvent* event)
{
    d->rangeDirty = true;
    QWidget::resizeEvent(event);
}

void TimeChart::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange
        || event->type() == QEvent::StyleChange) {
        d->rangeDirty = true;
        update();
    }
    QWidget::changeEvent(event);
}

void TimeChart::mouseMoveEvent(QMouseEvent* event)
{
    if (!d->compact) {
        d->hoverX = int(event->position().x());
        update();
    }
    QWidget::mouseMoveEvent(event);
}

void TimeChart::leaveEvent(QEvent* event)
{
    d->hoverX = -1;
    update();
    QWidget::leaveEvent(event);
}

void TimeChart::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette pal = palette();
    const QColor base = pal.color(QPalette::Base);
    const QColor text = pal.color(QPalette::Text);
    QColor grid = text;
    grid.setAlpha(38);
    QColor faint = text;
    faint.setAlpha(170);
    const QFontMetrics fm = fontMetrics();
    const QRect plot = plotRect(); // also brings the y range up to date
    const double span = double(d->to - d->from);
    const double sx = plot.width() / span;
    const double sy = plot.height() / (d->hi - d->lo);
    auto toX = [&](double t) { return plot.left() + (t - double(d->from)) * sx; };
    auto toY = [&](double v) { return plot.bottom() + 1 - (v - d->lo) * sy; };

    if (!d->compact) {
        p.fillRect(rect(), base);
        // Title (bold) and unit.
        if (!d->title.isEmpty() || !d->unit.isEmpty()) {
            QFont bold = font();
            bold.setBold(true);
            p.setFont(bold);
            p.setPen(text);
            const QString title = d->title.isEmpty()
                ? d->unit
                : (d->unit.isEmpty() ? d->title : d->title + QStringLiteral(" (") + d->unit + u')');
            p.drawText(
                QRect(kPad, kPad / 2, width() - 2 * kPad, fm.height() + 2), Qt::AlignHCenter | Qt::AlignVCenter, title);
            p.setFont(font());
        }
        // Horizontal grid with y labels.
        const int decimals = decimalsFor(d->step);
        for (int i = 0;; ++i) {
            const double v = d->lo + i * d->step;
            if (v > d->hi + d->step * 1e-6)
                break;
            const int y = int(std::lround(toY(v)));
            p.setPen(grid);
            p.drawLine(plot.left(), y, plot.right(), y);
            p.setPen(faint);
            p.drawText(QRect(0, y - fm.height() / 2, plot.left() - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
                valueLabel(v, decimals));
        }
        // Vertical grid with time labels, aligned to the local clock; before any data there is
        // no time to label (the window is still the 0..1 placeholder), so say so instead.
        const bool empty = std::all_of(
            d->series.cbegin(), d->series.cend(), [](const Private::Series& s) { return s.points.isEmpty(); });
        if (empty) {
            p.setPen(faint);
            p.drawText(plot, Qt::AlignCenter, d->emptyText.isEmpty() ? tr("No data yet") : d->emptyText);
        }
        const bool placeholder = d->from == 0 && d->to == 1;
        const int labelW = fm.horizontalAdvance(QStringLiteral("00:00:00"));
        const qint64 step = niceTimeStep(qint64(span * (labelW + 24) / qMax(1, plot.width())));
        const QString format = step < 60000 ? QStringLiteral("HH:mm:ss")
            : step < 86400000               ? QStringLiteral("HH:mm")
                                            : QStringLiteral("MMM d");
        const qint64 offset = qint64(QDateTime::fromMSecsSinceEpoch(d->from).offsetFromUtc()) * 1000;
        qint64 t = ((d->from + offset + step - 1) / step) * step - offset;
        if (t < d->from)
            t += step;
        for (; !placeholder && t <= d->to; t += step) {
            const int x = int(std::lround(toX(double(t))));
            p.setPen(grid);
            p.drawLine(x, plot.top(), x, plot.bottom());
            p.setPen(faint);
            p.drawText(QRect(x - labelW, plot.bottom() + 3, 2 * labelW, fm.height()), Qt::AlignHCenter | Qt::AlignTop,
                QDateTime::fromMSecsSinceEpoch(t).toString(format));
        }
        p.setPen(grid);
        p.drawRect(plot.adjusted(0, 0, 0, 0));
    }

    // Series. Dense ones (a point per pixel column or more: min/max decimated data) are
    // rasterized here column by column into one layer; sparse ones are anti-aliased
    // polylines. QPainter's stroker needs ~40 ms for 8 dense series of 3,000 points that zig-zag
    // over the plot's height (every segment is stroked as a polygon); spans need ~2 ms.
    const double lineWidth = d->compact ? 1.2 : 1.5;
    bool anyDense = false;
    for (const auto& s : std::as_const(d->series))
        anyDense |= s.visible && s.points.size() >= plot.width();
    if (anyDense) {
        if (d->layer.size() != plot.size())
            d->layer = QImage(plot.size(), QImage::Format_ARGB32_Premultiplied);
        // memset, not QImage::fill(): that hands big fills to a thread pool, whose wake-ups
        // cost more than the fill on a busy machine.
        std::memset(d->layer.bits(), 0, size_t(d->layer.sizeInBytes()));
        for (const auto& s : std::as_const(d->series)) {
            if (s.visible && s.points.size() >= plot.width())
                drawDenseSeries(d->layer, s.points, s.color, double(d->from), sx, d->lo, sy, lineWidth);
        }
        p.drawImage(plot.topLeft(), d->layer);
    }
    p.save();
    p.setClipRect(plot.adjusted(-1, -1, 2, 2));
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const auto& s : std::as_const(d->series)) {
        if (!s.visible || s.points.isEmpty() || s.points.size() >= plot.width())
            continue;
        QPen pen(s.color, lineWidth);
        pen.setJoinStyle(Qt::RoundJoin);
        pen.setCapStyle(Qt::RoundCap);
        p.setPen(pen);
        auto& run = d->scratch;
        run.clear();
        run.reserve(size_t(s.points.size()));
        auto flush = [&] {
            if (run.size() == 1)
                p.drawPoint(run.front());
            else if (run.size() > 1)
                p.drawPolyline(run.data(), int(run.size()));
            run.clear();
        };
        for (const QPointF& pt : s.points) {
            if (std::isnan(pt.y())) {
                flush();
                continue;
            }
            run.emplace_back(toX(pt.x()), toY(pt.y()));
        }
        flush();
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    // Thresholds: dashed, labelled at the right end.
    for (const auto& th : std::as_const(d->thresholds)) {
        const int y = int(std::lround(toY(th.value)));
        QPen pen(th.color, 1, Qt::DashLine);
        p.setPen(pen);
        p.drawLine(plot.left(), y, plot.right(), y);
        if (!d->compact && !th.label.isEmpty()) {
            p.setPen(th.color);
            p.drawText(QRect(plot.left(), y - fm.height() - 1, plot.width() - 4, fm.height()),
                Qt::AlignRight | Qt::AlignBottom, th.label);
        }
    }
    p.restore();

    if (d->compact)
        return;

    // Legend under the time labels.
    {
        QStringList names;
        QList<int> named; // series index of each legend entry
        for (int i = 0; i < d->series.size(); ++i) {
            if (!d->series[i].name.isEmpty()) {
                names.append(d->series[i].name);
                named.append(i);
            }
        }
        const int rows = legendRows(fm, names, width() - 2 * kPad);
        if (rows > 0) {
            // Centre each row: measure it first.
            QList<QList<int>> rowItems(rows);
            QList<int> rowWidth(rows, 0);
            int row = 0, x = 0;
            for (int n = 0; n < names.size(); ++n) {
                const int i = named[n];
                const int w = kSwatch + 4 + fm.horizontalAdvance(names[n]);
                if (x > 0 && x + w > width() - 2 * kPad) {
                    ++row;
                    x = 0;
                }
                rowItems[row].append(i);
                x += w + kLegendGap;
                rowWidth[row] = x - kLegendGap;
            }
            int y = plot.bottom() + fm.height() + kPad + 2;
            for (int r = 0; r < rows; ++r, y += fm.height() + 2) {
                int lx = (width() - rowWidth[r]) / 2;
                for (int i : std::as_const(rowItems[r])) {
                    const auto& s = d->series[i];
                    QColor c = s.color;
                    QColor tc = text;
                    if (!s.visible) {
                        c.setAlpha(60);
                        tc.setAlpha(90);
                    }
                    p.setPen(QPen(c, 3));
                    const int cy = y + fm.height() / 2;
                    p.drawLine(lx, cy, lx + kSwatch, cy);
                    p.setPen(tc);
                    const int w = fm.horizontalAdvance(s.name);
                    p.drawText(
                        QRect(lx + kSwatch + 4, y, w + 2, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, s.name);
                    lx += kSwatch + 4 + w + kLegendGap;
                }
            }
        }
    }

    // Hover: a crosshair and every visible series' value at that time.
    if (d->hoverX >= plot.left() && d->hoverX <= plot.right()) {
        const double t = double(d->from) + (d->hoverX - plot.left()) / sx;
        p.setPen(QPen(faint, 1, Qt::DotLine));
        p.drawLine(d->hoverX, plot.top(), d->hoverX, plot.bottom());
        struct Row
        {
            QColor color;
            QString text;
        };
        QList<Row> rows;
        const double maxDistance = 3 / sx; // three columns: farther is "no data here"
        p.setRenderHint(QPainter::Antialiasing, true);
        for (const auto& s : std::as_const(d->series)) {
            if (!s.visible)
                continue;
            const auto it = std::lower_bound(
                s.points.cbegin(), s.points.cend(), t, [](const QPointF& a, double v) { return a.x() < v; });
            const QPointF* best = nullptr;
            if (it != s.points.cend())
                best = &*it;
            if (it != s.points.cbegin() && (!best || t - std::prev(it)->x() < best->x() - t))
                best = &*std::prev(it);
            QString value = QStringLiteral("–");
            if (best && !std::isnan(best->y()) && std::abs(best->x() - t) <= maxDistance) {
                value = QString::number(best->y(), 'f', std::abs(best->y()) < 10 ? 2 : 1);
                if (!d->unit.isEmpty())
                    value += u' ' + d->unit;
                p.setPen(Qt::NoPen);
                p.setBrush(s.color);
                p.drawEllipse(QPointF(toX(best->x()), toY(best->y())), 3, 3);
            }
            rows.append({ s.color, s.name.isEmpty() ? value : s.name + QStringLiteral(": ") + value });
        }
        p.setRenderHint(QPainter::Antialiasing, false);
        const QString when = QDateTime::fromMSecsSinceEpoch(qint64(t)).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
        int boxW = fm.horizontalAdvance(when);
        for (const auto& r : std::as_const(rows))
            boxW = qMax(boxW, kSwatch / 2 + 6 + fm.horizontalAdvance(r.text));
        boxW += 2 * kPad;
        const int boxH = (int(rows.size()) + 1) * fm.height() + 2 * kPad - 2;
        int bx = d->hoverX + 12;
        if (bx + boxW > plot.right())
            bx = d->hoverX - 12 - boxW;
        const QRect box(qMax(0, bx), plot.top() + 4, boxW, boxH);
        QColor boxBg = pal.color(QPalette::ToolTipBase);
        boxBg.setAlpha(235);
        p.setPen(grid);
        p.setBrush(boxBg);
        p.drawRect(box);
        p.setPen(pal.color(QPalette::ToolTipText));
        int y = box.top() + kPad - 1;
        p.drawText(QRect(box.left() + kPad, y, boxW, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, when);
        for (const auto& r : std::as_const(rows)) {
            y += fm.height();
            p.fillRect(QRect(box.left() + kPad, y + fm.height() / 2 - 3, kSwatch / 2, 6), r.color);
            p.setPen(pal.color(QPalette::ToolTipText));
            p.drawText(QRect(box.left() + kPad + kSwatch / 2 + 6, y, boxW, fm.height()),
                Qt::AlignLeft | Qt::AlignVCenter, r.text);
        }
    }
}

} // namespace kf
