// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/channelop.h"

namespace kf::ssh {

// An idle session channel that is read on every wake-up so libssh2 processes inbound
// packets (keepalive replies, window adjusts, a closed socket) while no other operation
// is running; libssh2 has no public "process input" call. Runs until the session ends.
class PumpOp final : public ChannelOp
{
protected:
    LIBSSH2_CHANNEL* openChannel(LIBSSH2_SESSION* session) override;
    QString openFailure(OpContext& ctx) const override;
    bool isSession() const override { return true; }
    void opened() override { m_opened = true; }
    Step run(OpContext& ctx) override;
    void finished(const QString& error) override;

private:
    bool m_opened = false;
    char m_buf[4096];
};

} // namespace kf::ssh
