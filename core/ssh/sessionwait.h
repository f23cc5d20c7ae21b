// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/op.h"

#include <QtGlobal>

namespace kf::ssh {

// The wait of an op whose new session channel the server refused (sshd's MaxSessions): a
// command's channel (ChannelOp) and the SFTP subsystem's (SftpOp) open one the same way.
// While one of ours is open it waits for one to close (OpContext::sessionsFreed changes);
// with none open the server may still be freeing the one that just closed, so it tries again
// every half second for kRetryMs before giving up.
class SessionWait
{
public:
    static constexpr qint64 kRetryMs = 5000;

    // Before an open: false when the op should stay Blocked (still waiting, nothing freed).
    bool mayTry(const OpContext& ctx, qint64 now) const;
    // The open was refused: true to wait (the op returns Blocked), false to give up.
    bool refused(OpContext& ctx, qint64 now);
    // The open went through or failed otherwise; a new connection starts with none waiting.
    void reset() { m_waiting = false; }
    bool waiting() const { return m_waiting; }

private:
    bool m_waiting = false;
    quint64 m_freedAtRefusal = 0;
    qint64 m_refusedSince = 0;
    qint64 m_retryAt = 0;
};

} // namespace kf::ssh
