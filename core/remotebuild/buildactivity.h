// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildsession.h"

#include <QString>

namespace kf {

// What a followed build is doing, in one line, from its last progress and three clocks (ms on
// one monotonic clock). The Build pane says it again every second, so a long quiet step (one
// nvcc for minutes) shows time passing instead of a line that looks frozen:
//   "12/48 steps, 2 running, 3.1 steps/min, elapsed 4 min 2 s, ETA 9 min 10 s"
//   "... · step running 2 min 14 s, no output for 1 min 5 s"   (quiet for quietAfterMs)
// A finished build (succeeded, failed, cancelled) has neither ETA nor running count.
struct BuildActivity
{
    BuildProgress progress;
    qint64 progressAtMs = -1;  // when `progress` arrived; -1: none yet
    qint64 stepStartedMs = -1; // when the newest step began (its status line); -1: unknown
    qint64 lastOutputMs = -1;  // the newest log output; -1: none yet
    qint64 attachedMs = -1;    // when following began (elapsed before the first progress)
    bool finished = false;

    static constexpr qint64 kQuietAfterMs = 15000;

    // A chunk of log arrived at `nowMs`.
    void output(qint64 nowMs) { lastOutputMs = nowMs; }
    // A progress update arrived at `nowMs`; a new step (more done, or another line) restarts the step clock.
    void update(const BuildProgress& p, qint64 nowMs);
    QString text(qint64 nowMs, qint64 quietAfterMs = kQuietAfterMs) const;
    // Elapsed seconds at `nowMs`: the build's own clock, carried forward while running.
    double elapsedSeconds(qint64 nowMs) const;
};

// "45 s", "2 min 14 s", "1 h 5 min"; "?" for a negative value.
QString durationText(double seconds);

} // namespace kf
