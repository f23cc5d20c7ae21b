// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/throttlereasons.h"

namespace kf {

namespace {

struct Reason
{
    quint64 bit;
    const char* word;   // nvidia-smi's name (clocks_event_reasons.<word>)
    const char* phrase; // for people
};

constexpr Reason kReasons[] = {
    { 0x1, "gpu_idle", "idle" },
    { 0x2, "applications_clocks_setting", "app clocks setting" },
    { 0x4, "sw_power_cap", "power cap" },
    { 0x8, "hw_slowdown", "HW slowdown" },
    { 0x10, "sync_boost", "sync boost" },
    { 0x20, "sw_thermal_slowdown", "thermal slowdown" },
    { 0x40, "hw_thermal_slowdown", "HW thermal slowdown" },
    { 0x80, "hw_power_brake_slowdown", "HW power brake" },
    { 0x100, "display_clock_setting", "display clock setting" },
};

// The names of the bits set in mask, known ones first in table order, then each unknown bit
// as unknownPrefix + "0x...".
QStringList names(quint64 mask, const char* Reason::*name, QStringView unknownPrefix)
{
    QStringList out;
    quint64 known = 0;
    for (const Reason& r : kReasons) {
        known |= r.bit;
        if (mask & r.bit)
            out.append(QString::fromLatin1(r.*name));
    }
    for (int b = 0; b < 64; ++b) {
        const quint64 bit = quint64(1) << b;
        if ((mask & bit) && !(known & bit))
            out.append(unknownPrefix + QStringLiteral("0x") + QString::number(bit, 16));
    }
    return out;
}

} // namespace

QStringList reasonWords(quint64 mask)
{
    return names(mask, &Reason::word, {});
}

QStringList reasonPhrases(quint64 mask)
{
    return names(mask, &Reason::phrase, u"reason ");
}

} // namespace kf
