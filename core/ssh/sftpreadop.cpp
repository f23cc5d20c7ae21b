// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sftpreadop.h"

namespace kf::ssh {

SftpReadOp::SftpReadOp(QString path, QString localPath, Progress progress, qint64 maxBytes, qint64 offset)
    : m_path(std::move(path))
    , m_localPath(std::move(localPath))
    , m_progress(std::move(progress))
    , m_maxBytes(maxBytes)
    , m_offset(offset)
{ }

QString SftpReadOp::refusal(const LIBSSH2_SFTP_ATTRIBUTES& a) const
{
    if ((a.flags & LIBSSH2_SFTP_ATTR_PERMISSIONS) && !LIBSSH2_SFTP_S_ISREG(a.permissions))
        return notRegularFileMessage(m_path, quint32(a.permissions & LIBSSH2_SFTP_S_IFMT));
    if (m_offset < 0 && m_maxBytes >= 0 && (a.flags & LIBSSH2_SFTP_ATTR_SIZE) && qint64(a.filesize) > m_maxBytes)
        return fileTooLargeMessage(m_path, qint64(a.filesize), m_maxBytes);
    return {};
}

SftpOp::Step SftpReadOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    switch (m_state) {
    case State::Check: {
        LIBSSH2_SFTP_ATTRIBUTES a {};
        const int rc = sftpStat(sftp, m_path, LIBSSH2_SFTP_STAT, &a);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0)
            return failed(ctx, sftp, rc, QStringLiteral("cannot read ") + m_path);
        if (const QString why = refusal(a); !why.isEmpty()) {
            m_outcome = Result<void>::failure(why);
            return Step::Done; // nothing opened: a FIFO never blocks the server
        }
        m_state = State::Open;
        return Step::Progress;
    }
    case State::Open: {
        const QByteArray p = m_path.toUtf8();
        m_handle
            = libssh2_sftp_open_ex(sftp, p.constData(), unsigned(p.size()), LIBSSH2_FXF_READ, 0, LIBSSH2_SFTP_OPENFILE);
        if (!m_handle) {
            const int rc = libssh2_session_last_errno(ctx.session());
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            return failed(ctx, sftp, rc, QStringLiteral("cannot read ") + m_path);
        }
        m_state = State::Stat;
        return Step::Progress;
    }
    case State::Stat: {
        LIBSSH2_SFTP_ATTRIBUTES a {};
        const int rc = libssh2_sftp_fstat_ex(m_handle, &a, 0);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0 && ctx.fatal(rc))
            return Step::Blocked;
        if (rc == 0) {
            // The path may have been swapped between the stat and the open.
            if (const QString why = refusal(a); !why.isEmpty())
                return closeWith(why);
            if (a.flags & LIBSSH2_SFTP_ATTR_SIZE) {
                m_total = qint64(a.filesize);
                if (m_localPath.isEmpty() && m_offset < 0 && m_total > 0 && m_total < (qint64(1) << 31))
                    data.reserve(qsizetype(m_total));
            }
        }
        if (m_offset >= 0) {
            // A range: no bigger buffer than the range, so libssh2 does not read far ahead of it.
            if (m_maxBytes <= 0) {
                m_state = State::Close;
                return Step::Progress;
            }
            libssh2_sftp_seek64(m_handle, libssh2_uint64_t(m_offset));
            m_buf.resize(qsizetype(qMin<qint64>(kSftpBufferSize, m_maxBytes)));
            m_state = State::Read;
            return Step::Progress;
        }
        if (!m_localPath.isEmpty()) {
            m_local = std::make_unique<QFile>(m_localPath);
            if (!m_local->open(QIODevice::WriteOnly | QIODevice::Truncate))
                return closeWith(localWriteError());
        }
        m_buf.resize(kSftpBufferSize);
        m_state = State::Read;
        return Step::Progress;
    }
    case State::Read: {
        bool progress = false;
        for (;;) {
            const qint64 want = m_offset >= 0 ? qMin<qint64>(m_buf.size(), m_maxBytes - m_done) : m_buf.size();
            const ssize_t n = libssh2_sftp_read(m_handle, m_buf.data(), size_t(want));
            if (n == LIBSSH2_ERROR_EAGAIN)
                return progress ? Step::Progress : Step::Blocked;
            if (n < 0) {
                if (ctx.fatal(int(n)))
                    return Step::Blocked;
                failed(ctx, sftp, int(n), QStringLiteral("cannot read ") + m_path);
                m_state = State::Close;
                return Step::Progress;
            }
            if (n == 0) {
                m_state = State::Close;
                return Step::Progress;
            }
            progress = true;
            if (m_offset >= 0) {
                data.append(m_buf.constData(), n);
                m_done += n;
                if (m_done >= m_maxBytes) {
                    m_state = State::Close;
                    return Step::Progress;
                }
                continue;
            }
            if (m_maxBytes >= 0 && m_done + n > m_maxBytes) {
                data.clear();
                return closeWith(fileTooLargeMessage(m_path, m_done + n, m_maxBytes, true));
            }
            if (m_local) {
                if (m_local->write(m_buf.constData(), n) != n)
                    return closeWith(localWriteError());
            } else {
                data.append(m_buf.constData(), n);
            }
            m_done += n;
            if (m_progress)
                m_progress(m_done, m_total);
            if (m_done % (8 * kSftpBufferSize) < n)
                return Step::Progress; // let the other channels have a turn
        }
    }
    case State::Close: {
        if (closeBlocks(ctx, m_path))
            return Step::Blocked;
        if (m_local)
            m_local->close();
        return Step::Done;
    }
    }
    return Step::Done;
}

SftpOp::Step SftpReadOp::closeWith(const QString& error)
{
    m_outcome = Result<void>::failure(error);
    m_state = State::Close;
    return Step::Progress;
}

QString SftpReadOp::localWriteError() const
{
    return QStringLiteral("cannot write %1: %2").arg(m_localPath, m_local->errorString());
}

} // namespace kf::ssh
