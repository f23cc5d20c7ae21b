// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/directtcpipop.h"

#include <QByteArray>

#include <memory>

namespace kf::ssh {

// Forwards between a local stream socket the op owns (non-blocking; closed when the op
// ends) and a direct-tcpip channel to host:port as seen from the server. The building
// block of ProxyJump (one end of a socketpair is the next session's socket) and of local
// listening ports (an accepted browser connection). Half-closes are passed on.
class ForwardOp final : public DirectTcpipOp
{
public:
    ForwardOp(QString host, quint16 port, int fd, std::shared_ptr<TcpipShared> shared = {});
    ~ForwardOp() override;

protected:
    Step run(OpContext& ctx) override;
    void finished(const QString& error) override;

private:
    int m_fd;
    QByteArray m_toChannel; // read from fd, not yet written to the channel
    QByteArray m_toFd;      // read from the channel, not yet written to fd
    bool m_localEof = false;
    bool m_remoteEof = false;
    bool m_fdShutdown = false;
    QByteArray m_buf;
};

} // namespace kf::ssh
