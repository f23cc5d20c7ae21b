// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/execop.h"

#include "core/util/loginshell.h"

#include <QDateTime>
#include <QRandomGenerator>

namespace kf::ssh {

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
    ChannelOp::resetForResume();
    m_resumedPending = true;
    m_markerDone = m_pidMarker.isEmpty();
    m_errHead.clear();
    m_pid = 0;
    m_stdinBuf = m_startInput; // the restarted command reads its environment and input again
}

LIBSSH2_CHANNEL* ExecOp::openChannel(LIBSSH2_SESSION* session)
{
    return libssh2_channel_open_session(session);
}

QString ExecOp::openFailure(OpContext& ctx) const
{
    if (libssh2_session_last_errno(ctx.session()) == LIBSSH2_ERROR_CHANNEL_FAILURE)
        return QStringLiteral("the server refused a new session on this connection (its MaxSessions limit?)");
    return QStringLiteral("cannot open a channel");
}

void ExecOp::opened()
{
    m_phase = m_pty ? Phase::Pty : Phase::Exec;
}

void ExecOp::finished(const QString& error)
{
    ProcessExit exit;
    if (!error.isEmpty())
        exit.error = error;
    else if (m_gotExit)
        exit = m_exit;
    else
        exit.error
            = m_cancel ? QStringLiteral("cancelled") : QStringLiteral("the channel closed without an exit status");
    if (!m_errHead.isEmpty() && m_cb.onStderr) // a marker that never completed is output
        m_cb.onStderr(std::exchange(m_errHead, {}));
    if (m_cb.onFinished)
        m_cb.onFinished(exit);
}

void ExecOp::deliver(int stream, const QByteArray& chunk)
{
    if (stream != 0)
        deliverStderr(chunk);
    else if (m_cb.onStdout)
        m_cb.onStdout(chunk);
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

ssize_t ExecOp::readOutput()
{
    ssize_t got = 0;
    for (int stream : { 0, SSH_EXTENDED_DATA_STDERR }) {
        const ssize_t n = libssh2_channel_read_ex(channel(), stream, m_buf.data(), size_t(m_buf.size()));
        if (n > 0) {
            got += n;
            deliver(stream, QByteArray(m_buf.constData(), n));
        } else if (n < 0 && n != LIBSSH2_ERROR_EAGAIN) {
            return n;
        }
    }
    return got;
}

void ExecOp::drain()
{
    // Output that raced with the EOF is still delivered.
    while (readOutput() > 0) { }
}

void ExecOp::remoteClosed(OpContext& ctx)
{
    char* sig = nullptr;
    size_t sigLen = 0;
    if (libssh2_channel_get_exit_signal(channel(), &sig, &sigLen, nullptr, nullptr, nullptr, nullptr) == 0 && sig) {
        m_exit.signal = QString::fromLatin1(sig, qsizetype(sigLen));
        m_exit.exitCode = -1;
        libssh2_free(ctx.session(), sig);
    } else {
        m_exit.exitCode = libssh2_channel_get_exit_status(channel());
    }
    m_gotExit = true;
}

ExecOp::Step ExecOp::start(OpContext& ctx)
{
    if (m_phase == Phase::Pty) {
        const int rc = ctx.setupLocked(
            this, [this](LIBSSH2_SESSION*) { return libssh2_channel_request_pty(channel(), "xterm"); });
        if (rc == LIBSSH2_ERROR_EAGAIN)
            return Step::Blocked;
        if (rc < 0)
            return fail(ctx, rc, QStringLiteral("the server refused a terminal"));
        m_phase = Phase::Exec;
        return Step::Progress;
    }
    const int rc = ctx.setupLocked(this, [this](LIBSSH2_SESSION*) {
        return libssh2_channel_process_startup(channel(), "exec", 4, m_command.constData(), unsigned(m_command.size()));
    });
    if (rc == LIBSSH2_ERROR_EAGAIN)
        return Step::Blocked;
    if (rc < 0)
        return fail(ctx, rc, QStringLiteral("the server refused to run the command"));
    m_phase = Phase::Run;
    if (std::exchange(m_resumedPending, false) && m_cb.onResumed)
        m_cb.onResumed();
    return Step::Progress;
}

ExecOp::Step ExecOp::pumpStdin(OpContext& ctx, bool* progress)
{
    bool closeIn = false;
    {
        std::lock_guard lock(m_stdinMutex);
        m_stdinBuf += std::exchange(m_stdinPending, {});
        closeIn = m_stdinClose;
    }
    if (eofSent())
        return Step::Progress;
    if (const ssize_t n = writeFront(m_stdinBuf); n > 0) {
        *progress = true;
    } else if (n < 0) {
        if (linkLost(ctx, int(n)))
            return Step::Blocked;
        m_stdinBuf.clear(); // the process stopped reading; its exit tells the rest
    }
    if (closeIn && m_stdinBuf.isEmpty() && !sendEof(ctx, progress))
        return Step::Blocked;
    return Step::Progress;
}

ExecOp::Step ExecOp::run(OpContext& ctx)
{
    if (m_phase != Phase::Run)
        return start(ctx);
    bool progress = false;
    if (pumpStdin(ctx, &progress) == Step::Blocked)
        return Step::Blocked;
    qsizetype total = 0;
    while (total < kMaxBytesPerStep) { // then let the other channels in: a flood must not keep a cancel waiting
        const ssize_t n = readOutput();
        if (n < 0)
            return fail(ctx, int(n), QStringLiteral("reading command output failed"));
        if (n == 0)
            break;
        total += n;
        progress = true;
    }
    if (total < kMaxBytesPerStep && libssh2_channel_eof(channel()))
        return close(true); // the exit status follows the remote close
    return progress ? Step::Progress : Step::Blocked;
}

bool ExecOp::readyToCancel(OpContext& ctx)
{
    if (m_phase != Phase::Run)
        return false; // the start request is under way, and libssh2 wants it repeated until done
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    if (!m_killSent) {
        m_killSent = true;
        if (m_pid > 1) {
            // Through /bin/sh like every command (csh has no 2>); dash's kill takes no --.
            const QByteArray kill
                = loginshell::line(QStringLiteral("kill -TERM \"-$1\" 2>/dev/null || kill -TERM \"$1\" 2>/dev/null"),
                    { QByteArray::number(m_pid) });
            ctx.post(std::make_shared<ExecOp>(kill, false, QByteArray(), false, ExecCallbacks {}));
            m_closeDeadline = now + 3000;
        } else {
            m_closeDeadline = now; // nothing to signal (PTY: closing sends SIGHUP)
        }
    }
    return now >= m_closeDeadline;
}

} // namespace kf::ssh
