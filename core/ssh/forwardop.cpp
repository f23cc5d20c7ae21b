// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/forwardop.h"

#include <cerrno>
#include <sys/socket.h>
#include <unistd.h>

namespace kf::ssh {
namespace {
constexpr qsizetype kForwardBufferCap = 1024 * 1024; // per direction, then back-pressure
}

ForwardOp::ForwardOp(QString host, quint16 port, int fd, std::shared_ptr<TcpipShared> shared)
    : DirectTcpipOp(std::move(host), port, shared ? std::move(shared) : std::make_shared<TcpipShared>())
    , m_fd(fd)
{
    m_buf.resize(kReadChunk);
}

ForwardOp::~ForwardOp()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void ForwardOp::finished(const QString& error)
{
    // No longer watched: the op stops watching when it leaves run(), and the session drops
    // every watch before it aborts ops.
    if (m_fd >= 0) {
        ::close(m_fd); // the other end sees EOF: the next session notices its link is gone
        m_fd = -1;
    }
    DirectTcpipOp::finished(error);
}

ForwardOp::Step ForwardOp::run(OpContext& ctx)
{
    bool progress = false;
    // local -> buffer
    while (!m_localEof && m_toChannel.size() < kForwardBufferCap) {
        const ssize_t n = ::recv(m_fd, m_buf.data(), size_t(m_buf.size()), MSG_DONTWAIT);
        if (n > 0) {
            m_toChannel.append(m_buf.constData(), n);
            progress = true;
        } else if (n == 0) {
            m_localEof = true;
            progress = true;
        } else {
            if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                m_localEof = true; // reset by the local side: treat as its end
            break;
        }
    }
    // buffer -> channel
    if (const ssize_t n = writeFront(m_toChannel); n > 0) {
        progress = true;
    } else if (n < 0) {
        if (linkLost(ctx, int(n)))
            return Step::Blocked;
        m_toChannel.clear();
        m_remoteEof = true;
    }
    if (m_localEof && m_toChannel.isEmpty() && !sendEof(ctx, &progress))
        return Step::Blocked;
    // channel -> buffer
    while (!m_remoteEof && m_toFd.size() < kForwardBufferCap) {
        const ssize_t n = libssh2_channel_read(channel(), m_buf.data(), size_t(m_buf.size()));
        if (n > 0) {
            m_toFd.append(m_buf.constData(), n);
            progress = true;
            continue;
        }
        if (n < 0 && n != LIBSSH2_ERROR_EAGAIN) {
            if (linkLost(ctx, int(n)))
                return Step::Blocked;
            m_remoteEof = true;
        }
        if (libssh2_channel_eof(channel()))
            m_remoteEof = true;
        break;
    }
    // buffer -> local
    bool localBlocked = false;
    while (!m_toFd.isEmpty()) {
        const ssize_t n = ::send(m_fd, m_toFd.constData(), size_t(m_toFd.size()), MSG_DONTWAIT | MSG_NOSIGNAL);
        if (n > 0) {
            m_toFd.remove(0, n);
            progress = true;
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
            localBlocked = true;
            break;
        }
        m_toFd.clear(); // the local side went away
        m_localEof = true;
        m_remoteEof = true;
        break;
    }
    if (m_remoteEof && m_toFd.isEmpty() && !m_fdShutdown) {
        ::shutdown(m_fd, SHUT_WR);
        m_fdShutdown = true;
        progress = true;
    }
    if (m_remoteEof && m_localEof && m_toFd.isEmpty() && m_toChannel.isEmpty())
        return close();
    ctx.watchFd(this, m_fd, !m_localEof && m_toChannel.size() < kForwardBufferCap, localBlocked);
    return progress ? Step::Progress : Step::Blocked;
}

} // namespace kf::ssh
