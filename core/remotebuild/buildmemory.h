// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/memorygate.h"

#include <QByteArrayView>
#include <QMetaType>
#include <QString>

// A build's memory, looked at every few seconds by BuildSession (the Build tab's memory chart and
// gate view, `build attach --json`) with one script, buildMemoryScript(), printing:
//   the memory view of the job's cgroup (<job>/cgroup, the runner's /proc/self/cgroup; the format
//                         is core/hosts/memoryview.h's)
//   start_oom_kill=N      that cgroup's oom_kill count when the job started (<job>/memview.start)
//   gate_state=<JSON>     the memory gate's ledger on one line (memgate.state, memorygate.h), when
//                         the job has a gate that has run
// and once more when it has ended, from the files the runner and the gate left (regular files,
// read over SFTP: no command runs): memview.start, memview.end, memgate.state.
namespace kf {

struct MemorySample
{
    qint64 timeMs = 0;      // ms since the epoch (client clock)
    qint64 availableKb = 0; // what the build may still use: MemAvailable, or less under its cgroup's limit
    qint64 totalKb = 0;     // what it works within: MemTotal, or its cgroup's limit when lower
    QString source;         // where the limit is: "MemAvailable" or "cgroup v1 /x (limit 1.0 GiB)"
    QString cgroup;         // the job's memory cgroup ("/user.slice/..."); empty: none found
    qint64 oomKills = -1;   // OOM kills in the job's cgroup since the job started; -1: not known
};

struct BuildMemoryPoll
{
    MemorySample sample; // totalKb 0: the server said nothing usable
    GateStatus gate;
};

// The script for job `id` under `root` (empty: the default job root).
QString buildMemoryScript(const QString& root, const QString& id);
// Pure; the sample is stamped with timeMs.
BuildMemoryPoll parseBuildMemory(QByteArrayView text, qint64 timeMs);
// Pure: the look at an ended job, from its memview.start, memview.end and memgate.state
// (each may be empty: not there).
BuildMemoryPoll endedBuildMemory(QByteArrayView start, QByteArrayView end, QByteArrayView gateState, qint64 timeMs);

} // namespace kf

Q_DECLARE_METATYPE(kf::MemorySample)
