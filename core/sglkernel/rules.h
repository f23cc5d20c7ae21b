// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>
#include <utility>

// What it takes to build sgl-kernel (SGLang's CUDA kernels) on a server: the domain facts
// KernelForge checks and advises on, in one place, each with where it comes from. Preflight
// (core/remotebuild/preflight), the server facts hints (core/sglkernel/serverhints) and the
// build-log hints (core/remotebuild/diagnosticparser) ask these functions and tables instead of
// writing their own numbers. Pure; table-tested in tests/core/sglkernel/tst_rules.cpp.
namespace kf::sglkernel {

// ---- CUDA and GPU architectures -------------------------------------------------------------

// The arch-specific target sgl-kernel compiles for a GPU of this compute capability, and the
// first CUDA whose nvcc knows it (older ones stop with "Unsupported gpu architecture
// 'compute_120a'", or sgl-kernel leaves the target out and the GPU has no kernel at run time).
struct ArchRule
{
    const char* computeCapability; // as nvidia-smi prints compute_cap: "12.0"
    const char* arch;              // "sm_120a"
    const char* minimumCuda;       // "12.8"
};
// Sources: CUDA 12.0 release notes (sm_90a), CUDA 12.8 release notes (sm_100a, sm_120a);
// sgl-kernel's CMakeLists.txt adds compute_100a/compute_120a from CUDA 12.8 on.
inline constexpr ArchRule kArchRules[] = {
    { "9.0", "sm_90a", "12.0" },   // Hopper: H100, H200, GH200
    { "10.0", "sm_100a", "12.8" }, // Blackwell data center: B200, GB200
    { "12.0", "sm_120a", "12.8" }, // Blackwell workstation: RTX PRO 6000, RTX 50xx
};

// The rule for a compute capability; a GPU newer than the table's newest gets the newest rule
// (a CUDA that knows it knows the older ones: its minimum is a lower bound). Null for GPUs
// without an arch-specific target (Ampere and older).
const ArchRule* archRuleFor(const QString& computeCapability);
// Whether this nvcc ("12.4.131") can compile for the rule's target.
bool cudaCanBuild(const QString& nvccVersion, const ArchRule& rule);

// sgl-kernel's own switch that adds a GPU generation's code (sgl-kernel/CMakeLists.txt):
// ENABLE_BELOW_SM90 adds sm_80 and sm_89, SGL_KERNEL_ENABLE_SM90A sm_90a (on from CUDA 12.4),
// SGL_KERNEL_ENABLE_SM100A sm_100a and sm_120a (on from CUDA 12.8). "-DSGL_KERNEL_ENABLE_SM90A=ON"
// for "9.0"; empty for a compute capability no switch covers. What verify advises when a
// library has no code for a GPU.
QString archSwitch(const QString& computeCapability);

// The target preflight checks the toolkit against when it judges a build: sm_120a, the GPUs the
// built-in profiles and the sgl-kernel-sm120-cuda13 patch set are for.
const ArchRule& preflightArch();

// "13.0" from "13.0.48": the CUDA release people name (nvcc --version's "release 13.0").
QString cudaRelease(const QString& nvccVersion);

// ---- CCCL (CUB, Thrust, libcu++) ------------------------------------------------------------

// CUDA 13 moved CCCL's headers from <cuda>/include to <cuda>/include/cccl; nvcc looks there,
// host compilers do not ("fatal error: cuda/atomic: No such file or directory"). Source: CUDA
// 13.0 release notes; the cccl-include-dir patch of sgl-kernel-sm120-cuda13.yaml adds the folder.
inline constexpr char kCcclMovedInCuda[] = "13.0";
bool cudaMovedCccl(const QString& nvccVersion);
// Whether CMakeLists.txt (its lines, read as CMake: comments do not count) names a .../cccl folder.
bool addsCcclInclude(const QStringList& cmakeListsLines);
// Upstream's Dockerfile (python/sglang/kernels/aot/Dockerfile, 2026) sets the folder for every
// compiler instead: ENV CPLUS_INCLUDE_PATH=/usr/local/cuda/include/cccl (and C_INCLUDE_PATH).
// The entry of a colon-separated CPLUS_INCLUDE_PATH that is a .../cccl folder, or empty.
QString ccclOnIncludePath(const QString& cplusIncludePath);

// ---- CMake policies -------------------------------------------------------------------------

// The CMake version that introduced each policy sgl-kernel's CMakeLists.txt sets; an older CMake
// stops at `cmake_policy(SET CMPxxxx ...)` with "Policy CMPxxxx is not known to this version of
// CMake" unless the line is guarded by `if(POLICY CMPxxxx)`. Source: the cmake-policies(7)
// manual ("introduced in CMake x.y"). sgl-kernel sets CMP0169 and CMP0177 unguarded (2025).
struct PolicyRule
{
    const char* policy;
    const char* cmake;
};
inline constexpr PolicyRule kPolicyRules[] = {
    { "CMP0156", "3.29" }, // de-duplicate libraries on link lines
    { "CMP0167", "3.30" }, // FindBoost removed
    { "CMP0169", "3.30" }, // FetchContent_Populate(<name>) deprecated
    { "CMP0177", "3.31" }, // install() DESTINATION paths normalized
};
// Empty for a policy not in the table (older policies every supported CMake knows).
QString cmakeVersionForPolicy(const QString& policy);
// The CMake that knows every policy sgl-kernel sets: 3.31.
QString cmakeForSglKernel();

struct PolicyNeeds
{
    QStringList unguarded; // policies set without an if(POLICY ...) guard, in file order
    QString cmake;         // the CMake they need; empty when none of the table's is set unguarded
};
// The version a CMakeLists.txt's cmake_minimum_required(VERSION x[...y]) asks for ("3.26"), empty
// without one. sgl-kernel asks for 3.26 (2025-2026): an older CMake (Debian 12's 3.25) stops there,
// before any cmake_policy, so the policy guards help CMake 3.26 to 3.30 only.
QString cmakeMinimumRequired(const QStringList& cmakeListsLines);

// Reads a CMakeLists.txt (its lines) as CMake: each cmake_policy(SET ...) of the table that no
// enclosing if(POLICY <it>) guards, in file order; comments and bracket comments skipped.
PolicyNeeds unguardedPolicies(const QStringList& cmakeListsLines);

// ---- What the tree asks for ---------------------------------------------------------------

// A version the tree names for a tool, read from the tree, never assumed: torch from sglang's
// python/pyproject.toml ("torch==2.13.0", what sglang runs with), else the kernel README
// ("Requires torch == 2.13.0"), else the kernel pyproject's build requirement ("torch>=2.8.0");
// CMake from the kernel README ("CMake ≥3.31"). Sources: sglang's pyproject.toml and
// python/sglang/kernels/aot/README.md (sgl-kernel/README.md before 2026-07-29).
struct TreeRequirement
{
    QString tool;         // "torch", "cmake"
    QString op;           // "==" or ">="
    QString version;      // "2.13.0"
    QString file;         // where it was read ("README.md", "pyproject.toml", "python/pyproject.toml")
    QString line;         // the line, trimmed
    QString text() const; // "torch == 2.13.0 (README.md)"
    bool satisfiedBy(const QString& installed) const; // local versions ("+cu130") ignored
};
// Lines as (file, line): what the facts probe read from the tree (ProjectFacts::treeLines); the
// file is "README.md" or "pyproject.toml" of the kernel tree, or kSglangPyproject.
inline constexpr char kSglangPyproject[] = "python/pyproject.toml";
std::optional<TreeRequirement> torchRequirement(const QList<QPair<QString, QString>>& treeLines);
std::optional<TreeRequirement> cmakeRequirement(const QList<QPair<QString, QString>>& treeLines);

// ---- Package and wheel names ------------------------------------------------------------

// The distribution's name by era (import name sgl_kernel in both). Source: sgl-kernel's
// pyproject.toml, "Release sglang kernel 0.4.0" (#20440, 2026-03-16) renamed it.
inline constexpr const char* kKernelPackages[] = { "sglang-kernel", "sgl-kernel" };
// Which of them a wheel file is ("sglang_kernel-0.4.6-....whl": "sglang-kernel"), or empty.
QString kernelWheelPackage(const QString& fileName);

// ---- FlashAttention 3 -----------------------------------------------------------------------

// FA3 is compiled for sm_90a only. On SM120 GPUs (compute capability 12.0 and newer) its build
// fails or is dead weight, so sgl-kernel is built with -DSGL_KERNEL_ENABLE_FA3=OFF plus the FA3
// option and import-fallback patches (sgl-kernel-sm120-cuda13.yaml, fa3-option-respected).
inline constexpr char kFa3OffFromComputeCapability[] = "12.0";
bool fa3ShouldBeOff(const QString& computeCapability);
// The switch sgl-kernel's CMakeLists.txt reads, and where FA3 builds at all (in words).
inline constexpr char kFa3Option[] = "SGL_KERNEL_ENABLE_FA3";
inline constexpr char kFa3Needs[] = "sm_90a only; needs CUDA >= 12.4";
QString fa3Argument(bool on); // "-DSGL_KERNEL_ENABLE_FA3=ON" / "=OFF"
// cmakeArgs with every FA3 switch taken out and fa3Argument(on) last.
QStringList withFa3Argument(QStringList cmakeArgs, bool on);
// A variable sgl-kernel's CMakeLists.txt reads as a CMake variable (SGL_KERNEL_ENABLE_*,
// SGL_KERNEL_COMPILE_THREADS, ENABLE_BELOW_SM90) or CMake's own (CMAKE_BUILD_TYPE,
// CMAKE_CUDA_ARCHITECTURES): set in the environment it does nothing.
bool isCMakeOnlyVariable(const QString& name);
// -DSGL_KERNEL_ENABLE_FA3=ON|OFF among a build's cmake arguments (the last one wins, as on a
// cmake command line), else SGL_KERNEL_ENABLE_FA3 in its environment (which sgl-kernel ignores
// but people write): whether the build was asked for FA3; empty when it does not say.
std::optional<bool> fa3Requested(const QStringList& cmakeArgs, const QMap<QString, QString>& env);

// ---- Memory and parallelism -----------------------------------------------------------------

// Each nvcc thread (cicc/ptxas on sgl-kernel's largest units) peaks at 3-5 GB: budget 4 GiB a
// thread. MAX_JOBS compilers run at once, each with SGL_KERNEL_COMPILE_THREADS nvcc threads.
inline constexpr int kGiBPerNvccThread = 4;
inline constexpr qint64 kBytesPerNvccThread = qint64(kGiBPerNvccThread) << 30;
// SGL_KERNEL_COMPILE_THREADS when the profile leaves it unset (sgl-kernel's CMakeLists.txt default).
inline constexpr int kDefaultCompileThreads = 32;
// The -D a profile sets for nvcc's --threads, and the environment name upstream's Docker build
// and build.sh read for it (they pass -DSGL_KERNEL_COMPILE_THREADS=${NVCC_THREADS}).
inline constexpr char kCompileThreadsDefine[] = "SGL_KERNEL_COMPILE_THREADS";
inline constexpr char kNvccThreadsEnv[] = "NVCC_THREADS";

// ---- ccache -----------------------------------------------------------------------------------

// ccache as upstream's Dockerfile configures it for the wheel build (python/sglang/kernels/aot/
// Dockerfile, 2026): compilers launched through ccache by CMake, content-checked compilers,
// compressed, 10 GB, sloppiness for __FILE__/__TIME__ and header times. CCACHE_DIR is left to
// ccache (~/.cache/ccache) unless the profile sets it; CCACHE_BASEDIR is the tree when its path is
// absolute. (sgl-kernel's own RULE_LAUNCH_COMPILE block needs CCACHE_DIR in the environment; the
// launchers work without it.)
inline constexpr std::pair<const char*, const char*> kCcacheEnv[] = {
    { "CMAKE_C_COMPILER_LAUNCHER", "ccache" },
    { "CMAKE_CXX_COMPILER_LAUNCHER", "ccache" },
    { "CMAKE_CUDA_COMPILER_LAUNCHER", "ccache" },
    { "CCACHE_MAXSIZE", "10G" },
    { "CCACHE_COMPILERCHECK", "content" },
    { "CCACHE_COMPRESS", "true" },
    { "CCACHE_SLOPPINESS", "file_macro,time_macros,include_file_mtime,include_file_ctime" },
};
// Preflight warns when the build's budget passes this share of the available memory.
inline constexpr double kRamHeadroom = 0.8;

// How many nvcc threads fit in this much memory (at least 1).
qint64 nvccThreadsThatFit(qint64 availableBytes);
// The bytes MAX_JOBS x threads nvcc threads need.
qint64 bytesNeeded(int maxJobs, int threads);

// The largest MAX_JOBS x threads that fits in availableBytes, no larger than wanted: threads
// first (one job with all its threads beats many starved jobs), then jobs.
struct JobBudget
{
    int maxJobs = 1;
    int threads = 1;
};
JobBudget fittingBudget(qint64 availableBytes, int wantedJobs, int wantedThreads);
// "4 x 32 nvcc threads need about 512 GB but 40.0 GB are available: use MAX_JOBS=1 with
// CMAKE_ARGS=-DSGL_KERNEL_COMPILE_THREADS=10 (about 40 GB)."
QString oomAdvice(qint64 availableBytes, int maxJobs, int threads);

// ---- Disk -----------------------------------------------------------------------------------

// An sgl-kernel build folder grows to ~10 GB: below 5 GiB free fails, below 20 GiB warns.
inline constexpr double kDiskFailGiB = 5;
inline constexpr double kDiskWarnGiB = 20;

} // namespace kf::sglkernel
