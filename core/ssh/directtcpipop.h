// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/channelop.h"

#include <QString>

#include <condition_variable>
#include <memory>
#include <mutex>

namespace kf::ssh {

// What a direct-tcpip op tells the threads that wait on it: that the channel opened, that
// it ended and why (empty: a clean end). Guarded by mutex; cv is notified on each change.
struct TcpipShared
{
    std::mutex mutex;
    std::condition_variable cv;
    bool open = false;
    bool finished = false;
    QString error;
};

// Base of the ops on a direct-tcpip channel: a TCP connection to host:port as the server
// sees it (TunnelOp, ForwardOp). The server refusing it is the open's failure.
class DirectTcpipOp : public ChannelOp
{
protected:
    DirectTcpipOp(QString host, quint16 port, std::shared_ptr<TcpipShared> shared);
    LIBSSH2_CHANNEL* openChannel(LIBSSH2_SESSION* session) final;
    QString openFailure(OpContext& ctx) const final;
    void opened() final;
    void finished(const QString& error) override;

private:
    QString m_host;
    quint16 m_port;
    std::shared_ptr<TcpipShared> m_shared;
};

} // namespace kf::ssh
