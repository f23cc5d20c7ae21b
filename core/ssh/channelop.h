// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/op.h"
#include "core/ssh/sessionwait.h"

#include <QByteArray>
#include <QString>

namespace kf::ssh {

// Read buffer of a channel op; kMaxBytesPerStep bounds one step, so that one flooding
// channel does not keep the others (or a cancel) waiting.
constexpr qsizetype kReadChunk = 256 * 1024;
constexpr qsizetype kMaxBytesPerStep = 4 * 1024 * 1024;

// Base of the operations that own one libssh2 channel (ExecOp, TunnelOp, ForwardOp, PumpOp).
// It owns the channel's life, the same for all of them: the open (under the session's setup
// token, OpContext::openLocked; a session the server refuses waits for one of ours to close),
// the close, the wait for the remote close when asked, the free, and the one report of the
// outcome. A subclass writes only its loop, run().
//
//   Open -> Run -> Close -> [WaitClosed] -> Free -> finished()
//
// A libssh2 call that reports the lost link (OpContext::fatal) leaves the op where it is:
// the session tears down and aborts it with the reason (or resumes it), so the reason is
// what the op reports. A cancel before the open finishes the op unopened; a cancel while
// running closes the channel once readyToCancel() agrees. A local socket the op watched is
// unwatched when it leaves run(), before the channel closes.
class ChannelOp : public Op
{
public:
    Step step(OpContext& ctx) final;
    void abort(const QString& why) final;
    void resetForResume() override;

    // Before submit(): the op finishes with this error without opening a channel.
    void failBeforeStart(const QString& error) { m_error = error; }

protected:
    // The libssh2 call that opens the channel (repeated after EAGAIN).
    virtual LIBSSH2_CHANNEL* openChannel(LIBSSH2_SESSION* session) = 0;
    // What a failed open means, ahead of libssh2's message: "cannot open a channel".
    virtual QString openFailure(OpContext& ctx) const = 0;
    // A session channel (a command, not a tunnel): it counts against the server's sessions
    // per connection, and a refused open waits for one of ours to close (OpContext).
    virtual bool isSession() const { return false; }
    virtual void opened() { }
    // The work on the open channel. Ends with close() or fail(); Blocked or Progress while
    // the channel is open.
    virtual Step run(OpContext& ctx) = 0;
    // A cancel is pending while running: whether the channel may close now (ExecOp first
    // signals its process and gives it a moment).
    virtual bool readyToCancel(OpContext&) { return true; }
    // Waiting for the remote close: what still arrives on the channel.
    virtual void drain() { }
    // The remote side closed the channel (after close(true)): its exit status is there.
    virtual void remoteClosed(OpContext&) { }
    // Exactly once: the outcome (error empty: success), the channel already gone.
    virtual void finished(const QString& error) = 0;

    // For run(): close the channel (after waiting for the remote close, e.g. for an exit
    // status); returns Progress.
    Step close(bool waitForRemoteClose = false);
    // For run(): whether a libssh2 error means the link is gone (OpContext::fatal). Then the
    // op returns Blocked and does nothing more: the session aborts it.
    bool linkLost(OpContext& ctx, int rc);
    // For run(): libssh2 call `what` returned rc. Blocked when the link is gone; otherwise the
    // op frees its channel and finishes with "<what>: <libssh2 error>".
    Step fail(OpContext& ctx, int rc, const QString& what);
    // For run(): writes the front of `bytes` until the channel would block, removing what
    // went. The count written, or libssh2's error (< 0, never EAGAIN).
    ssize_t writeFront(QByteArray& bytes);
    // For run(): sends our EOF, once. False when the link is gone (return Blocked: the
    // session aborts the op); *progress is set when it went.
    bool sendEof(OpContext& ctx, bool* progress);
    bool eofSent() const { return m_eofSent; }
    LIBSSH2_CHANNEL* channel() const { return m_channel; }

private:
    enum class State { Open, Run, Close, WaitClosed, Free, Finished };
    void finish(const QString& error);
    State m_state = State::Open;
    LIBSSH2_CHANNEL* m_channel = nullptr;
    bool m_waitForRemoteClose = false;
    bool m_eofSent = false;
    bool m_linkLost = false;
    SessionWait m_sessionWait; // a refused session: retried when one of ours is freed
    QString m_error;
};

} // namespace kf::ssh
