// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/gpufield.h"

#include <QString>
#include <QStringView>

#include <optional>

// The GPU exporters' metric names, once: dcgm-exporter's DCGM_FI_* and the nvidia_smi_exporter's
// nvidia_smi_*, each with the field-table row (core/gpu/gpufield.h) it fills and the factor from
// the exporter's unit into the row's. The fleet's Prometheus query asks for exactly these names,
// its reader maps them back here (core/fleet/fleethost.cpp), and `gpu export` writes the DCGM
// rows that have a help text (core/fleet/gpuexport.cpp): a name added here is read, asked for
// and written, never one without the others.
namespace kf {

enum class GpuExporter : quint8 { Dcgm, NvidiaSmi };

// What a value becomes.
enum class ExporterValue : quint8 {
    Number,      // the row's number: value * scale
    Flag,        // a Text row "Yes" (1) / "No" (0)
    Reasons,     // GpuSample::reasons, the clock event bitmask
    Xid,         // the last Xid error (not a row: FleetHost::xid)
    PcieReplays, // PCIe replays (not a row: one of the health check's counters)
    NvlinkError, // one NVLink error total (not a row: summed for the health check)
    Info,        // a series that only carries the GPU's labels (model, UUID, host name)
};

struct ExporterField
{
    GpuExporter exporter;
    const char* name;
    ExporterValue value;
    GpuField field;   // Number and Flag rows; Unknown otherwise
    double scale;     // the exporter's unit into the row's (DCGM's ratios are 0..1, GPM rows %)
    const char* help; // `gpu export` writes the DCGM rows with one ("": read only)
};

// clang-format off
inline constexpr ExporterField kExporterFields[] = {
    // dcgm-exporter: what `gpu export` writes, in its order.
    { GpuExporter::Dcgm, "DCGM_FI_DEV_GPU_UTIL", ExporterValue::Number, GpuField::UtilGpu, 1, "GPU utilization (in %)." },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_FB_USED", ExporterValue::Number, GpuField::MemUsed, 1, "Framebuffer memory used (in MiB)." },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_FB_FREE", ExporterValue::Number, GpuField::MemFree, 1, "Framebuffer memory free (in MiB)." },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_GPU_TEMP", ExporterValue::Number, GpuField::TempGpu, 1, "GPU temperature (in C)." },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_MEMORY_TEMP", ExporterValue::Number, GpuField::TempMemory, 1, "Memory temperature (in C)." },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_POWER_USAGE", ExporterValue::Number, GpuField::PowerDraw, 1, "Power draw (in W)." },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_SM_CLOCK", ExporterValue::Number, GpuField::ClockSm, 1, "SM clock frequency (in MHz)." },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_MEM_CLOCK", ExporterValue::Number, GpuField::ClockMem, 1, "Memory clock frequency (in MHz)." },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", ExporterValue::Number, GpuField::EccUncorrected, 1, "Total number of double-bit volatile ECC errors." },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", ExporterValue::Number, GpuField::EccCorrected, 1, "Total number of single-bit volatile ECC errors." },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_CLOCKS_EVENT_REASONS", ExporterValue::Reasons, GpuField::Unknown, 1, "Current clock event (throttle) reasons (bitmask)." },
    // GPM, as DCGM's profiling fields: ratios 0..1 and bytes per second.
    { GpuExporter::Dcgm, "DCGM_FI_PROF_SM_ACTIVE", ExporterValue::Number, GpuField::SmActive, 100, "Ratio of cycles an SM has at least one warp assigned." },
    { GpuExporter::Dcgm, "DCGM_FI_PROF_SM_OCCUPANCY", ExporterValue::Number, GpuField::SmOccupancy, 100, "Ratio of warps resident on an SM to its maximum." },
    { GpuExporter::Dcgm, "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", ExporterValue::Number, GpuField::TensorActive, 100, "Ratio of cycles the tensor (HMMA/IMMA) pipe is active." },
    { GpuExporter::Dcgm, "DCGM_FI_PROF_DRAM_ACTIVE", ExporterValue::Number, GpuField::DramActive, 100, "Ratio of cycles the device memory interface is active." },
    { GpuExporter::Dcgm, "DCGM_FI_PROF_PCIE_TX_BYTES", ExporterValue::Number, GpuField::PcieTx, 1.0 / 1048576, "PCIe bytes transmitted per second." },
    { GpuExporter::Dcgm, "DCGM_FI_PROF_PCIE_RX_BYTES", ExporterValue::Number, GpuField::PcieRx, 1.0 / 1048576, "PCIe bytes received per second." },
    { GpuExporter::Dcgm, "DCGM_FI_PROF_NVLINK_TX_BYTES", ExporterValue::Number, GpuField::NvlinkTx, 1.0 / 1048576, "NVLink bytes transmitted per second." },
    { GpuExporter::Dcgm, "DCGM_FI_PROF_NVLINK_RX_BYTES", ExporterValue::Number, GpuField::NvlinkRx, 1.0 / 1048576, "NVLink bytes received per second." },
    // dcgm-exporter, read only: older names, Xid and the health fields.
    { GpuExporter::Dcgm, "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS", ExporterValue::Reasons, GpuField::Unknown, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_XID_ERRORS", ExporterValue::Xid, GpuField::Unknown, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", ExporterValue::Number, GpuField::EccUncorrectedAll, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL", ExporterValue::Number, GpuField::EccCorrectedAll, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_RETIRED_SBE", ExporterValue::Number, GpuField::RetiredSbe, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_RETIRED_DBE", ExporterValue::Number, GpuField::RetiredDbe, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_RETIRED_PENDING", ExporterValue::Flag, GpuField::RetiredPending, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_ROW_REMAP_PENDING", ExporterValue::Flag, GpuField::RemapPending, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_ROW_REMAP_FAILURE", ExporterValue::Flag, GpuField::RemapFailure, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", ExporterValue::Number, GpuField::RemapCorrectable, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", ExporterValue::Number, GpuField::RemapUncorrectable, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_PCIE_LINK_GEN", ExporterValue::Number, GpuField::PcieGen, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_PCIE_MAX_LINK_GEN", ExporterValue::Number, GpuField::PcieGenMax, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_PCIE_LINK_WIDTH", ExporterValue::Number, GpuField::PcieWidth, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_PCIE_MAX_LINK_WIDTH", ExporterValue::Number, GpuField::PcieWidthMax, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_PCIE_REPLAY_COUNTER", ExporterValue::PcieReplays, GpuField::Unknown, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", ExporterValue::NvlinkError, GpuField::Unknown, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_NVLINK_CRC_DATA_ERROR_COUNT_TOTAL", ExporterValue::NvlinkError, GpuField::Unknown, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", ExporterValue::NvlinkError, GpuField::Unknown, 1, "" },
    { GpuExporter::Dcgm, "DCGM_FI_DEV_NVLINK_RECOVERY_ERROR_COUNT_TOTAL", ExporterValue::NvlinkError, GpuField::Unknown, 1, "" },
    // nvidia_smi_exporter (utkuozdemir/nvidia_gpu_exporter): ratios, bytes and hertz.
    { GpuExporter::NvidiaSmi, "nvidia_smi_utilization_gpu_ratio", ExporterValue::Number, GpuField::UtilGpu, 100, "" },
    { GpuExporter::NvidiaSmi, "nvidia_smi_memory_used_bytes", ExporterValue::Number, GpuField::MemUsed, 1.0 / 1048576, "" },
    { GpuExporter::NvidiaSmi, "nvidia_smi_memory_total_bytes", ExporterValue::Number, GpuField::MemTotal, 1.0 / 1048576, "" },
    { GpuExporter::NvidiaSmi, "nvidia_smi_memory_free_bytes", ExporterValue::Number, GpuField::MemFree, 1.0 / 1048576, "" },
    { GpuExporter::NvidiaSmi, "nvidia_smi_temperature_gpu", ExporterValue::Number, GpuField::TempGpu, 1, "" },
    { GpuExporter::NvidiaSmi, "nvidia_smi_power_draw_watts", ExporterValue::Number, GpuField::PowerDraw, 1, "" },
    { GpuExporter::NvidiaSmi, "nvidia_smi_power_limit_watts", ExporterValue::Number, GpuField::PowerLimit, 1, "" },
    { GpuExporter::NvidiaSmi, "nvidia_smi_clocks_current_sm_clock_hz", ExporterValue::Number, GpuField::ClockSm, 1e-6, "" },
    { GpuExporter::NvidiaSmi, "nvidia_smi_gpu_info", ExporterValue::Info, GpuField::Unknown, 1, "" },
};
// clang-format on

// The row of a metric name; null for a name neither exporter writes (or KernelForge does not read).
const ExporterField* exporterField(QStringView name);
// The exporter's name for a row's number (its first Number row for the field); null when it has none.
const ExporterField* exporterFieldFor(GpuExporter exporter, GpuField field);
// Every name of the table whose value is one of `values` (all when empty), as one Prometheus
// regex alternation (the names are [A-Za-z_] only: no escaping, checked by the test).
QString exporterNameRegex(std::initializer_list<ExporterValue> values = {});
// What an exporter's number means in the row, or noValue() when it is none: DCGM's "blank"
// sentinels (9223372036854775794 and friends, where a GPU has no such sensor), negatives,
// NaN and infinities are no value.
double exporterNumber(const ExporterField& row, double value);

} // namespace kf
