// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/directtcpipop.h"

#include <QByteArray>

#include <memory>

namespace kf::ssh {

// Byte queues between a TunnelStream (any thread) and its channel. inbound holds at most
// about kTunnelBufferBytes (+ one step's read); the reader wakes the session when it takes
// bytes so the channel is read again. The stream ends at remoteEof or finished.
struct TunnelShared : TcpipShared
{
    QByteArray inbound;
    QByteArray outbound;
    bool remoteEof = false;
    bool closeRequested = false;
};

// A direct-tcpip channel read and written through TunnelShared (SshTransport::openTunnel).
class TunnelOp final : public DirectTcpipOp
{
public:
    TunnelOp(QString host, quint16 port, std::shared_ptr<TunnelShared> shared);

protected:
    Step run(OpContext& ctx) override;

private:
    std::shared_ptr<TunnelShared> m_shared;
    QByteArray m_buf;
};

} // namespace kf::ssh
