// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/tunnelop.h"

#include "core/transport/transport.h"

namespace kf::ssh {

TunnelOp::TunnelOp(QString host, quint16 port, std::shared_ptr<TunnelShared> shared)
    : DirectTcpipOp(std::move(host), port, shared)
    , m_shared(std::move(shared))
{
    m_buf.resize(kReadChunk);
}

TunnelOp::Step TunnelOp::run(OpContext& ctx)
{
    bool progress = false;
    bool closeNow = false;
    QByteArray out;
    {
        std::lock_guard lock(m_shared->mutex);
        out = m_shared->outbound;
        closeNow = m_shared->closeRequested;
    }
    const ssize_t written = writeFront(out);
    if (written < 0)
        return fail(ctx, int(written), QStringLiteral("tunnel write failed"));
    if (written > 0) {
        progress = true;
        std::lock_guard lock(m_shared->mutex);
        m_shared->outbound.remove(0, written);
    }
    QByteArray in;
    bool full = false;
    {
        // Back-pressure: while the reader has kTunnelBufferBytes unread, the channel is
        // not read, its window closes and the server stops sending; read() wakes us.
        std::lock_guard lock(m_shared->mutex);
        full = m_shared->inbound.size() >= kTunnelBufferBytes;
    }
    for (; !full;) {
        const ssize_t n = libssh2_channel_read(channel(), m_buf.data(), size_t(m_buf.size()));
        if (n > 0) {
            in.append(m_buf.constData(), n);
            if (in.size() >= kMaxBytesPerStep)
                break;
            continue;
        }
        if (n < 0 && n != LIBSSH2_ERROR_EAGAIN) {
            if (linkLost(ctx, int(n)))
                return Step::Blocked;
            closeNow = true;
        }
        break;
    }
    const bool eof = !full && libssh2_channel_eof(channel());
    if (!in.isEmpty() || eof) {
        {
            std::lock_guard lock(m_shared->mutex);
            m_shared->inbound += in;
            m_shared->remoteEof = m_shared->remoteEof || eof;
        }
        m_shared->cv.notify_all();
    }
    if (!in.isEmpty() || written > 0) {
        m_shared->cv.notify_all();
        progress = true;
    }
    if (eof || closeNow)
        return close();
    return progress ? Step::Progress : Step::Blocked;
}

} // namespace kf::ssh
