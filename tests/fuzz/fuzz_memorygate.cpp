// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The memory view (core/hosts/memoryview.h), the build's memory look (buildmemory.h) and the memory
// gate's files (memorygate.h: memgate.peaks, memgate.state) with what is learned from them.
#include "core/hosts/memoryview.h"
#include "core/remotebuild/buildmemory.h"
#include "core/remotebuild/memorygate.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

void parseAll(QByteArrayView bytes)
{
    const kf::MemoryView v = kf::parseMemoryView(bytes);
    (void)v.limitKiB();
    (void)v.availableKiB();
    (void)v.limitSource();
    (void)v.oomKills();
    (void)kf::parseBuildMemory(bytes, 1);
    (void)kf::endedBuildMemory(bytes, bytes, bytes, 1);
    (void)kf::memorygate::parseState(bytes);
    const QList<kf::UnitPeak> peaks = kf::memorygate::parsePeaks(bytes);
    (void)kf::memorygate::seedFile(kf::memorygate::learn(peaks, peaks));
}

QByteArray bytesValue(FuzzInput& in)
{
    switch (in.below(6)) {
    case 0: return "max";
    case 1: return "9223372036854771712";
    case 2: return "1152921504606846976";
    case 3: return in.raw(6);
    default: return in.number();
    }
}

// The probe's lines: meminfo keys, a cgroup header, levels with their files, a gate line.
QByteArray view(FuzzInput& in)
{
    QByteArray out;
    const int n = in.below(24);
    for (int i = 0; i < n; ++i) {
        const QByteArray key = in.pick(
            { "mem_total_kb", "mem_available_kb", "vm_oom_kill", "cg_version", "cg_path", "cg_level", "cg_max",
                "cg_current", "cg_inactive_file", "cg_oom_kill", "cg_peak", "start_oom_kill", "gate_state", "=", "" });
        out += key + '=';
        out += key == "gate_state" ? QByteArray(R"({"v":1,"waiting":[{"key":"a","est_kb":)") + in.number() + "}]}"
            : key == "cg_level" || key == "cg_path" ? in.pick({ "/", "/a/b", "", "//" })
                                                    : bytesValue(in);
        out += kf::fuzz::lineEnd(in);
    }
    return out;
}

// memgate.peaks lines with numbers, statuses and units of any shape.
QByteArray peaks(FuzzInput& in)
{
    QByteArray out;
    const int n = in.below(10);
    for (int i = 0; i < n; ++i) {
        out += in.number() + '\t' + in.number() + '\t' + in.pick({ "0", "1", "signal 9", "" }) + '\t'
            + in.pick({ "nvcc", "cxx", "", "x\ty" }) + '\t' + in.pick({ "a.o", "b.o", "", " ", "\xff" });
        out += kf::fuzz::lineEnd(in);
    }
    return out;
}

// memgate.state: the ledger with values of the wrong types in places.
QByteArray state(FuzzInput& in)
{
    auto value = [&]() -> QByteArray {
        switch (in.below(5)) {
        case 0: return "\"x\"";
        case 1: return "null";
        case 2: return "[]";
        case 3: return "1e400";
        default: return in.number();
        }
    };
    QByteArray units = "[";
    const int n = in.below(5);
    for (int i = 0; i < n; ++i)
        units += (i ? "," : "") + QByteArray(R"({"key":"u","est_kb":)") + value() + R"(,"rss_kb":)" + value()
            + R"(,"since_ms":)" + value() + R"(,"exclusive":)" + in.pick({ "true", "1", "null" }) + "}";
    units += in.chance(90) ? "]" : "";
    return QByteArray(R"({"v":)") + in.pick({ "1", "2", "\"1\"" }) + R"(,"done":)" + value()
        + R"(,"memory":{"limit_kb":)" + value() + R"(},"waiting":)" + units + R"(,"running":)" + units + R"(,"recent":)"
        + units + "}";
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzInput in(data, size);
    parseAll(QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)));
    parseAll(view(in));
    parseAll(peaks(in));
    parseAll(state(in));
    return 0;
}
