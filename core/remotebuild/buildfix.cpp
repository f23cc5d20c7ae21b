// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildfix.h"

#include "core/remotebuild/preflight.h"
#include "core/sglkernel/rules.h"
#include "core/transport/transport.h"
#include "core/util/bytelines.h"

#include <QRegularExpression>

namespace kf {
namespace {

using H = Diagnostic::Hint;

BuildFix patchFix(const char* id, const QString& title)
{
    return { BuildFix::Kind::Patch, QString::fromLatin1(id), kBuiltinPatchSet, {}, title };
}

BuildFix pathFix(const QString& tool)
{
    return { BuildFix::Kind::Profile, QStringLiteral("path"), {}, tool,
        QStringLiteral("Put %1's folder on the build's PATH").arg(tool) };
}

// A command name as a shell prints it: nothing that could be more than one word or an option.
bool isToolName(const QString& s)
{
    static const QRegularExpression re(
        QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z0-9_][\\w.+-]{0,63}")));
    return re.match(s).hasMatch();
}

// Finds the tool: PATH first (the profile's), then where installers put tools. Prints the PATH a
// build gets and "found <path>" (nothing when not found).
const char* kLocateScript = R"SH(t=$1
printf 'path\t%s\n' "$PATH"
c=$(command -v "$t" 2>/dev/null) && case "$c" in /*) printf 'found\t%s\n' "$c"; exit 0;; esac
for d in "$HOME/.local/bin" "$HOME/.venv/bin" "$HOME"/*/.venv/bin "$HOME"/*/venv/bin "$HOME/miniconda3/bin" \
  "$HOME/anaconda3/bin" "$HOME/miniforge3/bin" /opt/conda/bin /opt/*/bin /opt/*/.venv/bin /usr/local/cuda/bin \
  /usr/local/cuda-*/bin; do
  [ -f "$d/$t" ] && [ -x "$d/$t" ] && { printf 'found\t%s\n' "$d/$t"; exit 0; }
done
exit 0
)SH";

} // namespace

QString toString(BuildFix::Kind k)
{
    return k == BuildFix::Kind::Patch ? QStringLiteral("patch") : QStringLiteral("profile");
}

QJsonObject toJson(const BuildFix& fix)
{
    QJsonObject o { { QStringLiteral("kind"), toString(fix.kind) }, { QStringLiteral("id"), fix.id },
        { QStringLiteral("title"), fix.title } };
    if (!fix.patchSet.isEmpty())
        o.insert(QStringLiteral("set"), fix.patchSet);
    if (!fix.tool.isEmpty())
        o.insert(QStringLiteral("tool"), fix.tool);
    return o;
}

std::optional<BuildFix> fixFor(const Diagnostic& d, const BuildProfile& profile)
{
    switch (d.hint) {
    case H::Cccl: return patchFix("cccl-include-dir", QStringLiteral("Apply the CCCL include patch"));
    case H::CMakePolicy:
        // The patch guards the two policies sgl-kernel sets; another project's policy is its own.
        if (d.message.contains(QLatin1String("CMP0169")) || d.message.contains(QLatin1String("CMP0177")))
            return patchFix("cmake-policy-guards", QStringLiteral("Apply the cmake_policy guard patch"));
        return std::nullopt;
    case H::Fa3Import: return patchFix("fa3-import-soft-fail", QStringLiteral("Apply the FA3 import fallback patch"));
    case H::Fa3Build:
        if (sglkernel::fa3Requested(profile.cmakeArgs, profile.env) == false)
            return patchFix("fa3-option-respected", QStringLiteral("Apply the patch that lets FA3=OFF win"));
        return BuildFix { BuildFix::Kind::Profile, QStringLiteral("fa3-off"), {}, {},
            QStringLiteral("Build without FA3 (%1)").arg(sglkernel::fa3Argument(false)) };
    case H::Oom:
        return BuildFix { BuildFix::Kind::Profile, QStringLiteral("max-jobs"), {}, {},
            QStringLiteral("Use a MAX_JOBS that fits the memory") };
    case H::NotOnPath: {
        const QString tool = d.message.section(QLatin1Char(':'), 0, 0).trimmed();
        if (!isToolName(tool))
            return std::nullopt;
        return pathFix(tool);
    }
    case H::NinjaMissing: return pathFix(QStringLiteral("ninja"));
    case H::NvccMissing:
    case H::CudaHome: return pathFix(QStringLiteral("nvcc"));
    default: return std::nullopt;
    }
}

BuildProfile withMemoryFit(const BuildProfile& profile, qint64 availableBytes, int cpuCount)
{
    // What the build asks for, as preflight counts it.
    const int jobs = std::max(1, profile.maxJobs > 0 ? profile.maxJobs : cpuCount);
    const int threads = profile.nvccThreads > 0
        ? profile.nvccThreads
        : (profile.nvccThreadsDefine.isEmpty() ? 1 : sglkernel::kDefaultCompileThreads);
    const sglkernel::JobBudget b = sglkernel::fittingBudget(availableBytes, jobs, threads);
    BuildProfile p = profile;
    p.maxJobs = b.maxJobs;
    p.nvccThreads = b.threads;
    return p;
}

BuildProfile withFa3Off(const BuildProfile& profile)
{
    BuildProfile p = profile;
    p.cmakeArgs = sglkernel::withFa3Argument(p.cmakeArgs, false);
    return p;
}

BuildProfile withToolOnPath(const BuildProfile& profile, const QString& toolPath, const QString& serverPath)
{
    BuildProfile p = profile;
    const QString dir = toolPath.section(QLatin1Char('/'), 0, -2);
    const QString base = p.env.value(QStringLiteral("PATH"), serverPath);
    QStringList parts = base.split(QLatin1Char(':'), Qt::SkipEmptyParts);
    parts.removeAll(dir);
    parts.prepend(dir);
    p.env.insert(QStringLiteral("PATH"), parts.join(QLatin1Char(':')));
    if (toolPath.endsWith(QLatin1String("/bin/nvcc")))
        p.env.insert(QStringLiteral("CUDA_HOME"), dir.section(QLatin1Char('/'), 0, -2));
    return p;
}

Result<ToolLocation> locateTool(Transport& transport, const QString& tool, const BuildProfile& profile)
{
    if (!isToolName(tool))
        return Result<ToolLocation>::failure(QStringLiteral("'%1' is not a command name").arg(tool));
    CommandSpec spec;
    spec.command = QString::fromLatin1(kLocateScript);
    spec.arguments = { tool };
    spec.env = profile.env; // the PATH the build has; on stdin, never the command line
    spec.maxOutputBytes = 1 << 20;
    const ExecResult r = transport.exec(spec, 60000);
    if (!r.ok())
        return Result<ToolLocation>::failure(
            QStringLiteral("cannot look for %1 on %2: %3")
                .arg(tool, transport.describe(), r.error.isEmpty() ? QString::fromUtf8(r.stdErr).trimmed() : r.error));
    ToolLocation out;
    ByteLines lines(r.stdOut);
    for (QByteArrayView line; lines.next(line);) {
        const QString text = QString::fromUtf8(line);
        // Login banners come first; only our two keys count.
        if (text.startsWith(QLatin1String("path\t")))
            out.serverPath = text.mid(5);
        else if (text.startsWith(QLatin1String("found\t")))
            out.path = text.mid(6);
    }
    if (out.path.isEmpty() || !out.path.startsWith(QLatin1Char('/')))
        return Result<ToolLocation>::failure(
            QStringLiteral("%1 is not installed in any usual place on %2 (PATH, ~/.local/bin, virtualenvs, conda, "
                           "/opt, /usr/local/cuda*): install it there first")
                .arg(tool, transport.describe()),
            ErrorKind::NotFound);
    return out;
}

Result<BuildProfile> fixedProfile(Transport& transport, const BuildFix& fix, const BuildProfile& profile)
{
    if (fix.kind != BuildFix::Kind::Profile)
        return Result<BuildProfile>::failure(QStringLiteral("%1 is a patch, not a profile change").arg(fix.id));
    if (fix.id == QLatin1String("fa3-off"))
        return withFa3Off(profile);
    if (fix.id == QLatin1String("max-jobs")) {
        // Read now, after the build: what the server has free when nothing of ours compiles.
        const auto facts = collectServerFacts(transport, 120000, preflightProbe(profile));
        if (!facts)
            return Result<BuildProfile>::failure(facts.error(), facts.kind());
        // What the build may use: MemAvailable, or less under a cgroup's limit (memoryview.h).
        const double availKiB = facts->memory.availableKiB();
        if (!hasValue(availKiB) || availKiB <= 0)
            return Result<BuildProfile>::failure(
                QStringLiteral("%1 did not say how much memory is available").arg(transport.describe()));
        return withMemoryFit(profile, qint64(availKiB) * 1024, facts->cpuCount);
    }
    if (fix.id == QLatin1String("path")) {
        const auto found = locateTool(transport, fix.tool, profile);
        if (!found)
            return Result<BuildProfile>::failure(found.error(), found.kind());
        return withToolOnPath(profile, found->path, found->serverPath);
    }
    return Result<BuildProfile>::failure(QStringLiteral("no profile change named '%1'").arg(fix.id));
}

} // namespace kf
