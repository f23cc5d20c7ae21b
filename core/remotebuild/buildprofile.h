// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/jobs/jobfolder.h"
#include "core/remotebuild/unitpeak.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

// Build profiles: how to build one project on a server.
//
// YAML format (config dir build-profiles.yaml; built-ins in :/profiles/builtin.yaml):
//   profiles:
//     - name: sgl-kernel (pip)              # unique
//       description: ...
//       working_dir: ~/sglang/sgl-kernel
//       command: python3 -m pip install --no-build-isolation -v . -Cbuild-dir=build
//       env: {CUDA_HOME: /usr/local/cuda}   # plain environment
//       cmake_args: [-DENABLE_BELOW_SM90=OFF] # exported as CMAKE_ARGS (space-joined)
//       max_jobs: 2                          # MAX_JOBS and CMAKE_BUILD_PARALLEL_LEVEL
//       nvcc_threads: 1                      # per nvcc process
//       nvcc_threads_define: SGL_KERNEL_COMPILE_THREADS  # -D<that>=N; empty: NVCC_APPEND_FLAGS=--threads N
//       build_dir: build                     # relative to working_dir; holds .ninja_log
//       kernel_tree: true                    # working_dir is where to look for the sgl-kernel tree (an
//                                            # sglang checkout of either layout, sgl-kernel/ or the aot
//                                            # folder): the build runs in the tree found (resolveBuildTree)
//       ccache: true                         # compilers through ccache, configured as upstream's Dockerfile does
//       memory_gate: false                   # default true: each compile waits until its memory fits
//                                            # (core/remotebuild/memorygate.h); false turns the gate off
//       demo: true                           # preselected in the Build pane when the host is the demo server
// Every field is checked: an unknown key, a missing name or command, a count that is not a
// whole number from 1 to 4096, a bad env name or a wrong type is an error naming its YAML line.
namespace kf {

struct BuildProfile
{
    QString name;
    QString description;
    QString workingDirectory;
    QString command;
    QMap<QString, QString> env;
    QStringList cmakeArgs;
    int maxJobs = 0;     // 0: leave unset
    int nvccThreads = 0; // 0: leave unset
    QString nvccThreadsDefine;
    QString buildDir;
    bool kernelTree = false;
    bool ccache = false;
    bool memoryGate = true; // compiles go through the memory gate (memorygate.h)
    bool demo = false;
    bool builtIn = false;
    bool operator==(const BuildProfile&) const = default;

    // build_dir resolved against working_dir ("~/x/build").
    QString buildPath() const;
    QString ninjaLogPath() const { return buildPath() + QStringLiteral("/.ninja_log"); }
    // The CMAKE_ARGS value, with the nvcc threads define added when configured.
    QString cmakeArgsValue() const;
    // The job to start: env + CMAKE_ARGS + MAX_JOBS + NINJA_STATUS (our parseable format) + KF_BUILD_DIR,
    // NVCC_THREADS with the threads define (as upstream's build scripts name it), and ccache's
    // environment (sglkernel::kCcacheEnv) when asked for; the profile's own env wins. With
    // memoryGate the gate (memorygate::install), seeded with the peaks learned from earlier runs
    // of this profile (buildhistory::learnedPeaks), goes in front of every compiler launcher.
    JobSpec toJobSpec(const QList<UnitPeak>& learnedPeaks = {}) const;
};

// Moves env entries that are CMake-only (sglkernel::isCMakeOnlyVariable: exported they do
// nothing, so the editor moves them and preflight warns when a login environment exports them)
// into cmakeArgs (-DNAME=value); returns the moved names.
QStringList moveCMakeOnlyEnv(BuildProfile& profile);

// The checks a build profile passes wherever it was written (build-profiles.yaml, the editor,
// a deployment recipe's build section): a name and a command, max_jobs and nvcc_threads unset
// (0) or a whole number from 1 to 4096, nvcc_threads_define a CMake variable name, env names
// variable names. The first problem found: the YAML key it is about and why.
struct BuildProfileProblem
{
    QString key; // "max_jobs", "env", ...
    QString message;
};
std::optional<BuildProfileProblem> checkBuildProfile(const BuildProfile& profile);

struct BuildProfileList
{
    QList<BuildProfile> profiles; // empty when there is an error: nothing half-read is used
    QString error;
    int errorLine = 0; // 1-based line of the YAML the error is about; 0: unknown
    explicit operator bool() const { return error.isEmpty(); }
};
// Read by the one YAML reader (core/util/yamlnode.h): errors are "FILE:LINE: KEY: why".
BuildProfileList parseBuildProfiles(
    const QByteArray& yaml, const QString& fileName = QStringLiteral("build-profiles.yaml"));
QByteArray serializeBuildProfiles(const QList<BuildProfile>& profiles);

// Built-ins (from resources) followed by the user's profiles (config dir); a user profile with
// a built-in's name replaces it.
QList<BuildProfile> builtInBuildProfiles();
QString userBuildProfilesPath();
Result<QList<BuildProfile>> loadBuildProfiles(const QString& userPath = {});
// Mode 0600 whatever the umask and the folder (env values may be tokens).
Result<void> saveUserBuildProfiles(const QList<BuildProfile>& profiles, const QString& userPath = {});
std::optional<BuildProfile> findBuildProfile(const QList<BuildProfile>& profiles, const QString& name);

} // namespace kf

Q_DECLARE_METATYPE(kf::BuildProfile)
