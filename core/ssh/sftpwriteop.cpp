// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sftpwriteop.h"

#include "core/log/logging.h"

namespace kf::ssh {

SftpWriteOp::SftpWriteOp(Params params)
    : m_p(std::move(params))
{ }

bool SftpWriteOp::refill()
{
    // Keep at least one buffer of unsent data behind the unacknowledged front.
    if (m_windowPos > 0 && m_windowPos >= m_window.size() / 2) {
        m_window.remove(0, m_windowPos);
        m_windowPos = 0;
    }
    while (m_window.size() - m_windowPos < kSftpBufferSize && m_sourcePos < m_total) {
        const qint64 want = qMin<qint64>(kSftpBufferSize, m_total - m_sourcePos);
        if (m_local) {
            const QByteArray chunk = m_local->read(want);
            if (chunk.isEmpty()) {
                m_outcome = Result<void>::failure(localReadError());
                return false;
            }
            m_window += chunk;
            m_sourcePos += chunk.size();
        } else {
            m_window += QByteArray::fromRawData(m_p.data.constData() + m_p.offset + m_sourcePos, qsizetype(want));
            m_sourcePos += want;
        }
    }
    return true;
}

SftpOp::Step SftpWriteOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    switch (m_state) {
    case State::Open: {
        const auto range = [this](qint64 size) {
            const qint64 start = qBound<qint64>(0, m_p.offset, size);
            return m_p.length < 0 ? size - start : qMin(m_p.length, size - start);
        };
        if (!m_p.localPath.isEmpty() && !m_local) {
            m_local = std::make_unique<QFile>(m_p.localPath);
            if (!m_local->open(QIODevice::ReadOnly) || (m_p.offset > 0 && !m_local->seek(m_p.offset))) {
                m_outcome = Result<void>::failure(localReadError());
                return Step::Done;
            }
            m_total = range(m_local->size());
        } else if (m_p.localPath.isEmpty()) {
            m_total = range(m_p.data.size());
        }
        const bool existing = m_p.open == Open::Existing;
        const QByteArray p = m_p.path.toUtf8();
        m_handle = libssh2_sftp_open_ex(sftp, p.constData(), unsigned(p.size()),
            existing ? LIBSSH2_FXF_WRITE : LIBSSH2_FXF_WRITE | LIBSSH2_FXF_CREAT | LIBSSH2_FXF_EXCL, 0600,
            LIBSSH2_SFTP_OPENFILE);
        if (!m_handle) {
            const int rc = libssh2_session_last_errno(ctx.session());
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            return failed(ctx, sftp, rc,
                (existing ? QStringLiteral("cannot open ") : QStringLiteral("cannot create ")) + m_p.path);
        }
        if (m_p.offset > 0) // libssh2 keeps the offset on its side: no request goes out
            libssh2_sftp_seek64(m_handle, libssh2_uint64_t(m_p.offset));
        m_state = State::Write;
        return Step::Progress;
    }
    case State::Write: {
        bool progress = false;
        for (;;) {
            if (m_p.stopRequested && m_p.stopRequested()) {
                m_outcome = Result<void>::failure(QStringLiteral("interrupted writing ") + m_p.path);
                m_state = State::Close;
                return Step::Progress;
            }
            if (!refill()) {
                m_state = State::Close;
                return Step::Progress;
            }
            const qsizetype pending = m_window.size() - m_windowPos;
            if (pending == 0) {
                m_state = m_p.fsync ? State::Fsync : setsMode() ? State::Mode : State::Close;
                return Step::Progress;
            }
            // Always the same unacknowledged front; libssh2 only adds packets for bytes beyond
            // what it already sent, so the cap bounds the data in flight.
            const qsizetype give = qMin(pending, kSftpWriteInFlight);
            const ssize_t n = libssh2_sftp_write(m_handle, m_window.constData() + m_windowPos, size_t(give));
            if (n == LIBSSH2_ERROR_EAGAIN)
                return progress ? Step::Progress : Step::Blocked;
            if (n < 0) {
                if (ctx.fatal(int(n)))
                    return Step::Blocked;
                failed(ctx, sftp, int(n), QStringLiteral("cannot write ") + m_p.path);
                m_state = State::Close;
                return Step::Progress;
            }
            progress = true;
            m_windowPos += n;
            m_acked += n;
            if (m_p.progress)
                m_p.progress(m_acked, m_total);
            if (m_acked % (8 * kSftpBufferSize) < n)
                return Step::Progress;
        }
    }
    case State::Fsync: {
        const auto outboundBlocked
            = [&] { return (libssh2_session_block_directions(ctx.session()) & LIBSSH2_SESSION_BLOCK_OUTBOUND) != 0; };
        if (m_modeHalfSent) { // a libssh2 call that left a packet half sent goes again first
            m_modeRc = setMode();
            if (m_modeRc == LIBSSH2_ERROR_EAGAIN && outboundBlocked())
                return Step::Blocked;
            m_modeHalfSent = false;
        }
        const int rc = libssh2_sftp_fsync(m_handle);
        if (rc == LIBSSH2_ERROR_EAGAIN) {
            // The mode request goes out right behind the fsync (sftp-server answers in
            // order): one round trip for both. Only once the fsync request is out whole: a
            // libssh2 call that met a full socket or a shut window keeps its packet and must
            // be repeated before any other call writes to the channel.
            if (setsMode() && !m_modeSent && !outboundBlocked()
                && libssh2_channel_window_write(libssh2_sftp_get_channel(sftp)) >= 4096) {
                m_modeSent = true;
                m_modeRc = setMode();
                m_modeHalfSent = m_modeRc == LIBSSH2_ERROR_EAGAIN && outboundBlocked();
            }
            return Step::Blocked;
        }
        if (rc < 0) {
            if (ctx.fatal(rc))
                return Step::Blocked;
            // Servers without fsync@openssh.com: the rename still orders the data on most file systems.
            log::ssh()->info("{}: fsync of {} not supported by the server", ctx.describe(), m_p.path);
        }
        m_state = setsMode() ? State::Mode : State::Close;
        return Step::Progress;
    }
    case State::Mode: {
        // Answered already when it went out behind the fsync and came back with it.
        const int rc = m_modeRc != LIBSSH2_ERROR_EAGAIN ? m_modeRc : setMode();
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0) {
            if (ctx.fatal(rc))
                return Step::Blocked;
            failed(ctx, sftp, rc, QStringLiteral("cannot set the mode of ") + m_p.path);
            m_state = State::Close;
            return Step::Progress;
        }
        m_state = m_p.setOwner ? State::Owner : State::Close;
        return Step::Progress;
    }
    case State::Owner: {
        LIBSSH2_SFTP_ATTRIBUTES a {};
        a.flags = LIBSSH2_SFTP_ATTR_UIDGID;
        a.uid = m_p.uid;
        a.gid = m_p.gid;
        const int rc = libssh2_sftp_fstat_ex(m_handle, &a, 1);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0 && ctx.fatal(rc))
            return Step::Blocked; // otherwise best effort: only root may give files away
        m_state = State::Close;
        return Step::Progress;
    }
    case State::Close: {
        if (closeBlocks(ctx, m_p.path))
            return Step::Blocked;
        return Step::Done;
    }
    }
    return Step::Done;
}

int SftpWriteOp::setMode()
{
    LIBSSH2_SFTP_ATTRIBUTES a {};
    a.flags = LIBSSH2_SFTP_ATTR_PERMISSIONS;
    a.permissions = m_p.mode & 07777;
    return libssh2_sftp_fstat_ex(m_handle, &a, 1);
}

QString SftpWriteOp::localReadError() const
{
    return QStringLiteral("cannot read %1: %2").arg(m_p.localPath, m_local->errorString());
}

} // namespace kf::ssh
