// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/timeline/timelinelanes.h"

#include "ui/chart/timechart.h"
#include "ui/common/plaintext.h"

#include <QDateTime>
#include <QHash>
#include <QMouseEvent>
#include <QPainter>
#include <QToolTip>
#include <QWheelEvent>

#include <cmath>

namespace kf {
namespace {

constexpr int kLaneH = 20;
constexpr int kTop = 4;
constexpr int kRadius = 5;
constexpr int kSelectedRadius = kRadius + 2;
constexpr int kRingRadius = kSelectedRadius + 3;

} // namespace

TimelineLanes::TimelineLanes(QWidget* parent)
    : QWidget(parent)
{
    setObjectName(QStringLiteral("timelineLanes"));
    setMouseTracking(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

QSize TimelineLanes::sizeHint() const
{
    return { 600, kTop * 2 + int(timeline::categories().size()) * kLaneH };
}

QSize TimelineLanes::minimumSizeHint() const
{
    return sizeHint();
}

void TimelineLanes::setEvents(const QList<timeline::Event>& events)
{
    m_events = events;
    m_selected = -1;
    update();
}

void TimelineLanes::setTimeWindow(qint64 fromMs, qint64 toMs)
{
    m_from = fromMs;
    m_to = qMax(fromMs + 1, toMs);
    update();
}

void TimelineLanes::setSelected(int index)
{
    m_selected = index;
    update();
}

void TimelineLanes::alignWith(TimeChart* chart)
{
    m_align = chart;
    update();
}

QRect TimelineLanes::plotRect() const
{
    // The chart's plot, in this widget's x (both span the same width in the layout).
    int left = 90, right = width() - 20;
    if (m_align) {
        const QRect p = m_align->plotRect();
        left = m_align->mapTo(window(), p.topLeft()).x() - mapTo(window(), QPoint(0, 0)).x();
        right = left + p.width();
    }
    return QRect(QPoint(left, kTop), QPoint(qMax(left + 10, right), height() - kTop - 1));
}

double TimelineLanes::toX(qint64 ms) const
{
    const QRect p = plotRect();
    return p.left() + double(ms - m_from) * p.width() / double(m_to - m_from);
}

qint64 TimelineLanes::toTime(double x) const
{
    const QRect p = plotRect();
    return m_from + qint64((x - p.left()) * double(m_to - m_from) / qMax(1, p.width()));
}

int TimelineLanes::laneY(const QString& lane) const
{
    const qsizetype i = timeline::categories().indexOf(lane);
    return kTop + int(i < 0 ? timeline::categories().size() - 1 : i) * kLaneH + kLaneH / 2;
}

QPoint TimelineLanes::markerPosition(int index) const
{
    if (index < 0 || index >= m_events.size())
        return {};
    const qint64 t = m_events[index].time.toMSecsSinceEpoch();
    if (t < m_from || t > m_to)
        return {};
    return QPoint(int(std::lround(toX(t))), laneY(timeline::category(m_events[index].kind)));
}

int TimelineLanes::eventAt(const QPoint& pos) const
{
    int best = -1;
    int bestDistance = kRadius + 3;
    for (int i = 0; i < m_events.size(); ++i) {
        const QPoint p = markerPosition(i);
        if (p.isNull() || std::abs(p.y() - pos.y()) > kLaneH / 2)
            continue;
        const int d = std::abs(p.x() - pos.x());
        if (d <= bestDistance) { // the later of equals: the newest on top
            best = i;
            bestDistance = d;
        }
    }
    return best;
}

void TimelineLanes::paintEvent(QPaintEvent*)
{
    QPainter p(this);
    const QPalette pal = palette();
    p.fillRect(rect(), pal.color(QPalette::Base));
    const QRect plot = plotRect();
    QColor grid = pal.color(QPalette::Text);
    grid.setAlpha(30);
    QColor faint = pal.color(QPalette::Text);
    faint.setAlpha(170);
    const QStringList lanes = timeline::categories();
    for (const QString& lane : lanes) {
        const int y = laneY(lane);
        p.setPen(grid);
        p.drawLine(plot.left(), y, plot.right(), y);
        p.setPen(faint);
        p.drawText(QRect(0, y - kLaneH / 2, plot.left() - 8, kLaneH), Qt::AlignRight | Qt::AlignVCenter, lane);
    }
    p.setPen(grid);
    p.drawRect(plot);
    // Room for a whole marker and its selection ring at either edge of the window.
    p.setClipRect(plot.adjusted(-kRingRadius - 2, 0, kRingRadius + 2, 0));
    p.setRenderHint(QPainter::Antialiasing, true);
    // Builds as bars from start to end (the end found by its job).
    QHash<QString, qint64> buildStart;
    for (const timeline::Event& e : std::as_const(m_events)) {
        const QString job = e.details.value(QStringLiteral("job")).toString();
        if (e.kind == timeline::kind::BuildStarted) {
            buildStart.insert(job, e.time.toMSecsSinceEpoch());
        } else if (e.kind == timeline::kind::BuildFinished && buildStart.contains(job)) {
            const double x0 = toX(buildStart.value(job)), x1 = toX(e.time.toMSecsSinceEpoch());
            QColor c(timeline::categoryColor(QStringLiteral("build")));
            c.setAlpha(70);
            p.fillRect(QRectF(x0, laneY(QStringLiteral("build")) - 3, qMax(1.0, x1 - x0), 6), c);
        }
    }
    for (int i = 0; i < m_events.size(); ++i) {
        const QPoint c = markerPosition(i);
        if (c.isNull())
            continue;
        const timeline::Event& e = m_events[i];
        const bool bad = timeline::isFailure(e);
        const int r = i == m_selected ? kSelectedRadius : kRadius;
        p.setBrush(QColor(timeline::categoryColor(timeline::category(e.kind))));
        p.setPen(bad ? QPen(QColor(0xd6, 0x27, 0x28), 2.5) : QPen(pal.color(QPalette::Base), 1));
        p.drawEllipse(c, r, r);
        if (i == m_selected) {
            p.setBrush(Qt::NoBrush);
            p.setPen(QPen(pal.color(QPalette::Highlight), 2));
            p.drawEllipse(c, kRingRadius, kRingRadius);
        }
    }
    p.setClipping(false);
    if (m_events.isEmpty()) {
        p.setPen(faint);
        p.drawText(plot, Qt::AlignCenter, tr("Nothing recorded for this host in this period"));
    }
}

void TimelineLanes::mousePressEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton) {
        m_dragX = int(event->position().x());
        m_dragged = false;
    }
    QWidget::mousePressEvent(event);
}

void TimelineLanes::mouseMoveEvent(QMouseEvent* event)
{
    const QPoint pos = event->position().toPoint();
    if (m_dragX >= 0 && (event->buttons() & Qt::LeftButton)) {
        const int dx = pos.x() - m_dragX;
        if (std::abs(dx) >= 3 || m_dragged) {
            m_dragged = true;
            m_dragX = pos.x();
            Q_EMIT panRequested(-qint64(double(dx) * double(m_to - m_from) / qMax(1, plotRect().width())));
        }
        return;
    }
    const int i = eventAt(pos);
    setCursor(i >= 0 ? Qt::PointingHandCursor : Qt::ArrowCursor);
    if (i >= 0)
        QToolTip::showText(event->globalPosition().toPoint(),
            plainToolTip(QStringLiteral("%1  %2\n%3")
                             .arg(m_events[i].time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")),
                                 m_events[i].kind, m_events[i].summary)),
            this);
    else
        QToolTip::hideText();
}

void TimelineLanes::mouseReleaseEvent(QMouseEvent* event)
{
    if (event->button() == Qt::LeftButton && !m_dragged) {
        const int i = eventAt(event->position().toPoint());
        if (i >= 0) {
            setSelected(i);
            Q_EMIT markerClicked(i);
        }
    }
    m_dragX = -1;
    m_dragged = false;
    QWidget::mouseReleaseEvent(event);
}

void TimelineLanes::wheelEvent(QWheelEvent* event)
{
    const int steps = event->angleDelta().y() / 120;
    if (steps == 0) {
        event->ignore();
        return;
    }
    Q_EMIT zoomRequested(std::pow(0.8, steps), toTime(event->position().x()));
    event->accept();
}

} // namespace kf
