// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/nvidiasmi.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

void parseAll(QByteArrayView bytes, const QList<kf::GpuField>& requested)
{
    (void)kf::parseGpuCsv(bytes);
    (void)kf::parseGpuCsv(bytes, kf::defaultGpuFields());
    (void)kf::parseGpuCsv(bytes, requested);
    auto apps = kf::parseComputeApps(bytes);
    kf::joinProcessesToGpus(apps.processes, kf::parseGpuCsv(bytes).samples);
    (void)kf::probeGpuFields(bytes);
}

QByteArray gpuColumn(FuzzInput& in)
{
    QByteArray name = in.pick(
        { "timestamp", "index", "uuid", "gpu_uuid", "name", "gpu_name", "pci.bus_id", "gpu_bus_id", "driver_version",
            "pstate", "temperature.gpu", "temperature.memory", "utilization.gpu", "utilization.memory", "memory.total",
            "memory.used", "memory.free", "power.draw", "power.limit", "clocks.sm", "clocks.current.sm", "clocks.mem",
            "clocks.current.memory", "clocks.max.sm", "fan.speed", "ecc.errors.uncorrected.volatile.total",
            "ecc.errors.corrected.volatile.total", "clocks_throttle_reasons.active", "clocks_event_reasons.active",
            "compute_mode", "mig.mode.current", "compute_cap",
            // fields KernelForge does not show, as exporters ask for them
            "power.min_limit", "vbios_version", "clocks.current.graphics", "pcie.link.width.current", "count", "serial",
            "temperature.gpu.tlimit", "utilization.encoder", "fabric.state",
            "vgpu_driver_capability.heterogenous_multivGPU", "INDEX", "x" });
    if (in.chance(40))
        name += in.pick({ " [%]", " [MiB]", " [W]", " [MHz]", " [us]", " [ms]", " [", "[x]" });
    return name;
}

QByteArray gpuValue(FuzzInput& in)
{
    switch (in.below(14)) {
    case 0: return in.number();
    case 1: {
        QByteArray v = in.real();
        return v + in.pick({ "", " %", " MiB", " W", " MHz" });
    }
    case 2:
        return in.pick({ "[N/A]", "[Not Supported]", "[Insufficient Permissions]", "[Unknown Error]",
            "[GPU requires reset]", "[Requested functionality has been deprecated]", "N/A", "-", "" });
    case 3: {
        const qulonglong v = qulonglong(in.below(1 << 20));
        return "0x" + QByteArray::number(v << in.below(44), 16);
    }
    case 4: {
        QByteArray v = "2026/" + in.number();
        return v + "/29 15:24:25." + in.number();
    }
    case 5: return in.pick({ "NVIDIA H200", "GRID A100-4C", "GeForce RTX 2080", "Tesla" });
    case 6: return "GPU-" + QByteArray::number(in.below(8)) + "b439167-c6d1";
    case 7: return in.pick({ "P0", "P8", "Enabled", "Disabled", "Default", "index", "pid" });
    case 8: return in.raw(12);
    case 9: return QByteArray::number(in.below(16));
    default: return QByteArray::number(in.below(200));
    }
}

QByteArray appsColumn(FuzzInput& in)
{
    QByteArray name = in.pick({ "pid", "process_name", "name", "used_gpu_memory", "used_memory", "gpu_uuid", "uuid",
        "timestamp", "gpu_name", "gpu_bus_id", "gpu_serial", "x" });
    if (in.chance(30))
        name += " [MiB]";
    return name;
}

QByteArray appsValue(FuzzInput& in)
{
    switch (in.below(7)) {
    case 0: return in.number();
    case 1: return in.pick({ "python3", "/usr/bin/python3 -m sglang.launch_server", "a, b", "" });
    case 2: return in.number() + " MiB";
    case 3: return in.pick({ "[N/A]", "[Not Supported]", "N/A" });
    case 4: return "GPU-" + QByteArray::number(in.below(4));
    case 5: return in.raw(10);
    default: return QByteArray::number(in.below(70000));
    }
}

// A CSV table: an optional header with a random column subset (in random order, repeated
// anywhere), then rows of typed values with sometimes one column too many or too few.
QByteArray table(FuzzInput& in, QByteArray (*column)(FuzzInput&), QByteArray (*value)(FuzzInput&))
{
    int columns = 1 + in.below(24);
    if (in.chance(5))
        columns = 180 + in.below(60);
    QByteArray header;
    for (int c = 0; c < columns; ++c) {
        header += c ? ", " : "";
        header += column(in);
    }
    QByteArray out;
    if (in.chance(10))
        out += "\xEF\xBB\xBF";
    const bool withHeader = in.chance(80);
    if (withHeader)
        out += header + kf::fuzz::lineEnd(in);
    const int rows = in.below(10);
    for (int r = 0; r < rows; ++r) {
        if (withHeader && in.chance(8))
            out += header + kf::fuzz::lineEnd(in);
        const int n = columns + (in.chance(15) ? in.below(3) - 1 : 0);
        for (int c = 0; c < n; ++c) {
            if (c)
                out += in.pick({ ", ", ",", " , " });
            out += value(in);
        }
        out += in.chance(5) ? QByteArray() : kf::fuzz::lineEnd(in);
        if (in.chance(3))
            out += in.pick({ "No running processes found", "Failed to initialize NVML: Driver/library version mismatch",
                       "No devices were found" })
                + "\n";
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzInput in(data, size);
    QList<kf::GpuField> requested;
    const int n = in.below(30);
    for (int i = 0; i < n; ++i)
        requested.append(kf::GpuField(in.below(int(kf::GpuField::ComputeCap) + 1)));
    parseAll(QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)), requested);
    parseAll(table(in, gpuColumn, gpuValue), requested);
    parseAll(table(in, appsColumn, appsValue), requested);
    return 0;
}
