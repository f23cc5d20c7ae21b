// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/common/preferences.h"

#include <QSettings>

#include <algorithm>

namespace kf {

namespace {
const QString kRefresh = QStringLiteral("prefs/gpuRefreshMs");
const QString kMemoryUnit = QStringLiteral("prefs/memoryUnit");
const QString kTemperatureUnit = QStringLiteral("prefs/temperatureUnit");
const QString kChartWindow = QStringLiteral("prefs/chartWindowSeconds");
const QString kReconnect = QStringLiteral("session/reconnectOnStart");
const QString kNotify = QStringLiteral("prefs/notifyOnBuildEnd");
} // namespace

Preferences Preferences::load()
{
    const QSettings s;
    const Preferences d;
    Preferences p;
    p.gpuRefreshMs = std::clamp(s.value(kRefresh, d.gpuRefreshMs).toInt(), kMinRefreshMs, kMaxRefreshMs);
    p.memoryUnit = s.value(kMemoryUnit).toString() == QLatin1String("MiB") ? MemoryUnit::MiB : MemoryUnit::GiB;
    p.temperatureUnit = s.value(kTemperatureUnit).toString() == QLatin1String("F") ? TemperatureUnit::Fahrenheit
                                                                                   : TemperatureUnit::Celsius;
    p.chartWindowSeconds = std::max(0, s.value(kChartWindow, d.chartWindowSeconds).toInt());
    p.reconnectOnStart = s.value(kReconnect, d.reconnectOnStart).toBool();
    p.notifyOnBuildEnd = s.value(kNotify, d.notifyOnBuildEnd).toBool();
    return p;
}

void Preferences::save() const
{
    QSettings s;
    s.setValue(kRefresh, std::clamp(gpuRefreshMs, kMinRefreshMs, kMaxRefreshMs));
    s.setValue(kMemoryUnit, memoryUnit == MemoryUnit::MiB ? QStringLiteral("MiB") : QStringLiteral("GiB"));
    s.setValue(
        kTemperatureUnit, temperatureUnit == TemperatureUnit::Fahrenheit ? QStringLiteral("F") : QStringLiteral("C"));
    s.setValue(kChartWindow, std::max(0, chartWindowSeconds));
    s.setValue(kReconnect, reconnectOnStart);
    s.setValue(kNotify, notifyOnBuildEnd);
}

QString Preferences::formatMemory(double mib) const
{
    if (memoryUnit == MemoryUnit::MiB)
        return QStringLiteral("%1 MiB").arg(qRound64(mib));
    return QStringLiteral("%1 GiB").arg(mib / 1024.0, 0, 'f', 1);
}

QString Preferences::formatTemperature(double celsius) const
{
    if (temperatureUnit == TemperatureUnit::Fahrenheit)
        return QStringLiteral("%1 °F").arg(qRound(celsius * 9.0 / 5.0 + 32.0));
    return QStringLiteral("%1 °C").arg(qRound(celsius));
}

} // namespace kf
