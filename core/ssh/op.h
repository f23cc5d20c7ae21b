// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>

#include <libssh2.h>
#include <libssh2_sftp.h>

// Operations that run on an SshSession's thread. Every channel of a host (exec, SFTP,
// tunnel, stream) is one Op; the session steps all of them whenever the socket is
// ready, so they progress concurrently over the one connection.
//
// Contract for step(): called on the session thread only; calls libssh2 functions that
// may return LIBSSH2_ERROR_EAGAIN, in which case it returns Blocked and will be called
// again (with the same libssh2 call repeated, as libssh2 requires) once the socket is
// ready for the directions libssh2_session_block_directions() reports.
namespace kf::ssh {

// Session-wide libssh2 state that only one operation may use at a time:
// - ChannelSetup: opening a channel (libssh2 keeps the open in progress in the session) and
//   each channel request that waits for the server's answer (pty, exec, the SFTP
//   subsystem). libssh2 1.10 waits for that answer by its packet type: a request waiting
//   while another channel's answer arrives takes it, finds it is not its own and fails
//   with -1 ("Failed waiting for channel success"), and the channel cannot be used again.
// - Sftp: the shared SFTP subsystem (libssh2 keeps per-request-type state in LIBSSH2_SFTP).
enum class Token { ChannelSetup, Sftp };
inline constexpr int kTokenCount = 2;

class Op;

class OpContext
{
public:
    virtual ~OpContext() = default;
    virtual LIBSSH2_SESSION* session() const = 0;
    virtual bool acquire(Token token, const Op* owner) = 0;
    virtual void release(Token token, const Op* owner) = 0;
    // The SFTP subsystem, initialised on first use by the holder of Token::Sftp. Null with
    // *rc == LIBSSH2_ERROR_EAGAIN: call again later; null with another rc: failed.
    virtual LIBSSH2_SFTP* sftp(const Op* owner, int* rc) = 0;
    // libssh2's message for the last error of this session.
    virtual QString lastError() const = 0;
    // Reports that a libssh2 call returned rc; true when rc means the connection is gone
    // (the session then tears down and reconnects after the current pass).
    virtual bool fatal(int rc) = 0;
    // Queues another operation (e.g. the `kill` that cancels a process).
    virtual void post(std::shared_ptr<Op> op) = 0;
    virtual QString describe() const = 0;
    // Wakes the session when a file descriptor an op owns (a forwarded local socket) becomes
    // readable or writable; call again to change the directions. Dropped with unwatchFd()
    // and when the op finishes or is aborted.
    virtual void watchFd(const Op* owner, int fd, bool read, bool write) = 0;
    virtual void unwatchFd(const Op* owner) = 0;
    // Session channels (commands, the idle pump) count against the server's limit per
    // connection (sshd's MaxSessions, 10 by default). ChannelOp reports each one it opens
    // and frees; an op the server refused a session asks sessionRefused() whether a channel
    // of ours is open, so that waiting for one to close makes sense (the idle pump then
    // gives up its own), and waits until sessionsFreed() changes.
    virtual void sessionOpened() = 0;
    virtual void sessionFreed() = 0;
    virtual quint64 sessionsFreed() const = 0;
    virtual bool sessionRefused() = 0;

    // One libssh2 call of a channel's setup (see Token::ChannelSetup): the caller holds the
    // token from its first call until the call returns something other than
    // LIBSSH2_ERROR_EAGAIN. `call(session)` returns libssh2's rc; while another op holds the
    // token the result is LIBSSH2_ERROR_EAGAIN without calling it.
    template <typename Call> int setupLocked(const Op* owner, Call&& call)
    {
        if (!acquire(Token::ChannelSetup, owner))
            return LIBSSH2_ERROR_EAGAIN;
        const int rc = call(session());
        if (rc != LIBSSH2_ERROR_EAGAIN)
            release(Token::ChannelSetup, owner);
        return rc;
    }
    // The open handshake of a channel or of the SFTP subsystem (which opens one and starts
    // the subsystem) under setupLocked(). `open(session)` is the libssh2 call, repeated
    // after EAGAIN. Null with *rc == LIBSSH2_ERROR_EAGAIN: call again later; null with
    // another rc: failed.
    template <typename T, typename Open> T* openLocked(const Op* owner, Open&& open, int* rc)
    {
        T* object = nullptr;
        *rc = setupLocked(owner, [&](LIBSSH2_SESSION* s) {
            object = open(s);
            return object ? 0 : libssh2_session_last_errno(s);
        });
        return object;
    }
};

// Lets a blocking caller wait for an operation to finish.
class Completion
{
public:
    void finish()
    {
        std::lock_guard lock(m_mutex);
        m_done = true;
        m_cv.notify_all();
    }
    // timeoutMs < 0: forever.
    bool wait(int timeoutMs)
    {
        std::unique_lock lock(m_mutex);
        if (timeoutMs < 0) {
            m_cv.wait(lock, [this] { return m_done; });
            return true;
        }
        return m_cv.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] { return m_done; });
    }
    bool isDone()
    {
        std::lock_guard lock(m_mutex);
        return m_done;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_cv;
    bool m_done = false;
};

class Op
{
public:
    enum class Step { Blocked, Progress, Done };
    Op() = default;
    virtual ~Op() = default;
    Op(const Op&) = delete;
    Op& operator=(const Op&) = delete;

    // Session thread. Done means the op has released its libssh2 objects and tokens and
    // reported its result.
    virtual Step step(OpContext& ctx) = 0;
    // Session thread. The connection is gone (or the session shuts down): the op's libssh2
    // objects are already invalid and must not be touched. Non-resumable ops report
    // `why` as their error and finish.
    virtual void abort(const QString& why) = 0;
    // Session thread, before the session is freed (and before abort()): free the op's own
    // libssh2 objects that freeing the session would not (SFTP handles). Returns
    // LIBSSH2_ERROR_EAGAIN to be called again when the socket is ready; after a lost link
    // the socket is already shut down, so every send fails at once and nothing waits.
    virtual int releaseLibssh2() { return 0; }
    // Resumable ops (long streams) survive a reconnect: forget the old objects and start
    // over on the next session; report resumed() when running again.
    virtual bool resumable() const { return false; }
    virtual void resetForResume() { }
    // Any thread. The op winds down at its next step.
    void requestCancel() { m_cancel = true; }
    bool cancelRequested() const { return m_cancel; }

    Completion& completion() { return m_completion; }

protected:
    std::atomic<bool> m_cancel { false };
    Completion m_completion;
};

} // namespace kf::ssh
