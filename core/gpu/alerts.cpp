// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/alerts.h"

#include "core/gpu/throttlereasons.h"

#include <QSettings>

namespace kf {

AlertRules AlertRules::load(const QSettings& s)
{
    AlertRules r;
    r.gpuTempC = s.value(QStringLiteral("monitor/alerts/gpuTempC"), r.gpuTempC).toDouble();
    r.memoryTempC = s.value(QStringLiteral("monitor/alerts/memoryTempC"), r.memoryTempC).toDouble();
    r.memoryFullFraction
        = s.value(QStringLiteral("monitor/alerts/memoryFullFraction"), r.memoryFullFraction).toDouble();
    r.eccErrors = s.value(QStringLiteral("monitor/alerts/eccErrors"), r.eccErrors).toBool();
    r.hwSlowdown = s.value(QStringLiteral("monitor/alerts/hwSlowdown"), r.hwSlowdown).toBool();
    r.thermal = s.value(QStringLiteral("monitor/alerts/thermal"), r.thermal).toBool();
    r.xidErrors = s.value(QStringLiteral("monitor/alerts/xidErrors"), r.xidErrors).toBool();
    return r;
}

void AlertRules::save(QSettings& s) const
{
    s.setValue(QStringLiteral("monitor/alerts/gpuTempC"), gpuTempC);
    s.setValue(QStringLiteral("monitor/alerts/memoryTempC"), memoryTempC);
    s.setValue(QStringLiteral("monitor/alerts/memoryFullFraction"), memoryFullFraction);
    s.setValue(QStringLiteral("monitor/alerts/eccErrors"), eccErrors);
    s.setValue(QStringLiteral("monitor/alerts/hwSlowdown"), hwSlowdown);
    s.setValue(QStringLiteral("monitor/alerts/thermal"), thermal);
    s.setValue(QStringLiteral("monitor/alerts/xidErrors"), xidErrors);
}

QString alertKindName(AlertKind kind)
{
    switch (kind) {
    case AlertKind::GpuTemperature: return QStringLiteral("temperature");
    case AlertKind::MemoryTemperature: return QStringLiteral("memory_temperature");
    case AlertKind::MemoryFull: return QStringLiteral("memory_full");
    case AlertKind::EccErrors: return QStringLiteral("ecc");
    case AlertKind::HwSlowdown: return QStringLiteral("hw_slowdown");
    case AlertKind::Thermal: return QStringLiteral("thermal");
    case AlertKind::SmiFailure: return QStringLiteral("nvidia_smi");
    case AlertKind::XidError: return QStringLiteral("xid");
    }
    return {};
}

QList<Alert> evaluateAlerts(const QList<GpuSample>& gpus, const AlertRules& rules, qint64 nowMs)
{
    QList<Alert> out;
    for (const auto& g : gpus) {
        const QString who = QStringLiteral("GPU %1").arg(g.index);
        const double temp = g.value(GpuField::TempGpu);
        const double memoryTemp = g.value(GpuField::TempMemory);
        const double ecc = g.value(GpuField::EccUncorrected);
        if (hasValue(temp) && temp >= rules.gpuTempC)
            out.append({ AlertKind::GpuTemperature, g.index,
                QStringLiteral("%1: %2 °C (limit %3 °C)").arg(who).arg(temp).arg(rules.gpuTempC), nowMs, false });
        if (hasValue(memoryTemp) && memoryTemp >= rules.memoryTempC)
            out.append({ AlertKind::MemoryTemperature, g.index,
                QStringLiteral("%1: memory %2 °C (limit %3 °C)").arg(who).arg(memoryTemp).arg(rules.memoryTempC), nowMs,
                false });
        const double frac = g.memFraction();
        if (hasValue(frac) && frac >= rules.memoryFullFraction)
            out.append({ AlertKind::MemoryFull, g.index,
                QStringLiteral("%1: memory %2% full (%3 of %4 MiB)")
                    .arg(who)
                    .arg(frac * 100, 0, 'f', 1)
                    .arg(g.value(GpuField::MemUsed))
                    .arg(g.value(GpuField::MemTotal)),
                nowMs, false });
        if (rules.eccErrors && hasValue(ecc) && ecc > 0)
            out.append({ AlertKind::EccErrors, g.index,
                QStringLiteral("%1: %2 uncorrected ECC error(s) since the driver loaded").arg(who).arg(ecc), nowMs,
                true });
        if (g.hasReasons) {
            if (rules.hwSlowdown && (g.reasons & (kReasonHwSlowdown | kReasonHwPowerBrake)))
                out.append({ AlertKind::HwSlowdown, g.index,
                    QStringLiteral("%1: hardware slowdown (%2)")
                        .arg(who, reasonPhrases(g.reasons & (kReasonHwSlowdown | kReasonHwPowerBrake)).join(u", ")),
                    nowMs, true });
            if (rules.thermal && (g.reasons & (kReasonSwThermal | kReasonHwThermal)))
                out.append({ AlertKind::Thermal, g.index,
                    QStringLiteral("%1: thermal slowdown (%2)")
                        .arg(who, reasonPhrases(g.reasons & (kReasonSwThermal | kReasonHwThermal)).join(u", ")),
                    nowMs, (g.reasons & kReasonHwThermal) != 0 });
        }
    }
    return out;
}

QList<Alert> evaluateXidAlerts(
    const QList<GpuSample>& gpus, const QList<double>& lastXid, const AlertRules& rules, qint64 nowMs)
{
    QList<Alert> out;
    if (!rules.xidErrors)
        return out;
    for (qsizetype i = 0; i < gpus.size() && i < lastXid.size(); ++i) {
        const double x = lastXid.at(i);
        if (!hasValue(x) || x <= 0)
            continue;
        const int gpu = gpus.at(i).index;
        out.append(
            { AlertKind::XidError, gpu, QStringLiteral("GPU %1: Xid %2").arg(gpu).arg(x, 0, 'f', 0), nowMs, true });
    }
    return out;
}

} // namespace kf
