// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpuprocesses.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

const QByteArray kMark = "0123456789abcdef";

void parseAll(QByteArrayView bytes)
{
    (void)kf::parsePmon(bytes);
    (void)kf::parsePsLines(bytes);
    (void)kf::parseGpuProcessOutput(bytes, kMark);
    kf::GpuSample gpu;
    gpu.index = 0;
    gpu.setText(kf::GpuField::Uuid, QStringLiteral("GPU-0b439167-c6d1"));
    (void)kf::parseGpuProcessOutput(bytes, kMark, { gpu });
}

QByteArray value(FuzzInput& in)
{
    switch (in.below(8)) {
    case 0: return in.number();
    case 1: return "-";
    case 2: return in.pick({ "C", "G", "C+G", "python3", "my app", "[N/A]" });
    case 3: return in.real();
    case 4: return in.raw(8);
    default: return QByteArray::number(in.below(100000));
    }
}

// pmon: '#' header lines naming a column subset (with or without Date Time), then rows.
QByteArray pmon(FuzzInput& in)
{
    static const QList<QByteArray> names = { "Date", "Time", "gpu", "pid", "type", "sm", "mem", "enc", "dec", "jpg",
        "ofa", "fb", "ccpm", "command", "x" };
    QByteArray out;
    int columns = 0;
    if (in.chance(85)) {
        columns = 1 + in.below(14);
        out += "#";
        for (int c = 0; c < columns; ++c)
            out += ' ' + in.pick(names);
        out += "\n# Idx # C/G % % % % % % MB MB name\n";
    }
    const int rows = in.below(12);
    for (int r = 0; r < rows; ++r) {
        const int n = columns + in.below(4) - 1;
        for (int c = 0; c < n; ++c)
            out += in.pick({ " ", "    ", "\t" }) + value(in);
        out += in.chance(5) ? QByteArray() : kf::fuzz::lineEnd(in);
    }
    return out;
}

QByteArray psLines(FuzzInput& in)
{
    QByteArray out;
    const int rows = in.below(8);
    for (int r = 0; r < rows; ++r) {
        out += QByteArray::number(in.below(70000)) + ' ' + in.number() + ' ' + in.pick({ "root", "alice", "" }) + ' '
            + in.real() + ' ' + in.number() + ' ' + in.raw(20) + kf::fuzz::lineEnd(in);
    }
    return out;
}

// The poll script's output: sections in any order, some missing, statuses of any shape.
QByteArray sections(FuzzInput& in)
{
    QByteArray out = in.chance(20) ? QByteArray("Welcome (a banner)\n") : QByteArray();
    const int n = in.below(8);
    for (int i = 0; i < n; ++i) {
        const QByteArray name = in.pick({ "me", "gpus", "apps", "pmon", "ps", "start", "end", "bogus" });
        out += "\x1eKF" + (in.chance(90) ? kMark : in.raw(16)) + ' ' + name;
        if (in.chance(90))
            out += ' ' + in.pick({ "0", "1", "2", "127", "-1", "99999999999999999999", "x" });
        out += '\n';
        if (name == "gpus")
            out += QByteArray::number(in.below(9)) + ", GPU-" + QByteArray::number(in.below(3)) + "b439167-c6d1\n";
        else if (name == "apps")
            out += QByteArray::number(in.below(70000)) + ", python3, " + in.number() + ", GPU-"
                + QByteArray::number(in.below(3)) + "b439167-c6d1\n";
        else if (name == "pmon")
            out += pmon(in);
        else if (name == "ps")
            out += psLines(in);
        else if (name == "start")
            out += QByteArray::number(in.below(70000)) + ' ' + in.number() + kf::fuzz::lineEnd(in);
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzInput in(data, size);
    parseAll(QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)));
    parseAll(pmon(in));
    parseAll(sections(in));
    return 0;
}
