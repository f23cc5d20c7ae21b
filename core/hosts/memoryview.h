// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/novalue.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QMetaType>
#include <QString>

// How much memory a server's processes may still use: MemAvailable, or less when their cgroup
// (v1 or v2, at any level up to the hierarchy's root) has a limit. A container, a Slurm job or a
// systemd slice limits a build far below what /proc/meminfo shows (docs/FIELD.md: 125 GB
// available, 300 MB allowed). Preflight, the facts card, the MAX_JOBS hints and the Build tab's
// memory chart read this; the memory gate (resources/gate/kf-memgate) reads the same files the
// same way (`kf-memgate --memory` prints this format; tests/core/hosts/tst_memoryview compares).
//
// Wire format (memoryViewFunction()'s `kf_memview ROOT CGROUP_FILE`), one key=value a line:
//   mem_total_kb=N, mem_available_kb=N   /proc/meminfo (kB)
//   vm_oom_kill=N                        /proc/vmstat oom_kill: OOM kills since boot (kernel 4.13+)
//   cg_version=1|2                       where the memory controller is: v1 when it is mounted as a
//                                        cgroup v1 hierarchy and the process has a memory line, else v2
//   cg_path=<path>                       the process's cgroup (CGROUP_FILE: /proc/<pid>/cgroup lines
//                                        "N:memory,...:/path" for v1, "0::/path" for v2)
//   cg_level=<path>                      repeated: the process's cgroup, then each parent up to the
//                                        root of the mounted hierarchy; the cg_ keys below it are its files
//   cg_max=<bytes>|max                   v2 memory.max ("max": none); v1 memory.limit_in_bytes, where no
//                                        limit reads 9223372036854771712 (the page counter's maximum)
//   cg_current=<bytes>                   v2 memory.current, v1 memory.usage_in_bytes (page cache included)
//   cg_inactive_file=<bytes>             memory.stat inactive_file (v1: total_inactive_file): cache the
//                                        kernel reclaims before it kills, so not counted as used
//   cg_oom_kill=N                        v2 memory.events oom_kill (this cgroup and below), v1
//                                        memory.oom_control oom_kill
//   cg_peak=<bytes>                      v2 memory.peak (Linux 5.19+), v1 memory.max_usage_in_bytes
// A missing key is a missing file. The cgroup's folder: /proc/self/mountinfo's memory mount
// (cgroup with the memory option, or cgroup2) gives the mounted root R and the mount point M; a
// path P below R is the folder M + (P - R); a path outside R (a container's own hierarchy mounted
// at M) is M itself. Values of 2^60 bytes or more are no limit.
namespace kf {

struct CgroupLevel
{
    QString path;                         // "/user.slice/user-1000.slice"
    double maxBytes = noValue();          // no value: no limit (or no file)
    double currentBytes = noValue();      // usage, page cache included
    double inactiveFileBytes = noValue(); // reclaimable page cache
    double oomKills = noValue();
    double peakBytes = noValue();
    bool operator==(const CgroupLevel& o) const;
    // What the kernel will not reclaim: current - inactive file; no value without current.
    double workingSetBytes() const;
};

struct MemoryView
{
    double memTotalKiB = noValue();
    double memAvailableKiB = noValue();
    double kernelOomKills = noValue(); // /proc/vmstat
    int cgroupVersion = 0;             // 0: no memory cgroup found
    QString cgroupPath;
    QList<CgroupLevel> levels; // own cgroup first
    bool operator==(const MemoryView& o) const;

    // The tightest of MemTotal and every cgroup limit on the way up; no value when none is known.
    double limitKiB() const;
    // What may still be allocated: the least of MemAvailable and, for each limited level,
    // its limit minus its working set; no value when none is known.
    double availableKiB() const;
    // The level whose limit leaves the least room (it decides availableKiB()); null when
    // MemAvailable decides or no cgroup has a limit.
    const CgroupLevel* bindingLevel() const;
    // Whether any cgroup on the way up has a limit.
    bool hasCgroupLimit() const;
    // OOM kills counted by the process's own cgroup (it and below); no value without one.
    double oomKills() const;
    // Where the limit comes from, for people: "cgroup v2 /user.slice/x (limit 4.0 GiB)" or
    // "MemAvailable"; the binding level when there is one, else the tightest limited level.
    QString limitSource() const;
};

// The POSIX sh function `kf_memview ROOT CGROUP_FILE` printing the format above for the
// process whose CGROUP_FILE it is (/proc/self/cgroup when that cannot be read). ROOT is
// prefixed to every file it reads (empty on a server; a fake tree in tests). Needs awk, sed, head.
QByteArray memoryViewFunction();

// Pure; unknown keys and garbage values are skipped. Bounded: at most 64 levels.
MemoryView parseMemoryView(QByteArrayView text);

} // namespace kf

Q_DECLARE_METATYPE(kf::MemoryView)
