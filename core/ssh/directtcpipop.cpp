// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/directtcpipop.h"

namespace kf::ssh {

DirectTcpipOp::DirectTcpipOp(QString host, quint16 port, std::shared_ptr<TcpipShared> shared)
    : m_host(std::move(host))
    , m_port(port)
    , m_shared(std::move(shared))
{ }

LIBSSH2_CHANNEL* DirectTcpipOp::openChannel(LIBSSH2_SESSION* session)
{
    const QByteArray host = m_host.toUtf8();
    // The originator address is informational; OpenSSH logs it.
    return libssh2_channel_direct_tcpip_ex(session, host.constData(), m_port, "127.0.0.1", 22);
}

QString DirectTcpipOp::openFailure(OpContext& ctx) const
{
    return QStringLiteral("%1 refused a connection to %2:%3").arg(ctx.describe(), m_host).arg(m_port);
}

void DirectTcpipOp::opened()
{
    {
        std::lock_guard lock(m_shared->mutex);
        m_shared->open = true;
    }
    m_shared->cv.notify_all();
}

void DirectTcpipOp::finished(const QString& error)
{
    {
        std::lock_guard lock(m_shared->mutex);
        if (m_shared->error.isEmpty())
            m_shared->error = error;
        m_shared->finished = true;
    }
    m_shared->cv.notify_all();
}

} // namespace kf::ssh
