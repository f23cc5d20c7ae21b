// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The GPM stream's parser (core/gpu/gpmdmon.h) and the GPM probe's (core/gpu/gpmprobe.h):
// dmon tables with a random column set (GPM and dmon's own, blank- or comma-separated, with or
// without units, date and time), rows a column short or long, values of every shape, nvidia-smi
// complaints in between, and probe outputs around them.
#include "core/gpu/gpmdmon.h"
#include "core/gpu/gpmprobe.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

QByteArray dmonColumn(FuzzInput& in)
{
    return in.pick({ "gpu", "smutil", "smocc", "mmaact", "dram", "pcitx", "pcirx", "nvltx", "nvlrx", "pwr", "gtemp",
        "mtemp", "sm", "mem", "Date", "Time", "gract", "fp16", "GPU", "x", "" });
}

QByteArray dmonValue(FuzzInput& in)
{
    switch (in.below(8)) {
    case 0: return in.number();
    case 1: return in.real();
    case 2: return in.pick({ "-", "N/A", "[N/A]", "", "GPM:%", "Idx" });
    case 3: return in.raw(10);
    case 4: return "22:03:1" + QByteArray::number(in.below(10));
    default: return QByteArray::number(in.below(101));
    }
}

QByteArray table(FuzzInput& in)
{
    const bool csv = in.chance(30);
    const QByteArray sep = csv ? QByteArray(", ") : QByteArray("  ");
    const int columns = 1 + in.below(16);
    QByteArray names = "#", units = "#";
    for (int c = 0; c < columns; ++c) {
        names += (c ? sep : QByteArray(" ")) + dmonColumn(in);
        units += (c ? sep : QByteArray(" ")) + in.pick({ "Idx", "W", "C", "%", "GPM:%", "GPM:MiB/s", "MHz" });
    }
    QByteArray out;
    if (in.chance(10))
        out += "Failed to start GPM sampling on all GPUs: In use by another client\n";
    const bool header = in.chance(85);
    const int rows = in.below(12);
    for (int r = 0; r < rows; ++r) {
        if (header && (r == 0 || in.chance(8))) {
            out += names + kf::fuzz::lineEnd(in);
            if (in.chance(70))
                out += units + kf::fuzz::lineEnd(in);
        }
        const int n = columns + (in.chance(15) ? in.below(3) - 1 : 0);
        for (int c = 0; c < n; ++c)
            out += (c ? sep : QByteArray("   ")) + dmonValue(in);
        out += in.chance(5) ? QByteArray() : kf::fuzz::lineEnd(in);
    }
    return out;
}

QByteArray prefixed(const QByteArray& key, const QByteArray& text)
{
    QByteArray out;
    for (const QByteArray& line : text.split('\n'))
        out += key + '\t' + line + '\n';
    return out;
}

QByteArray probe(FuzzInput& in)
{
    QByteArray out = "query_rc\t" + in.pick({ "0", "2", "18", "x" }) + '\n';
    out += prefixed("query",
        "index, name, compute_cap, mig.mode.current, driver_version\n" + QByteArray::number(in.below(3))
            + ", NVIDIA H100, " + in.pick({ "9.0", "8.0", "10.0", "x", "9", "" }) + ", "
            + in.pick({ "Enabled", "Disabled", "[N/A]" }) + ", 570.1");
    out += "help\t" + in.number() + '\n';
    out += "dmon_rc\t" + in.number() + '\n';
    out += prefixed("dmon", table(in));
    if (in.chance(30))
        out += "dcgm\t" + in.raw(40) + '\n';
    return out;
}

void parseAll(QByteArrayView bytes)
{
    const kf::DmonResult first = kf::parseDmon(bytes);
    (void)kf::parseDmon(bytes, first.layout);
    (void)kf::parseGpmProbe(bytes);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzInput in(data, size);
    parseAll(QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)));
    parseAll(table(in));
    parseAll(probe(in));
    return 0;
}
