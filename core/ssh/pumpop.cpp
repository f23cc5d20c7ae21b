// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/pumpop.h"

#include "core/log/logging.h"

namespace kf::ssh {

LIBSSH2_CHANNEL* PumpOp::openChannel(LIBSSH2_SESSION* session)
{
    return libssh2_channel_open_session(session);
}

QString PumpOp::openFailure(OpContext& ctx) const
{
    return ctx.describe() + QStringLiteral(": no idle channel");
}

PumpOp::Step PumpOp::run(OpContext& ctx)
{
    // Reading drives libssh2's transport: every pending packet of every channel is processed.
    const ssize_t n = libssh2_channel_read(channel(), m_buf, sizeof m_buf);
    if (n < 0 && n != LIBSSH2_ERROR_EAGAIN)
        linkLost(ctx, int(n));
    return Step::Blocked;
}

void PumpOp::finished(const QString& error)
{
    if (!m_opened) // the session goes on without it
        log::ssh()->warn("{}; dead links are found by keepalive only while busy", error);
}

} // namespace kf::ssh
