// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/artifactfiles.h"

#include "core/ssh/bulkupload.h"
#include "core/ssh/sshtransport.h"
#include "core/store/paths.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>

namespace kf::deploy {

QString commandFailure(const ExecResult& r)
{
    if (!r.error.isEmpty())
        return r.error;
    const QString err = QString::fromUtf8(r.stdErr.left(600)).trimmed();
    return err.isEmpty() ? QStringLiteral("exit status %1").arg(r.exitCode) : err;
}

QString localPromoteDir(const QString& given)
{
    return given.isEmpty() ? paths::cacheDir() + QStringLiteral("/promote") : given;
}

Result<QByteArray> remoteSha256(Transport& t, const QString& path)
{
    CommandSpec spec;
    spec.command = QStringLiteral("sha256sum -- \"$1\"");
    spec.arguments = { path };
    spec.maxOutputBytes = 64 * 1024;
    const ExecResult r = t.exec(spec, 600000);
    const QByteArray hex = r.stdOut.left(64);
    static const QRegularExpression hexRe(QStringLiteral("^[0-9a-f]{64}$"));
    if (!r.ok() || !hexRe.match(QString::fromLatin1(hex)).hasMatch())
        return Result<QByteArray>::failure(
            QStringLiteral("cannot hash %1 on %2: %3").arg(path, t.describe(), commandFailure(r)));
    return hex;
}

Result<QByteArray> localSha256(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Result<QByteArray>::failure(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    QCryptographicHash h(QCryptographicHash::Sha256);
    if (!h.addData(&f))
        return Result<QByteArray>::failure(QStringLiteral("cannot read %1: %2").arg(path, f.errorString()));
    return h.result().toHex();
}

Result<QString> fetchArtifact(
    Transport& source, const QString& remote, const QByteArray& sha256, const QString& cacheDir, const QString& name)
{
    using R = Result<QString>;
    QDir().mkpath(cacheDir);
    const QString local = cacheDir + QLatin1Char('/') + QString::fromLatin1(sha256.left(12)) + QLatin1Char('-') + name;
    if (QFileInfo::exists(local))
        if (const auto have = localSha256(local); have && have.value() == sha256)
            return local;
    const QString part = local + QStringLiteral(".part");
    QFile::remove(part);
    Result<void> got;
    if (auto* ssh = dynamic_cast<SshTransport*>(&source)) {
        got = ssh->download(remote, part);
    } else if (const auto abs = source.canonicalPath(remote); !abs) {
        got = abs.withoutValue();
    } else if (!QFile::copy(abs.value(), part)) {
        got = Result<void>::failure(QStringLiteral("cannot copy %1 to %2").arg(abs.value(), part));
    }
    if (!got)
        return R::failure(QStringLiteral("cannot fetch %1 from %2: %3").arg(remote, source.describe(), got.error()));
    const auto arrived = localSha256(part);
    if (!arrived)
        return arrived.withoutValue();
    if (arrived.value() != sha256) {
        QFile::remove(part);
        return R::failure(
            QStringLiteral("%1 from %2 arrived with SHA-256 %3, not %4: not used")
                .arg(name, source.describe(), QString::fromLatin1(arrived.value()), QString::fromLatin1(sha256)));
    }
    QFile::remove(local);
    if (!QFile::rename(part, local))
        return R::failure(QStringLiteral("cannot move %1 into place").arg(part));
    return local;
}

Result<FetchedArtifact> fetchHashedArtifact(
    Transport& source, const QString& remote, const QString& cacheDir, const QString& name)
{
    const auto sha = remoteSha256(source, remote);
    if (!sha)
        return sha.withoutValue();
    const auto local = fetchArtifact(source, remote, sha.value(), cacheDir, name);
    if (!local)
        return local.withoutValue();
    return FetchedArtifact { local.value(), sha.value(), QFileInfo(local.value()).size() };
}

void writeArtifactManifest(const QString& localPath, const QJsonObject& manifest)
{
    QFile f(localPath + QStringLiteral(".json"));
    if (f.open(QIODevice::WriteOnly | QIODevice::Truncate))
        f.write(QJsonDocument(manifest).toJson());
}

Result<CachedArtifact> findCachedArtifact(const QString& cacheDir, const QString& name, const QByteArray& sha256)
{
    using R = Result<CachedArtifact>;
    static const QRegularExpression hexRe(QStringLiteral("^[0-9a-f]{64}$"));
    static const QRegularExpression nameRe(QStringLiteral("^[A-Za-z0-9_+][A-Za-z0-9._+-]{0,199}$"));
    if (!hexRe.match(QString::fromLatin1(sha256)).hasMatch())
        return R::failure(
            QStringLiteral("'%1' is not a SHA-256 (64 hex digits)").arg(QString::fromLatin1(sha256.left(80))));
    if (!nameRe.match(name).hasMatch())
        return R::failure(QStringLiteral("'%1' is not a plain file name").arg(name.left(80)));
    const QString local = cacheDir + QLatin1Char('/') + QString::fromLatin1(sha256.left(12)) + QLatin1Char('-') + name;
    if (!QFileInfo::exists(local))
        return R::failure(QStringLiteral("%1 (SHA-256 %2) is not in this machine's cache (%3)")
                              .arg(name, QString::fromLatin1(sha256.left(12)), cacheDir));
    const auto have = localSha256(local);
    if (!have)
        return have.withoutValue();
    if (have.value() != sha256)
        return R::failure(QStringLiteral("this machine's copy of %1 has SHA-256 %2, not %3: not used")
                              .arg(name, QString::fromLatin1(have.value()), QString::fromLatin1(sha256)));
    QFile f(local + QStringLiteral(".json"));
    if (!f.open(QIODevice::ReadOnly))
        return R::failure(QStringLiteral("%1 has no manifest beside it: %2").arg(local, f.errorString()));
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(f.read(4 * 1024 * 1024), &error);
    if (!doc.isObject())
        return R::failure(QStringLiteral("%1.json: %2").arg(local, error.errorString()));
    return CachedArtifact { local, doc.object() };
}

namespace {
// What arrived is not the artifact (this machine's copy changed since it was hashed): removed,
// so that nothing under the artifact's name is taken for it.
Result<SentArtifact> mismatch(
    Transport& target, const QString& remote, const QString& name, const QByteArray& got, const QByteArray& wanted)
{
    CommandSpec rm;
    rm.command = QStringLiteral("rm -f -- \"$1\"");
    rm.arguments = { remote };
    const ExecResult removed = target.exec(rm, 60000);
    return Result<SentArtifact>::failure(
        QStringLiteral("%1 arrived with SHA-256 %2, not the artifact's %3: %4")
            .arg(name, QString::fromLatin1(got), QString::fromLatin1(wanted),
                removed.ok() ? QStringLiteral("removed")
                             : QStringLiteral("could not be removed: ") + commandFailure(removed)));
}
} // namespace

Result<SentArtifact> sendArtifact(Transport& target, const QString& localPath, const QByteArray& sha256,
    const QString& name, const std::atomic<bool>* stop)
{
    using R = Result<SentArtifact>;
    SentArtifact sent;
    sent.remotePath = kRemotePromoteDir + QLatin1Char('/') + name;
    if (const auto made = target.mkpath(kRemotePromoteDir, 0700); !made)
        return R::failure(made.error());
    if (const auto there = remoteSha256(target, sent.remotePath); there && there.value() == sha256) {
        sent.alreadyThere = true;
        return sent;
    }
    if (auto* ssh = dynamic_cast<SshTransport*>(&target)) {
        BulkUploadOptions o;
        // Extra connections pay off for large files only (their logins cost more than they save
        // on a small one: docs/PERFORMANCE.md, bulkUpload).
        o.sessions = QFileInfo(localPath).size() >= (qint64(256) << 20) ? 4 : 1;
        o.stopRequested = [stop] { return stop && stop->load(); };
        o.write = WriteOptions { 0600, false };
        const auto up = bulkUpload(*ssh, localPath, sent.remotePath, o);
        if (!up)
            return R::failure(up.error());
        if (up->sha256 != sha256)
            return mismatch(target, sent.remotePath, name, up->sha256, sha256);
        sent.sent = up->sent;
        sent.resumed = up->resumed;
        return sent;
    }
    QFile f(localPath);
    if (!f.open(QIODevice::ReadOnly))
        return R::failure(QStringLiteral("cannot read %1: %2").arg(localPath, f.errorString()));
    if (const auto put = target.writeFileAtomic(sent.remotePath, f.readAll(), WriteOptions { 0600, false }); !put)
        return R::failure(put.error());
    const auto got = remoteSha256(target, sent.remotePath);
    if (!got)
        return got.withoutValue();
    if (got.value() != sha256)
        return mismatch(target, sent.remotePath, name, got.value(), sha256);
    sent.sent = QFileInfo(localPath).size();
    return sent;
}

} // namespace kf::deploy
