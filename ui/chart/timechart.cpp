// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/chart/timechart.h"

#include <QChart>
#include <QChartView>
#include <QDateTime>
#include <QDateTimeAxis>
#include <QGraphicsLayout>
#include <QLegendMarker>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include <cmath>
#include <limits>

namespace kf {

struct TimeChart::Private
{
    QChart* chart = nullptr;
    QChartView* view = nullptr;
    QDateTimeAxis* x = nullptr;
    QValueAxis* y = nullptr;
    QList<QLineSeries*> series;
    QString title;
    QString unit;
    bool compact = false;
    bool fixedRange = false;
    double min = 0;
    double max = 1;
    qint64 from = 0;
    qint64 to = 1;
};

TimeChart::TimeChart(QWidget* parent) : QWidget(parent), d(std::make_unique<Private>())
{
    d->chart = new QChart();
    d->chart->setAnimationOptions(QChart::NoAnimation);
    d->chart->legend()->setAlignment(Qt::AlignBottom);
    d->chart->setMargins(QMargins(4, 4, 4, 4));
    d->x = new QDateTimeAxis(d->chart);
    d->x->setFormat(QStringLiteral("HH:mm"));
    d->x->setTickCount(6);
    d->y = new QValueAxis(d->chart);
    d->y->setLabelFormat(QStringLiteral("%.0f"));
    d->chart->addAxis(d->x, Qt::AlignBottom);
    d->chart->addAxis(d->y, Qt::AlignLeft);
    d->view = new QChartView(d->chart, this);
    d->view->setRenderHint(QPainter::Antialiasing, false);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(d->view);
    setMinimumHeight(60);
}

TimeChart::~TimeChart() = default;

QColor TimeChart::paletteColor(int i)
{
    // Distinguishable on light and dark backgrounds, in GPU index order.
    static const QColor colors[] = {QColor(0x1f, 0x77, 0xb4), QColor(0xff, 0x7f, 0x0e), QColor(0x2c, 0xa0, 0x2c), QColor(0xd6, 0x27, 0x28),
                                    QColor(0x94, 0x67, 0xbd), QColor(0x8c, 0x56, 0x4b), QColor(0xe3, 0x77, 0xc2), QColor(0x17, 0xbe, 0xcf)};
    return colors[qAbs(i) % 8];
}

void TimeChart::setTitle(const QString& title)
{
    d->title = title;
    d->chart->setTitle(d->compact ? QString() : title);
}

void TimeChart::setUnit(const QString& unit)
{
    d->unit = unit;
    d->y->setTitleText(d->compact ? QString() : unit);
}

void TimeChart::setCompact(bool compact)
{
    d->compact = compact;
    d->x->setVisible(!compact);
    d->y->setVisible(!compact);
    d->chart->legend()->setVisible(!compact);
    d->chart->setMargins(compact ? QMargins(0, 0, 0, 0) : QMargins(4, 4, 4, 4));
    d->chart->layout()->setContentsMargins(0, 0, 0, 0);
    d->chart->setBackgroundRoundness(compact ? 0 : 4);
    d->chart->setTitle(compact ? QString() : d->title);
    d->y->setTitleText(compact ? QString() : d->unit);
    setMinimumHeight(compact ? 24 : 60);
}

void TimeChart::setValueRange(double min, double max)
{
    d->fixedRange = true;
    d->min = min;
    d->max = max;
    applyRange();
}

void TimeChart::setAutoRange()
{
    d->fixedRange = false;
    applyRange();
}

int TimeChart::addSeries(const QString& name, const QColor& color)
{
    auto* s = new QLineSeries(d->chart);
    s->setName(name);
    QPen pen(color.isValid() ? color : paletteColor(int(d->series.size())));
    pen.setWidthF(d->compact ? 1.2 : 1.5);
    s->setPen(pen);
    // OpenGL is not available offscreen and in many remote desktops; raster is fast enough
    // for decimated series (a few thousand points).
    d->chart->addSeries(s);
    s->attachAxis(d->x);
    s->attachAxis(d->y);
    d->series.append(s);
    return int(d->series.size() - 1);
}

int TimeChart::seriesCount() const { return int(d->series.size()); }

void TimeChart::clearSeries()
{
    d->chart->removeAllSeries();
    d->series.clear();
}

void TimeChart::setSeriesVisible(int series, bool visible)
{
    if (series >= 0 && series < d->series.size())
        d->series[series]->setVisible(visible);
}

void TimeChart::setSeriesData(int series, const QList<QPointF>& points)
{
    if (series < 0 || series >= d->series.size())
        return;
    d->series[series]->replace(points);
    if (!d->fixedRange)
        applyRange();
}

void TimeChart::setTimeWindow(qint64 fromMs, qint64 toMs)
{
    d->from = fromMs;
    d->to = qMax(fromMs + 1, toMs);
    const qint64 span = d->to - d->from;
    d->x->setFormat(span > 6LL * 3600 * 1000 ? QStringLiteral("HH:mm") : (span > 15LL * 60 * 1000 ? QStringLiteral("HH:mm") : QStringLiteral("HH:mm:ss")));
    d->x->setRange(QDateTime::fromMSecsSinceEpoch(d->from), QDateTime::fromMSecsSinceEpoch(d->to));
}

void TimeChart::applyRange()
{
    if (d->fixedRange) {
        d->y->setRange(d->min, d->max);
        return;
    }
    double lo = std::numeric_limits<double>::max();
    double hi = std::numeric_limits<double>::lowest();
    for (auto* s : std::as_const(d->series)) {
        if (!s->isVisible())
            continue;
        const auto pts = s->points();
        for (const QPointF& p : pts) {
            lo = qMin(lo, p.y());
            hi = qMax(hi, p.y());
        }
    }
    if (lo > hi) {
        lo = 0;
        hi = 1;
    }
    if (hi - lo < 1e-9)
        hi = lo + 1;
    const double pad = (hi - lo) * 0.08;
    d->y->setRange(lo >= 0 && lo - pad < 0 ? 0 : lo - pad, hi + pad);
    d->y->applyNiceNumbers();
}

int TimeChart::columns() const
{
    const int w = int(d->chart->plotArea().width());
    return w > 10 ? w : qMax(50, width() - 60);
}

qsizetype TimeChart::pointCount() const
{
    qsizetype n = 0;
    for (auto* s : std::as_const(d->series))
        n += s->count();
    return n;
}

} // namespace kf
