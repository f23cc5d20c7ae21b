// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/deploy/step.h"
#include "core/hosts/serverfacts.h"
#include "core/server/serverlaunchprofile.h"
#include "core/util/result.h"

#include <QByteArrayView>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMap>
#include <QString>
#include <QStringList>

#include <functional>
#include <optional>

// Warm JIT caches (issue #36): a server's first start compiles flashinfer, Triton, DeepGEMM and
// torch inductor kernels for minutes; what it compiled on one host is captured once it reached
// healthy there and seeded on a host whose cache key matches before its server starts. A cache
// whose key differs is never seeded: nothing is sent, and the server there compiles its own.
//
// The folders, one table (jitCacheLocations), each resolved on the host with its environment:
//   flashinfer  $FLASHINFER_WORKSPACE_BASE/.cache/flashinfer   (base: $HOME)
//   triton      $TRITON_CACHE_DIR                              (~/.triton/cache)
//   deep_gemm   $SGLANG_DG_CACHE_DIR                           (~/.cache/deep_gemm)
//   inductor    $TORCHINDUCTOR_CACHE_DIR                       (/tmp/torchinductor_<user>)
// The key: what makes a compiled kernel valid elsewhere: the architecture, the GPUs' compute
// capabilities, torch, the CUDA toolkit (nvcc), the Python ABI, the versions of the JIT
// libraries (flashinfer-python, triton, deep_gemm) and the server's model, TP size and arguments.
namespace kf::deploy {

struct JitCacheLocation
{
    QString name;          // "flashinfer"
    QString envVar;        // what moves it
    QString underEnv;      // appended to the variable's value ("/.cache/flashinfer"), or empty
    QString defaultFolder; // without the variable: "$HOME/..." or an absolute folder ("$USER" expanded)
};
const QList<JitCacheLocation>& jitCacheLocations();

// A POSIX sh script printing one line per location, tab-separated: "jit NAME FOLDER KIB" with
// KIB "-" when the folder does not exist (du -sk). A folder with a line break is left out.
QString jitCacheScript();

struct JitCacheFolder
{
    QString name;
    QString folder;  // absolute, on that host
    qint64 kib = -1; // -1: not there
};
QList<JitCacheFolder> parseJitCacheFolders(QByteArrayView output);
Result<QList<JitCacheFolder>> findJitCacheFolders(Transport& transport);

struct JitCacheKey
{
    QString arch;
    QStringList gpus; // compute capabilities, sorted, once each
    QString torch;
    QString cuda; // nvcc's: the toolkit the JIT libraries compile with
    QString pythonSoabi;
    QMap<QString, QString> libraries; // flashinfer-python, triton, deep_gemm
    QString server;                   // model, TP and the extra arguments, one line

    QJsonObject toJson() const;
    static JitCacheKey fromJson(const QJsonObject& o);
    bool operator==(const JitCacheKey&) const = default;
};
JitCacheKey jitCacheKeyOf(const ServerFacts& facts, const ServerLaunchProfile& server);
// Each difference in one sentence naming both sides; empty: the cache is valid there.
QStringList jitCacheKeyDifferences(const JitCacheKey& cache, const JitCacheKey& target, const QString& targetName);

// The server that last reached healthy on host (its newest server.launched followed by a
// server.healthy on its port), from the host's timeline, and how long it took.
struct HealthyLaunch
{
    ServerLaunchProfile profile;
    QDateTime launched;
    double startSeconds = -1;
};
std::optional<HealthyLaunch> lastHealthyLaunch(const QString& host);

struct JitCacheArtifact
{
    QString localPath;
    QString fileName;
    QByteArray sha256;
    qint64 size = 0;
    QList<JitCacheFolder> folders; // as on the source
    JitCacheKey key;
    QString sourceHost;           // the source's timeline key
    QString sourceName;           // and its name for people ("lab-a")
    ServerLaunchProfile server;   // the server whose start filled them (the key's server part)
    double coldStartSeconds = -1; // how long that start took

    QJsonObject toJson() const;
    static JitCacheArtifact fromJson(const QJsonObject& o); // localPath is left empty
};

// On the source: the server that last reached healthy there (lastHealthyLaunch), its cache
// folders packed (each one's contents under its name) and fetched here with the key.
Result<JitCacheArtifact> captureJitCaches(Transport& source, const QString& sourceName, const QString& cacheDir,
    const std::function<void(const QString&)>& log, const std::atomic<bool>* stop = nullptr);

struct SeedOutcome
{
    StepStatus status = StepStatus::Failed; // Ok: seeded; Refused: the key differs (nothing sent)
    QString summary;
    QStringList reasons;
};
// On a target: its key from its facts and the captured server, then the caches sent and unpacked
// into its own folders (what is there is kept; files of the same name are replaced).
SeedOutcome seedJitCaches(
    Transport& target, const ServerFacts& targetFacts, const JitCacheArtifact& caches, const StepContext& context);

} // namespace kf::deploy
