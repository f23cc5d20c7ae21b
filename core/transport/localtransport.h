// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/transport/transport.h"

namespace kf {

// The Transport for this machine: commands through /bin/sh (QProcess), files through POSIX
// calls. Lets every feature work on localhost and on local folders, and in unit tests.
class LocalTransport final : public Transport
{
public:
    // homeDir: what relative paths and "~/" resolve against (default: QDir::homePath()).
    explicit LocalTransport(QString homeDir = {});

    QString describe() const override;
    ExecResult exec(const CommandSpec& spec, int timeoutMs = -1) override;
    std::unique_ptr<ProcessHandle> start(const CommandSpec& spec) override;
    Result<QByteArray> readFile(const QString& path, qint64 maxBytes = kDefaultReadLimit) override;
    Result<QByteArray> readFileRange(const QString& path, qint64 offset, qint64 length) override;
    Result<void> writeFileAtomic(
        const QString& path, const QByteArray& data, const WriteOptions& options = {}) override;
    Result<FileInfo> stat(const QString& path) override;
    Result<QList<FileInfo>> list(const QString& directory) override;
    Result<void> mkpath(const QString& directory, int mode = 0755) override;
    Result<QString> canonicalPath(const QString& path) override;
    Result<std::unique_ptr<TunnelStream>> openTunnel(const QString& host, quint16 port) override;

    QString resolve(const QString& path) const;

private:
    QString m_home;
};

} // namespace kf
