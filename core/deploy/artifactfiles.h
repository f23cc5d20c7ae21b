// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/transport/transport.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QJsonObject>
#include <QString>

#include <atomic>

// Moving a promoted artifact (a build's wheel or libraries, a server's JIT caches: promotestep.h,
// jitcache.h) between hosts through this machine, checked by SHA-256 at every hop: from the
// source into this machine's cache, from there to each target's ~/.cache/kernelforge/promote/.
// Blocking (network, disk): worker thread.
namespace kf::deploy {

// Where a target keeps what was sent to it, under its home.
inline const QString kRemotePromoteDir = QStringLiteral(".cache/kernelforge/promote");
// Where this machine keeps what it fetched: `given`, or paths::cacheDir() + "/promote".
QString localPromoteDir(const QString& given = {});

// The hex SHA-256 of a file on the host (`sha256sum`).
Result<QByteArray> remoteSha256(Transport& transport, const QString& path);
// The hex SHA-256 of a file here.
Result<QByteArray> localSha256(const QString& path);

// The host's file `remote` (hash `sha256` there) into `cacheDir` as "<hash prefix>-<name>": kept
// when a copy with that hash is already there, else fetched (SFTP for an SSH host) to a .part
// file, hashed and moved into place; a copy whose hash differs is removed and refused. Returns
// the local path.
Result<QString> fetchArtifact(
    Transport& source, const QString& remote, const QByteArray& sha256, const QString& cacheDir, const QString& name);

// fetchArtifact() of a file hashed on the source first: the local copy, its hash and size.
struct FetchedArtifact
{
    QString localPath;
    QByteArray sha256;
    qint64 size = 0;
};
Result<FetchedArtifact> fetchHashedArtifact(
    Transport& source, const QString& remote, const QString& cacheDir, const QString& name);
// What an artifact is (its JSON), beside its local copy as "<copy>.json", for people and tools
// that look into the cache (and for findCachedArtifact).
void writeArtifactManifest(const QString& localPath, const QJsonObject& manifest);
// fetchHashedArtifact() of `remote` as artifact.fileName, its copy, hash and size set on the
// artifact (a PromotionArtifact, a JitCacheArtifact) and its manifest (toJson()) written.
template <typename Artifact>
Result<void> fetchArtifactInto(Artifact& artifact, Transport& source, const QString& remote, const QString& cacheDir)
{
    const auto fetched = fetchHashedArtifact(source, remote, cacheDir, artifact.fileName);
    if (!fetched)
        return fetched.withoutValue();
    artifact.localPath = fetched->localPath;
    artifact.sha256 = fetched->sha256;
    artifact.size = fetched->size;
    writeArtifactManifest(artifact.localPath, artifact.toJson());
    return {};
}

// This machine's copy of an artifact fetched before, by its name and hash (what a recipe names:
// the name must be a plain file name, the hash 64 hex digits), hashed again, with its manifest.
struct CachedArtifact
{
    QString localPath;
    QJsonObject manifest;
};
Result<CachedArtifact> findCachedArtifact(const QString& cacheDir, const QString& name, const QByteArray& sha256);

struct SentArtifact
{
    QString remotePath;        // under kRemotePromoteDir
    bool alreadyThere = false; // a file with the same hash was there: nothing was sent
    qint64 sent = 0;           // bytes sent this time
    qint64 resumed = 0;        // bytes an interrupted earlier transfer had left there and that were kept
};
// This machine's file to kRemotePromoteDir/<name> on the host, its hash there checked against
// sha256 before it takes that name (one rename: a cut transfer leaves no half file under it).
// Over SSH through bulkUpload (core/ssh/bulkupload.h): resumable (a cut transfer resumes from
// its last recorded chunk on the next call), several sessions in parallel for large files; stop
// is read between chunks.
Result<SentArtifact> sendArtifact(Transport& target, const QString& localPath, const QByteArray& sha256,
    const QString& name, const std::atomic<bool>* stop = nullptr);

// The error text of a command that failed: its own error, else the start of its stderr.
QString commandFailure(const ExecResult& r);

} // namespace kf::deploy
