// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/gpufield.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

// A GPU's health verdict from what nvidia-smi (core/gpu/gpuhealthprobe.h) or dcgm-exporter
// (core/fleet/fleethost.h) report, judged by one set of rules, so the GPUs tab, `gpu health`,
// the fleet's "unhealthy" filter and a rollout's --skip-unhealthy agree.
//
// The rules (NVIDIA's "GPU Memory Error Management" and Xid documents, docs.nvidia.com/deploy/
// a100-gpu-mem-error-mgmt and xid-errors; nvidia-smi --help-query-gpu for the fields):
//   Fail  an Xid the driver logs for a hardware fault since boot (48 double-bit ECC, 62, 64, 74
//         NVLink, 79 fallen off the bus, 95 uncontained ECC, 119/120 GSP, 140); uncorrected ECC
//         errors since the driver loaded (volatile); pages pending retirement or rows pending
//         remapping (a reset is needed); a row remapping failure (NVIDIA's replacement criterion)
//   Warn  other Xids (13, 31, 43, 45 are the application's, noted only); uncorrected ECC in the
//         GPU's life (aggregate); retired pages, rows remapped for uncorrectable errors; ECC
//         turned off; a PCIe link narrower than its maximum, or slower while the GPU is busy
//         (an idle GPU lowers its generation to save power: only noted); PCIe replays; NVLink
//         CRC, replay or recovery errors; time in HW thermal, HW power brake or SW thermal
//         slowdown since the driver loaded (SW power capping under load is normal: noted)
//   Pass  everything else; what could not be read (no kernel log access for Xids, a field the
//         driver lacks) is said, never counted as healthy or as broken.
namespace kf {

enum class HealthLevel : quint8 { Pass, Warn, Fail };
QString healthLevelName(HealthLevel level); // "pass", "warn", "fail"

struct XidEvent
{
    int code = 0;
    QString when; // as the kernel log printed it ("[12345.678]", "Dec 04 22:01:07")
    QString text; // the driver's words after the code, bounded
};

// What is known of one GPU; noValue() / empty where a source did not say.
struct GpuHealthInput
{
    GpuSample sample;                       // index, name, bus id and the health rows of the field table
    double pcieReplays = noValue();         // nvidia-smi -q "Replays Since Reset"; DCGM_FI_DEV_PCIE_REPLAY_COUNTER
    double pcieReplayRollovers = noValue(); // "Replay Number Rollovers"
    double nvlinkErrors = noValue();        // CRC + replay + recovery errors over all links; no value: no NVLink
    QStringList nvlinkDetail;               // "link 3: 12 CRC errors"
    QList<XidEvent> xids;                   // since boot, from the kernel log
    bool xidKnown = false;                  // the Xid source answered (kernel log read, or an exporter's field)
    QString xidUnknownWhy;                  // why not, when it did not
};

struct HealthFinding
{
    HealthLevel level = HealthLevel::Pass;
    QString check;   // "xid", "ecc", "retired_pages", "remapped_rows", "pcie_link", "pcie_replay", "nvlink",
                     // "clock_events"
    QString message; // for people: "Xid 79 (GPU has fallen off the bus) at [812.33]"
};

struct GpuHealth
{
    int index = -1;
    QString name;
    HealthLevel verdict = HealthLevel::Pass;
    QList<HealthFinding> findings; // every check that said something, worst first

    // "healthy", "2 warnings: PCIe link x8 of x16; ...", "unhealthy: Xid 79 (...)".
    QString summary() const;
    QJsonObject toJson() const;
};

// The Xid's short name from NVIDIA's catalog ("GPU has fallen off the bus"); empty when unlisted.
QString xidName(int code);
GpuHealth judgeGpuHealth(const GpuHealthInput& input);
HealthLevel worstHealth(const QList<GpuHealth>& gpus);

} // namespace kf
