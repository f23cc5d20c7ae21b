// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/sglkernel/serverhints.h"

#include "core/sglkernel/rules.h"
#include "core/util/versioncompare.h"

namespace kf::sglkernel {

QStringList serverHints(const ServerFacts& f)
{
    QStringList hints;
    if (!f.complete)
        hints << QStringLiteral(
            "The facts script did not finish (the connection dropped or a tool hung): some facts are missing.");
    if (f.nvidiaSmiError.contains(QLatin1String("version mismatch"), Qt::CaseInsensitive))
        hints << QStringLiteral(
            "The NVIDIA driver and its library differ (a driver upgrade without a reboot): reboot the "
            "server or reload the nvidia kernel modules before building or serving.");
    // With a project probe the hints speak of the tree found and what it asks for.
    const ProjectFacts& tree = f.project;
    if (!tree.tree.isEmpty())
        hints << tree.tree + QLatin1Char('.');
    const QString minimum = cmakeMinimumRequired(tree.cmakeLists);
    const auto askedCmake = cmakeRequirement(tree.treeLines);
    const QString wantCmake = askedCmake ? askedCmake->version : cmakeForSglKernel();
    if (!f.cmake.isEmpty() && !minimum.isEmpty() && compareVersions(f.cmake, minimum) < 0)
        hints << QStringLiteral("CMake %1 is older than the %2 this CMakeLists.txt asks for (cmake_minimum_required): "
                                "configure stops there, so install CMake >= %3.")
                     .arg(f.cmake, minimum, wantCmake);
    else if (!f.cmake.isEmpty() && compareVersions(f.cmake, wantCmake) < 0)
        hints << QStringLiteral(
            "CMake %1 is older than %2: sgl-kernel's CMakeLists.txt sets policy CMP0177 "
            "unconditionally and stops with \"Policy CMP0177 is not known\" unless the cmake_policy "
            "guards are patched in (or a newer CMake is used); sgl-kernel itself asks for CMake >= 3.26.")
                     .arg(f.cmake, wantCmake);
    if (const auto torch = torchRequirement(tree.treeLines);
        torch && !f.torch.isEmpty() && !torch->satisfiedBy(f.torch))
        hints << QStringLiteral("torch %1 is installed; this tree asks for %2: sgl_kernel is built against the "
                                "installed torch and needs that same torch at run time.")
                     .arg(f.torch, torch->text());
    if (!f.sglKernel.isEmpty() && !f.sglangKernel.isEmpty())
        hints << QStringLiteral("Both sgl-kernel %1 and sglang-kernel %2 are installed (the wheel was renamed in "
                                "2026-03); both provide sgl_kernel: uninstall the old one.")
                     .arg(f.sglKernel, f.sglangKernel);
    // The GPU whose target needs the newest CUDA decides; FA3 is off as soon as one GPU is SM120.
    const ArchRule* hardest = nullptr;
    bool fa3Off = false;
    for (const GpuFact& g : f.gpus) {
        const ArchRule* r = archRuleFor(g.computeCapability);
        if (r && (!hardest || compareVersions(QLatin1String(r->minimumCuda), QLatin1String(hardest->minimumCuda)) > 0))
            hardest = r;
        fa3Off = fa3Off || fa3ShouldBeOff(g.computeCapability);
    }
    if (hardest && !f.nvcc.isEmpty() && !cudaCanBuild(f.nvcc, *hardest)) {
        const QString sm = QString::fromLatin1(hardest->arch).chopped(1); // "sm_120"
        hints << QStringLiteral("nvcc %1 cannot compile for these %2 GPUs (\"Unsupported gpu architecture "
                                "'compute_%3'\"): CUDA %4 or newer is needed.")
                     .arg(f.nvcc, sm, QString::fromLatin1(hardest->arch).mid(3), QLatin1String(hardest->minimumCuda));
    }
    if (cudaMovedCccl(f.nvcc) && !addsCcclInclude(tree.cmakeLists)
        && ccclOnIncludePath(tree.cplusIncludePath).isEmpty())
        hints << QStringLiteral(
            "CUDA %1 keeps CUB/Thrust/libcu++ under include/cccl: sources compiled by the host compiler "
            "need the CCCL include-directory patch, or CPLUS_INCLUDE_PATH=%2 as upstream's Dockerfile sets it "
            "(\"cuda/atomic: No such file or directory\").")
                     .arg(f.nvcc, f.ccclDir.isEmpty() ? QStringLiteral("<cuda>/include/cccl") : f.ccclDir);
    if (fa3Off)
        hints << QStringLiteral("FA3 is built for sm_90a only: on these GPUs build with -DSGL_KERNEL_ENABLE_FA3=OFF "
                                "(through CMAKE_ARGS) plus the FA3 guard and import-fallback patches.");
    // What a build may use: a cgroup limit (container, Slurm job, systemd slice) wins over MemAvailable.
    if (const double avail = f.memory.availableKiB(); avail > 0)
        hints << QStringLiteral(
            "%1 of RAM available%2: keep MAX_JOBS \u00d7 SGL_KERNEL_COMPILE_THREADS at or below about %3 "
            "(nvcc threads peak at 3-5 GB each; out of memory shows as \"Killed\" or signal 9).")
                     .arg(formatKiB(avail),
                         f.memory.hasCgroupLimit() ? QStringLiteral(" under %1").arg(f.memory.limitSource())
                                                   : QString())
                     .arg(nvccThreadsThatFit(qint64(avail) * 1024));
    if (f.ninja.isEmpty() && !f.cmake.isEmpty())
        hints << QStringLiteral("Ninja is not installed: CMake falls back to Make (slower, and no .ninja_log for "
                                "progress and ETA).");
    if (!f.python.isEmpty() && f.torch.isEmpty())
        hints << QStringLiteral("PyTorch is not installed for the python3 on the login PATH: sgl-kernel builds against "
                                "it (pip install --no-build-isolation needs torch already there).");
    return hints;
}

} // namespace kf::sglkernel
