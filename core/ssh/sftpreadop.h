// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/sftpop.h"

#include <QByteArray>
#include <QFile>

#include <memory>

namespace kf::ssh {

// Reads a whole regular file into `data`, or into a local file when localPath is set. The
// path is stat'ed (symlinks followed) before it is opened: sftp-server's open(2) of a FIFO
// blocks until a writer comes, and a device never ends, so anything but a regular file is
// refused unopened (and again after open, by fstat). maxBytes >= 0 bounds the read: a larger
// file is refused before reading, one that grows past the limit when it gets there.
// With offset >= 0 it reads a range instead: at most maxBytes bytes from offset (into `data`).
class SftpReadOp final : public SftpOp
{
public:
    SftpReadOp(QString path, QString localPath = {}, Progress progress = {}, qint64 maxBytes = -1, qint64 offset = -1);
    QByteArray data;

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    enum class State { Check, Open, Stat, Read, Close };
    // The refusal for attributes a, or empty when the file may be read.
    QString refusal(const LIBSSH2_SFTP_ATTRIBUTES& a) const;
    // Fails with `error` once the handle is closed.
    Step closeWith(const QString& error);
    QString localWriteError() const;
    QString m_path;
    QString m_localPath;
    Progress m_progress;
    qint64 m_maxBytes;
    qint64 m_offset;
    State m_state = State::Check;
    std::unique_ptr<QFile> m_local;
    qint64 m_total = -1;
    qint64 m_done = 0;
    QByteArray m_buf;
};

} // namespace kf::ssh
