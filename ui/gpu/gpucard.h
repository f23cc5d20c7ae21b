// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/gpuhealth.h"
#include "core/gpu/nvidiasmi.h"

#include <QFrame>

class QLabel;

namespace kf {

class SeriesBuffer;
class TimeChart;
class UsageBar;

// One GPU at a glance: name, utilization and memory bars, temperature, power, clocks, GPM
// (SM, tensor and DRAM activity, PCIe and NVLink traffic) where the GPU streams it, event
// (throttle) reasons in words, the health verdict, and a 5-minute utilization sparkline. The
// selected card (a click selects it: the chart and the process table show its GPU) has a
// highlight border.
class GpuCard : public QFrame
{
    Q_OBJECT
public:
    explicit GpuCard(int index, QWidget* parent = nullptr);
    static constexpr int kMinimumWidth = 230;
    int index() const { return m_index; }
    void setSelected(bool selected);
    bool isSelected() const { return m_selected; }
    // The reasons line as shown ("power cap, thermal slowdown").
    QString reasonsText() const;
    void setSample(const GpuSample& sample, bool alerting);
    void setSparkline(const SeriesBuffer* util, qint64 fromMs, qint64 toMs);
    // The GPM line from the sample's Dmon rows; `why` (the host has no GPM, and why) when it has none.
    void setGpm(const GpuSample& sample, const QString& why);
    QString gpmText() const;
    // The last health check's verdict for this GPU; null: none yet.
    void setHealth(const GpuHealth* health);
    QString healthText() const;
    // The sample is old (connection down, nvidia-smi stopped): the card keeps it, in grey,
    // titled "stale, <age>" ("stale, 2 min old"), with why in the tooltip. Cleared by
    // setStale(false) once samples flow again.
    void setStale(bool stale, const QString& age = {}, const QString& why = {});
    bool isStale() const { return m_stale; }

Q_SIGNALS:
    void clicked(int index);

protected:
    void mousePressEvent(QMouseEvent* event) override;

private:
    int m_index;
    QLabel* m_title;
    void updateFrame();

    UsageBar* m_util;
    UsageBar* m_mem;
    QLabel* m_details;
    QLabel* m_reasons;
    QLabel* m_gpm;
    QLabel* m_health;
    TimeChart* m_spark;
    QString m_titleText;
    QString m_staleText; // " stale, 2 min old" while stale
    bool m_stale = false;
    bool m_selected = false;
    bool m_alerting = false;
};

} // namespace kf
