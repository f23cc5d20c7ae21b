// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/gpuexport.h"

namespace kf::fleet {

namespace {

QByteArray escapeLabel(const QString& v)
{
    QByteArray out;
    for (const char c : v.toUtf8()) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

// 15 significant digits: NVLink's bytes per second pass 10^10, and 10 digits would round them.
QByteArray number(double v)
{
    return QByteArray::number(v, 'g', 15);
}

// GPM's percentages as DCGM's ratios, its MiB/s as DCGM's bytes per second.
double ratio(double percent)
{
    return hasValue(percent) ? percent / 100.0 : noValue();
}

double bytesPerSecond(double mibPerS)
{
    return hasValue(mibPerS) ? mibPerS * 1024.0 * 1024.0 : noValue();
}

} // namespace

QByteArray dcgmExposition(const QList<GpuSample>& gpus, const QString& hostname)
{
    struct Family
    {
        const char* name;
        const char* help;
        double (*value)(const GpuSample&);
    };
    static const Family families[] = {
        { "DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).",
            [](const GpuSample& g) { return g.value(GpuField::UtilGpu); } },
        { "DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).",
            [](const GpuSample& g) { return g.value(GpuField::MemUsed); } },
        // Consumers take the total as used + free (dcgm-exporter has no total): derive free
        // when the stream has only used and total (some fields lists omit memory.free).
        { "DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).",
            [](const GpuSample& g) {
                return hasValue(g.value(GpuField::MemFree)) ? g.value(GpuField::MemFree)
                    : (hasValue(g.value(GpuField::MemTotal)) && hasValue(g.value(GpuField::MemUsed)))
                    ? g.value(GpuField::MemTotal) - g.value(GpuField::MemUsed)
                    : noValue();
            } },
        { "DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).",
            [](const GpuSample& g) { return g.value(GpuField::TempGpu); } },
        { "DCGM_FI_DEV_MEMORY_TEMP", "Memory temperature (in C).",
            [](const GpuSample& g) { return g.value(GpuField::TempMemory); } },
        { "DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).",
            [](const GpuSample& g) { return g.value(GpuField::PowerDraw); } },
        { "DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).",
            [](const GpuSample& g) { return g.value(GpuField::ClockSm); } },
        { "DCGM_FI_DEV_MEM_CLOCK", "Memory clock frequency (in MHz).",
            [](const GpuSample& g) { return g.value(GpuField::ClockMem); } },
        { "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "Total number of double-bit volatile ECC errors.",
            [](const GpuSample& g) { return g.value(GpuField::EccUncorrected); } },
        { "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "Total number of single-bit volatile ECC errors.",
            [](const GpuSample& g) { return g.value(GpuField::EccCorrected); } },
        { "DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "Current clock event (throttle) reasons (bitmask).",
            [](const GpuSample& g) { return g.hasReasons ? double(g.reasons) : noValue(); } },
        // GPM through nvidia-smi dmon, as DCGM's profiling fields: ratios 0..1 and bytes per second.
        { "DCGM_FI_PROF_SM_ACTIVE", "Ratio of cycles an SM has at least one warp assigned.",
            [](const GpuSample& g) { return ratio(g.value(GpuField::SmActive)); } },
        { "DCGM_FI_PROF_SM_OCCUPANCY", "Ratio of warps resident on an SM to its maximum.",
            [](const GpuSample& g) { return ratio(g.value(GpuField::SmOccupancy)); } },
        { "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "Ratio of cycles the tensor (HMMA/IMMA) pipe is active.",
            [](const GpuSample& g) { return ratio(g.value(GpuField::TensorActive)); } },
        { "DCGM_FI_PROF_DRAM_ACTIVE", "Ratio of cycles the device memory interface is active.",
            [](const GpuSample& g) { return ratio(g.value(GpuField::DramActive)); } },
        { "DCGM_FI_PROF_PCIE_TX_BYTES", "PCIe bytes transmitted per second.",
            [](const GpuSample& g) { return bytesPerSecond(g.value(GpuField::PcieTx)); } },
        { "DCGM_FI_PROF_PCIE_RX_BYTES", "PCIe bytes received per second.",
            [](const GpuSample& g) { return bytesPerSecond(g.value(GpuField::PcieRx)); } },
        { "DCGM_FI_PROF_NVLINK_TX_BYTES", "NVLink bytes transmitted per second.",
            [](const GpuSample& g) { return bytesPerSecond(g.value(GpuField::NvlinkTx)); } },
        { "DCGM_FI_PROF_NVLINK_RX_BYTES", "NVLink bytes received per second.",
            [](const GpuSample& g) { return bytesPerSecond(g.value(GpuField::NvlinkRx)); } },
    };
    QList<QByteArray> labels;
    labels.reserve(gpus.size());
    for (const GpuSample& g : gpus) {
        labels.append("{gpu=\"" + QByteArray::number(g.index) + "\",UUID=\"" + escapeLabel(g.text(GpuField::Uuid))
            + "\",device=\"nvidia" + QByteArray::number(g.index) + "\",modelName=\""
            + escapeLabel(g.text(GpuField::Name)) + "\",Hostname=\"" + escapeLabel(hostname) + "\",pci_bus_id=\""
            + escapeLabel(g.text(GpuField::BusId)) + "\",exporter=\"kernelforge\"}");
    }
    QByteArray out;
    out.reserve(gpus.size() * 2048 + 1024);
    for (const Family& f : families) {
        QByteArray lines;
        for (qsizetype i = 0; i < gpus.size(); ++i) {
            const double v = f.value(gpus.at(i));
            if (hasValue(v))
                lines += f.name + labels.at(i) + ' ' + number(v) + '\n';
        }
        if (lines.isEmpty())
            continue;
        out += QByteArray("# HELP ") + f.name + ' ' + f.help + "\n# TYPE " + f.name + " gauge\n" + lines;
    }
    return out;
}

} // namespace kf::fleet
