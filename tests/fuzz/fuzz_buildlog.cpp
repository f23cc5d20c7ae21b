// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildloganalyzer.h"
#include "core/remotebuild/ninjalog.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

// Fed in two uneven chunks: chunk boundaries must not change what is found.
void analyze(const QByteArray& bytes, qsizetype cut)
{
    kf::BuildLogAnalyzer a;
    a.feed(bytes.left(cut));
    a.feed(bytes.mid(cut));
    a.finish();
    const kf::NinjaLog log = kf::parseNinjaLog(bytes);
    (void)log.wallMs();
    (void)log.totalEdgeMs();
    (void)log.slowest(5);
}

// .ninja_log v4..v7 with start/end/mtime from the numbers that overflow (negative, INT64
// extremes), runs that restart, cut lines and hashes of any length.
QByteArray ninjaLog(FuzzInput& in)
{
    QByteArray out = "# ninja log v" + in.pick({ "5", "6", "7", "4", "99999999999", "x" }) + "\n";
    const int lines = in.below(16);
    for (int l = 0; l < lines; ++l) {
        out += in.number();
        out += "\t";
        out += in.number();
        out += "\t";
        out += in.number();
        out += "\t";
        out += in.pick({ "obj/a.o", "obj/b.o", "lib.so", "", "dir/" });
        out += "\t";
        out += in.chance(80) ? QByteArray("0123456789abcdef") : in.raw(20);
        out += in.chance(10) ? QByteArray() : QByteArray("\n");
    }
    return out;
}

// A build log: ninja/CMake progress, compiler and nvcc diagnostics, CMake errors with their
// indented continuation, pip's wrapper lines, ANSI colours, carriage-return progress.
QByteArray buildLog(FuzzInput& in)
{
    QByteArray out;
    const int lines = in.below(24);
    for (int l = 0; l < lines; ++l) {
        switch (in.below(12)) {
        case 0: {
            QByteArray p = "[" + in.number();
            out += p + "/" + in.number() + "] Building CXX object a.o";
            break;
        }
        case 1: {
            QByteArray p = "  [kf " + in.number();
            p += "/" + in.number();
            out += p + " 2 " + in.real() + "] Building CUDA object CMakeFiles/x.dir/k.cu.o";
            break;
        }
        case 2: out += "/src/k.cu(" + in.number() + "): warning #177-D: variable \"lda\" was declared"; break;
        case 3:
            out += "/src/utils.h:" + in.number() + ":10: fatal error: cuda/atomic: No such file or directory";
            break;
        case 4: out += "nvcc error   : 'cicc' died due to signal 9 (Kill signal)"; break;
        case 5: out += "CMake Error at CMakeLists.txt:" + in.number() + " (message):"; break;
        case 6: out += "  continuation of a message"; break;
        case 7: out += "\x1b[31merror:\x1b[0m subprocess-exited-with-error"; break;
        case 8: out += "FAILED: obj/a.o"; break;
        case 9: {
            QByteArray p = "[" + in.number();
            out += p + "%] Built target x\r[" + in.number() + "%]";
            break;
        }
        case 10: out += "ninja: build stopped: subcommand failed."; break;
        default: out += in.raw(30); break;
        }
        out += kf::fuzz::lineEnd(in);
    }
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const QByteArray bytes(reinterpret_cast<const char*>(data), qsizetype(size));
    analyze(bytes, bytes.size() / 3);
    FuzzInput in(data, size);
    const QByteArray ninja = ninjaLog(in);
    analyze(ninja, in.below(int(ninja.size()) + 1));
    const QByteArray log = buildLog(in);
    analyze(log, in.below(int(log.size()) + 1));
    return 0;
}
