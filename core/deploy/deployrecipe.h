// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/events/verification.h"
#include "core/patch/reviewdecision.h"
#include "core/remotebuild/buildprofile.h"
#include "core/server/serverlaunchprofile.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// A deployment recipe: what worked on one host, to replay on another (core/deploy/reciperunner.h).
// Not to be confused with a patch set's YAML "recipes" (core/patch/edits.h, content-addressed
// edits): a deployment recipe names a patch set, it does not hold one.
//
// YAML, schema version 1 (a newer version is refused, unknown keys are ignored):
//   kernelforge_recipe: 1                   # required: the schema version
//   name: gpu1 bring-up
//   source: {host: alice@gpu1:22, exported: 2026-12-02T03:40:00Z}
//   facts:                                  # the source's tool versions, as expectations
//     - {name: nvcc, version: 13.0.88, rule: "~="}
//   patches:
//     set: builtin:sgl-kernel-sm120-cuda13  # what `patch --set` takes
//     root: ~/sgl-kernel                    # ~ is the target's home
//     decisions:                            # the review's choices (core/patch/reviewdecision.h)
//       - {patch: fa3-option, file: CMakeLists.txt, accepted: true,
//          rejected_hunks: [{hunk: 2, id: 0f3a...}]}
//   build:                                  # a build profile (core/remotebuild/buildprofile.h) ...
//     name: sgl-kernel (pip)
//     working_dir: ~/sglang/sgl-kernel
//     command: python3 -m pip install ...
//     cmake_args: [-DSGL_KERNEL_ENABLE_FA3=OFF]
//     max_jobs: 2
//     nvcc_threads: 1
//     nvcc_threads_define: SGL_KERNEL_COMPILE_THREADS
//     build_dir: build
//     kernel_tree: true                     # optional: build in the sgl-kernel tree below working_dir
//     ccache: true                          # optional: compilers through ccache (BuildProfile::ccache)
//     memory_gate: false                    # only when the build went without the memory gate
//     env: [HF_TOKEN]                       # ... with environment NAMES only: a value is refused
//   promote:                                # the build came from another host (a promotion): the
//     from: lab-a                           # replay installs that very artifact instead of building
//     kind: files | wheel                   # (core/deploy/promotestep.h), from this machine's cache
//     file: build-files.tar                 # or fetched from `from` again (its hash must match);
//     sha256: 9f86d0...                     # needs the build section (the profile it installs with,
//     size: 123456                          # and builds with where the build does not fit and the
//     caches: {file: jit.tar, sha256: ...}  # replay is asked to: --build-if-refused); caches: the
//                                           # JIT caches seeded with it where their key matches
//   verify:                                 # what the verification found (timeline/verification.h)
//     import: ok | fails
//     fa3: present | absent
//     libraries: [{name: common_ops, targets: [sm_90a, sm_120a]}]   # at least these targets
//   server: {name: sglang, python: python, model_path: M, tp: 8, port: 30000,
//            enable_metrics: true, extra_args: [], demo: false}
// Every section but the version is optional; a missing one is a step the replay skips.
//
// Version rules: "==" the same version, ">=" this one or newer, "~=" newer within the same
// major.minor (13.0.88 ~= 13.0.x), "any" shown, never failing. compareVersions() decides.
namespace kf::deploy {

constexpr int kRecipeSchemaVersion = 1;

enum class VersionRule { Exact, AtLeast, Compatible, Any };
QString toString(VersionRule rule); // "==", ">=", "~=", "any"
std::optional<VersionRule> parseVersionRule(const QString& text);
// The rule an export writes for a fact: ">=" for the driver, CMake and Ninja, "~=" for nvcc,
// GCC and Python, "==" for PyTorch, SGLang, the GPU model and its compute capability, "any"
// for the rest (OS, kernel, GPU count, sgl-kernel: what the build makes).
VersionRule defaultRule(const QString& name);
bool satisfies(const QString& actual, const QString& expected, VersionRule rule);

struct FactExpectation
{
    QString name; // a key of timeline::factsVersions(): nvcc, cmake, driver, torch, gpu, ...
    QString version;
    VersionRule rule = VersionRule::AtLeast;
    bool operator==(const FactExpectation&) const = default;
};

struct FactComparison
{
    FactExpectation expected;
    QString actual; // empty: the tool is missing on the target
    bool ok = true;
    bool differs = false;
    QString text; // "nvcc 12.8.93 on the target, recipe ~= 13.0.88: not satisfied"
};
// One line per expectation, differences first (failures before allowed differences), then
// the equal ones; ok is false when the target lacks the tool or breaks the rule.
QList<FactComparison> compareFacts(const QList<FactExpectation>& expected, const QJsonObject& actualVersions);

struct PatchSection
{
    QString set;
    QString root;
    QList<patch::DecisionRecord> decisions;
    bool operator==(const PatchSection&) const = default;
};

struct BuildSection
{
    BuildProfile profile; // env holds no values: see envNames
    QStringList envNames;
    bool operator==(const BuildSection&) const = default;
};

struct PromoteSection
{
    QString from; // the source's name (hosts.yaml)
    QString kind; // "files" / "wheel"
    QString file; // a plain file name
    QByteArray sha256;
    qint64 size = 0;
    QString cachesFile; // empty: no JIT caches
    QByteArray cachesSha256;
    bool operator==(const PromoteSection&) const = default;
};

struct VerifyExpectation
{
    std::optional<bool> importOk;
    std::optional<bool> fa3;
    QList<timeline::VerifiedLibrary> libraries; // name: the stem (libraryStem); targets: at least these
    bool operator==(const VerifyExpectation&) const = default;
};
// What differs from the expectation, one line each; empty: as expected.
QStringList compareVerification(const VerifyExpectation& expected, const timeline::VerificationResult& actual);
// The expectation a passing verification sets.
VerifyExpectation expectationFrom(const timeline::VerificationResult& result);

struct DeployRecipe
{
    QString name;
    QString sourceHost;
    QDateTime exported;
    QList<FactExpectation> facts;
    std::optional<PatchSection> patches;
    std::optional<BuildSection> build;
    std::optional<PromoteSection> promote;
    std::optional<VerifyExpectation> verify;
    std::optional<ServerLaunchProfile> server;
};

// Read by the one YAML reader (core/util/yamlnode.h): errors are "recipe.yaml:4: build.env:
// names only ...", a duplicate key is refused; the build section passes checkBuildProfile().
Result<DeployRecipe> parseDeployRecipe(const QByteArray& yaml, const QString& sourceName);
// A recipe file (someone else's, maybe): at most kMaxRecipeBytes, then parseDeployRecipe().
inline constexpr qint64 kMaxRecipeBytes = 1 << 20;
Result<DeployRecipe> readDeployRecipe(const QString& path);
QByteArray serializeDeployRecipe(const DeployRecipe& recipe);

} // namespace kf::deploy
