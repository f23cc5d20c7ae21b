// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/build/buildsession.h"

#include <QChartView>

class QLineSeries;
class QValueAxis;

namespace kf {

// Steps over time with the ETA projection (dashed, to the total), and the server's
// MemAvailable on a second axis with a danger line. The only place in ui/build that talks
// to Qt Charts; the lead will move it onto the shared chart widget in ui/chart/.
class BuildChart : public QChartView
{
    Q_OBJECT
public:
    explicit BuildChart(QWidget* parent = nullptr);
    void clear();
    void addProgress(const BuildProgress& p);
    void addMemory(const MemorySample& m);
    // MemAvailable below this is drawn as danger (default: 10% of MemTotal).
    void setDangerKb(qint64 kb);
    int progressPoints() const;

private:
    void updateAxes();

    QLineSeries* m_steps;
    QLineSeries* m_projection;
    QLineSeries* m_memory;
    QLineSeries* m_danger;
    QValueAxis* m_time;
    QValueAxis* m_stepAxis;
    QValueAxis* m_memAxis;
    qint64 m_memStartMs = -1;
    double m_lastElapsedS = 0;
    double m_lastPointS = -1; // elapsed time of the last appended (not replaced) point
    double m_maxTimeMin = 1;
    int m_total = 1;
    double m_memMaxGb = 1;
    qint64 m_dangerKb = -1;
};

} // namespace kf
