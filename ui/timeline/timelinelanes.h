// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/events/event.h"

#include <QList>
#include <QWidget>

namespace kf {

class TimeChart;

// The markers of a host's timeline: one lane per category (patch, build, verify, server,
// bench, facts, connection, recipe), each event a dot at its time, a build a bar from its
// start to its end, failures ringed in red. Shares the time axis of the charts below it: its
// plot spans the same pixels as alignWith()'s chart. Click a marker: markerClicked(index);
// the wheel zooms around the cursor, dragging pans.
class TimelineLanes : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineLanes(QWidget* parent = nullptr);

    void setEvents(const QList<timeline::Event>& events);
    void setTimeWindow(qint64 fromMs, qint64 toMs);
    void setSelected(int index);
    void alignWith(TimeChart* chart);
    int selected() const { return m_selected; }
    // The marker's centre (for tests and the details arrow); a null point when off-window.
    QPoint markerPosition(int index) const;
    int eventAt(const QPoint& pos) const;
    QRect plotRect() const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    void markerClicked(int index);
    // factor < 1 zooms in; around: the time under the cursor.
    void zoomRequested(double factor, qint64 aroundMs);
    void panRequested(qint64 deltaMs);

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;

private:
    double toX(qint64 ms) const;
    qint64 toTime(double x) const;
    int laneY(const QString& lane) const;

    QList<timeline::Event> m_events;
    qint64 m_from = 0;
    qint64 m_to = 1;
    int m_selected = -1;
    TimeChart* m_align = nullptr;
    int m_dragX = -1;
    bool m_dragged = false;
};

} // namespace kf
