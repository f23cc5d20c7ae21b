// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/gpufield.h"

#include <QByteArrayView>
#include <QList>
#include <QString>
#include <QStringList>

// Whether a host can stream GPM (core/gpu/gpmdmon.h), and why not: asked once per host by one
// bounded script (gpmProbeScript(); $1 nvidia-smi, $2 the metric ids), one fact a line,
// tab-separated:
//   query_rc \t N, then query \t <line> ...   `nvidia-smi --query-gpu=index,name,compute_cap,
//                                              mig.mode.current,driver_version --format=csv` (a
//                                              driver without compute_cap: index,name,driver_version)
//   help \t N                                 lines of `nvidia-smi dmon -h` that name --gpm-metrics
//   dmon_rc \t N, then dmon \t <line> ...     `nvidia-smi dmon -s p --gpm-metrics IDS -c 3`, at
//                                              most 20 s and 200 lines (only when help > 0)
//   dcgm \t <name>, profiler \t <name>        processes whose comm is DCGM's (nv-hostengine,
//                                              dcgm-exporter, dcgmi) or a profiler's (ncu, nsys)
// Lines without a known key (login banners) are ignored.
//
// Why not, per GPU, in this order: MIG mode on (device-level GPM is not what dmon reports then);
// compute capability below 9.0 (GPM is Hopper and newer: NVML's nvmlGpmQueryDeviceSupport);
// no GPM value in any of dmon's lines (with the counters held by another client when dmon says
// so or DCGM or a profiler runs). For the host: no nvidia-smi answer, or a driver whose dmon
// has no --gpm-metrics (GPM came with driver 525). Per metric: a metric no GPU gave a value
// for (NVLink on a board without NVLink) is named in the notes, and still asked for.
namespace kf {

struct GpmSupport
{
    bool available = false;        // at least one GPU gave GPM values
    QString why;                   // one sentence when not available
    QStringList notes;             // GPUs without GPM and metrics without values, when available
    QList<int> gpus;               // the GPUs that gave values
    QList<GpuField> metrics;       // the metrics that gave a value on some GPU
    QList<GpuField> silentMetrics; // asked for, no GPU gave a value
    QString driver;
};

QString gpmProbeScript();
GpmSupport parseGpmProbe(QByteArrayView output, const QList<GpuField>& asked = gpmGpuFields());

} // namespace kf
