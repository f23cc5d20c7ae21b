// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/channelop.h"
#include "core/transport/transport.h"

#include <QByteArray>

#include <functional>
#include <mutex>

namespace kf::ssh {

// What a non-PTY command writes to stderr before anything of its own: "\x1eKFPID <nonce> <pid>\n",
// its shell's pid, which is also its process group (sshd calls setsid() for every session),
// so a cancel can signal the whole group with `kill` over another channel (libssh2 1.10
// cannot send the "signal" request). Login scripts may print before it (a banner on stderr):
// the marker is found anywhere in stderr by its per-command random nonce, cut out, and
// everything around it is delivered as it came.
QByteArray newPidMarker(); // "\x1eKFPID <16 hex digits> "

// Called on the session thread; results are written there before completion().finish().
struct ExecCallbacks
{
    std::function<void(const QByteArray&)> onStdout;
    std::function<void(const QByteArray&)> onStderr;
    std::function<void()> onResumed;
    std::function<void(const ProcessExit&)> onFinished; // exactly once
};

// One "session" channel running one command. Drains stdout and stderr together on every
// step (alternating blocking reads deadlock); a read of 0 bytes is not the end: the end is
// libssh2_channel_eof(), then close, wait for the remote close, and collect the exit.
class ExecOp final : public ChannelOp
{
public:
    // pidMarker: the prefix the command prints its pid after (newPidMarker()); empty: none.
    ExecOp(QByteArray command, bool pty, QByteArray pidMarker, bool resumable, ExecCallbacks callbacks);

    bool resumable() const override { return m_resumable; }
    void resetForResume() override;

    // Any thread.
    void writeStdin(const QByteArray& data);
    void closeStdin();
    // Before submit(): the first bytes of stdin, sent again when a resumable op restarts.
    void setStartInput(const QByteArray& input)
    {
        m_startInput = input;
        m_stdinBuf = input;
    }

protected:
    LIBSSH2_CHANNEL* openChannel(LIBSSH2_SESSION* session) override;
    QString openFailure(OpContext& ctx) const override;
    bool isSession() const override { return true; }
    void opened() override;
    Step run(OpContext& ctx) override;
    bool readyToCancel(OpContext& ctx) override;
    void drain() override;
    void remoteClosed(OpContext& ctx) override;
    void finished(const QString& error) override;

private:
    enum class Phase { Pty, Exec, Run };
    // The terminal and exec requests.
    Step start(OpContext& ctx);
    // Queued stdin to the channel, then its EOF once closeStdin() was called: Blocked when
    // the link is gone, else Progress (with *progress set when something was sent).
    Step pumpStdin(OpContext& ctx, bool* progress);
    // One read from stdout and one from stderr, delivered: the bytes read, or libssh2's error.
    ssize_t readOutput();
    void deliver(int stream, const QByteArray& chunk);
    void deliverStderr(const QByteArray& chunk);

    QByteArray m_command;
    bool m_pty;
    QByteArray m_pidMarker;
    bool m_resumable;
    QByteArray m_startInput;
    ExecCallbacks m_cb;
    Phase m_phase = Phase::Exec;
    bool m_resumedPending = false;
    bool m_gotExit = false;
    ProcessExit m_exit;
    // Stdin from other threads; guarded by m_stdinMutex.
    std::mutex m_stdinMutex;
    QByteArray m_stdinPending;
    bool m_stdinClose = false;
    QByteArray m_stdinBuf; // session thread
    // Pid marker parsing.
    bool m_markerDone = false;
    QByteArray m_errHead;
    qint64 m_pid = 0;
    // Cancel: signal sent, close at this deadline (ms since epoch).
    bool m_killSent = false;
    qint64 m_closeDeadline = 0;
    QByteArray m_buf;
};

} // namespace kf::ssh
