// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildsession.h"

#include <QList>
#include <QPointF>
#include <QWidget>

#include <functional>

class QTimer;

namespace kf {

class ChartWindowBar;
class TimeChart;

// Two charts on one clock: compile steps over time with the ETA projection (to the total),
// and the memory the build may still use with a danger line (an nvcc fan-out that eats the RAM
// shows up here minutes before the OOM killer): MemAvailable, or the room left under the job's
// cgroup limit when that is less (a container, a Slurm job), drawn against that limit. Both are TimeCharts sharing one
// time window, the last part of the build chosen in a ChartWindowBar (all of it, or its last 5 min to 24 h).
// Before the first sample the window starts now and moves with the clock (a timer ticks while the
// charts are empty), so the axis is where the build will start, never the time the window opened.
class BuildChart : public QWidget
{
    Q_OBJECT
public:
    explicit BuildChart(QWidget* parent = nullptr);
    void clear();
    void addProgress(const BuildProgress& p);
    void addMemory(const MemorySample& m);
    // Available memory below this is drawn as danger (default: 10% of the limit).
    void setDangerKb(qint64 kb);
    // The clock the empty charts follow (ms since the epoch); tests set one they can move.
    void setClock(std::function<qint64()> clock);
    int progressPoints() const;
    TimeChart* stepsChart() const { return m_stepsChart; }
    TimeChart* memoryChart() const { return m_memChart; }
    ChartWindowBar* chartBar() const { return m_bar; }
    QSize sizeHint() const override { return { 560, 340 }; }
    QSize minimumSizeHint() const override { return { 300, 260 }; }

private:
    void refresh();
    qint64 now() const;

    ChartWindowBar* m_bar;
    QTimer* m_emptyTick; // moves the empty charts' window with the clock
    std::function<qint64()> m_clock;
    TimeChart* m_stepsChart;
    TimeChart* m_memChart;
    QList<QPointF> m_steps;      // x: ms since the epoch, y: steps done
    QList<QPointF> m_memory;     // x: ms since the epoch, y: GB available
    qint64 m_startMs = -1;       // left edge: the first sample of either chart (client clock)
    qint64 m_stepsOriginMs = -1; // the build's start on the client clock (progress has elapsed time)
    qint64 m_lastPointMs = -1;
    qint64 m_endMs = -1; // latest time to show: the last sample or the projected end
    double m_projectedEndMs = -1;
    int m_total = 0;
    double m_memTotalGb = 0;
    qint64 m_dangerKb = -1;
};

} // namespace kf
