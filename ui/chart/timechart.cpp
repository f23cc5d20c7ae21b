// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/chart/timechart.h"

#include "ui/chart/chartexport.h"

#include <QContextMenuEvent>
#include <QDateTime>
#include <QEvent>
#include <QImage>
#include <QMenu>
#include <QMouseEvent>
#include <QPainter>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <vector>

namespace kf {

namespace {

// The empty chart's sentence, wrapped inside the plot: a small chart's long sentence is never
// cut at the plot's edges (the Server tab's six charts at 1024x640 were).
constexpr int kEmptyTextFlags = Qt::AlignCenter | Qt::TextWordWrap;
QRect emptyTextArea(const QRect& plot)
{
    return plot.adjusted(6, 2, -6, -2);
}

// Draws one dense series into `layer` (plot-sized, premultiplied ARGB; plot coordinates): in every pixel column
// the vertical span its points cover there, joined to the neighbouring columns (linearly
// across columns without points), widened to the line width and anti-aliased at both ends
// by pixel coverage. A NaN point is a gap: nothing joins across it.
void drawDenseSeries(
    QImage& layer, const QList<QPointF>& points, const QColor& color, const ChartGeometry& g, double lineWidth)
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
        const double x = g.plotX(pt.x());
        const double y = g.plotY(pt.y());
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
        bool visible = true;       // the pane's choice (setSeriesVisible)
        bool legendHidden = false; // the reader's, from the legend
        QList<QPointF> points;
        bool shown() const { return visible && !legendHidden; }
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
    HistorySource historySource;
    QString shownEmptyText() const { return emptyText.isEmpty() ? TimeChart::tr("No data yet") : emptyText; }

    // Derived, recomputed lazily: min and max of the visible data and the thresholds.
    mutable bool extentDirty = true;
    mutable std::optional<std::pair<double, double>> extent;
    // Reused between paints: one series' points in pixels, the layer of dense series.
    std::vector<QPointF> scratch;
    QImage layer;

    std::optional<std::pair<double, double>> dataExtent() const;
    // A legend click on `series`: isolate it, or show all when it is isolated already; with
    // `toggle`, show or hide it alone.
    void legendClicked(int series, bool toggle);
    // One hover line per drawn series at time t, and the point it reads (none: no data there).
    struct ReadoutRow
    {
        QColor color;
        QString text;
        std::optional<QPointF> point;
    };
    QList<ReadoutRow> readoutRows(const ChartGeometry& g, double t) const;
    // Where everything goes for the chart's size and font now.
    ChartGeometry geometry(const TimeChart& chart) const;

    void paintFrame(QPainter& p, const TimeChart& chart, const ChartGeometry& g) const;
    void paintSeries(QPainter& p, const ChartGeometry& g);
    void paintThresholds(QPainter& p, const ChartGeometry& g) const;
    void paintLegend(QPainter& p, const TimeChart& chart, const ChartGeometry& g) const;
    void paintHover(QPainter& p, const TimeChart& chart, const ChartGeometry& g, double t) const;
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
    setMinimumHeight(compact ? 24 : 60);
    update();
}

void TimeChart::setValueRange(double min, double max)
{
    d->fixedRange = true;
    d->min = min;
    d->max = max > min ? max : min + 1;
    update();
}

void TimeChart::setAutoRange()
{
    d->fixedRange = false;
    update();
}

int TimeChart::addSeries(const QString& name, const QColor& color)
{
    d->series.append({ name, color.isValid() ? color : paletteColor(int(d->series.size())), true, false, {} });
    d->extentDirty = true;
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
    d->extentDirty = true;
    update();
}

void TimeChart::setSeriesVisible(int series, bool visible)
{
    if (series < 0 || series >= d->series.size() || d->series[series].visible == visible)
        return;
    d->series[series].visible = visible;
    d->extentDirty = true;
    update();
}

bool TimeChart::isSeriesShown(int series) const
{
    return series >= 0 && series < d->series.size() && d->series[series].shown();
}

void TimeChart::Private::legendClicked(int index, bool toggle)
{
    if (toggle) {
        series[index].legendHidden = !series[index].legendHidden;
    } else {
        bool isolated = !series[index].legendHidden;
        for (int i = 0; isolated && i < series.size(); ++i)
            isolated = i == index || series[i].legendHidden;
        for (int i = 0; i < series.size(); ++i)
            series[i].legendHidden = !isolated && i != index;
    }
    extentDirty = true;
}

void TimeChart::setSeriesData(int series, const QList<QPointF>& points)
{
    if (series < 0 || series >= d->series.size())
        return;
    d->series[series].points = points;
    d->extentDirty = true;
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
    d->extentDirty = true;
    update();
}

void TimeChart::clearThresholds()
{
    d->thresholds.clear();
    d->extentDirty = true;
    update();
}

qsizetype TimeChart::pointCount() const
{
    qsizetype n = 0;
    for (const auto& s : std::as_const(d->series))
        n += s.points.size();
    return n;
}

std::optional<std::pair<double, double>> TimeChart::Private::dataExtent() const
{
    if (!extentDirty)
        return extent;
    extentDirty = false;
    double lo = std::numeric_limits<double>::max();
    double hi = std::numeric_limits<double>::lowest();
    for (const auto& s : series) {
        if (!s.shown())
            continue;
        for (const QPointF& p : s.points) {
            const double y = p.y();
            if (std::isnan(y))
                continue;
            lo = std::min(lo, y);
            hi = std::max(hi, y);
        }
    }
    for (const auto& t : thresholds) {
        lo = std::min(lo, t.value);
        hi = std::max(hi, t.value);
    }
    extent = lo <= hi ? std::optional(std::make_pair(lo, hi)) : std::nullopt;
    return extent;
}

ChartGeometry TimeChart::Private::geometry(const TimeChart& chart) const
{
    ChartGeometry::Input in;
    in.size = chart.size();
    in.compact = compact;
    in.titled = !title.isEmpty() || !unit.isEmpty();
    for (int i = 0; i < series.size(); ++i) {
        if (!series[i].name.isEmpty()) // a series without a name has no legend entry
            in.legend.append({ i, series[i].name });
    }
    in.plotLeft = plotLeft;
    in.from = from;
    in.to = to;
    if (fixedRange)
        in.fixedRange = std::make_pair(min, max);
    else
        in.dataExtent = dataExtent();
    return ChartGeometry::compute(in, chart.fontMetrics());
}

ChartGeometry TimeChart::geometry() const
{
    return d->geometry(*this);
}

std::pair<double, double> TimeChart::valueRange() const
{
    const ChartGeometry g = geometry();
    return { g.lo(), g.hi() };
}

QRect TimeChart::plotRect() const
{
    return geometry().plot();
}

QRect TimeChart::emptyTextRect() const
{
    const bool empty
        = std::all_of(d->series.cbegin(), d->series.cend(), [](const auto& s) { return s.points.isEmpty(); });
    if (!empty || d->compact)
        return {};
    const QRect plot = plotRect();
    return fontMetrics().boundingRect(emptyTextArea(plot), kEmptyTextFlags, d->shownEmptyText());
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

void TimeChart::setHistorySource(HistorySource source)
{
    d->historySource = std::move(source);
}

QString TimeChart::title() const
{
    return d->title;
}

QString TimeChart::unit() const
{
    return d->unit;
}

QString TimeChart::seriesName(int series) const
{
    return series >= 0 && series < d->series.size() ? d->series[series].name : QString();
}

QList<QPointF> TimeChart::seriesData(int series) const
{
    return series >= 0 && series < d->series.size() ? d->series[series].points : QList<QPointF>();
}

QList<CsvSeries> TimeChart::history() const
{
    if (d->historySource)
        return d->historySource();
    QList<CsvSeries> out;
    for (const auto& s : std::as_const(d->series))
        out.append({ d->title, s.name, d->unit, s.points });
    return out;
}

void TimeChart::contextMenuEvent(QContextMenuEvent* event)
{
    if (d->compact) {
        QWidget::contextMenuEvent(event);
        return;
    }
    QMenu menu(this);
    menu.setObjectName(QStringLiteral("chartMenu"));
    const QString name = d->title.isEmpty() ? QStringLiteral("chart") : d->title;
    menu.addAction(tr("Export data as CSV (whole history)…"), this, [this, name] {
        chartexport::exportCsv(this, history(), chartexport::suggestedName(name, QStringLiteral("csv")));
    });
    menu.addAction(tr("Export image as PNG (as shown)…"), this,
        [this, name] { chartexport::exportPng(this, this, chartexport::suggestedName(name, QStringLiteral("png"))); });
    menu.exec(event->globalPos());
}

void TimeChart::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::FontChange
        || event->type() == QEvent::StyleChange) {
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

void TimeChart::mousePressEvent(QMouseEvent* event)
{
    if (!d->compact && event->button() == Qt::LeftButton) {
        const QPoint at = event->position().toPoint();
        const ChartGeometry g = geometry();
        for (const ChartGeometry::LegendItem& item : g.legend()) {
            if (item.bounds.contains(at)) {
                d->legendClicked(item.series, event->modifiers().testFlag(Qt::ControlModifier));
                update();
                event->accept();
                return;
            }
        }
    }
    QWidget::mousePressEvent(event);
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
    const ChartGeometry g = geometry();
    if (!d->compact)
        d->paintFrame(p, *this, g);
    d->paintSeries(p, g);
    d->paintThresholds(p, g);
    if (d->compact)
        return;
    d->paintLegend(p, *this, g);
    if (const auto t = g.timeAt(d->hoverX))
        d->paintHover(p, *this, g, *t);
}

namespace {

QColor withAlpha(QColor c, int alpha)
{
    c.setAlpha(alpha);
    return c;
}

// `over` at `alpha` on `base`, as one opaque colour. The grid is drawn on the plain background, so
// this is what a translucent pen would give there; but a translucent line makes Qt's raster
// engine blend it through its thread pool, and waking the pool's threads cost a third of a
// repaint and most of its slow tail on a busy machine (docs/PERFORMANCE.md, the chart repaint).
QColor opaqueOver(const QColor& base, const QColor& over, int alpha)
{
    auto mix = [alpha](int b, int o) { return (b * (255 - alpha) + o * alpha + 127) / 255; };
    return QColor(mix(base.red(), over.red()), mix(base.green(), over.green()), mix(base.blue(), over.blue()));
}

} // namespace

// Background, title (bold) and unit, the grid with value and time labels, the empty text.
void TimeChart::Private::paintFrame(QPainter& p, const TimeChart& chart, const ChartGeometry& g) const
{
    const QPalette pal = chart.palette();
    const QColor text = pal.color(QPalette::Text);
    const QColor grid = opaqueOver(pal.color(QPalette::Base), text, 38);
    const QColor faint = withAlpha(text, 170);
    const QFontMetrics fm = chart.fontMetrics();
    const QRect plot = g.plot();
    constexpr int kPad = ChartGeometry::kPad;
    p.fillRect(chart.rect(), pal.color(QPalette::Base));
    if (!title.isEmpty() || !unit.isEmpty()) {
        QFont bold = chart.font();
        bold.setBold(true);
        p.setFont(bold);
        p.setPen(text);
        const QString line
            = title.isEmpty() ? unit : (unit.isEmpty() ? title : title + QStringLiteral(" (") + unit + u')');
        p.drawText(QRect(kPad, kPad / 2, chart.width() - 2 * kPad, fm.height() + 2),
            Qt::AlignHCenter | Qt::AlignVCenter, line);
        p.setFont(chart.font());
    }
    for (const double v : g.valueTicks()) {
        const int y = int(std::lround(g.valueToY(v)));
        p.setPen(grid);
        p.drawLine(plot.left(), y, plot.right(), y);
        p.setPen(faint);
        p.drawText(QRect(0, y - fm.height() / 2, plot.left() - 6, fm.height()), Qt::AlignRight | Qt::AlignVCenter,
            g.valueLabel(v));
    }
    // Before any data there is no time to label, so say so instead.
    const bool empty = std::all_of(series.cbegin(), series.cend(), [](const Series& s) { return s.points.isEmpty(); });
    if (empty) {
        p.setPen(faint);
        p.drawText(emptyTextArea(plot), kEmptyTextFlags, shownEmptyText());
    }
    const ChartGeometry::TimeTicks ticks = g.timeTicks();
    for (qsizetype i = 0; i < ticks.times.size(); ++i) {
        const int x = int(std::lround(g.timeToX(double(ticks.times[i]))));
        p.setPen(grid);
        p.drawLine(x, plot.top(), x, plot.bottom());
        p.setPen(faint);
        p.drawText(QRect(x - ticks.labelWidth, plot.bottom() + 3, 2 * ticks.labelWidth, fm.height()),
            Qt::AlignHCenter | Qt::AlignTop, ticks.labels.value(i));
    }
    p.setPen(grid);
    p.drawRect(plot);
}

// Dense series (a point per pixel column or more: min/max decimated data) are rasterized
// column by column into one layer; sparse ones are anti-aliased polylines. QPainter's stroker
// needs ~40 ms for 8 dense series of 3,000 points that zig-zag over the plot's height (every
// segment is stroked as a polygon); spans need ~2 ms.
void TimeChart::Private::paintSeries(QPainter& p, const ChartGeometry& g)
{
    const QRect plot = g.plot();
    const double lineWidth = compact ? 1.2 : 1.5;
    auto dense = [&](const Series& s) { return s.shown() && s.points.size() >= plot.width(); };
    if (std::any_of(series.cbegin(), series.cend(), dense)) {
        if (layer.size() != plot.size())
            layer = QImage(plot.size(), QImage::Format_ARGB32_Premultiplied);
        // memset, not QImage::fill(): that hands big fills to a thread pool, whose wake-ups
        // cost more than the fill on a busy machine.
        std::memset(layer.bits(), 0, size_t(layer.sizeInBytes()));
        for (const auto& s : std::as_const(series)) {
            if (dense(s))
                drawDenseSeries(layer, s.points, s.color, g, lineWidth);
        }
        p.drawImage(plot.topLeft(), layer);
    }
    p.save();
    p.setClipRect(plot.adjusted(-1, -1, 2, 2));
    p.setRenderHint(QPainter::Antialiasing, true);
    for (const auto& s : std::as_const(series)) {
        if (!s.shown() || s.points.isEmpty() || dense(s))
            continue;
        QPen pen(s.color, lineWidth);
        pen.setJoinStyle(Qt::RoundJoin);
        pen.setCapStyle(Qt::RoundCap);
        p.setPen(pen);
        auto& run = scratch;
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
            run.emplace_back(g.timeToX(pt.x()), g.valueToY(pt.y()));
        }
        flush();
    }
    p.restore();
}

// Dashed lines across the plot, labelled at the right end.
void TimeChart::Private::paintThresholds(QPainter& p, const ChartGeometry& g) const
{
    const QRect plot = g.plot();
    const int lineH = g.lineHeight();
    p.save();
    p.setClipRect(plot.adjusted(-1, -1, 2, 2));
    for (const auto& th : std::as_const(thresholds)) {
        const int y = int(std::lround(g.valueToY(th.value)));
        p.setPen(QPen(th.color, 1, Qt::DashLine));
        p.drawLine(plot.left(), y, plot.right(), y);
        if (!compact && !th.label.isEmpty()) {
            p.setPen(th.color);
            p.drawText(
                QRect(plot.left(), y - lineH - 1, plot.width() - 4, lineH), Qt::AlignRight | Qt::AlignBottom, th.label);
        }
    }
    p.restore();
}

// Each named series' swatch and name where the geometry put them; a hidden series is faded.
void TimeChart::Private::paintLegend(QPainter& p, const TimeChart& chart, const ChartGeometry& g) const
{
    const QColor text = chart.palette().color(QPalette::Text);
    constexpr int kSwatch = ChartGeometry::kSwatch;
    for (const ChartGeometry::LegendItem& item : g.legend()) {
        const auto& s = series[item.series];
        const QRect& b = item.bounds;
        const int cy = b.top() + b.height() / 2;
        p.setPen(QPen(s.shown() ? s.color : withAlpha(s.color, 60), 3));
        p.drawLine(b.left(), cy, b.left() + kSwatch, cy);
        p.setPen(s.shown() ? text : withAlpha(text, 90));
        p.drawText(QRect(b.left() + kSwatch + 4, b.top(), b.width() - kSwatch - 2, b.height()),
            Qt::AlignLeft | Qt::AlignVCenter, s.name);
    }
}

QList<TimeChart::Private::ReadoutRow> TimeChart::Private::readoutRows(const ChartGeometry& g, double t) const
{
    QList<ReadoutRow> rows;
    const double maxDistance = 3 / g.pixelsPerMs(); // three columns: farther is "no data here"
    for (const auto& s : std::as_const(series)) {
        if (!s.shown())
            continue;
        const auto it = std::lower_bound(
            s.points.cbegin(), s.points.cend(), t, [](const QPointF& a, double v) { return a.x() < v; });
        const QPointF* best = nullptr;
        if (it != s.points.cend())
            best = &*it;
        if (it != s.points.cbegin() && (!best || t - std::prev(it)->x() < best->x() - t))
            best = &*std::prev(it);
        ReadoutRow row { s.color, QStringLiteral("–"), std::nullopt };
        if (best && !std::isnan(best->y()) && std::abs(best->x() - t) <= maxDistance) {
            row.text = g.readoutLabel(best->y());
            if (!unit.isEmpty())
                row.text += u' ' + unit;
            row.point = *best;
        }
        if (!s.name.isEmpty())
            row.text = s.name + QStringLiteral(": ") + row.text;
        rows.append(row);
    }
    return rows;
}

namespace {

QString readoutTime(double t)
{
    return QDateTime::fromMSecsSinceEpoch(qint64(t)).toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"));
}

} // namespace

QStringList TimeChart::readout(int x) const
{
    const ChartGeometry g = geometry();
    const auto t = d->compact ? std::nullopt : g.timeAt(x);
    if (!t)
        return {};
    QStringList lines { readoutTime(*t) };
    for (const auto& row : d->readoutRows(g, *t))
        lines.append(row.text);
    return lines;
}

// A crosshair at time t and every drawn series' value there.
void TimeChart::Private::paintHover(QPainter& p, const TimeChart& chart, const ChartGeometry& g, double t) const
{
    const QPalette pal = chart.palette();
    const QColor text = pal.color(QPalette::Text);
    const QFontMetrics fm = chart.fontMetrics();
    const QRect plot = g.plot();
    constexpr int kPad = ChartGeometry::kPad;
    constexpr int kSwatch = ChartGeometry::kSwatch;
    p.setPen(QPen(withAlpha(text, 170), 1, Qt::DotLine));
    p.drawLine(hoverX, plot.top(), hoverX, plot.bottom());
    const QList<ReadoutRow> rows = readoutRows(g, t);
    p.setRenderHint(QPainter::Antialiasing, true);
    p.setPen(Qt::NoPen);
    for (const auto& r : rows) {
        if (r.point) {
            p.setBrush(r.color);
            p.drawEllipse(QPointF(g.timeToX(r.point->x()), g.valueToY(r.point->y())), 3, 3);
        }
    }
    p.setRenderHint(QPainter::Antialiasing, false);
    const QString when = readoutTime(t);
    int boxW = fm.horizontalAdvance(when);
    for (const auto& r : std::as_const(rows))
        boxW = qMax(boxW, kSwatch / 2 + 6 + fm.horizontalAdvance(r.text));
    boxW += 2 * kPad;
    const int boxH = (int(rows.size()) + 1) * fm.height() + 2 * kPad - 2;
    int bx = hoverX + 12;
    if (bx + boxW > plot.right())
        bx = hoverX - 12 - boxW;
    const QRect box(qMax(0, bx), plot.top() + 4, boxW, boxH);
    p.setPen(withAlpha(text, 38));
    p.setBrush(withAlpha(pal.color(QPalette::ToolTipBase), 235));
    p.drawRect(box);
    p.setPen(pal.color(QPalette::ToolTipText));
    int y = box.top() + kPad - 1;
    p.drawText(QRect(box.left() + kPad, y, boxW, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, when);
    for (const auto& r : std::as_const(rows)) {
        y += fm.height();
        p.fillRect(QRect(box.left() + kPad, y + fm.height() / 2 - 3, kSwatch / 2, 6), r.color);
        p.setPen(pal.color(QPalette::ToolTipText));
        p.drawText(
            QRect(box.left() + kPad + kSwatch / 2 + 6, y, boxW, fm.height()), Qt::AlignLeft | Qt::AlignVCenter, r.text);
    }
}

} // namespace kf
