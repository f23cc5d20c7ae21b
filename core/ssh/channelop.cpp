// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/channelop.h"

#include "core/log/logging.h"

#include <QDateTime>

#include <limits>

namespace kf::ssh {

ChannelOp::Step ChannelOp::close(bool waitForRemoteClose)
{
    m_waitForRemoteClose = waitForRemoteClose;
    m_state = State::Close;
    return Step::Progress;
}

bool ChannelOp::linkLost(OpContext& ctx, int rc)
{
    if (ctx.fatal(rc))
        m_linkLost = true;
    return m_linkLost;
}

ChannelOp::Step ChannelOp::fail(OpContext& ctx, int rc, const QString& what)
{
    if (linkLost(ctx, rc))
        return Step::Blocked;
    m_error = what + QStringLiteral(": ") + ctx.lastError();
    if (!m_channel) {
        finish(m_error);
        return Step::Done;
    }
    m_state = State::Free; // libssh2_channel_free() closes it
    return Step::Progress;
}

ssize_t ChannelOp::writeFront(QByteArray& bytes)
{
    ssize_t total = 0;
    while (!bytes.isEmpty()) {
        const ssize_t n = libssh2_channel_write(m_channel, bytes.constData(), size_t(bytes.size()));
        if (n == LIBSSH2_ERROR_EAGAIN)
            break;
        if (n < 0)
            return n;
        bytes.remove(0, n);
        total += n;
    }
    return total;
}

bool ChannelOp::sendEof(OpContext& ctx, bool* progress)
{
    if (m_eofSent)
        return true;
    const int rc = libssh2_channel_send_eof(m_channel);
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return true;
    if (rc < 0 && linkLost(ctx, rc))
        return false;
    m_eofSent = true;
    *progress = true;
    return true;
}

void ChannelOp::finish(const QString& error)
{
    m_state = State::Finished;
    finished(error);
    m_completion.finish();
}

void ChannelOp::abort(const QString& why)
{
    m_channel = nullptr; // freed with the session
    if (m_state != State::Finished)
        finish(why);
}

void ChannelOp::resetForResume()
{
    m_channel = nullptr; // freed with the old session
    m_state = State::Open;
    m_waitForRemoteClose = false;
    m_eofSent = false;
    m_linkLost = false;
    m_sessionWait.reset(); // the new connection's sessions are all free
}

ChannelOp::Step ChannelOp::step(OpContext& ctx)
{
    switch (m_state) {
    case State::Open: {
        if (m_cancel || !m_error.isEmpty()) {
            if (m_error.isEmpty() && m_sessionWait.waiting())
                m_error = QStringLiteral("cancelled while waiting for a free session on this connection (the server's "
                                         "MaxSessions limit?)");
            finish(m_error.isEmpty() ? QStringLiteral("cancelled") : m_error);
            return Step::Done;
        }
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        if (!m_sessionWait.mayTry(ctx, now))
            return Step::Blocked; // stepped again when an op finishes, and every second
        int rc = 0;
        m_channel = ctx.openLocked<LIBSSH2_CHANNEL>(
            this, [this](LIBSSH2_SESSION* s) { return openChannel(s); }, &rc);
        if (!m_channel && rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked; // the open (or a retry after a refusal) is on its way
        if (!m_channel && rc == LIBSSH2_ERROR_CHANNEL_FAILURE && isSession() && m_sessionWait.refused(ctx, now))
            return Step::Blocked;
        m_sessionWait.reset();
        if (!m_channel)
            return fail(ctx, rc, openFailure(ctx));
        if (isSession())
            ctx.sessionOpened();
        opened();
        m_state = State::Run;
        return Step::Progress;
    }
    case State::Run: {
        Step s = run(ctx);
        if (m_state == State::Run && m_cancel && !m_linkLost && readyToCancel(ctx))
            s = close();
        if (m_state != State::Run)
            ctx.unwatchFd(this); // its socket must not keep waking the session while the channel closes
        return s;
    }
    case State::Close: {
        const int rc = libssh2_channel_close(m_channel);
        if (rc == LIBSSH2_ERROR_EAGAIN || (rc < 0 && linkLost(ctx, rc)))
            return Step::Blocked;
        m_state = m_waitForRemoteClose ? State::WaitClosed : State::Free;
        return Step::Progress;
    }
    case State::WaitClosed: {
        drain();
        const int rc = libssh2_channel_wait_closed(m_channel);
        if (rc == LIBSSH2_ERROR_EAGAIN || (rc < 0 && linkLost(ctx, rc)))
            return Step::Blocked;
        remoteClosed(ctx);
        m_state = State::Free;
        return Step::Progress;
    }
    case State::Free: {
        // libssh2 frees the channel whatever the server says, unless it would block.
        if (libssh2_channel_free(m_channel) == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        m_channel = nullptr;
        if (isSession())
            ctx.sessionFreed();
        finish(m_error);
        return Step::Done;
    }
    case State::Finished: return Step::Done;
    }
    return Step::Done;
}

} // namespace kf::ssh
