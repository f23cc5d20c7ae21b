// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sshops.h"

#include "core/log/logging.h"
#include "core/util/loginshell.h"

#include <QDateTime>
#include <QDir>
#include <QRandomGenerator>

#include <cerrno>
#include <cstdlib>
#include <sys/socket.h>
#include <unistd.h>

namespace kf::ssh {
namespace {

std::atomic<quint64> g_nextOpId { 1 };

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

constexpr qsizetype kReadChunk = 256 * 1024;
// Per step, so that one flooding channel does not keep the others waiting.
constexpr qsizetype kMaxBytesPerStep = 4 * 1024 * 1024;

FileInfo fromAttrs(const QString& name, const LIBSSH2_SFTP_ATTRIBUTES& a)
{
    FileInfo fi;
    fi.name = name;
    fi.exists = true;
    if (a.flags & LIBSSH2_SFTP_ATTR_PERMISSIONS) {
        fi.isDir = LIBSSH2_SFTP_S_ISDIR(a.permissions);
        fi.isSymlink = LIBSSH2_SFTP_S_ISLNK(a.permissions);
        fi.mode = quint32(a.permissions & 07777);
        fi.type = quint32(a.permissions & LIBSSH2_SFTP_S_IFMT);
    }
    if (a.flags & LIBSSH2_SFTP_ATTR_SIZE)
        fi.size = qint64(a.filesize);
    if (a.flags & LIBSSH2_SFTP_ATTR_UIDGID) {
        fi.uid = quint32(a.uid);
        fi.gid = quint32(a.gid);
    }
    if (a.flags & LIBSSH2_SFTP_ATTR_ACMODTIME)
        fi.mtime = qint64(a.mtime);
    return fi;
}

} // namespace

Op::Op()
    : m_id(g_nextOpId++)
{ }

QString sftpErrorText(unsigned long code)
{
    switch (code) {
    case LIBSSH2_FX_EOF: return QStringLiteral("end of file");
    case LIBSSH2_FX_NO_SUCH_FILE: return QStringLiteral("no such file");
    case LIBSSH2_FX_PERMISSION_DENIED: return QStringLiteral("permission denied");
    case LIBSSH2_FX_FAILURE: return QStringLiteral("failure");
    case LIBSSH2_FX_BAD_MESSAGE: return QStringLiteral("bad message");
    case LIBSSH2_FX_OP_UNSUPPORTED: return QStringLiteral("operation not supported by the server");
    case LIBSSH2_FX_NO_SUCH_PATH: return QStringLiteral("no such path");
    case LIBSSH2_FX_FILE_ALREADY_EXISTS: return QStringLiteral("file already exists");
    case LIBSSH2_FX_WRITE_PROTECT: return QStringLiteral("write protected");
    case LIBSSH2_FX_NO_SPACE_ON_FILESYSTEM: return QStringLiteral("no space left on the file system");
    case LIBSSH2_FX_QUOTA_EXCEEDED: return QStringLiteral("quota exceeded");
    case LIBSSH2_FX_DIR_NOT_EMPTY: return QStringLiteral("folder not empty");
    case LIBSSH2_FX_NOT_A_DIRECTORY: return QStringLiteral("not a folder");
    case LIBSSH2_FX_INVALID_FILENAME: return QStringLiteral("invalid file name");
    default: return QStringLiteral("SFTP status %1").arg(code);
    }
}

// ---------------------------------------------------------------------------------------
// ExecOp

QByteArray newPidMarker()
{
    // Always 16 digits: the line's length (and what still fits in one request) must not vary.
    return QByteArrayLiteral("\x1eKFPID ")
        + QByteArray::number(QRandomGenerator::system()->generate64(), 16).rightJustified(16, '0') + ' ';
}

ExecOp::ExecOp(QByteArray command, bool pty, QByteArray pidMarker, bool resumable, ExecCallbacks callbacks)
    : m_command(std::move(command))
    , m_pty(pty)
    , m_pidMarker(pty ? QByteArray() : std::move(pidMarker))
    , m_resumable(resumable)
    , m_cb(std::move(callbacks))
{
    m_markerDone = m_pidMarker.isEmpty();
    m_buf.resize(kReadChunk);
}

ExecOp::~ExecOp() = default;

void ExecOp::writeStdin(const QByteArray& data)
{
    std::lock_guard lock(m_stdinMutex);
    m_stdinPending += data;
}

void ExecOp::closeStdin()
{
    std::lock_guard lock(m_stdinMutex);
    m_stdinClose = true;
}

void ExecOp::resetForResume()
{
    m_channel = nullptr; // freed with the old session
    m_state = State::Open;
    m_resumedPending = true;
    m_remoteEof = false;
    m_eofSent = false;
    m_markerDone = m_pidMarker.isEmpty();
    m_errHead.clear();
    m_pid = 0;
    m_stdinBuf = m_startInput; // the restarted command reads its environment and input again
}

void ExecOp::abort(const QString& why)
{
    m_channel = nullptr;
    if (m_state == State::Finished)
        return;
    ProcessExit e;
    e.error = why;
    finish(e);
}

void ExecOp::finish(ProcessExit exit)
{
    if (m_state == State::Finished)
        return;
    m_state = State::Finished;
    if (!m_errHead.isEmpty() && m_cb.onStderr) // a marker that never completed is output
        m_cb.onStderr(std::exchange(m_errHead, {}));
    if (m_cb.onFinished)
        m_cb.onFinished(exit);
    m_completion.finish();
}

ExecOp::Step ExecOp::fail(OpContext& ctx, int rc, const QString& what)
{
    if (ctx.fatal(rc))
        return Step::Blocked; // the session aborts or resumes us after teardown
    m_error = what + QStringLiteral(": ") + ctx.lastError();
    if (m_state == State::Open)
        ctx.release(Token::ChannelOpen, this);
    if (m_channel) {
        m_state = State::Free;
        return Step::Progress;
    }
    ProcessExit e;
    e.error = m_error;
    finish(e);
    return Step::Done;
}

void ExecOp::deliverStderr(const QByteArray& chunk)
{
    if (m_markerDone) {
        if (m_cb.onStderr)
            m_cb.onStderr(chunk);
        return;
    }
    m_errHead += chunk;
    QByteArray out;
    const qsizetype at = m_errHead.indexOf(m_pidMarker);
    if (at < 0) {
        // Deliver all but a tail that may be the start of the marker.
        const qsizetype keep = qMin(m_errHead.size(), m_pidMarker.size() - 1);
        out = m_errHead.left(m_errHead.size() - keep);
        m_errHead.remove(0, out.size());
    } else {
        const qsizetype digits = at + m_pidMarker.size();
        const qsizetype nl = m_errHead.indexOf('\n', digits);
        if (nl < 0 && m_errHead.size() - digits <= 24)
            return; // the pid is still on its way
        if (nl >= 0)
            m_pid = m_errHead.mid(digits, nl - digits).toLongLong();
        out = m_errHead.left(at) + (nl >= 0 ? m_errHead.mid(nl + 1) : m_errHead.mid(at));
        m_errHead.clear();
        m_markerDone = true;
    }
    if (!out.isEmpty() && m_cb.onStderr)
        m_cb.onStderr(out);
}

void ExecOp::collectExit(OpContext& ctx)
{
    char* sig = nullptr;
    size_t sigLen = 0;
    if (libssh2_channel_get_exit_signal(m_channel, &sig, &sigLen, nullptr, nullptr, nullptr, nullptr) == 0 && sig) {
        m_exit.signal = QString::fromLatin1(sig, qsizetype(sigLen));
        m_exit.exitCode = -1;
        libssh2_free(ctx.session(), sig);
    } else {
        m_exit.exitCode = libssh2_channel_get_exit_status(m_channel);
    }
    m_gotExit = true;
}

void ExecOp::tick(OpContext&)
{
    // Deadlines are checked in step(); the session steps every op on its tick.
}

ExecOp::Step ExecOp::step(OpContext& ctx)
{
    LIBSSH2_SESSION* s = ctx.session();
    switch (m_state) {
    case State::Open: {
        if (m_cancel || !m_startError.isEmpty()) {
            ProcessExit e;
            e.error = m_startError.isEmpty() ? QStringLiteral("cancelled") : m_startError;
            finish(e);
            return Step::Done;
        }
        if (!ctx.acquire(Token::ChannelOpen, this))
            return Step::Blocked;
        m_channel = libssh2_channel_open_session(s);
        if (!m_channel) {
            const int rc = libssh2_session_last_errno(s);
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            return fail(ctx, rc, QStringLiteral("cannot open a channel"));
        }
        ctx.release(Token::ChannelOpen, this);
        m_state = m_pty ? State::Pty : State::Exec;
        return Step::Progress;
    }
    case State::Pty: {
        const int rc = libssh2_channel_request_pty(m_channel, "xterm");
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0)
            return fail(ctx, rc, QStringLiteral("the server refused a terminal"));
        m_state = State::Exec;
        return Step::Progress;
    }
    case State::Exec: {
        const int rc
            = libssh2_channel_process_startup(m_channel, "exec", 4, m_command.constData(), unsigned(m_command.size()));
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0)
            return fail(ctx, rc, QStringLiteral("the server refused to run the command"));
        m_state = State::Run;
        if (m_resumedPending) {
            m_resumedPending = false;
            if (m_cb.onResumed)
                m_cb.onResumed();
        }
        return Step::Progress;
    }
    case State::Run: {
        bool progress = false;
        {
            std::lock_guard lock(m_stdinMutex);
            m_stdinBuf += std::exchange(m_stdinPending, {});
        }
        while (!m_stdinBuf.isEmpty() && !m_eofSent) {
            const ssize_t n = libssh2_channel_write(m_channel, m_stdinBuf.constData(), size_t(m_stdinBuf.size()));
            if (n == LIBSSH2_ERROR_EAGAIN)
                break;
            if (n < 0) {
                if (ctx.fatal(int(n)))
                    return Step::Blocked;
                m_stdinBuf.clear(); // the process stopped reading; its exit tells the rest
                break;
            }
            m_stdinBuf.remove(0, n);
            progress = true;
        }
        bool closeIn = false;
        {
            std::lock_guard lock(m_stdinMutex);
            closeIn = m_stdinClose && m_stdinPending.isEmpty();
        }
        if (closeIn && m_stdinBuf.isEmpty() && !m_eofSent) {
            const int rc = libssh2_channel_send_eof(m_channel);
            if (rc != LIBSSH2_ERROR_EAGAIN) {
                if (rc < 0 && ctx.fatal(rc))
                    return Step::Blocked;
                m_eofSent = true;
                progress = true;
            }
        }
        qsizetype total = 0;
        for (;;) {
            bool got = false;
            for (int stream : { 0, SSH_EXTENDED_DATA_STDERR }) {
                const ssize_t n = libssh2_channel_read_ex(m_channel, stream, m_buf.data(), size_t(m_buf.size()));
                if (n > 0) {
                    got = true;
                    total += n;
                    const QByteArray chunk(m_buf.constData(), n);
                    if (stream == 0) {
                        if (m_cb.onStdout)
                            m_cb.onStdout(chunk);
                    } else {
                        deliverStderr(chunk);
                    }
                } else if (n < 0 && n != LIBSSH2_ERROR_EAGAIN) {
                    return fail(ctx, int(n), QStringLiteral("reading command output failed"));
                }
            }
            if (!got)
                break;
            progress = true;
            if (total >= kMaxBytesPerStep)
                break; // let the other channels in; a flood must not keep a cancel waiting either
        }
        if (total < kMaxBytesPerStep && libssh2_channel_eof(m_channel)) {
            m_remoteEof = true;
            m_state = State::Close;
            return Step::Progress;
        }
        if (m_cancel) {
            if (!m_killSent) {
                m_killSent = true;
                if (m_pid > 1) {
                    // Through /bin/sh like every command (csh has no 2>); dash's kill takes no --.
                    const QByteArray kill = loginshell::line(
                        QStringLiteral("kill -TERM \"-$1\" 2>/dev/null || kill -TERM \"$1\" 2>/dev/null"),
                        { QByteArray::number(m_pid) });
                    ctx.post(std::make_shared<ExecOp>(kill, false, QByteArray(), false, ExecCallbacks {}));
                    m_closeDeadline = nowMs() + 3000;
                } else {
                    m_closeDeadline = nowMs(); // nothing to signal (PTY: closing sends SIGHUP)
                }
            }
            if (nowMs() >= m_closeDeadline) {
                m_state = State::Close;
                return Step::Progress;
            }
        }
        return progress ? Step::Progress : Step::Blocked;
    }
    case State::Close: {
        const int rc = libssh2_channel_close(m_channel);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0 && ctx.fatal(rc))
            return Step::Blocked;
        m_state = m_remoteEof ? State::WaitClosed : State::Free;
        return Step::Progress;
    }
    case State::WaitClosed: {
        // Output that raced with the EOF is still delivered.
        for (int stream : { 0, SSH_EXTENDED_DATA_STDERR }) {
            for (;;) {
                const ssize_t n = libssh2_channel_read_ex(m_channel, stream, m_buf.data(), size_t(m_buf.size()));
                if (n <= 0)
                    break;
                const QByteArray chunk(m_buf.constData(), n);
                if (stream == 0) {
                    if (m_cb.onStdout)
                        m_cb.onStdout(chunk);
                } else {
                    deliverStderr(chunk);
                }
            }
        }
        const int rc = libssh2_channel_wait_closed(m_channel);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0 && ctx.fatal(rc))
            return Step::Blocked;
        collectExit(ctx);
        m_state = State::Free;
        return Step::Progress;
    }
    case State::Free: {
        const int rc = libssh2_channel_free(m_channel);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        m_channel = nullptr;
        ProcessExit e = m_exit;
        if (!m_error.isEmpty()) {
            e = ProcessExit {};
            e.error = m_error;
        } else if (!m_gotExit) {
            e.exitCode = -1;
            e.error
                = m_cancel ? QStringLiteral("cancelled") : QStringLiteral("the channel closed without an exit status");
        }
        finish(e);
        return Step::Done;
    }
    case State::Finished: return Step::Done;
    }
    return Step::Done;
}

// ---------------------------------------------------------------------------------------
// TunnelOp

TunnelOp::TunnelOp(QString host, quint16 port, std::shared_ptr<TunnelShared> shared)
    : m_host(std::move(host))
    , m_port(port)
    , m_shared(std::move(shared))
{
    m_buf.resize(kReadChunk);
}

void TunnelOp::finish(const QString& error)
{
    {
        std::lock_guard lock(m_shared->mutex);
        if (m_shared->error.isEmpty())
            m_shared->error = error;
        m_shared->finished = true;
        m_shared->remoteEof = true;
    }
    m_shared->cv.notify_all();
    m_state = State::Finished;
    m_completion.finish();
}

void TunnelOp::abort(const QString& why)
{
    m_channel = nullptr;
    if (m_state != State::Finished)
        finish(why);
}

TunnelOp::Step TunnelOp::step(OpContext& ctx)
{
    switch (m_state) {
    case State::Open: {
        if (m_cancel) {
            finish(QStringLiteral("cancelled"));
            return Step::Done;
        }
        if (!ctx.acquire(Token::ChannelOpen, this))
            return Step::Blocked;
        const QByteArray host = m_host.toUtf8();
        m_channel = libssh2_channel_direct_tcpip_ex(ctx.session(), host.constData(), m_port, "127.0.0.1", 22);
        if (!m_channel) {
            const int rc = libssh2_session_last_errno(ctx.session());
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            if (ctx.fatal(rc))
                return Step::Blocked;
            ctx.release(Token::ChannelOpen, this);
            finish(QStringLiteral("the server refused a tunnel to %1:%2: %3")
                       .arg(m_host)
                       .arg(m_port)
                       .arg(ctx.lastError()));
            return Step::Done;
        }
        ctx.release(Token::ChannelOpen, this);
        {
            std::lock_guard lock(m_shared->mutex);
            m_shared->open = true;
        }
        m_shared->cv.notify_all();
        m_state = State::Run;
        return Step::Progress;
    }
    case State::Run: {
        bool progress = false;
        bool close = false;
        QByteArray out;
        {
            std::lock_guard lock(m_shared->mutex);
            out = m_shared->outbound;
            close = m_shared->closeRequested;
        }
        qsizetype written = 0;
        while (written < out.size()) {
            const ssize_t n = libssh2_channel_write(m_channel, out.constData() + written, size_t(out.size() - written));
            if (n == LIBSSH2_ERROR_EAGAIN)
                break;
            if (n < 0) {
                if (ctx.fatal(int(n)))
                    return Step::Blocked;
                {
                    std::lock_guard lock(m_shared->mutex);
                    m_shared->error = QStringLiteral("tunnel write failed: ") + ctx.lastError();
                }
                m_state = State::Close;
                return Step::Progress;
            }
            written += n;
        }
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
            const ssize_t n = libssh2_channel_read(m_channel, m_buf.data(), size_t(m_buf.size()));
            if (n > 0) {
                in.append(m_buf.constData(), n);
                if (in.size() >= kMaxBytesPerStep)
                    break;
                continue;
            }
            if (n < 0 && n != LIBSSH2_ERROR_EAGAIN) {
                if (ctx.fatal(int(n)))
                    return Step::Blocked;
                close = true;
            }
            break;
        }
        const bool eof = !full && libssh2_channel_eof(m_channel);
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
        if (eof || close) {
            m_state = State::Close;
            return Step::Progress;
        }
        return progress ? Step::Progress : Step::Blocked;
    }
    case State::Close: {
        const int rc = libssh2_channel_close(m_channel);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        m_state = State::Free;
        return Step::Progress;
    }
    case State::Free: {
        const int rc = libssh2_channel_free(m_channel);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        m_channel = nullptr;
        finish({});
        return Step::Done;
    }
    case State::Finished: return Step::Done;
    }
    return Step::Done;
}

// ---------------------------------------------------------------------------------------
// PumpOp

PumpOp::Step PumpOp::step(OpContext& ctx)
{
    if (m_cancel) {
        if (m_channel && libssh2_channel_free(m_channel) == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        m_channel = nullptr;
        m_completion.finish();
        return Step::Done;
    }
    if (m_gaveUp)
        return Step::Blocked;
    if (!m_channel) {
        if (!ctx.acquire(Token::ChannelOpen, this))
            return Step::Blocked;
        m_channel = libssh2_channel_open_session(ctx.session());
        if (!m_channel) {
            const int rc = libssh2_session_last_errno(ctx.session());
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            ctx.release(Token::ChannelOpen, this);
            if (!ctx.fatal(rc)) {
                log::ssh()->warn("{}: no idle channel ({}); dead links are found by keepalive only while busy",
                    ctx.describe(), ctx.lastError());
                m_gaveUp = true;
            }
            return Step::Blocked;
        }
        ctx.release(Token::ChannelOpen, this);
    }
    // Reading drives libssh2's transport: every pending packet of every channel is processed.
    const ssize_t n = libssh2_channel_read(m_channel, m_buf, sizeof m_buf);
    if (n < 0 && n != LIBSSH2_ERROR_EAGAIN)
        ctx.fatal(int(n));
    return Step::Blocked;
}

// ---------------------------------------------------------------------------------------
// SFTP

SftpOp::Step SftpOp::step(OpContext& ctx)
{
    if (!m_haveToken) {
        if (!ctx.acquire(Token::Sftp, this))
            return Step::Blocked;
        m_haveToken = true;
    }
    int rc = 0;
    LIBSSH2_SFTP* sftp = ctx.sftp(this, &rc);
    if (!sftp) {
        if (rc == LIBSSH2_ERROR_EAGAIN || ctx.fatal(rc))
            return Step::Blocked;
        m_error = QStringLiteral("cannot start SFTP on %1: %2").arg(ctx.describe(), ctx.lastError());
        ctx.release(Token::Sftp, this);
        m_haveToken = false;
        m_completion.finish();
        return Step::Done;
    }
    const Step s = stepSftp(ctx, sftp);
    if (s == Step::Done) {
        ctx.release(Token::Sftp, this);
        m_haveToken = false;
        m_completion.finish();
    }
    return s;
}

void SftpOp::abort(const QString& why)
{
    if (m_error.isEmpty())
        m_error = why;
    m_haveToken = false;
    m_completion.finish();
}

int SftpOp::releaseLibssh2()
{
    if (!m_handle)
        return 0;
    // libssh2 frees the handle whether or not the server confirms the close.
    if (libssh2_sftp_close_handle(m_handle) == LIBSSH2_ERROR_EAGAIN)
        return LIBSSH2_ERROR_EAGAIN;
    m_handle = nullptr;
    return 0;
}

SftpOp::Step SftpOp::failed(OpContext& ctx, LIBSSH2_SFTP* sftp, int rc, const QString& what)
{
    if (ctx.fatal(rc))
        return Step::Blocked;
    if (rc == LIBSSH2_ERROR_SFTP_PROTOCOL) {
        m_sftpStatus = libssh2_sftp_last_error(sftp);
        m_error = what + QStringLiteral(": ") + sftpErrorText(m_sftpStatus);
    } else {
        m_sftpStatus = 0;
        m_error = what + QStringLiteral(": ") + ctx.lastError();
    }
    return Step::Done;
}

SftpOp::Step SftpStatOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    const QByteArray p = m_path.toUtf8();
    LIBSSH2_SFTP_ATTRIBUTES a {};
    const int rc = libssh2_sftp_stat_ex(
        sftp, p.constData(), unsigned(p.size()), m_followed ? LIBSSH2_SFTP_STAT : LIBSSH2_SFTP_LSTAT, &a);
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return Step::Blocked;
    if (rc < 0) {
        if (rc == LIBSSH2_ERROR_SFTP_PROTOCOL) {
            const unsigned long st = libssh2_sftp_last_error(sftp);
            if (st == LIBSSH2_FX_NO_SUCH_FILE || st == LIBSSH2_FX_NO_SUCH_PATH) {
                if (!m_followed) {
                    result = FileInfo {};
                    result.name = m_path;
                }
                return Step::Done; // missing (or a dangling link: keep what lstat said)
            }
        }
        return failed(ctx, sftp, rc, QStringLiteral("cannot stat ") + m_path);
    }
    if (!m_followed) {
        result = fromAttrs(m_path, a);
        if (result.isSymlink) {
            m_followed = true;
            return Step::Progress;
        }
        return Step::Done;
    }
    FileInfo target = fromAttrs(m_path, a);
    target.isSymlink = true;
    result = target;
    return Step::Done;
}

SftpOp::Step SftpListOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    if (!m_handle && !m_listed) {
        const QByteArray p = m_path.toUtf8();
        m_handle = libssh2_sftp_open_ex(sftp, p.constData(), unsigned(p.size()), 0, 0, LIBSSH2_SFTP_OPENDIR);
        if (!m_handle) {
            const int rc = libssh2_session_last_errno(ctx.session());
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            return failed(ctx, sftp, rc, QStringLiteral("cannot list ") + m_path);
        }
    }
    while (m_handle && !m_listed) {
        char name[1024];
        LIBSSH2_SFTP_ATTRIBUTES a {};
        const int n = libssh2_sftp_readdir_ex(m_handle, name, sizeof name, nullptr, 0, &a);
        if (n == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (n < 0) {
            m_listed = true;
            const Step s = failed(ctx, sftp, n, QStringLiteral("cannot list ") + m_path);
            if (s == Step::Blocked)
                return s;
            break;
        }
        if (n == 0) {
            m_listed = true;
            break;
        }
        const QString entry = QString::fromUtf8(name, n);
        if (entry == QLatin1String(".") || entry == QLatin1String(".."))
            continue;
        result << fromAttrs(entry, a);
    }
    if (m_handle) {
        const int rc = libssh2_sftp_closedir(m_handle);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        m_handle = nullptr;
    }
    if (!m_error.isEmpty())
        return Step::Done;
    // Symlinks: report what they point to, as LocalTransport does.
    while (m_linkIndex < result.size()) {
        FileInfo& fi = result[m_linkIndex];
        if (!fi.isSymlink) {
            ++m_linkIndex;
            continue;
        }
        const QByteArray p
            = (m_path.endsWith(QLatin1Char('/')) ? m_path : m_path + QLatin1Char('/')).toUtf8() + fi.name.toUtf8();
        LIBSSH2_SFTP_ATTRIBUTES a {};
        const int rc = libssh2_sftp_stat_ex(sftp, p.constData(), unsigned(p.size()), LIBSSH2_SFTP_STAT, &a);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc == 0) {
            FileInfo t = fromAttrs(fi.name, a);
            t.isSymlink = true;
            fi = t;
        } else if (ctx.fatal(rc)) {
            return Step::Blocked;
        }
        ++m_linkIndex;
    }
    std::sort(result.begin(), result.end(), [](const FileInfo& a, const FileInfo& b) { return a.name < b.name; });
    return Step::Done;
}

SftpMkpathOp::SftpMkpathOp(QString path, int mode)
    : m_mode(mode)
{
    const bool absolute = path.startsWith(QLatin1Char('/'));
    const QStringList parts = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString cur = absolute ? QStringLiteral("/") : QString();
    for (const QString& part : parts) {
        if (part == QLatin1String("."))
            continue;
        cur += (cur.isEmpty() || cur.endsWith(QLatin1Char('/')) ? QString() : QStringLiteral("/")) + part;
        m_prefixes << cur;
    }
}

SftpOp::Step SftpMkpathOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    while (m_index < m_prefixes.size()) {
        const QByteArray p = m_prefixes[m_index].toUtf8();
        if (m_chmodPending) {
            // sftp-server applies its umask to mkdir's mode: set the bits asked for.
            LIBSSH2_SFTP_ATTRIBUTES a {};
            a.flags = LIBSSH2_SFTP_ATTR_PERMISSIONS;
            a.permissions = unsigned(m_mode);
            const int rc = libssh2_sftp_stat_ex(sftp, p.constData(), unsigned(p.size()), LIBSSH2_SFTP_SETSTAT, &a);
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            m_chmodPending = false;
            if (rc < 0)
                return failed(ctx, sftp, rc, QStringLiteral("cannot set the mode of ") + m_prefixes[m_index]);
            ++m_index;
            continue;
        }
        if (!m_statting) {
            const int rc = libssh2_sftp_mkdir_ex(sftp, p.constData(), unsigned(p.size()), long(m_mode));
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            if (rc == 0) {
                m_chmodPending = true;
                continue;
            }
            if (ctx.fatal(rc))
                return Step::Blocked;
            m_statting = true; // probably exists already: check it is a folder
        }
        LIBSSH2_SFTP_ATTRIBUTES a {};
        const int rc = libssh2_sftp_stat_ex(sftp, p.constData(), unsigned(p.size()), LIBSSH2_SFTP_STAT, &a);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        m_statting = false;
        if (rc < 0)
            return failed(ctx, sftp, rc, QStringLiteral("cannot create folder ") + m_prefixes[m_index]);
        if (!LIBSSH2_SFTP_S_ISDIR(a.permissions)) {
            m_error = QStringLiteral("cannot create folder %1: a file of that name exists").arg(m_prefixes[m_index]);
            return Step::Done;
        }
        ++m_index;
    }
    return Step::Done;
}

SftpOp::Step SftpUnlinkOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    const QByteArray p = m_path.toUtf8();
    const int rc = libssh2_sftp_unlink_ex(sftp, p.constData(), unsigned(p.size()));
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return Step::Blocked;
    if (rc < 0) {
        if (rc == LIBSSH2_ERROR_SFTP_PROTOCOL && libssh2_sftp_last_error(sftp) == LIBSSH2_FX_NO_SUCH_FILE) {
            missing = true;
            return Step::Done;
        }
        return failed(ctx, sftp, rc, QStringLiteral("cannot remove ") + m_path);
    }
    return Step::Done;
}

SftpOp::Step SftpStatvfsOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    const QByteArray p = m_path.toUtf8();
    LIBSSH2_SFTP_STATVFS st {};
    const int rc = libssh2_sftp_statvfs(sftp, p.constData(), size_t(p.size()), &st);
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return Step::Blocked;
    if (rc < 0) {
        const Step s = failed(ctx, sftp, rc, QStringLiteral("cannot read the free space of ") + m_path);
        // libssh2 reports a missing extension as an SFTP failure status or as an unexpected packet.
        unsupported
            = m_sftpStatus == LIBSSH2_FX_OP_UNSUPPORTED || m_sftpStatus == LIBSSH2_FX_FAILURE || m_sftpStatus == 0;
        return s;
    }
    const quint64 unit = st.f_frsize ? st.f_frsize : st.f_bsize;
    availableBytes = qint64(st.f_bavail * unit);
    availableInodes = qint64(st.f_favail);
    return Step::Done;
}

#if LIBSSH2_VERSION_NUM >= 0x010b01
SftpOp::Step SftpPosixRenameOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    const QByteArray from = m_from.toUtf8();
    const QByteArray to = m_to.toUtf8();
    const int rc
        = libssh2_sftp_posix_rename_ex(sftp, from.constData(), size_t(from.size()), to.constData(), size_t(to.size()));
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return Step::Blocked;
    if (rc < 0) {
        const Step s = failed(ctx, sftp, rc, QStringLiteral("cannot rename %1 to %2").arg(m_from, m_to));
        unsupported = m_sftpStatus == LIBSSH2_FX_OP_UNSUPPORTED;
        return s;
    }
    return Step::Done;
}
#endif

SftpOp::Step SftpRealpathOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    const QByteArray p = m_path.toUtf8();
    char target[4096];
    const int rc = libssh2_sftp_symlink_ex(
        sftp, p.constData(), unsigned(p.size()), target, unsigned(sizeof target), LIBSSH2_SFTP_REALPATH);
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return Step::Blocked;
    if (rc < 0)
        return failed(ctx, sftp, rc, QStringLiteral("cannot resolve ") + m_path);
    result = QString::fromUtf8(target, rc);
    return Step::Done;
}

SftpReadOp::SftpReadOp(QString path, QString localPath, Progress progress, qint64 maxBytes, qint64 offset)
    : m_path(std::move(path))
    , m_localPath(std::move(localPath))
    , m_progress(std::move(progress))
    , m_maxBytes(maxBytes)
    , m_offset(offset)
{ }

QString SftpReadOp::refusal(const LIBSSH2_SFTP_ATTRIBUTES& a) const
{
    if ((a.flags & LIBSSH2_SFTP_ATTR_PERMISSIONS) && !LIBSSH2_SFTP_S_ISREG(a.permissions))
        return notRegularFileMessage(m_path, quint32(a.permissions & LIBSSH2_SFTP_S_IFMT));
    if (m_offset < 0 && m_maxBytes >= 0 && (a.flags & LIBSSH2_SFTP_ATTR_SIZE) && qint64(a.filesize) > m_maxBytes)
        return fileTooLargeMessage(m_path, qint64(a.filesize), m_maxBytes);
    return {};
}

SftpOp::Step SftpReadOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    switch (m_state) {
    case State::Check: {
        const QByteArray p = m_path.toUtf8();
        LIBSSH2_SFTP_ATTRIBUTES a {};
        const int rc = libssh2_sftp_stat_ex(sftp, p.constData(), unsigned(p.size()), LIBSSH2_SFTP_STAT, &a);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0)
            return failed(ctx, sftp, rc, QStringLiteral("cannot read ") + m_path);
        if (const QString why = refusal(a); !why.isEmpty()) {
            m_error = why;
            return Step::Done; // nothing opened: a FIFO never blocks the server
        }
        m_state = State::Open;
        return Step::Progress;
    }
    case State::Open: {
        const QByteArray p = m_path.toUtf8();
        m_handle
            = libssh2_sftp_open_ex(sftp, p.constData(), unsigned(p.size()), LIBSSH2_FXF_READ, 0, LIBSSH2_SFTP_OPENFILE);
        if (!m_handle) {
            const int rc = libssh2_session_last_errno(ctx.session());
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            return failed(ctx, sftp, rc, QStringLiteral("cannot read ") + m_path);
        }
        m_state = State::Stat;
        return Step::Progress;
    }
    case State::Stat: {
        LIBSSH2_SFTP_ATTRIBUTES a {};
        const int rc = libssh2_sftp_fstat_ex(m_handle, &a, 0);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0 && ctx.fatal(rc))
            return Step::Blocked;
        if (rc == 0) {
            // The path may have been swapped between the stat and the open.
            if (QString why = refusal(a); !why.isEmpty()) {
                m_pendingError = std::move(why);
                m_state = State::Close;
                return Step::Progress;
            }
            if (a.flags & LIBSSH2_SFTP_ATTR_SIZE) {
                m_total = qint64(a.filesize);
                if (m_localPath.isEmpty() && m_offset < 0 && m_total > 0 && m_total < (qint64(1) << 31))
                    data.reserve(qsizetype(m_total));
            }
        }
        if (m_offset >= 0) {
            // A range: no bigger buffer than the range, so libssh2 does not read far ahead of it.
            if (m_maxBytes <= 0) {
                m_state = State::Close;
                return Step::Progress;
            }
            libssh2_sftp_seek64(m_handle, libssh2_uint64_t(m_offset));
            m_buf.resize(qsizetype(qMin<qint64>(kSftpBufferSize, m_maxBytes)));
            m_state = State::Read;
            return Step::Progress;
        }
        if (!m_localPath.isEmpty()) {
            m_local = std::make_unique<QFile>(m_localPath);
            if (!m_local->open(QIODevice::WriteOnly | QIODevice::Truncate)) {
                m_pendingError = QStringLiteral("cannot write %1: %2").arg(m_localPath, m_local->errorString());
                m_state = State::Close;
                return Step::Progress;
            }
        }
        m_buf.resize(kSftpBufferSize);
        m_state = State::Read;
        return Step::Progress;
    }
    case State::Read: {
        bool progress = false;
        for (;;) {
            const qint64 want = m_offset >= 0 ? qMin<qint64>(m_buf.size(), m_maxBytes - m_done) : m_buf.size();
            const ssize_t n = libssh2_sftp_read(m_handle, m_buf.data(), size_t(want));
            if (n == LIBSSH2_ERROR_EAGAIN)
                return progress ? Step::Progress : Step::Blocked;
            if (n < 0) {
                if (ctx.fatal(int(n)))
                    return Step::Blocked;
                failed(ctx, sftp, int(n), QStringLiteral("cannot read ") + m_path);
                m_pendingError = m_error;
                m_state = State::Close;
                return Step::Progress;
            }
            if (n == 0) {
                m_state = State::Close;
                return Step::Progress;
            }
            progress = true;
            if (m_offset >= 0) {
                data.append(m_buf.constData(), n);
                m_done += n;
                if (m_done >= m_maxBytes) {
                    m_state = State::Close;
                    return Step::Progress;
                }
                continue;
            }
            if (m_maxBytes >= 0 && m_done + n > m_maxBytes) {
                data.clear();
                m_pendingError = fileTooLargeMessage(m_path, m_done + n, m_maxBytes, true);
                m_state = State::Close;
                return Step::Progress;
            }
            if (m_local) {
                if (m_local->write(m_buf.constData(), n) != n) {
                    m_pendingError = QStringLiteral("cannot write %1: %2").arg(m_localPath, m_local->errorString());
                    m_state = State::Close;
                    return Step::Progress;
                }
            } else {
                data.append(m_buf.constData(), n);
            }
            m_done += n;
            if (m_progress)
                m_progress(m_done, m_total);
            if (m_done % (8 * kSftpBufferSize) < n)
                return Step::Progress; // let the other channels have a turn
        }
    }
    case State::Close: {
        if (m_handle) {
            const int rc = libssh2_sftp_close_handle(m_handle);
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            m_handle = nullptr;
        }
        if (m_local)
            m_local->close();
        m_error = m_pendingError;
        return Step::Done;
    }
    }
    return Step::Done;
}

SftpWriteOp::SftpWriteOp(Params params)
    : m_p(std::move(params))
{ }

bool SftpWriteOp::refill()
{
    // Keep at least one buffer of unsent data behind the unacknowledged front.
    if (m_windowPos > 0 && m_windowPos >= m_window.size() / 2) {
        m_window.remove(0, m_windowPos);
        m_windowPos = 0;
    }
    while (m_window.size() - m_windowPos < kSftpBufferSize && m_sourcePos < m_total) {
        const qint64 want = qMin<qint64>(kSftpBufferSize, m_total - m_sourcePos);
        if (m_local) {
            const QByteArray chunk = m_local->read(want);
            if (chunk.isEmpty()) {
                m_pendingError = QStringLiteral("cannot read %1: %2").arg(m_p.localPath, m_local->errorString());
                return false;
            }
            m_window += chunk;
            m_sourcePos += chunk.size();
        } else {
            m_window += QByteArray::fromRawData(m_p.data.constData() + m_sourcePos, qsizetype(want));
            m_sourcePos += want;
        }
    }
    return true;
}

SftpOp::Step SftpWriteOp::stepSftp(OpContext& ctx, LIBSSH2_SFTP* sftp)
{
    switch (m_state) {
    case State::Open: {
        if (!m_p.localPath.isEmpty() && !m_local) {
            m_local = std::make_unique<QFile>(m_p.localPath);
            if (!m_local->open(QIODevice::ReadOnly)) {
                m_error = QStringLiteral("cannot read %1: %2").arg(m_p.localPath, m_local->errorString());
                return Step::Done;
            }
            m_total = m_local->size();
        } else if (m_p.localPath.isEmpty()) {
            m_total = m_p.data.size();
        }
        const QByteArray p = m_p.path.toUtf8();
        m_handle = libssh2_sftp_open_ex(sftp, p.constData(), unsigned(p.size()),
            LIBSSH2_FXF_WRITE | LIBSSH2_FXF_CREAT | LIBSSH2_FXF_EXCL, 0600, LIBSSH2_SFTP_OPENFILE);
        if (!m_handle) {
            const int rc = libssh2_session_last_errno(ctx.session());
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            return failed(ctx, sftp, rc, QStringLiteral("cannot create ") + m_p.path);
        }
        m_state = State::Write;
        return Step::Progress;
    }
    case State::Write: {
        bool progress = false;
        for (;;) {
            if (!refill()) {
                m_state = State::Close;
                return Step::Progress;
            }
            const qsizetype pending = m_window.size() - m_windowPos;
            if (pending == 0) {
                m_state = State::Fsync;
                return Step::Progress;
            }
            // Always the same unacknowledged front; libssh2 only adds packets for bytes beyond
            // what it already sent, so the cap bounds the data in flight.
            const qsizetype give = qMin(pending, kSftpWriteInFlight);
            const ssize_t n = libssh2_sftp_write(m_handle, m_window.constData() + m_windowPos, size_t(give));
            if (n == LIBSSH2_ERROR_EAGAIN)
                return progress ? Step::Progress : Step::Blocked;
            if (n < 0) {
                if (ctx.fatal(int(n)))
                    return Step::Blocked;
                failed(ctx, sftp, int(n), QStringLiteral("cannot write ") + m_p.path);
                m_pendingError = m_error;
                m_state = State::Close;
                return Step::Progress;
            }
            progress = true;
            m_windowPos += n;
            m_acked += n;
            if (m_p.progress)
                m_p.progress(m_acked, m_total);
            if (m_acked % (8 * kSftpBufferSize) < n)
                return Step::Progress;
        }
    }
    case State::Fsync: {
        const int rc = libssh2_sftp_fsync(m_handle);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0) {
            if (ctx.fatal(rc))
                return Step::Blocked;
            // Servers without fsync@openssh.com: the rename still orders the data on most file systems.
            log::ssh()->info("{}: fsync of {} not supported by the server", ctx.describe(), m_p.path);
        }
        m_state = State::Mode;
        return Step::Progress;
    }
    case State::Mode: {
        LIBSSH2_SFTP_ATTRIBUTES a {};
        a.flags = LIBSSH2_SFTP_ATTR_PERMISSIONS;
        a.permissions = m_p.mode & 07777;
        const int rc = libssh2_sftp_fstat_ex(m_handle, &a, 1);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0) {
            if (ctx.fatal(rc))
                return Step::Blocked;
            failed(ctx, sftp, rc, QStringLiteral("cannot set the mode of ") + m_p.path);
            m_pendingError = m_error;
            m_state = State::Close;
            return Step::Progress;
        }
        m_state = m_p.setOwner ? State::Owner : State::Close;
        return Step::Progress;
    }
    case State::Owner: {
        LIBSSH2_SFTP_ATTRIBUTES a {};
        a.flags = LIBSSH2_SFTP_ATTR_UIDGID;
        a.uid = m_p.uid;
        a.gid = m_p.gid;
        const int rc = libssh2_sftp_fstat_ex(m_handle, &a, 1);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0 && ctx.fatal(rc))
            return Step::Blocked; // otherwise best effort: only root may give files away
        m_state = State::Close;
        return Step::Progress;
    }
    case State::Close: {
        const int rc = libssh2_sftp_close_handle(m_handle);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        m_handle = nullptr;
        if (rc < 0 && m_pendingError.isEmpty()) {
            if (ctx.fatal(rc))
                return Step::Blocked;
            m_pendingError = QStringLiteral("cannot close %1: %2").arg(m_p.path, ctx.lastError());
        }
        m_error = m_pendingError;
        return Step::Done;
    }
    }
    return Step::Done;
}

} // namespace kf::ssh

// ---------------------------------------------------------------------------------------
// ForwardOp

namespace kf::ssh {

namespace {
constexpr qsizetype kForwardBufferCap = 1024 * 1024; // per direction, then back-pressure
}

ForwardOp::ForwardOp(QString host, quint16 port, int fd, std::shared_ptr<ForwardShared> shared)
    : m_host(std::move(host))
    , m_port(port)
    , m_fd(fd)
    , m_shared(shared ? std::move(shared) : std::make_shared<ForwardShared>())
{
    m_buf.resize(kReadChunk);
}

ForwardOp::~ForwardOp()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void ForwardOp::finish(OpContext* ctx, const QString& error)
{
    if (ctx)
        ctx->unwatchFd(this);
    if (m_fd >= 0) {
        ::close(m_fd); // the other end sees EOF: the next session notices its link is gone
        m_fd = -1;
    }
    {
        std::lock_guard lock(m_shared->mutex);
        if (m_shared->error.isEmpty())
            m_shared->error = error;
        m_shared->finished = true;
    }
    m_shared->cv.notify_all();
    m_state = State::Finished;
    m_completion.finish();
}

void ForwardOp::abort(const QString& why)
{
    m_channel = nullptr;
    if (m_state != State::Finished)
        finish(nullptr, why); // the session drops every watch itself when it tears down
}

ForwardOp::Step ForwardOp::step(OpContext& ctx)
{
    switch (m_state) {
    case State::Open: {
        if (m_cancel) {
            finish(&ctx, QStringLiteral("cancelled"));
            return Step::Done;
        }
        if (!ctx.acquire(Token::ChannelOpen, this))
            return Step::Blocked;
        const QByteArray host = m_host.toUtf8();
        m_channel = libssh2_channel_direct_tcpip_ex(ctx.session(), host.constData(), m_port, "127.0.0.1", 22);
        if (!m_channel) {
            const int rc = libssh2_session_last_errno(ctx.session());
            if (rc == LIBSSH2_ERROR_EAGAIN)
                return Step::Blocked;
            if (ctx.fatal(rc))
                return Step::Blocked;
            ctx.release(Token::ChannelOpen, this);
            finish(&ctx,
                QStringLiteral("%1 refused a connection to %2:%3: %4")
                    .arg(ctx.describe(), m_host)
                    .arg(m_port)
                    .arg(ctx.lastError()));
            return Step::Done;
        }
        ctx.release(Token::ChannelOpen, this);
        {
            std::lock_guard lock(m_shared->mutex);
            m_shared->open = true;
        }
        m_shared->cv.notify_all();
        m_state = State::Run;
        return Step::Progress;
    }
    case State::Run: {
        bool progress = false;
        // local -> buffer
        while (!m_localEof && m_toChannel.size() < kForwardBufferCap) {
            const ssize_t n = ::recv(m_fd, m_buf.data(), size_t(m_buf.size()), MSG_DONTWAIT);
            if (n > 0) {
                m_toChannel.append(m_buf.constData(), n);
                progress = true;
            } else if (n == 0) {
                m_localEof = true;
                progress = true;
            } else {
                if (errno != EAGAIN && errno != EWOULDBLOCK && errno != EINTR)
                    m_localEof = true; // reset by the local side: treat as its end
                break;
            }
        }
        // buffer -> channel
        while (!m_toChannel.isEmpty()) {
            const ssize_t n = libssh2_channel_write(m_channel, m_toChannel.constData(), size_t(m_toChannel.size()));
            if (n == LIBSSH2_ERROR_EAGAIN)
                break;
            if (n < 0) {
                if (ctx.fatal(int(n)))
                    return Step::Blocked;
                m_toChannel.clear();
                m_remoteEof = true;
                break;
            }
            m_toChannel.remove(0, n);
            progress = true;
        }
        if (m_localEof && m_toChannel.isEmpty() && !m_eofSent) {
            const int rc = libssh2_channel_send_eof(m_channel);
            if (rc != LIBSSH2_ERROR_EAGAIN) {
                m_eofSent = true;
                progress = true;
            }
        }
        // channel -> buffer
        while (!m_remoteEof && m_toFd.size() < kForwardBufferCap) {
            const ssize_t n = libssh2_channel_read(m_channel, m_buf.data(), size_t(m_buf.size()));
            if (n > 0) {
                m_toFd.append(m_buf.constData(), n);
                progress = true;
                continue;
            }
            if (n < 0 && n != LIBSSH2_ERROR_EAGAIN) {
                if (ctx.fatal(int(n)))
                    return Step::Blocked;
                m_remoteEof = true;
            }
            if (libssh2_channel_eof(m_channel))
                m_remoteEof = true;
            break;
        }
        // buffer -> local
        bool localBlocked = false;
        while (!m_toFd.isEmpty()) {
            const ssize_t n = ::send(m_fd, m_toFd.constData(), size_t(m_toFd.size()), MSG_DONTWAIT | MSG_NOSIGNAL);
            if (n > 0) {
                m_toFd.remove(0, n);
                progress = true;
                continue;
            }
            if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR)) {
                localBlocked = true;
                break;
            }
            m_toFd.clear(); // the local side went away
            m_localEof = true;
            m_remoteEof = true;
            break;
        }
        if (m_remoteEof && m_toFd.isEmpty() && !m_fdShutdown) {
            ::shutdown(m_fd, SHUT_WR);
            m_fdShutdown = true;
            progress = true;
        }
        if (m_remoteEof && m_localEof && m_toFd.isEmpty() && m_toChannel.isEmpty()) {
            m_state = State::Close;
            return Step::Progress;
        }
        if (m_cancel) {
            m_state = State::Close;
            return Step::Progress;
        }
        ctx.watchFd(this, m_fd, !m_localEof && m_toChannel.size() < kForwardBufferCap, localBlocked);
        return progress ? Step::Progress : Step::Blocked;
    }
    case State::Close: {
        ctx.unwatchFd(this);
        const int rc = libssh2_channel_close(m_channel);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        m_state = State::Free;
        return Step::Progress;
    }
    case State::Free: {
        const int rc = libssh2_channel_free(m_channel);
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        m_channel = nullptr;
        finish(&ctx, {});
        return Step::Done;
    }
    case State::Finished: return Step::Done;
    }
    return Step::Done;
}

} // namespace kf::ssh
