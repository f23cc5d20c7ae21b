// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/verify/importdiagnosis.h"
#include "core/verify/verifyreport.h"
#include "tests/fuzz/fuzzinput.h"

namespace {

using kf::fuzz::FuzzInput;

QByteArray path(FuzzInput& in)
{
    return in.pick({ "/home/u/b/common_ops.so", "/home/u/b/flash_ops.abi3.so", "/pkg/sgl_kernel/x.so", "", "/" })
        + in.raw(6);
}

// The verify script's output: its keys in any order and number, values typed or raw, cuobjdump
// blocks opened and never closed, nvidia-smi tables, tracebacks.
QByteArray scriptOutput(FuzzInput& in)
{
    QByteArray out;
    const int lines = in.below(40);
    for (int i = 0; i < lines; ++i) {
        switch (in.below(12)) {
        case 0: out += "dir\t" + path(in); break;
        case 1: out += in.pick({ "lib\t", "pkglib\t" }) + in.number() + "\t" + path(in); break;
        case 2: out += "objdump_begin\t" + path(in); break;
        case 3:
            out += "objdump\t"
                + in.pick({ "ELF file    1: a.1.sm_90a.cubin", "PTX file    2: a.2.sm_80.ptx",
                    "cuobjdump info    : File 'a' does not contain device code", "cuobjdump fatal   : x" });
            break;
        case 4: out += "objdump_end\t" + in.number(); break;
        case 5:
            out += "nvsmi\t"
                + in.pick({ "index, name, compute_cap", "0, NVIDIA H200, 9.0", "1, X, 12.0", "2, Y, [N/A]",
                    "Failed to initialize NVML: Driver/library version mismatch" });
            break;
        case 6: out += in.pick({ "import_rc\t", "fa3_rc\t" }) + in.number(); break;
        case 7:
            out += in.pick({ "import\t", "fa3\t" })
                + in.pick({ "ImportError: x.so: undefined symbol: _ZN3c104cuda9SetDeviceEa",
                    "ImportError: libcudart.so.12: cannot open shared object file", "No module named 'torch'",
                    "Can not import FA3", "undefined symbol: cuInit", "" })
                + in.raw(10);
            break;
        case 8:
            out += in.pick({ "python\t", "package\t", "torch\t", "cuobjdump\t", "python_version\t" }) + path(in);
            break;
        case 9: out += "wheel\t" + in.number() + "\t" + path(in); break;
        case 10: out += in.pick({ "lib_more\t1", "nvsmi_missing\t1", "dir_missing\tx" }); break;
        default: out += in.raw(20); break;
        }
        out += kf::fuzz::lineEnd(in);
    }
    return out;
}

void judge(const QByteArray& bytes, FuzzInput& in)
{
    kf::VerifyReport r = kf::parseVerifyOutput(bytes);
    std::optional<kf::BuildProfile> profile;
    if (in.chance(50)) {
        profile = kf::BuildProfile {};
        profile->cmakeArgs << QString::fromLatin1(in.pick({ "-DSGL_KERNEL_ENABLE_FA3=ON",
            "-DSGL_KERNEL_ENABLE_FA3=", "-DSGL_KERNEL_ENABLE_FA3:BOOL=off", "-DSGL_KERNEL_ENABLE_FA3", "-D" }));
    }
    kf::evaluateVerify(r, profile);
    (void)r.toJsonLines();
    (void)r.summary();
    (void)kf::diagnoseImport(bytes, in.below(3), QStringLiteral("sgl_kernel"));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    FuzzInput in(data, size);
    judge(QByteArray(reinterpret_cast<const char*>(data), qsizetype(size)), in);
    judge(scriptOutput(in), in);
    return 0;
}
