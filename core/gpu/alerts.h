// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/gpufield.h"

#include <QList>
#include <QMetaType>
#include <QString>

class QSettings;

namespace kf {

// Thresholds a user can change (Settings: "monitor/alerts/..."); the defaults suit
// data-centre GPUs (H100/H200 slow down near 87-90 C; HBM near 95 C).
struct AlertRules
{
    double gpuTempC = 85;
    double memoryTempC = 95;
    double memoryFullFraction = 0.95;
    bool eccErrors = true;
    bool hwSlowdown = true; // 0x8 hw_slowdown and 0x80 hw_power_brake_slowdown
    bool thermal = true;    // 0x20 sw_thermal_slowdown and 0x40 hw_thermal_slowdown
    bool xidErrors = true;  // a GPU's last Xid is not 0 (dcgm-exporter's DCGM_FI_DEV_XID_ERRORS)

    static AlertRules load(const QSettings& settings);
    void save(QSettings& settings) const;
    bool operator==(const AlertRules&) const = default;
};

enum class AlertKind : quint8 {
    GpuTemperature,
    MemoryTemperature,
    MemoryFull,
    EccErrors,
    HwSlowdown,
    Thermal,
    SmiFailure,
    XidError
};

struct Alert
{
    AlertKind kind = AlertKind::SmiFailure;
    int gpu = -1;          // -1: the host (nvidia-smi failures)
    QString message;       // for people: "GPU 3: 92 C (limit 85 C)"
    qint64 timeMs = 0;     // when it was first seen
    bool critical = false; // ECC, HW thermal, NVML failures

    // Identity for raise/clear: one alert per kind and GPU.
    QString key() const { return QString::number(int(kind)) + u':' + QString::number(gpu); }
};

QString alertKindName(AlertKind kind);
// The alerts the samples trigger now (pure; the monitor turns them into raise/clear events).
QList<Alert> evaluateAlerts(const QList<GpuSample>& gpus, const AlertRules& rules, qint64 nowMs = 0);
// Xid errors, which nvidia-smi's query does not report but dcgm-exporter does: lastXid is
// parallel to gpus (0 or NaN: none). Critical: an Xid means the driver saw a GPU fault.
QList<Alert> evaluateXidAlerts(
    const QList<GpuSample>& gpus, const QList<double>& lastXid, const AlertRules& rules, qint64 nowMs = 0);

} // namespace kf

Q_DECLARE_METATYPE(kf::Alert)
