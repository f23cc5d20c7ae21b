// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/preflight.h"

#include "core/remotebuild/buildtree.h"
#include "core/sglkernel/rules.h"
#include "core/util/versioncompare.h"

namespace kf {

QString toString(PreflightCheck::Level l)
{
    switch (l) {
    case PreflightCheck::Level::Pass: return QStringLiteral("pass");
    case PreflightCheck::Level::Warn: return QStringLiteral("warn");
    case PreflightCheck::Level::Fail: return QStringLiteral("fail");
    }
    return {};
}

ProjectProbe preflightProbe(const BuildProfile& profile)
{
    return { profile.workingDirectory, profile.buildPath(), profile.env };
}

QList<PreflightCheck> evaluatePreflight(const ServerFacts& facts, const BuildProfile& profile)
{
    namespace rules = sglkernel;
    using L = PreflightCheck::Level;
    QList<PreflightCheck> out;
    auto add = [&](L level, const QString& id, const QString& message, const QString& fix = {}) {
        out.append({ level, id, message, fix });
    };
    const ProjectFacts& project = facts.project;

    if (project.probed && !project.workDirExists)
        add(L::Fail, QStringLiteral("workdir"),
            QStringLiteral("working directory %1 does not exist").arg(profile.workingDirectory),
            QStringLiteral("clone the project there or fix working_dir in the profile"));
    if (!project.tree.isEmpty())
        add(L::Pass, QStringLiteral("tree"), project.tree);

    // CMake version vs the policies the CMakeLists sets unguarded, and what the tree's README asks.
    const QString& cmake = facts.cmake;
    const rules::PolicyNeeds needs = rules::unguardedPolicies(project.cmakeLists);
    const auto asked = rules::cmakeRequirement(project.treeLines);
    const QString askedText
        = asked ? QStringLiteral("; %1 asks for CMake >= %2").arg(asked->file, asked->version) : QString();
    const QString minimum = rules::cmakeMinimumRequired(project.cmakeLists);
    const QString want = asked ? asked->version : rules::cmakeForSglKernel();
    if (cmake.isEmpty()) {
        add(L::Fail, QStringLiteral("cmake"), QStringLiteral("cmake not found"),
            QStringLiteral("install CMake >= %1 (pip install 'cmake>=%1')").arg(want));
    } else if (!minimum.isEmpty() && compareVersions(cmake, minimum) < 0) {
        add(L::Fail, QStringLiteral("cmake"),
            QStringLiteral("CMake %1 is older than the %2 CMakeLists.txt asks for (cmake_minimum_required): "
                           "configure stops there, before any policy guard can help%3")
                .arg(cmake, minimum, askedText),
            QStringLiteral("install CMake >= %1 (pip install 'cmake>=%1')").arg(want));
    } else if (!needs.cmake.isEmpty() && compareVersions(cmake, needs.cmake) < 0) {
        add(L::Fail, QStringLiteral("cmake-policy"),
            QStringLiteral("CMake %1 does not know %2 (set unguarded in CMakeLists.txt; needs %3%4)")
                .arg(cmake, needs.unguarded.join(QStringLiteral(", ")), needs.cmake, askedText),
            QStringLiteral("apply the cmake-policy patch, or install CMake >= %1").arg(needs.cmake));
    } else if (asked && !asked->satisfiedBy(cmake)) {
        // Upstream asks for 3.31 because of CMP0169/CMP0177; guarded, an older CMake configures.
        add(L::Pass, QStringLiteral("cmake"),
            QStringLiteral("CMake %1: older than the %2 %3 asks for, but every cmake_policy it needs is guarded")
                .arg(cmake, asked->version, asked->file));
    } else {
        add(L::Pass, QStringLiteral("cmake"), QStringLiteral("CMake %1").arg(cmake));
    }
    if (profile.ccache) {
        if (facts.ccache.isEmpty())
            add(L::Fail, QStringLiteral("ccache"),
                QStringLiteral("ccache not found, and the profile launches every compiler through it"),
                QStringLiteral("install ccache (apt install ccache), or set ccache: false in the profile"));
        else
            add(L::Pass, QStringLiteral("ccache"), QStringLiteral("ccache %1").arg(facts.ccache));
    }

    const QString& ninja = facts.ninja;
    if (ninja.isEmpty())
        add(L::Warn, QStringLiteral("ninja"),
            QStringLiteral("ninja not found: the build falls back to make (no step counts, slower)"),
            QStringLiteral("pip install ninja"));
    else
        add(L::Pass, QStringLiteral("ninja"), QStringLiteral("ninja %1").arg(ninja));

    // Messages name the CUDA release ("13.0"), as nvcc --version's "release 13.0" does.
    const QString nvcc = rules::cudaRelease(facts.nvcc);
    const rules::ArchRule& arch = rules::preflightArch();
    if (nvcc.isEmpty()) {
        add(L::Fail, QStringLiteral("nvcc"), QStringLiteral("nvcc not found in PATH or $CUDA_HOME/bin"),
            QStringLiteral(
                "install the CUDA toolkit and add <cuda>/bin to PATH (or set CUDA_HOME in the profile env)"));
    } else if (!rules::cudaCanBuild(nvcc, arch)) {
        add(L::Fail, QStringLiteral("cuda-arch"),
            QStringLiteral("CUDA %1 cannot build %2 (needs %3)")
                .arg(nvcc, QLatin1String(arch.arch), QLatin1String(arch.minimumCuda)),
            QStringLiteral("install CUDA >= %1 and point PATH/CUDA_HOME at it").arg(QLatin1String(arch.minimumCuda)));
    } else {
        add(L::Pass, QStringLiteral("nvcc"),
            QStringLiteral("CUDA %1 at %2 (%3 ok)").arg(nvcc, facts.nvccPath, QLatin1String(arch.arch)));
    }

    if (rules::cudaMovedCccl(nvcc)) {
        const QString ccclDir = facts.ccclDir.isEmpty() ? QStringLiteral("<cuda>/include/cccl") : facts.ccclDir;
        const QString onPath = rules::ccclOnIncludePath(project.cplusIncludePath);
        if (rules::addsCcclInclude(project.cmakeLists))
            add(L::Pass, QStringLiteral("cccl"), QStringLiteral("CMakeLists.txt adds the CCCL include directory"));
        else if (!onPath.isEmpty())
            add(L::Pass, QStringLiteral("cccl"),
                QStringLiteral("CPLUS_INCLUDE_PATH holds %1 (as upstream's Dockerfile sets it)").arg(onPath));
        else if (!project.cmakeLists.isEmpty())
            add(L::Fail, QStringLiteral("cccl"),
                QStringLiteral("CUDA %1 keeps CUB/Thrust/libcu++ in %2, which host-compiled files will not find")
                    .arg(nvcc, ccclDir),
                QStringLiteral("apply the CCCL include patch, or set CPLUS_INCLUDE_PATH=%1 in the profile's env as "
                               "upstream's Dockerfile does")
                    .arg(ccclDir));
        else
            add(L::Warn, QStringLiteral("cccl"),
                QStringLiteral("CUDA %1 moved CCCL headers to include/cccl; no CMakeLists.txt found to check")
                    .arg(nvcc),
                QStringLiteral("make sure the project adds <cuda>/include/cccl to its include directories"));
    }

    const QString& python = facts.python;
    if (python.isEmpty())
        add(L::Fail, QStringLiteral("python"), QStringLiteral("python3 not found"),
            QStringLiteral("install Python 3.10+ (a venv on PATH)"));
    else
        add(L::Pass, QStringLiteral("python"), QStringLiteral("Python %1").arg(python));
    // Importable, not just installed: the build imports it.
    const QString torch = facts.torchError.isEmpty() ? facts.torch : QString();
    const QString& torchCuda = facts.torchCuda;
    if (!python.isEmpty()) {
        if (torch.isEmpty())
            add(L::Warn, QStringLiteral("torch"),
                QStringLiteral("torch is not importable; --no-build-isolation builds against the installed torch"),
                QStringLiteral("install the torch you will run with (e.g. the cu130 nightly) first"));
        else if (!nvcc.isEmpty() && !torchCuda.isEmpty()
            && torchCuda.section(QLatin1Char('.'), 0, 0) != nvcc.section(QLatin1Char('.'), 0, 0))
            add(L::Warn, QStringLiteral("torch"),
                QStringLiteral("torch %1 is built for CUDA %2 but nvcc is %3").arg(torch, torchCuda, nvcc),
                QStringLiteral("use a torch build for CUDA %1 or the matching toolkit")
                    .arg(nvcc.section(QLatin1Char('.'), 0, 0)));
        else if (const auto wanted = rules::torchRequirement(project.treeLines); wanted && !wanted->satisfiedBy(torch))
            add(L::Warn, QStringLiteral("torch"),
                QStringLiteral("torch %1 is installed; this tree asks for %2: the build compiles against the "
                               "installed torch, and sgl_kernel then needs it at run time")
                    .arg(torch, wanted->text()),
                QStringLiteral("install torch %1 %2 first").arg(wanted->op, wanted->version));
        else
            add(L::Pass, QStringLiteral("torch"),
                QStringLiteral("torch %1 (CUDA %2)%3")
                    .arg(torch, torchCuda.isEmpty() ? QStringLiteral("none") : torchCuda,
                        wanted ? QStringLiteral(", as the tree asks (%1)").arg(wanted->text()) : QString()));
    }

    for (const QString& d : project.exportedCMakeVariables)
        if (!profile.env.contains(d.section(QLatin1Char('='), 0, 0)))
            add(L::Warn, QStringLiteral("env-dflag"),
                QStringLiteral("%1 is exported as an environment variable, where the build ignores it").arg(d),
                QStringLiteral("put -D%1 into the profile's CMAKE_ARGS and unset it").arg(d));
    for (auto it = profile.env.cbegin(); it != profile.env.cend(); ++it)
        if (sglkernel::isCMakeOnlyVariable(it.key()))
            add(L::Warn, QStringLiteral("env-dflag"),
                QStringLiteral("the profile exports %1 as an environment variable, where the build ignores it")
                    .arg(it.key()),
                QStringLiteral("move it to cmake_args as -D%1=%2").arg(it.key(), it.value()));

    // What the build may use: MemAvailable, or less under the session's cgroup limit.
    if (const double availKiB = facts.memory.availableKiB(); hasValue(availKiB) && availKiB > 0) {
        const qint64 availKb = qint64(availKiB);
        const int jobs = std::max(1, profile.maxJobs > 0 ? profile.maxJobs : facts.cpuCount);
        const int threads = profile.nvccThreads > 0
            ? profile.nvccThreads
            : (profile.nvccThreadsDefine.isEmpty() ? 1 : rules::kDefaultCompileThreads);
        const qint64 needGb = rules::bytesNeeded(jobs, threads) >> 30;
        const double availGb = double(availKb) / (1024.0 * 1024.0);
        QString msg = QStringLiteral("MAX_JOBS %1 x %2 nvcc threads x ~%3 GB = %4 GB; %5 GB available")
                          .arg(jobs)
                          .arg(threads)
                          .arg(rules::kGiBPerNvccThread)
                          .arg(needGb)
                          .arg(availGb, 0, 'f', 1);
        if (facts.memory.hasCgroupLimit())
            msg += QStringLiteral(" (%1)").arg(facts.memory.limitSource());
        const rules::JobBudget fits = rules::fittingBudget(availKb * 1024, jobs, threads);
        if (double(needGb) > availGb && profile.memoryGate && fits.threads == threads)
            add(L::Warn, QStringLiteral("ram"),
                msg + QStringLiteral(": the memory gate runs about %1 compiles at once").arg(fits.maxJobs),
                QStringLiteral("fine as it is (slower, not killed); for all %1 at once: %2")
                    .arg(jobs)
                    .arg(rules::oomAdvice(availKb * 1024, jobs, threads)));
        else if (double(needGb) > availGb)
            add(L::Fail, QStringLiteral("ram"), msg, rules::oomAdvice(availKb * 1024, jobs, threads));
        else if (double(needGb) > availGb * rules::kRamHeadroom)
            add(L::Warn, QStringLiteral("ram"), msg, QStringLiteral("leave headroom: lower MAX_JOBS or nvcc threads"));
        else
            add(L::Pass, QStringLiteral("ram"), msg);
    }
    if (hasValue(project.diskAvailableKiB)) {
        const double gb = project.diskAvailableKiB / (1024.0 * 1024.0);
        const QString msg = QStringLiteral("%1 GB free for %2").arg(gb, 0, 'f', 1).arg(profile.buildPath());
        if (gb < rules::kDiskFailGiB)
            add(L::Fail, QStringLiteral("disk"), msg,
                QStringLiteral("free at least %1 GB (an sgl-kernel build dir grows to ~10 GB)")
                    .arg(rules::kDiskWarnGiB));
        else if (gb < rules::kDiskWarnGiB)
            add(L::Warn, QStringLiteral("disk"), msg, QStringLiteral("free at least %1 GB").arg(rules::kDiskWarnGiB));
        else
            add(L::Pass, QStringLiteral("disk"), msg);
    }
    return out;
}

Result<QList<PreflightCheck>> runPreflight(Transport& transport, const BuildProfile& profile)
{
    // A kernel_tree profile is judged in the tree found below its working_dir; when there is
    // none, that is the first failure and the rest is judged where it points.
    const auto tree = resolveBuildTree(transport, profile);
    if (!tree && tree.kind() != ErrorKind::NotFound)
        return Result<QList<PreflightCheck>>::failure(tree.error(), tree.kind());
    const BuildProfile& judged = tree ? tree->profile : profile;
    ProjectProbe probe = preflightProbe(judged);
    if (tree)
        probe.sglangPyproject = tree->sglangPyproject;
    const auto collected = collectServerFacts(transport, 120000, probe);
    if (!collected)
        return Result<QList<PreflightCheck>>::failure(collected.error(), collected.kind());
    ServerFacts facts = collected.value();
    if (tree)
        facts.project.tree = tree->note;
    QList<PreflightCheck> checks = evaluatePreflight(facts, judged);
    if (!tree)
        checks.prepend({ PreflightCheck::Level::Fail, QStringLiteral("tree"), tree.error(),
            QStringLiteral("clone sglang there, or set working_dir to a checkout, its sgl-kernel folder or "
                           "python/sglang/kernels/aot") });
    return checks;
}

} // namespace kf
