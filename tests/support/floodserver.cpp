// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "floodserver.h"

#include "core/transport/transport.h"

#include <QByteArray>

#include <arpa/inet.h>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

namespace kf::test {

FloodServer::FloodServer(qint64 total, int stallMs)
    : m_total(total)
    , m_stallMs(stallMs)
{
    m_listenFd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    socklen_t len = sizeof addr;
    if (m_listenFd < 0 || ::bind(m_listenFd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0
        || ::listen(m_listenFd, 1) != 0 || ::getsockname(m_listenFd, reinterpret_cast<sockaddr*>(&addr), &len) != 0)
        return;
    m_port = ntohs(addr.sin_port);
    m_thread = std::thread([this] { run(); });
}

FloodServer::~FloodServer()
{
    m_stop = true;
    if (m_thread.joinable())
        m_thread.join();
    if (m_listenFd >= 0)
        ::close(m_listenFd);
}

void FloodServer::run()
{
    // Every wait is short and checks m_stop, so the destructor never waits long.
    constexpr int kTickMs = 100;
    pollfd lp { m_listenFd, POLLIN, 0 };
    while (!m_stop && ::poll(&lp, 1, kTickMs) == 0) { }
    const int fd = m_stop ? -1 : ::accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
        m_finished = true;
        return;
    }
    QByteArray chunk(64 * 1024, Qt::Uninitialized);
    qint64 sent = 0;
    int idleMs = 0; // since the peer last took a byte
    while (!m_stop && sent < m_total) {
        const qsizetype n = qsizetype(qMin<qint64>(chunk.size(), m_total - sent));
        for (qsizetype i = 0; i < n; ++i)
            chunk[i] = floodByte(sent + i);
        const ssize_t w = ::send(fd, chunk.constData(), size_t(n), MSG_NOSIGNAL);
        if (w > 0) {
            sent += w;
            m_sent = sent;
            idleMs = 0;
            continue;
        }
        if (w < 0 && errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
            break; // the peer went away
        pollfd p { fd, POLLOUT, 0 };
        if (::poll(&p, 1, kTickMs) == 0) {
            idleMs += kTickMs;
            if (idleMs >= m_stallMs && m_stalledAt < 0)
                m_stalledAt = sent;
        }
    }
    ::close(fd);
    m_finished = true;
}

QString readFloodToEnd(TunnelStream& stream, qint64 already, qint64 total)
{
    qint64 at = already;
    while (!stream.atEnd()) {
        const auto piece = stream.read(60000);
        if (!piece)
            return QStringLiteral("read failed at byte %1: %2").arg(at).arg(piece.error());
        if (piece->isEmpty() && !stream.atEnd())
            return QStringLiteral("nothing came for 60 s at byte %1").arg(at);
        for (const char c : piece.value()) {
            if (c != FloodServer::floodByte(at))
                return QStringLiteral("byte %1 is wrong").arg(at);
            ++at;
        }
    }
    return at == total ? QString() : QStringLiteral("%1 bytes came, not %2").arg(at).arg(total);
}

} // namespace kf::test
