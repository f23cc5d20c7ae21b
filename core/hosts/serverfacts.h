// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/memoryview.h"
#include "core/util/novalue.h"
#include "core/util/result.h"
#include "core/util/versioncompare.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

// The "server facts": what a GPU server has, gathered by ONE remote POSIX sh script
// (serverFactsScript()) that needs nothing but sh and tolerates every missing tool. The facts
// card (ui/hosts/serverfactswidget, `kernelforge-cli facts`) shows them, the hints
// (core/sglkernel/serverhints) judge them, and preflight (core/remotebuild/preflight) runs the
// same script with a ProjectProbe to look at a build's folder too: one probe, one parser, one struct.
//
// Wire format (the script's stdout), one `key=value` a line, value up to the end of line:
//   kf_facts=1                      first line: format version
//   os=PRETTY_NAME from /etc/os-release (may still carry its "quotes")
//   kernel=uname -r          arch=uname -m          hostname=uname -n
//   glibc=<getconf GNU_LIBC_VERSION>                 "glibc 2.36"; missing on musl
//   cpus=online CPU count    cpu_model=first "model name" of /proc/cpuinfo
//   mem_total_kb= / mem_available_kb= / vm_oom_kill= / cg_*=   the memory view (core/hosts/memoryview.h)
//   home=$HOME               disk_home=<1024-blocks> <available>   (df -Pk "$HOME")
//   gpu=<one line of nvidia-smi -L>        repeated: "GPU 0: NVIDIA H200 (UUID: GPU-...)"
//   gpu_info=<index>, <compute_cap>, <memory.total MiB>   repeated (csv,noheader,nounits)
//   driver=<driver_version>
//   nvidia_smi_error=<first line nvidia-smi printed when it failed>
//   nvcc=<"release" line of nvcc --version>   e.g. "Cuda compilation tools, release 12.4, V12.4.131"
//   nvcc_path=<the nvcc found: PATH, then $CUDA_HOME/bin, then /usr/local/cuda/bin>
//   cccl_dir=<nvcc's ../include/cccl, when it exists (CUDA 13)>
//   cmake=<first line of cmake --version>     ninja=<ninja --version>     ccache=<ccache --version>
//   gcc=<first line of gcc --version>         python3=<python3 --version> (python when no python3)
//   pkg_torch= / pkg_sglang= / pkg_sglang-kernel= / pkg_sgl-kernel=  installed versions
//                                (importlib.metadata; torch falls back to `import torch`; the
//                                kernel wheel is sglang-kernel since 2026-03, sgl-kernel before)
//   torch_error=<why torch could not be imported>  (python exists, torch does not load)
//   python_soabi=<sysconfig SOABI>   "cpython-312-x86_64-linux-gnu": what an extension must be built for
//   With a ProjectProbe (the script cd's to its working directory first):
//   workdir=ok|missing               the working directory exists
//   torch_cuda=<torch.version.cuda>  (imports torch: the build compiles against it)
//   torch_cxx11_abi=0|1              torch.compiled_with_cxx11_abi(): the C++ ABI an extension links with
//   cmakelists=<line>                repeated, in file order: CMakeLists.txt (its first 256 KiB)
//   tree_line=<file>\t<line>         repeated: README.md / pyproject.toml lines naming torch or cmake
//                                    with a version (==, >=, ≥), and "python/pyproject.toml" for
//                                    sglang's own pyproject's "torch==" pins (ProjectProbe::sglangPyproject)
//   cplus_include_path=<$CPLUS_INCLUDE_PATH of the build's environment>
//   dflag_env=NAME=value             repeated: a CMake-only variable exported in the environment
//   disk_build=<1024-blocks> <available>  df -Pk of the build folder (or its nearest existing parent)
//   kf_facts_end=1                  last line: the script ran to the end
// A key with an empty value means the tool exists but said nothing useful. Missing keys
// mean the tool is missing. Unknown keys are kept in ServerFacts::extra (newer scripts).
namespace kf {

class Transport;

struct GpuFact
{
    int index = -1;
    QString name;              // "NVIDIA H200"
    QString uuid;              // "GPU-3b439167-..."
    QString computeCapability; // "9.0"; empty when the driver cannot say
    double memoryMiB = noValue();
    bool operator==(const GpuFact& o) const
    {
        return index == o.index && name == o.name && uuid == o.uuid && computeCapability == o.computeCapability
            && sameValue(memoryMiB, o.memoryMiB);
    }
};

// A build's folder on the server, as the probe saw it with a ProjectProbe.
struct ProjectFacts
{
    bool probed = false; // the script looked (workdir= arrived)
    bool workDirExists = false;
    QStringList cmakeLists;                   // CMakeLists.txt's lines, in file order
    QList<QPair<QString, QString>> treeLines; // (file, line): what the tree asks for (sglkernel::torchRequirement)
    QString cplusIncludePath;                 // the build environment's CPLUS_INCLUDE_PATH
    QString tree;                             // which sgl-kernel tree and layout (sglkernel::KernelTree::describe)
    QStringList exportedCMakeVariables;       // "SGL_KERNEL_ENABLE_FA3=OFF": exported, where the build ignores them
    double diskTotalKiB = noValue();          // the build folder's file system
    double diskAvailableKiB = noValue();
    bool operator==(const ProjectFacts& o) const
    {
        return probed == o.probed && workDirExists == o.workDirExists && cmakeLists == o.cmakeLists
            && treeLines == o.treeLines && cplusIncludePath == o.cplusIncludePath && tree == o.tree
            && exportedCMakeVariables == o.exportedCMakeVariables && sameValue(diskTotalKiB, o.diskTotalKiB)
            && sameValue(diskAvailableKiB, o.diskAvailableKiB);
    }
};

struct ServerFacts
{
    QString os; // "Debian GNU/Linux 12 (bookworm)"
    QString kernel;
    QString arch;
    QString glibc; // "2.36"; empty: not glibc, or not known
    QString hostName;
    int cpuCount = 0;
    QString cpuModel;
    // Sizes are measured values: noValue() when the script could not read them.
    MemoryView memory; // /proc/meminfo and the memory cgroup of the probe's login session
    QString homeDir;
    double diskHomeTotalKiB = noValue();
    double diskHomeAvailableKiB = noValue();
    QList<GpuFact> gpus;
    QString driverVersion;
    QString nvidiaSmiError; // nvidia-smi exists but failed ("Failed to initialize NVML: ...")
    bool hasNvidiaSmi = false;
    QString nvcc; // versions only: "12.4.131"
    QString nvccPath;
    QString ccclDir; // "/usr/local/cuda/include/cccl"; empty when there is none
    QString cmake;
    QString ninja;
    QString ccache;
    QString gcc;
    QString python;
    QString pythonSoabi;               // "cpython-312-x86_64-linux-gnu"
    QString torch;                     // "2.9.0+cu130"
    QString torchCuda;                 // "13.0": the CUDA torch was built for (project probes only)
    std::optional<bool> torchCxx11Abi; // torch's _GLIBCXX_USE_CXX11_ABI (project probes only)
    QString torchError;
    QString sglang;
    QString sglKernel;    // the sgl-kernel distribution (until 2026-03)
    QString sglangKernel; // the sglang-kernel distribution (since 2026-03; same import name sgl_kernel)
    // The libraries whose JIT caches a server fills (the caches' keys, core/deploy/jitcache.h):
    // distribution name ("flashinfer-python", "triton", "deep_gemm") -> version; those installed.
    QMap<QString, QString> jitLibraries;
    ProjectFacts project;                 // probed only with a ProjectProbe
    QList<QPair<QString, QString>> extra; // keys this version does not know
    bool complete = false;                // the end marker arrived (the script was not cut short)

    // Label/value rows for people (CLI table, GUI card), in a fixed order; missing tools
    // read "not found".
    QList<QPair<QString, QString>> rows() const;
    QJsonObject toJson() const;
};

// What preflight also wants to know: a project folder and a build folder on the server, and
// the build's environment (PATH, CUDA_HOME: they decide which nvcc and python the build gets).
struct ProjectProbe
{
    QString workingDirectory;   // empty: home
    QString buildPath;          // empty: home
    QMap<QString, QString> env; // exported before the script runs; sent on stdin, never on a command line
    QString sglangPyproject; // sglang's python/pyproject.toml for this tree (KernelTree::sglangPyproject); may be empty
};

// The script, run by /bin/sh on the remote side (it wraps everything in a function called
// with stdin from /dev/null, so no tool can swallow the rest of the script).
QByteArray serverFactsScript(const std::optional<ProjectProbe>& project = std::nullopt);

// Pure. Fails only when the output does not start like the script's (kf_facts=...):
// a shell that printed a banner first is tolerated, lines before the marker are skipped.
Result<ServerFacts> parseServerFacts(const QByteArray& output);

// Runs the script through the transport (blocking; call from a worker thread).
// At most this much output is read; past it the facts fail with outputCapError().
inline constexpr qint64 kServerFactsMaxOutput = 1024 * 1024;
Result<ServerFacts> collectServerFacts(
    Transport& transport, int timeoutMs = 120000, const std::optional<ProjectProbe>& project = std::nullopt);

// "12.4.131" from "Cuda compilation tools, release 12.4, V12.4.131" and friends.
QString versionFromToolOutput(const QString& key, const QString& raw);

// "1.5 GiB" style, from KiB; "unknown" for no value.
QString formatKiB(double kib);

} // namespace kf

Q_DECLARE_METATYPE(kf::ServerFacts)
