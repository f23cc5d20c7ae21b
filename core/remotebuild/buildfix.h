// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildprofile.h"
#include "core/remotebuild/diagnosticparser.h"
#include "core/util/result.h"

#include <QJsonObject>
#include <QString>

#include <optional>

namespace kf {
class Transport;
}

// From diagnosis to fix: what KernelForge knows to fix a diagnosed build error. Either a patch of
// the built-in set (the Patches tab opens its review with only that patch's hunks accepted) or a
// change of the build profile (shown as a diff of the profile's YAML before it is saved). After
// either the same profile is built again in the same build folder, so ninja goes on from what is
// already built. `kernelforge-cli build attach --json` names it (`"fix": {"kind", "id", ...}`).
//   patch   cccl-include-dir      host-compiled files miss CUDA 13's include/cccl
//           cmake-policy-guards   CMake does not know CMP0169/CMP0177 (sgl-kernel sets them unguarded)
//           fa3-import-soft-fail  sgl_kernel refuses to import without FA3
//           fa3-option-respected  FA3 sources fail although the profile turns FA3 off
//   profile fa3-off               FA3 sources fail and the profile does not turn FA3 off
//           max-jobs              a compiler was killed for memory: MAX_JOBS x nvcc threads that fit
//           path                  a tool the build needs is not on its PATH (found elsewhere on the server)
namespace kf {

struct BuildFix
{
    enum class Kind { Patch, Profile };
    Kind kind = Kind::Patch;
    QString id;
    QString patchSet; // Patch: the set the patch is in ("builtin:sgl-kernel-sm120-cuda13")
    QString tool;     // "path": the command the build's PATH lacks
    QString title;    // for a button: "Apply the CCCL include patch"
    bool operator==(const BuildFix&) const = default;
};

QString toString(BuildFix::Kind k); // "patch", "profile"
// {"kind", "id", "title"} and "set" (patch) or "tool" (path).
QJsonObject toJson(const BuildFix& fix);

inline const QString kBuiltinPatchSet = QStringLiteral("builtin:sgl-kernel-sm120-cuda13");

// The fix for this diagnostic of a build of `profile`, when there is one.
std::optional<BuildFix> fixFor(const Diagnostic& d, const BuildProfile& profile);

// max-jobs: MAX_JOBS x nvcc threads that fit in availableBytes (sglkernel::fittingBudget), wanting
// what the profile asks (MAX_JOBS unset: one job per CPU).
BuildProfile withMemoryFit(const BuildProfile& profile, qint64 availableBytes, int cpuCount);
// fa3-off: -DSGL_KERNEL_ENABLE_FA3=OFF in cmake_args (replacing an ON).
BuildProfile withFa3Off(const BuildProfile& profile);
// path: the tool's folder first in the profile's PATH (the profile's own, else the server's
// non-interactive one); for nvcc also CUDA_HOME, the toolkit above its bin/.
BuildProfile withToolOnPath(const BuildProfile& profile, const QString& toolPath, const QString& serverPath);

// Where a tool lives on the server when the build's PATH lacks it (blocking; a worker thread):
// command -v with the profile's PATH, then the places installers put tools (~/.local/bin,
// virtualenvs and conda under ~ and /opt, /usr/local/cuda*/bin). NotFound when nowhere.
struct ToolLocation
{
    QString path;       // the executable
    QString serverPath; // the PATH a build's non-interactive shell gets
};
Result<ToolLocation> locateTool(Transport& transport, const QString& tool, const BuildProfile& profile);

// The profile as a profile fix changes it (blocking: max-jobs reads the server's memory with the
// facts probe, path looks for the tool).
Result<BuildProfile> fixedProfile(Transport& transport, const BuildFix& fix, const BuildProfile& profile);

} // namespace kf
