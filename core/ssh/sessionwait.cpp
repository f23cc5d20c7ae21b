// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sessionwait.h"

#include "core/log/logging.h"

#include <limits>

namespace kf::ssh {

bool SessionWait::mayTry(const OpContext& ctx, qint64 now) const
{
    return !m_waiting || ctx.sessionsFreed() != m_freedAtRefusal || now >= m_retryAt;
}

bool SessionWait::refused(OpContext& ctx, qint64 now)
{
    const bool freed = ctx.sessionsFreed() != m_freedAtRefusal;
    if (!m_waiting)
        log::ssh()->info(
            "{}: the server refused another session ({}); waiting for one to close", ctx.describe(), ctx.lastError());
    if (!m_waiting || freed)
        m_refusedSince = now;
    const bool othersOpen = ctx.sessionRefused();
    if (!othersOpen && now - m_refusedSince >= kRetryMs) {
        m_waiting = false;
        return false;
    }
    m_waiting = true;
    m_freedAtRefusal = ctx.sessionsFreed();
    m_retryAt = othersOpen ? std::numeric_limits<qint64>::max() : now + 500;
    return true;
}

} // namespace kf::ssh
