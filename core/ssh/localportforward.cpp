// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/localportforward.h"

#include "core/log/logging.h"
#include "core/ssh/forwardop.h"
#include "core/ssh/sshsession.h"

#include <QTcpServer>
#include <QTcpSocket>

#include <fcntl.h>
#include <unistd.h>

namespace kf {

LocalPortForward::LocalPortForward(
    std::shared_ptr<SshSession> session, QString remoteHost, quint16 remotePort, QObject* parent)
    : QObject(parent)
    , m_session(std::move(session))
    , m_remoteHost(std::move(remoteHost))
    , m_remotePort(remotePort)
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &LocalPortForward::onNewConnection);
}

LocalPortForward::~LocalPortForward()
{
    close();
}

Result<void> LocalPortForward::listen(quint16 localPort)
{
    // A burst of clients (a load generator opening 64 requests at once) must queue in the
    // kernel: past Qt's default backlog of 50 Linux drops the SYN and the client retries a
    // second later, which would show up as a second of extra latency.
    m_server->setListenBacklogSize(4096);
    if (!m_server->listen(QHostAddress::LocalHost, localPort))
        return Result<void>::failure(
            QStringLiteral("cannot listen on 127.0.0.1:%1: %2").arg(localPort).arg(m_server->errorString()));
    return {};
}

quint16 LocalPortForward::localPort() const
{
    return m_server->serverPort();
}

QString LocalPortForward::url() const
{
    return QStringLiteral("http://127.0.0.1:%1/").arg(localPort());
}

void LocalPortForward::close()
{
    m_server->close();
}

void LocalPortForward::onNewConnection()
{
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        // The session thread takes a duplicate of the descriptor; Qt's socket closes its own.
        const int fd = ::fcntl(int(socket->socketDescriptor()), F_DUPFD_CLOEXEC, 0);
        socket->abort();
        socket->deleteLater();
        if (fd < 0)
            continue;
        ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
        ++m_accepted;
        m_session->submit(std::make_shared<ssh::ForwardOp>(m_remoteHost, m_remotePort, fd));
        Q_EMIT connectionAccepted();
    }
}

} // namespace kf
