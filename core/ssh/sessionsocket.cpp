// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sessionsocket.h"

#include "core/ssh/forwardop.h"
#include "core/ssh/sshsession.h"

#include <QDateTime>

#include <cerrno>
#include <cstring>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace kf::ssh {
namespace {

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString errnoText()
{
    return QString::fromLocal8Bit(strerror(errno));
}

} // namespace

SessionSocket::SessionSocket(QString peer, const std::atomic<bool>& abort)
    : m_peer(std::move(peer))
    , m_abort(abort)
{ }

SessionSocket::~SessionSocket()
{
    close();
}

void SessionSocket::setDeadline(int ms)
{
    m_deadline = nowMs() + ms;
}

void SessionSocket::shutdown()
{
    if (m_fd >= 0)
        ::shutdown(m_fd, SHUT_RDWR);
}

void SessionSocket::close()
{
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
}

Result<void> SessionSocket::wait(LIBSSH2_SESSION* session)
{
    for (;;) {
        if (m_abort)
            return Result<void>::failure(QStringLiteral("cancelled"));
        const qint64 left = m_deadline - nowMs();
        if (left <= 0)
            return Result<void>::failure(QStringLiteral("timed out waiting for %1").arg(m_peer));
        const int dirs = libssh2_session_block_directions(session);
        short events = 0;
        if (dirs & LIBSSH2_SESSION_BLOCK_INBOUND)
            events |= POLLIN;
        if (dirs & LIBSSH2_SESSION_BLOCK_OUTBOUND)
            events |= POLLOUT;
        // Blocked on nothing of ours (ssh-agent's socket): a short pause, never a spin. The
        // slices let the abort flag and the deadline be seen.
        pollfd p { events ? m_fd : -1, events, 0 };
        const int r = ::poll(&p, 1, int(qMin<qint64>(left, events ? 200 : 10)));
        if (r > 0 || (r == 0 && events == 0))
            return {};
        if (r < 0 && errno != EINTR)
            return Result<void>::failure(QStringLiteral("poll failed: ") + errnoText());
    }
}

Result<int> SessionSocket::drive(LIBSSH2_SESSION* session, const std::function<int()>& call)
{
    for (;;) {
        const int rc = call();
        if (rc != LIBSSH2_ERROR_EAGAIN)
            return rc;
        if (Result<void> w = wait(session); !w)
            return w;
    }
}

Result<void> SessionSocket::connectThrough(const HostProfile& p, const std::shared_ptr<SshSession>& jump)
{
    // ProxyJump: our "socket" is one end of a socketpair; the jump session forwards the
    // other end over a direct-tcpip channel to host:port as the jump host sees it.
    const ConnectionState js = jump->state();
    if (js == ConnectionState::Disconnected || js == ConnectionState::Failed)
        jump->connectToHost();
    if (Result<void> s = jump->waitUntilReady(int(qMax<qint64>(1000, m_deadline - nowMs()))); !s)
        return Result<void>::failure(QStringLiteral("jump host %1: %2").arg(jump->describe(), s.error()),
            jump->state() == ConnectionState::Failed ? ErrorKind::Permanent : ErrorKind::Failed);
    int sv[2];
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) != 0)
        return Result<void>::failure(QStringLiteral("socketpair: ") + errnoText());
    auto shared = std::make_shared<TcpipShared>();
    jump->submit(std::make_shared<ForwardOp>(p.host, p.port, sv[0], shared));
    std::unique_lock lock(shared->mutex);
    const bool settled = shared->cv.wait_for(lock, std::chrono::milliseconds(qMax<qint64>(1, m_deadline - nowMs())),
        [&] { return shared->open || shared->finished; });
    if (!settled || !shared->open) {
        ::close(sv[1]);
        return Result<void>::failure(
            settled ? shared->error : QStringLiteral("timed out opening a channel through %1").arg(jump->describe()));
    }
    m_fd = sv[1];
    return {};
}

Result<void> SessionSocket::connect(const HostProfile& p, const std::shared_ptr<SshSession>& jump)
{
    close();
    if (jump)
        return connectThrough(p, jump);
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    const QByteArray host = p.host.toUtf8();
    const QByteArray port = QByteArray::number(p.port ? p.port : 22);
    if (const int rc = ::getaddrinfo(host.constData(), port.constData(), &hints, &res); rc != 0)
        return Result<void>::failure(
            QStringLiteral("cannot resolve %1: %2").arg(p.host, QString::fromLocal8Bit(gai_strerror(rc))));
    QString lastError = QStringLiteral("no address");
    for (addrinfo* ai = res; ai; ai = ai->ai_next) {
        const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
        if (fd < 0)
            continue;
        int r = ::connect(fd, ai->ai_addr, ai->ai_addrlen);
        if (r != 0 && errno == EINPROGRESS) {
            for (;;) {
                const qint64 left = m_deadline - nowMs();
                if (left <= 0 || m_abort) {
                    errno = m_abort ? ECANCELED : ETIMEDOUT;
                    break;
                }
                pollfd pf { fd, POLLOUT, 0 };
                const int pr = ::poll(&pf, 1, int(qMin<qint64>(left, 200)));
                if (pr > 0) {
                    int err = 0;
                    socklen_t len = sizeof err;
                    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
                    errno = err;
                    r = err == 0 ? 0 : -1;
                    break;
                }
                if (pr < 0 && errno != EINTR)
                    break;
            }
        }
        if (r == 0) {
            const int one = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            ::freeaddrinfo(res);
            m_fd = fd;
            return {};
        }
        lastError = errnoText();
        ::close(fd);
    }
    ::freeaddrinfo(res);
    return Result<void>::failure(
        QStringLiteral("cannot connect to %1 port %2: %3").arg(p.host).arg(p.port).arg(lastError));
}

} // namespace kf::ssh
