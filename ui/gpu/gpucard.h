// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/nvidiasmi.h"

#include <QFrame>

class QLabel;
class QProgressBar;

namespace kf {

class SeriesBuffer;
class TimeChart;

// One GPU at a glance: name, utilization and memory bars, temperature, power, clocks,
// event reasons, and a 5-minute utilization sparkline.
class GpuCard : public QFrame
{
    Q_OBJECT
public:
    explicit GpuCard(int index, QWidget* parent = nullptr);
    int index() const { return m_index; }
    void setSample(const GpuSample& sample, bool alerting);
    void setSparkline(const SeriesBuffer* util, qint64 fromMs, qint64 toMs);
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
    QProgressBar* m_util;
    QProgressBar* m_mem;
    QLabel* m_details;
    QLabel* m_reasons;
    TimeChart* m_spark;
    QString m_titleText;
    QString m_staleText; // " stale, 2 min old" while stale
    bool m_stale = false;
};

} // namespace kf
