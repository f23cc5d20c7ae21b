// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/gpuhealth.h"
#include "core/util/result.h"

#include <QByteArrayView>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>

namespace kf {

class Transport;

// The agentless health check: one bounded script (gpuHealthScript(); $1 nvidia-smi, then one
// argument per field of the health query, its spellings joined by '|': the first the driver's
// --help-query-gpu lists is asked for), one fact a line, tab-separated:
//   fields \t f1,f2,...                   what was asked for
//   query_rc \t N, then query \t <line>   `nvidia-smi --query-gpu=<fields> --format=csv` (a
//                                          header, then a line per GPU; core/gpu/nvidiasmi.h)
//   q \t <line>                            of `nvidia-smi -q`, only the GPU headers
//                                          ("GPU 00000000:18:00.0") and the PCIe replay counters
//                                          ("        Replays Since Reset : 0",
//                                           "        Replay Number Rollovers : 0")
//   nvlink_rc \t N, then nvlink \t <line>  `nvidia-smi nvlink -e`: "GPU 0: NVIDIA H200 (UUID: ...)"
//                                          then "\t Link 0: Replay Errors: 0" (CRC, Replay,
//                                          Recovery; any "Link N: <what> Errors: <count>" line
//                                          counts); no Link lines: no NVLink
//   xid_source \t dmesg|journalctl, then xid \t <line>   the kernel log's "NVRM: Xid" lines
//                                          since boot (the last 200):
//                                          "[  812.33] NVRM: Xid (PCI:0000:18:00): 79, pid=..., GPU has fallen off the
//                                          bus." (old drivers: "NVRM: Xid (0000:01:00): 3, ...")
//   xid_error \t <why>                     neither dmesg nor journalctl could be read (not root,
//                                          not in adm/systemd-journal)
// Every command runs under `timeout` where the host has it; outputs are cut with head/tail.
// Lines without a known key (login banners) are ignored. Xids and replays are matched to GPUs
// by PCI bus id, NVLink counts by index.
struct GpuHealthReport
{
    bool driverMissing = false; // nvidia-smi not found (exit 127): no GPU to judge
    QString problem;            // nvidia-smi failing (NVML mismatch, no devices): judged as a failure
    QList<GpuHealthInput> inputs;
    QList<GpuHealth> gpus;         // parallel to inputs
    QString xidSource;             // "dmesg", "journalctl", empty: not readable
    QList<XidEvent> unmatchedXids; // Xids of a bus id no GPU has (a GPU gone from the bus)

    // Fail when nvidia-smi fails or an unmatched Xid is fatal; else the worst GPU's.
    HealthLevel verdict() const;
    QString summary() const; // "8 GPUs: 7 healthy, 1 unhealthy (GPU 3: Xid 79 ...)"
    QJsonObject toJson() const;
};

QString gpuHealthScript();
// The script's arguments after nvidia-smi: the health query's fields, spellings joined by '|'.
QStringList gpuHealthFieldArguments();
GpuHealthReport parseGpuHealthOutput(QByteArrayView output, int exitCode = 0);

// Runs the script over the transport (blocking, from a worker thread) and judges every GPU.
Result<GpuHealthReport> checkGpuHealth(Transport& transport, const QString& nvidiaSmi = QStringLiteral("nvidia-smi"),
    const QMap<QString, QString>& env = {});

} // namespace kf
