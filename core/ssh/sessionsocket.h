// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "core/util/result.h"

#include <atomic>
#include <functional>
#include <memory>

#include <libssh2.h>

namespace kf {
class SshSession;
}

namespace kf::ssh {

// The socket of one SSH session, on its session thread: connected directly (non-blocking
// TCP) or through a jump host (one end of a socketpair; a ForwardOp on the jump session
// carries the other end to host:port), and the blocking waits of a login or a teardown,
// where libssh2 runs one call at a time through EAGAIN: each wait polls the socket in the
// directions libssh2 is blocked on, and ends at the deadline or when `abort` is set.
class SessionSocket
{
public:
    // peer: "alice@gpu1:22", for messages.
    SessionSocket(QString peer, const std::atomic<bool>& abort);
    ~SessionSocket();
    SessionSocket(const SessionSocket&) = delete;
    SessionSocket& operator=(const SessionSocket&) = delete;

    int fd() const { return m_fd; }
    // Bounds the waits from now on.
    void setDeadline(int ms);
    // Connects to profile.host:port, or through `jump` when set. ErrorKind::Permanent when
    // the jump host failed for good.
    Result<void> connect(const HostProfile& profile, const std::shared_ptr<SshSession>& jump);
    // Until the socket is ready for what libssh2 is blocked on (a short pause when that is
    // nothing of ours, e.g. ssh-agent's socket), the deadline, or the abort.
    Result<void> wait(LIBSSH2_SESSION* session);
    // Repeats a libssh2 call while it returns EAGAIN, waiting in between: its final rc, or
    // why the wait ended (timed out, cancelled).
    Result<int> drive(LIBSSH2_SESSION* session, const std::function<int()>& call);
    // The peer is gone: every send libssh2 tries from now on fails at once.
    void shutdown();
    void close();

private:
    Result<void> connectThrough(const HostProfile& profile, const std::shared_ptr<SshSession>& jump);
    QString m_peer;
    const std::atomic<bool>& m_abort;
    int m_fd = -1;
    qint64 m_deadline = 0;
};

} // namespace kf::ssh
