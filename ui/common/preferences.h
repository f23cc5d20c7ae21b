// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

namespace kf {

// What the user chose under Edit > Preferences, kept in QSettings (prefs/*; reconnect on start
// keeps its older key, session/reconnectOnStart). Read with load() where a value is needed;
// nothing caches a copy that could go stale.
struct Preferences
{
    enum class MemoryUnit { GiB, MiB };
    enum class TemperatureUnit { Celsius, Fahrenheit };

    int gpuRefreshMs = 1000; // the nvidia-smi stream's interval, kMinRefreshMs..kMaxRefreshMs
    MemoryUnit memoryUnit = MemoryUnit::GiB;
    TemperatureUnit temperatureUnit = TemperatureUnit::Celsius;
    int chartWindowSeconds = 300; // the window a chart opens with; 0: the whole history
    bool reconnectOnStart = true; // reopen the hosts that were connected when the app closed
    bool notifyOnBuildEnd = true; // a desktop notification when a build finishes or fails

    static constexpr int kMinRefreshMs = 250;
    static constexpr int kMaxRefreshMs = 60000;

    static Preferences load();
    void save() const;

    // "71.5 GiB" / "73216 MiB" from MiB, as nvidia-smi reports memory.
    QString formatMemory(double mib) const;
    // "54 °C" / "129 °F" from degrees Celsius, as nvidia-smi reports temperature.
    QString formatTemperature(double celsius) const;

    bool operator==(const Preferences&) const = default;
};

} // namespace kf
