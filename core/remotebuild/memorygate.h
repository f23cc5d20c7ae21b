// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/jobs/jobfolder.h"
#include "core/remotebuild/unitpeak.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QMetaType>
#include <QString>

// The memory gate: a compiler launcher (resources/gate/kf-memgate; its docstring has the
// admission rule) that KernelForge puts into a job's folder, so that every compile of a build, or
// of a server's JIT, waits until the memory it is expected to need fits. Nothing is installed
// on the server outside the job folder and nothing runs between compiles: each launcher takes
// a lock, reads and updates a small ledger, and runs or waits.
//
// install() adds to the job (core/jobs/jobfolder.h):
//   memgate        the launcher (executable); the prelude links bin/nvcc to it (a gated nvcc for
//                  tools that want an nvcc path)
//   memgate.seed   peak_kb<TAB>kind<TAB>unit lines: the peaks learned from earlier runs
//   prelude        sh the runner sources before the command, setting (each keeps a launcher the
//                  profile named, after the gate's):
//     KF_MEMGATE_DIR=<job folder>          where the launchers meet
//     CMAKE_{C,CXX,CUDA}_COMPILER_LAUNCHER=<memgate>[;theirs]   read by CMake >= 3.17 at a first configure
//     CMAKE_ARGS=-DCMAKE_{C,CXX,CUDA}_COMPILER_LAUNCHER=... <the rest>   every configure that passes
//                                          CMAKE_ARGS (pip/uv and scikit-build-core, the CMake profiles)
//     PYTORCH_NVCC=<bin/nvcc> or "<memgate> theirs"   torch.utils.cpp_extension's ninja builds (setup.py)
//     FLASHINFER_NVCC_LAUNCHER, FLASHINFER_CXX_LAUNCHER=<memgate>[ theirs]   flashinfer's AOT build and JIT
//     DG_JIT_NVCC_COMPILER, CUDA_NVCC_EXECUTABLE=<bin/nvcc>   DeepGEMM's JIT and tools taking an nvcc
//                                          path (a path set before becomes the gated nvcc's target)
//     KF_MEMGATE_NVCC_THREAD_MB            the first guess per nvcc thread (sglkernel::kGiBPerNvccThread)
// The launchers write (formats for the parsers below):
//   memgate.state  one JSON object, replaced by rename:
//     {"v":1, "updated_ms":N, "seq":N, "done":N, "retried":N, "failed":N,
//      "memory":{"limit_kb":N, "available_kb":N, "reserve_kb":N, "source":"cgroup v1 /x" | "MemAvailable"},
//      "waiting":[U...], "running":[U...], "recent":[{"key","kind","peak_kb","wall_ms","status"}...],
//      "kinds":{"<kind>":<largest peak_kb this run>}}
//     U: {"id","pid","start","kind","key","seq","since_ms","exclusive","est_kb"} and, once admitted,
//     "admitted_ms","rss_kb","peak_kb" (KiB; the compile's whole process tree)
//   memgate.peaks  peak_kb<TAB>wall_ms<TAB>status<TAB>kind<TAB>unit, one line per finished attempt;
//                  status: the exit status, or "signal N"
//   memgate.lock   the lock (flock)
namespace kf {

// One compile the gate knows of: waiting, running, or recently finished.
struct GateUnit
{
    QString unit; // the output file
    QString kind; // nvcc, cxx, cc, other
    qint64 expectedKb = 0;
    qint64 rssKb = -1;      // running: the tree's RSS at the last sample
    qint64 peakKb = -1;     // running: so far; finished: the peak
    qint64 sinceMs = 0;     // waiting: queued at; running: admitted at (ms since the epoch)
    bool exclusive = false; // runs alone (again, after the OOM killer killed it)
    qint64 wallMs = -1;     // finished: how long it took
    QString status;         // finished: "0", "1", "signal 9"
    bool operator==(const GateUnit&) const = default;
};

// What the gate is doing (memgate.state).
struct GateStatus
{
    bool present = false; // the job has a gate and it has run once
    qint64 updatedMs = 0;
    QList<GateUnit> waiting; // in arrival order
    QList<GateUnit> running;
    QList<GateUnit> recent; // the last finished units, oldest first
    int done = 0;
    int retried = 0; // attempts killed by the OOM killer and run again
    int failed = 0;
    qint64 limitKb = -1;     // the memory the gate works within (cgroup limit or MemTotal)
    qint64 availableKb = -1; // what was still available at the last look
    qint64 reserveKb = -1;
    QString source; // "cgroup v2 /x" or "MemAvailable"
    bool operator==(const GateStatus&) const = default;
};

namespace memorygate {

// The launcher (the kf_resources copy of resources/gate/kf-memgate).
QByteArray launcherScript();

// Adds the launcher, the seed and the prelude to a job; moves the profile's own
// -DCMAKE_<LANG>_COMPILER_LAUNCHER out of CMAKE_ARGS into the chain behind the gate.
void install(JobSpec& spec, const QList<UnitPeak>& learned);

// memgate.seed from learned peaks (units with a tab or a line break are left out).
QByteArray seedFile(const QList<UnitPeak>& learned);

// Pure. memgate.peaks; malformed lines are skipped. At most 100000 lines.
QList<UnitPeak> parsePeaks(QByteArrayView text);
// Pure. memgate.state; not present when it is not such an object. Lists are cut at 4096 units.
GateStatus parseState(QByteArrayView json);

// The peaks to seed the profile's next run with: per unit the largest of this run's attempts
// (one the OOM killer stopped counts: at least that much), but never below half of what was
// learned before (a cache hit or a lighter run lowers it slowly); units not compiled this run
// keep what was learned. CMake's configure checks (isConfigureCheck) are never learned. Sorted
// by unit.
QList<UnitPeak> learn(const QList<UnitPeak>& previous, const QList<UnitPeak>& measured);

// A compile of CMake's own checks (a try_compile's scratch project, named anew each configure).
bool isConfigureCheck(const QString& unit);

} // namespace memorygate
} // namespace kf

Q_DECLARE_METATYPE(kf::GateStatus)
