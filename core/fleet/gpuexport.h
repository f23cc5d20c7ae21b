// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/nvidiasmi.h"

#include <QByteArray>
#include <QList>
#include <QString>

// The bridge for hosts without an exporter: the agentless SSH stream (nvidia-smi over SSH)
// served as Prometheus text under dcgm-exporter's names, so Prometheus can scrape such hosts
// like any other (`kernelforge-cli gpu export ... --listen 127.0.0.1:PORT`).
//
// Page (text format 0.0.4), one HELP/TYPE pair per family and one line per GPU:
//   DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-...",device="nvidia0",modelName="NVIDIA H200",
//     Hostname="gpu1",pci_bus_id="00000000:18:00.0",exporter="kernelforge"} 97
// Families: GPU_UTIL, FB_USED, FB_FREE (MiB), GPU_TEMP, MEMORY_TEMP, POWER_USAGE, SM_CLOCK,
// MEM_CLOCK, ECC_DBE_VOL_TOTAL / ECC_SBE_VOL_TOTAL (nvidia-smi's volatile uncorrected /
// corrected totals), CLOCKS_EVENT_REASONS (the bitmask), and where the host streams GPM
// (core/gpu/gpmdmon.h) DCGM's profiling names: DCGM_FI_PROF_SM_ACTIVE, SM_OCCUPANCY,
// PIPE_TENSOR_ACTIVE, DRAM_ACTIVE (ratios 0..1, as DCGM gives them: GPM's % / 100),
// PCIE_TX_BYTES / PCIE_RX_BYTES and NVLINK_TX_BYTES / NVLINK_RX_BYTES (bytes per second: GPM's
// MiB/s x 2^20). A value nvidia-smi did not give is left out (never written as 0). Label values
// are escaped as the format says.
// The names, help texts and units are core/gpu/exporterfields.h's rows with a help text.
namespace kf::fleet {

QByteArray dcgmExposition(const QList<GpuSample>& gpus, const QString& hostname);

} // namespace kf::fleet
