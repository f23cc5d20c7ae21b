// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/sshop.h"
#include "core/transport/transport.h"

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QString>

#include <functional>
#include <memory>
#include <mutex>

// The concrete session-thread operations behind SshTransport. Results are written on the
// session thread before completion().finish(); a blocking caller reads them after wait().
namespace kf::ssh {

// SFTP requests carry at most 30000 bytes in libssh2; a buffer of ~2 MiB in multiples of
// that keeps enough requests in flight (libssh2 reads ahead 4x the buffer, up to 8 MiB).
constexpr qsizetype kSftpBufferSize = 70 * 30000;

// Upload bytes handed to one libssh2_sftp_write() (= at most this much unacknowledged data).
// OpenSSH's sshd gives a session channel a 2 MiB window and re-opens it only as its
// sftp-server consumes data. With libssh2 1.10, filling that window stalls the pipeline: the
// write then advances one 30000-byte ack per server wake-up (measured 30 KB per 60-150 ms,
// bench_ssh upload x0.6 of OpenSSH). Staying ~0.6 MB below the window never hits zero and
// keeps 1.44 MB in flight (~70 MB/s at 20 ms RTT). Bigger buffers (4-8 MiB) are slower.
constexpr qsizetype kSftpWriteInFlight = 48 * 30000;

// What a non-PTY command writes to stderr before anything of its own: "\x1eKFPID <nonce> <pid>\n",
// its shell's pid, which is also its process group (sshd calls setsid() for every session),
// so a cancel can signal the whole group with `kill` over another channel (libssh2 1.10
// cannot send the "signal" request). Login scripts may print before it (a banner on stderr):
// the marker is found anywhere in stderr by its per-command random nonce, cut out, and
// everything around it is delivered as it came.
QByteArray newPidMarker(); // "\x1eKFPID <16 hex digits> "

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
class ExecOp final : public Op
{
public:
    // pidMarker: the prefix the command prints its pid after (newPidMarker()); empty: none.
    ExecOp(QByteArray command, bool pty, QByteArray pidMarker, bool resumable, ExecCallbacks callbacks);
    ~ExecOp() override;

    Step step(OpContext& ctx) override;
    void abort(const QString& why) override;
    bool resumable() const override { return m_resumable; }
    void resetForResume() override;
    void tick(OpContext& ctx) override;

    // Any thread.
    void writeStdin(const QByteArray& data);
    void closeStdin();
    // Before submit(): the op finishes with this error without opening a channel.
    void failBeforeStart(const QString& error) { m_startError = error; }
    // Before submit(): the first bytes of stdin, sent again when a resumable op restarts.
    void setStartInput(const QByteArray& input)
    {
        m_startInput = input;
        m_stdinBuf = input;
    }

private:
    enum class State { Open, Pty, Exec, Run, Close, WaitClosed, Free, Finished };
    Step fail(OpContext& ctx, int rc, const QString& what);
    void finish(ProcessExit exit);
    void deliverStderr(const QByteArray& chunk);
    void collectExit(OpContext& ctx);

    QByteArray m_command;
    bool m_pty;
    QByteArray m_pidMarker;
    bool m_resumable;
    QString m_startError;
    QByteArray m_startInput;
    ExecCallbacks m_cb;
    State m_state = State::Open;
    LIBSSH2_CHANNEL* m_channel = nullptr;
    bool m_resumedPending = false;
    bool m_remoteEof = false;
    bool m_eofSent = false;
    bool m_gotExit = false;
    ProcessExit m_exit;
    QString m_error;
    // Stdin from other threads; guarded by m_stdinMutex.
    std::mutex m_stdinMutex;
    QByteArray m_stdinPending;
    bool m_stdinClose = false;
    QByteArray m_stdinBuf; // session thread
    // Pid marker parsing.
    bool m_markerDone = false;
    QByteArray m_errHead;
    qint64 m_pid = 0;
    // Cancel: signal sent, close at this deadline (ms since epoch), 0 = not cancelling.
    bool m_killSent = false;
    qint64 m_closeDeadline = 0;
    QByteArray m_buf;
};

// Byte queues between a TunnelStream (any thread) and its direct-tcpip channel. inbound
// holds at most about kTunnelBufferBytes (+ one step's read); the reader wakes the session
// when it takes bytes so the channel is read again.
struct TunnelShared
{
    std::mutex mutex;
    std::condition_variable cv;
    QByteArray inbound;
    QByteArray outbound;
    bool open = false;
    bool remoteEof = false;
    bool closeRequested = false;
    bool finished = false;
    QString error;
};

class TunnelOp final : public Op
{
public:
    TunnelOp(QString host, quint16 port, std::shared_ptr<TunnelShared> shared);
    Step step(OpContext& ctx) override;
    void abort(const QString& why) override;

private:
    enum class State { Open, Run, Close, Free, Finished };
    void finish(const QString& error);
    QString m_host;
    quint16 m_port;
    std::shared_ptr<TunnelShared> m_shared;
    State m_state = State::Open;
    LIBSSH2_CHANNEL* m_channel = nullptr;
    QByteArray m_buf;
};

// Forwards between a local stream socket the op owns (non-blocking; closed when the op
// ends) and a direct-tcpip channel to host:port as seen from the server. The building
// block of ProxyJump (one end of a socketpair is the next session's socket) and of local
// listening ports (an accepted browser connection). Half-closes are passed on.
struct ForwardShared
{
    std::mutex mutex;
    std::condition_variable cv;
    bool open = false;
    bool finished = false;
    QString error;
};

class ForwardOp final : public Op
{
public:
    ForwardOp(QString host, quint16 port, int fd, std::shared_ptr<ForwardShared> shared = {});
    ~ForwardOp() override;
    Step step(OpContext& ctx) override;
    void abort(const QString& why) override;

private:
    enum class State { Open, Run, Close, Free, Finished };
    void finish(OpContext* ctx, const QString& error);
    QString m_host;
    quint16 m_port;
    int m_fd;
    std::shared_ptr<ForwardShared> m_shared;
    State m_state = State::Open;
    LIBSSH2_CHANNEL* m_channel = nullptr;
    QByteArray m_toChannel; // read from fd, not yet written to the channel
    QByteArray m_toFd;      // read from the channel, not yet written to fd
    bool m_localEof = false;
    bool m_eofSent = false;
    bool m_remoteEof = false;
    bool m_fdShutdown = false;
    QByteArray m_buf;
};

// An idle session channel that is read on every wake-up so libssh2 processes inbound
// packets (keepalive replies, window adjusts, a closed socket) while no other operation
// is running; libssh2 has no public "process input" call.
class PumpOp final : public Op
{
public:
    Step step(OpContext& ctx) override;
    void abort(const QString&) override
    {
        m_channel = nullptr;
        m_completion.finish();
    }

private:
    LIBSSH2_CHANNEL* m_channel = nullptr;
    bool m_gaveUp = false;
    char m_buf[4096];
};

// Base of the SFTP operations: they take turns on the session's one SFTP channel.
class SftpOp : public Op
{
public:
    Step step(OpContext& ctx) final;
    void abort(const QString& why) override;
    int releaseLibssh2() override;
    const QString& error() const { return m_error; }

protected:
    virtual Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) = 0;
    // The open file or directory, if any; releaseLibssh2() closes it when the session goes.
    LIBSSH2_SFTP_HANDLE* m_handle = nullptr;
    // Records a failure of libssh2 call `rc`; Blocked when the connection is gone (abort follows).
    Step failed(OpContext& ctx, LIBSSH2_SFTP* sftp, int rc, const QString& what);
    // SFTP status of the last failure (LIBSSH2_FX_*), 0 if it was not an SFTP status.
    unsigned long m_sftpStatus = 0;
    QString m_error;

private:
    bool m_haveToken = false;
};

class SftpStatOp final : public SftpOp
{
public:
    explicit SftpStatOp(QString path)
        : m_path(std::move(path))
    { }
    FileInfo result;

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    QString m_path;
    bool m_followed = false;
};

class SftpListOp final : public SftpOp
{
public:
    explicit SftpListOp(QString path)
        : m_path(std::move(path))
    { }
    QList<FileInfo> result;

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    QString m_path;
    bool m_listed = false;
    qsizetype m_linkIndex = 0;
};

class SftpMkpathOp final : public SftpOp
{
public:
    // Creates missing folders with `mode` (then set exactly, whatever the server's umask).
    explicit SftpMkpathOp(QString path, int mode = 0755);

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    int m_mode;
    bool m_chmodPending = false;
    QStringList m_prefixes;
    qsizetype m_index = 0;
    bool m_statting = false;
};

class SftpUnlinkOp final : public SftpOp
{
public:
    explicit SftpUnlinkOp(QString path)
        : m_path(std::move(path))
    { }
    bool missing = false;

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    QString m_path;
};

// statvfs@openssh.com on a path: the free space of its file system (SFTP v3 reports a full
// disk as a bare SSH_FX_FAILURE, so a failed write asks this to say what happened).
class SftpStatvfsOp final : public SftpOp
{
public:
    explicit SftpStatvfsOp(QString path)
        : m_path(std::move(path))
    { }
    qint64 availableBytes = -1; // for an unprivileged user (f_bavail * f_frsize)
    qint64 availableInodes = -1;
    bool unsupported = false; // the server lacks the extension

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    QString m_path;
};

#if LIBSSH2_VERSION_NUM >= 0x010b01
// posix-rename@openssh.com (libssh2 >= 1.11.1): one rename(2) over SFTP, onto an existing file.
class SftpPosixRenameOp final : public SftpOp
{
public:
    SftpPosixRenameOp(QString from, QString to)
        : m_from(std::move(from))
        , m_to(std::move(to))
    { }
    bool unsupported = false;

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    QString m_from;
    QString m_to;
};
#endif

// realpath over SFTP: the absolute path with symlinks, "." and ".." resolved.
class SftpRealpathOp final : public SftpOp
{
public:
    explicit SftpRealpathOp(QString path)
        : m_path(std::move(path))
    { }
    QString result;

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    QString m_path;
};

using Progress = std::function<void(qint64 done, qint64 total)>;

// Reads a whole regular file into `data`, or into a local file when localPath is set. The
// path is stat'ed (symlinks followed) before it is opened: sftp-server's open(2) of a FIFO
// blocks until a writer comes, and a device never ends, so anything but a regular file is
// refused unopened (and again after open, by fstat). maxBytes >= 0 bounds the read: a larger
// file is refused before reading, one that grows past the limit when it gets there.
// With offset >= 0 it reads a range instead: at most maxBytes bytes from offset (into `data`).
class SftpReadOp final : public SftpOp
{
public:
    SftpReadOp(QString path, QString localPath = {}, Progress progress = {}, qint64 maxBytes = -1, qint64 offset = -1);
    QByteArray data;

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    enum class State { Check, Open, Stat, Read, Close };
    // The refusal for attributes a, or empty when the file may be read.
    QString refusal(const LIBSSH2_SFTP_ATTRIBUTES& a) const;
    QString m_path;
    QString m_localPath;
    Progress m_progress;
    qint64 m_maxBytes;
    qint64 m_offset;
    State m_state = State::Check;
    std::unique_ptr<QFile> m_local;
    qint64 m_total = -1;
    qint64 m_done = 0;
    QByteArray m_buf;
    QString m_pendingError;
};

// Writes `data` (or the local file localPath) to a new file created exclusively, then
// fsync, mode and owner, close. The temp-file half of an atomic write.
class SftpWriteOp final : public SftpOp
{
public:
    struct Params
    {
        QString path;
        QByteArray data;
        QString localPath;
        quint32 mode = 0644;
        bool setOwner = false;
        quint32 uid = 0;
        quint32 gid = 0;
        Progress progress;
    };
    explicit SftpWriteOp(Params params);

protected:
    Step stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp) override;

private:
    enum class State { Open, Write, Fsync, Mode, Owner, Close };
    bool refill();
    Params m_p;
    State m_state = State::Open;
    std::unique_ptr<QFile> m_local;
    qint64 m_total = 0;
    qint64 m_acked = 0;
    // Unacknowledged bytes start at m_window[m_windowPos]; libssh2 wants the same bytes again
    // after EAGAIN and after a partial return, so the window only shrinks from the front.
    QByteArray m_window;
    qsizetype m_windowPos = 0;
    qint64 m_sourcePos = 0;
    QString m_pendingError;
};

} // namespace kf::ssh
