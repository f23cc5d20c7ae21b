// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/artifactfiles.h"

#include "core/ssh/sshtransport.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

namespace kf::deploy {

QString commandFailure(const ExecResult& r)
{
    if (!r.error.isEmpty())
        return r.error;
    const QString err = QString::fromUtf8(r.stdErr.left(600)).trimmed();
    return err.isEmpty() ? QStringLiteral("exit status %1").arg(r.exitCode) : err;
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

Result<SentArtifact> sendArtifact(
    Transport& target, const QString& localPath, const QByteArray& sha256, const QString& name)
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
    Result<void> put;
    if (auto* ssh = dynamic_cast<SshTransport*>(&target)) {
        put = ssh->upload(localPath, sent.remotePath, {}, WriteOptions { 0600, false });
    } else {
        QFile f(localPath);
        put = f.open(QIODevice::ReadOnly)
            ? target.writeFileAtomic(sent.remotePath, f.readAll(), WriteOptions { 0600, false })
            : Result<void>::failure(QStringLiteral("cannot read %1: %2").arg(localPath, f.errorString()));
    }
    if (!put)
        return R::failure(put.error());
    const auto got = remoteSha256(target, sent.remotePath);
    if (!got)
        return got.withoutValue();
    if (got.value() != sha256)
        return R::failure(QStringLiteral("%1 arrived with SHA-256 %2, not %3")
                              .arg(name, QString::fromLatin1(got.value()), QString::fromLatin1(sha256)));
    return sent;
}

} // namespace kf::deploy
