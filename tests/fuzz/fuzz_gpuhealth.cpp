// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The health script's output (core/gpu/gpuhealthprobe.h): the query table with a random set of
// health columns and values, -q lines with bus ids of every shape, nvlink -e counters and kernel
// log Xid lines with odd bus ids, codes and lengths, in any order; then judged.
#include "core/gpu/gpuhealthprobe.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

QByteArray bus(FuzzInput& in)
{
    switch (in.below(6)) {
    case 0: return "00000000:" + QByteArray::number(in.below(256), 16) + ":00.0";
    case 1: return "0000:" + QByteArray::number(in.below(256), 16) + ":00";
    case 2: return QByteArray::number(in.below(256), 16) + ":00";
    case 3: return "PCI:" + in.raw(12);
    case 4: return in.raw(20);
    default: return "00000000:18:00.0";
    }
}

QByteArray healthValue(FuzzInput& in)
{
    switch (in.below(7)) {
    case 0: return in.number();
    case 1: return in.real() + in.pick({ "", " us", " %" });
    case 2: return in.pick({ "Yes", "No", "Enabled", "Disabled", "[N/A]", "[Not Supported]", "" });
    case 3: return bus(in);
    case 4: return in.raw(8);
    default: return QByteArray::number(in.below(20));
    }
}

QByteArray output(FuzzInput& in)
{
    static const QList<QByteArray> columns = [] {
        QList<QByteArray> out;
        for (const QString& spellings : kf::gpuHealthFieldArguments())
            out += spellings.toUtf8().split('|');
        return out;
    }();
    QByteArray out;
    if (in.chance(5))
        out += "missing\t1\n";
    const int n = 1 + in.below(int(columns.size()));
    QByteArray header;
    QList<int> picked;
    for (int c = 0; c < n; ++c) {
        const int k = in.below(int(columns.size()));
        picked << k;
        header += (c ? ", " : "") + columns[k] + (in.chance(20) ? QByteArray(" [us]") : QByteArray());
    }
    out += "query_rc\t" + in.pick({ "0", "6", "18" }) + "\nquery\t" + header + '\n';
    const int gpus = in.below(9);
    for (int g = 0; g < gpus; ++g) {
        QByteArray row;
        for (int c = 0; c < n + (in.chance(10) ? 1 : 0); ++c)
            row += (c ? ", " : "")
                + (columns.value(picked.value(c)) == "index" ? QByteArray::number(g) : healthValue(in));
        out += "query\t" + row + '\n';
    }
    const int lines = in.below(40);
    for (int i = 0; i < lines; ++i) {
        switch (in.below(7)) {
        case 0: out += "q\tGPU " + bus(in) + '\n'; break;
        case 1:
            out += "q\t        " + in.pick({ "Replays Since Reset", "Replay Number Rollovers", "Replays" }) + " : "
                + in.number() + '\n';
            break;
        case 2: out += "nvlink\tGPU " + in.number() + ": NVIDIA H200 (UUID: GPU-1)\n"; break;
        case 3:
            out += "nvlink\t\t Link " + in.number() + ": " + in.pick({ "CRC Errors", "Replay Errors", "Tx0", "" })
                + ": " + in.real() + '\n';
            break;
        case 4:
            out += "xid\t[" + in.real() + "] NVRM: Xid (" + (in.chance(70) ? QByteArray("PCI:") : QByteArray())
                + bus(in) + "): " + in.number() + ", " + in.raw(30) + '\n';
            break;
        case 5: out += "xid_source\t" + in.pick({ "dmesg", "journalctl", "" }) + '\n'; break;
        default: out += "xid_error\t" + in.raw(30) + '\n'; break;
        }
    }
    return out;
}

void parseAll(QByteArrayView bytes)
{
    const kf::GpuHealthReport r = kf::parseGpuHealthOutput(bytes);
    (void)r.summary();
    (void)r.toJson();
    (void)r.verdict();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzInput in(data, size);
    parseAll(QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)));
    parseAll(output(in));
    return 0;
}
