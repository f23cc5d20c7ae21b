// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/op.h"
#include "core/ssh/sessionwait.h"
#include "core/transport/transport.h"
#include "core/util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <functional>

// The SFTP operations behind SshTransport. Results are written on the session thread
// before completion().finish(); a blocking caller reads them after wait().
namespace kf::ssh {

// SFTP requests carry at most 30000 bytes in libssh2; a buffer of ~2 MiB in multiples of
// that keeps enough requests in flight (libssh2 reads ahead 4x the buffer, up to 8 MiB).
constexpr qsizetype kSftpBufferSize = 70 * 30000;

// Bytes done of total (-1: unknown), reported on the session thread as a transfer goes.
using Progress = std::function<void(qint64 done, qint64 total)>;

// Human text for an SFTP status code (libssh2_sftp_last_error).
QString sftpErrorText(unsigned long code);
// libssh2_sftp_stat_ex on a path: `how` is LIBSSH2_SFTP_STAT, _LSTAT or _SETSTAT (from *attrs).
int sftpStat(LIBSSH2_SFTP* sftp, const QString& path, int how, LIBSSH2_SFTP_ATTRIBUTES* attrs);

// Base of the SFTP operations: they take turns on the session's one SFTP channel.
class SftpOp : public Op
{
public:
    Step step(OpContext& ctx) final;
    void abort(const QString& why) final;
    int releaseLibssh2() override;
    // Once completion() is done: ok, or why not. The kind says what code may act on:
    // NotFound (no such file or folder), Unsupported (the server lacks the request).
    const Result<void>& outcome() const { return m_outcome; }

protected:
    virtual Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) = 0;
    // Records a failure of libssh2 call `what` that returned rc: Done, or Blocked when the
    // connection is gone (abort follows).
    Step failed(OpContext& ctx, LIBSSH2_SFTP* sftp, int rc, const QString& what);
    // Closes m_handle (a file or a directory), the one way an op ends it: true while the close
    // must wait (EAGAIN) or the session is gone; a close that fails makes an op that had not
    // failed otherwise fail with "cannot close <path>: ..." (a write's data may not be on disk).
    bool closeBlocks(OpContext& ctx, const QString& path);
    // The open file or directory, if any; releaseLibssh2() closes it when the session goes.
    LIBSSH2_SFTP_HANDLE* m_handle = nullptr;
    // SFTP status of the last failure (LIBSSH2_FX_*), 0 if it was not an SFTP status.
    unsigned long m_sftpStatus = 0;
    Result<void> m_outcome;

private:
    void finish(OpContext& ctx);
    bool m_haveToken = false;
    SessionWait m_sessionWait; // the SFTP channel refused (sshd's MaxSessions)
};

// An SFTP operation on one path.
class SftpPathOp : public SftpOp
{
public:
    explicit SftpPathOp(QString path)
        : m_path(std::move(path))
    { }

protected:
    const QString m_path;
};

// lstat, and stat of a symlink's target: a missing path is a FileInfo with exists false.
class SftpStatOp final : public SftpPathOp
{
public:
    using SftpPathOp::SftpPathOp;
    FileInfo result;

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    bool m_followed = false;
};

// A folder's entries, sorted by name; symlinks described by what they point to.
class SftpListOp final : public SftpPathOp
{
public:
    using SftpPathOp::SftpPathOp;
    QList<FileInfo> result;

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    bool m_listed = false;
    qsizetype m_linkIndex = 0;
};

class SftpMkpathOp final : public SftpOp
{
public:
    // Creates missing folders with `mode` (then set exactly, whatever the server's umask).
    explicit SftpMkpathOp(QString path, int mode = 0755);

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    int m_mode;
    bool m_chmodPending = false;
    QStringList m_prefixes;
    qsizetype m_index = 0;
    bool m_statting = false;
};

class SftpUnlinkOp final : public SftpPathOp
{
public:
    using SftpPathOp::SftpPathOp;

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;
};

// statvfs@openssh.com on a path: the free space of its file system (SFTP v3 reports a full
// disk as a bare SSH_FX_FAILURE, so a failed write asks this to say what happened).
// Unsupported: the server lacks the extension.
class SftpStatvfsOp final : public SftpPathOp
{
public:
    using SftpPathOp::SftpPathOp;
    qint64 availableBytes = -1; // for an unprivileged user (f_bavail * f_frsize)
    qint64 availableInodes = -1;

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;
};

#if LIBSSH2_VERSION_NUM >= 0x010b01
// posix-rename@openssh.com (libssh2 >= 1.11.1): one rename(2) over SFTP, onto an existing file.
// Unsupported: the server lacks the extension.
class SftpPosixRenameOp final : public SftpOp
{
public:
    SftpPosixRenameOp(QString from, QString to)
        : m_from(std::move(from))
        , m_to(std::move(to))
    { }

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    QString m_from;
    QString m_to;
};
#endif

// realpath over SFTP: the absolute path with symlinks, "." and ".." resolved.
class SftpRealpathOp final : public SftpPathOp
{
public:
    using SftpPathOp::SftpPathOp;
    QString result;

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;
};

} // namespace kf::ssh
