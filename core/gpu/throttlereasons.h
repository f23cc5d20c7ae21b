// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QStringList>

namespace kf {

// Clock event (throttle) reasons in words for people (the GPU card), from the mask of
// clocks_event_reasons.active: 0x1 "idle", 0x2 "app clocks setting", 0x4 "power cap",
// 0x8 "HW slowdown", 0x10 "sync boost", 0x20 "thermal slowdown", 0x40 "HW thermal slowdown",
// 0x80 "HW power brake", 0x100 "display clock setting"; an unknown bit is "reason 0x..."
// each. Used wherever a person reads them: the GPU card, alerts, the CLI's tables.
QStringList reasonPhrases(quint64 mask);

// The same bits by nvidia-smi's names ("gpu_idle", "sw_power_cap", ...; an unknown bit is
// "0x..."), for JSON and other machine-read output.
QStringList reasonWords(quint64 mask);

} // namespace kf
