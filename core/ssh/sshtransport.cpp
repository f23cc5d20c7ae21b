// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sshtransport.h"

#include "core/hosts/sshconfig.h"
#include "core/log/logging.h"
#include "core/ssh/awaitop.h"
#include "core/ssh/execop.h"
#include "core/ssh/sftpop.h"
#include "core/ssh/sftpreadop.h"
#include "core/ssh/sftpwriteop.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/tunnelop.h"
#include "core/util/loginshell.h"
#include "core/util/shellquote.h"

#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QThread>

#include <mutex>

namespace kf {
namespace {

using namespace kf::ssh;

// Carries a started process's output from the session thread to the handle's thread.
// Shared by the op's callbacks and the handle, so it outlives every emission.
class ExecRelay final : public QObject
{
    Q_OBJECT
Q_SIGNALS:
    void stdoutReceived(const QByteArray& chunk);
    void stderrReceived(const QByteArray& chunk);
    void resumed();
    void finished(const kf::ProcessExit& exit);
};

class SshProcessHandle final : public ProcessHandle
{
public:
    SshProcessHandle(std::shared_ptr<SshSession> session, std::shared_ptr<ExecOp> op, std::shared_ptr<ExecRelay> relay)
        : m_session(std::move(session))
        , m_op(std::move(op))
        , m_relay(std::move(relay))
    {
        connect(m_relay.get(), &ExecRelay::stdoutReceived, this, &ProcessHandle::stdoutReceived, Qt::QueuedConnection);
        connect(m_relay.get(), &ExecRelay::stderrReceived, this, &ProcessHandle::stderrReceived, Qt::QueuedConnection);
        connect(m_relay.get(), &ExecRelay::resumed, this, &ProcessHandle::resumed, Qt::QueuedConnection);
        connect(
            m_relay.get(), &ExecRelay::finished, this,
            [this](const kf::ProcessExit& exit) {
                m_running = false;
                Q_EMIT finished(exit);
            },
            Qt::QueuedConnection);
        m_session->submit(m_op);
    }
    ~SshProcessHandle() override
    {
        m_relay->disconnect(this);
        if (m_running && !m_op->completion().isDone())
            m_session->cancel(m_op);
    }
    void writeStdin(const QByteArray& data) override
    {
        m_op->writeStdin(data);
        m_session->wake();
    }
    void closeStdin() override
    {
        m_op->closeStdin();
        m_session->wake();
    }
    void cancel() override { m_session->cancel(m_op); }
    bool isRunning() const override { return m_running; }

private:
    std::shared_ptr<SshSession> m_session;
    std::shared_ptr<ExecOp> m_op;
    std::shared_ptr<ExecRelay> m_relay;
    bool m_running = true;
};

class SshTunnelStream final : public TunnelStream
{
public:
    SshTunnelStream(
        std::shared_ptr<SshSession> session, std::shared_ptr<TunnelOp> op, std::shared_ptr<TunnelShared> shared)
        : m_session(std::move(session))
        , m_op(std::move(op))
        , m_shared(std::move(shared))
    { }
    ~SshTunnelStream() override { close(); }

    Result<void> write(const QByteArray& data) override
    {
        std::unique_lock lock(m_shared->mutex);
        if (m_shared->finished || m_shared->closeRequested)
            return Result<void>::failure(m_shared->error.isEmpty() ? QStringLiteral("tunnel closed") : m_shared->error);
        m_shared->outbound += data;
        lock.unlock();
        m_session->wake();
        lock.lock();
        // Back-pressure: return once the channel took the bytes (or the tunnel died).
        const bool drained = m_shared->cv.wait_for(
            lock, std::chrono::seconds(60), [this] { return m_shared->outbound.isEmpty() || m_shared->finished; });
        if (!m_shared->outbound.isEmpty())
            return Result<void>::failure(!m_shared->error.isEmpty() ? m_shared->error
                    : drained                                       ? QStringLiteral("tunnel closed")
                                                                    : QStringLiteral("tunnel write timed out"));
        return {};
    }
    Result<QByteArray> read(int timeoutMs) override
    {
        std::unique_lock lock(m_shared->mutex);
        m_shared->cv.wait_for(lock, std::chrono::milliseconds(qMax(0, timeoutMs)),
            [this] { return !m_shared->inbound.isEmpty() || m_shared->remoteEof || m_shared->finished; });
        if (m_shared->inbound.isEmpty() && !m_shared->error.isEmpty())
            return Result<QByteArray>::failure(m_shared->error);
        QByteArray taken = std::exchange(m_shared->inbound, {});
        lock.unlock();
        if (taken.size() >= kTunnelBufferBytes)
            m_session->wake(); // the op stopped reading the channel while the buffer was full
        return taken;
    }
    bool atEnd() const override
    {
        std::lock_guard lock(m_shared->mutex);
        return m_shared->inbound.isEmpty() && (m_shared->remoteEof || m_shared->finished);
    }
    void close() override
    {
        {
            std::lock_guard lock(m_shared->mutex);
            if (m_shared->closeRequested)
                return;
            m_shared->closeRequested = true;
        }
        m_session->wake();
    }

private:
    std::shared_ptr<SshSession> m_session;
    std::shared_ptr<TunnelOp> m_op;
    std::shared_ptr<TunnelShared> m_shared;
};

QString parentDir(const QString& path)
{
    const qsizetype slash = path.lastIndexOf(QLatin1Char('/'));
    if (slash < 0)
        return QStringLiteral(".");
    if (slash == 0)
        return QStringLiteral("/");
    return path.left(slash);
}

QString baseName(const QString& path)
{
    return path.mid(path.lastIndexOf(QLatin1Char('/')) + 1);
}

QString formatByteSize(qint64 bytes)
{
    const char* units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
    double v = double(bytes);
    int u = 0;
    while (v >= 1024.0 && u < 4) {
        v /= 1024.0;
        ++u;
    }
    return QString::number(v, 'f', u == 0 ? 0 : 1) + QLatin1Char(' ') + QLatin1String(units[u]);
}

} // namespace

Result<std::shared_ptr<SshTransport>> SshTransport::connect(
    const HostProfile& profile, const SshConnectOptions& options)
{
    // A profile that follows the user's ssh configuration is resolved as the files say now.
    const auto followed = followSshConfig(profile, sshConfigSources(options.knownHostsSources));
    if (!followed)
        return Result<std::shared_ptr<SshTransport>>::failure(followed.error());
    for (const SshConfigNote& n : followed->notes)
        log::ssh()->warn("{}", n.toString().toStdString());
    SshSessionOptions so;
    so.profile = followed->profile;
    so.interaction = options.interaction;
    so.secrets = options.secrets;
    so.acceptNewHostKey = options.acceptNewHostKey;
    so.promptForHostKeys = options.promptForHostKeys;
    so.timeoutMs = options.timeoutMs;
    so.reconnect = options.reconnect;
    so.keepaliveIntervalS = options.keepaliveIntervalS;
    so.knownHostsSources = options.knownHostsSources;
    auto session = SshSession::create(so);
    session->connectToHost();
    if (Result<void> s = session->waitUntilReady(-1); !s)
        return Result<std::shared_ptr<SshTransport>>::failure(s.error());
    return std::make_shared<SshTransport>(session);
}

SshTransport::SshTransport(std::shared_ptr<SshSession> session)
    : m_session(std::move(session))
{ }

SshTransport::~SshTransport() = default;

QString SshTransport::describe() const
{
    return m_session->describe();
}

QString SshTransport::sftpPath(const QString& path)
{
    if (path.isEmpty() || path == QLatin1String("~"))
        return QStringLiteral(".");
    if (path.startsWith(QLatin1String("~/")))
        return path.mid(2).isEmpty() ? QStringLiteral(".") : path.mid(2);
    return path;
}

QString SshTransport::shellPath(const QString& path)
{
    if (path.isEmpty() || path == QLatin1String("~"))
        return QStringLiteral("\"$HOME\"");
    if (path.startsWith(QLatin1String("~/")))
        return QStringLiteral("\"$HOME\"/") + shellQuote(path.mid(2));
    if (path.startsWith(QLatin1Char('/')))
        return shellQuote(path);
    return QStringLiteral("\"$HOME\"/") + shellQuote(path);
}

// What the server's login shell receives (loginshell::line(): one exec of /bin/sh that every
// login shell parses alike), running this wrapper with the command as $1 and its arguments:
//   [printf '\036KFPID <nonce> %s\n' "$$" >&2]
//   [kf_n=N; while ... read -r ...; export K=V; done]     N lines K=<printf format> on stdin
//   cd "$HOME" 2>/dev/null  |  cd -- DIR || exit 1
//   kf_c=$1; shift; exec /bin/sh -c "$kf_c" sh "$@"
// - the pid marker (not with a PTY, where stderr is merged) lets cancel() signal the
//   process group; the session cuts it out of stderr wherever it comes (login banners).
// - environment values come on stdin, ahead of the command's own input: never in argv (ps).
// - `cd "$HOME"`: OpenSSH starts in the passwd home, but HOME may point elsewhere (SetEnv).
// - exec: the command replaces the wrapper, so a signal death is reported as exit-signal.
QByteArray SshTransport::remoteCommand(const CommandSpec& spec, const QByteArray& pidMarker)
{
    QString script;
    if (!pidMarker.isEmpty()) {
        Q_ASSERT(pidMarker.startsWith('\x1e') && pidMarker.endsWith(' '));
        script += QStringLiteral("printf '\\036%1%s\\n' \"$$\" >&2\n").arg(QString::fromLatin1(pidMarker.mid(1)));
    }
    if (!spec.env.isEmpty())
        script += QStringLiteral("kf_n=%1\nwhile [ \"$kf_n\" -gt 0 ] && IFS= read -r kf_l; do "
                                 "kf_v=$(printf \"${kf_l#*=}\"x); export \"${kf_l%%=*}=${kf_v%x}\"; "
                                 "kf_n=$((kf_n - 1)); done\n")
                      .arg(spec.env.size());
    if (spec.workingDirectory.isEmpty())
        script += QStringLiteral("cd \"$HOME\" 2>/dev/null\n");
    else
        script += QStringLiteral("cd -- ") + shellPath(spec.workingDirectory) + QStringLiteral(" || exit 1\n");
    script += QStringLiteral("kf_c=$1; shift; exec /bin/sh -c \"$kf_c\" sh \"$@\"\n");
    QList<QByteArray> args { spec.command.toUtf8() };
    for (const QString& a : spec.arguments)
        args << a.toUtf8();
    return loginshell::line(script, args);
}

QByteArray SshTransport::envBlock(const QMap<QString, QString>& env)
{
    QByteArray out;
    for (auto it = env.cbegin(); it != env.cend(); ++it)
        out += it.key().toUtf8() + '=' + loginshell::encode(it.value().toUtf8()) + '\n';
    return out;
}

QString SshTransport::checkCommand(const CommandSpec& spec, const QByteArray& line)
{
    for (auto it = spec.env.cbegin(); it != spec.env.cend(); ++it)
        if (!isShellName(it.key()))
            return QStringLiteral("invalid environment variable name '%1'").arg(it.key());
    if (spec.pty && !spec.env.isEmpty())
        return QStringLiteral("environment variables need a command without a terminal");
    if (line.size() <= loginshell::kMaxLineBytes)
        return {};
    qsizetype own = loginshell::encode(spec.command.toUtf8()).size();
    for (const QString& a : spec.arguments)
        own += loginshell::encode(a.toUtf8()).size() + 3;
    const qsizetype wrapper = line.size() - own;
    return QStringLiteral("command too long: it takes %1 bytes once encoded for the login shell, but one SSH exec "
                          "request holds %2 and the wrapper takes %3, leaving %4; put it in a script file on the "
                          "server and run that")
        .arg(own)
        .arg(loginshell::kMaxLineBytes)
        .arg(wrapper)
        .arg(qMax<qsizetype>(0, loginshell::kMaxLineBytes - wrapper));
}

std::shared_ptr<ExecOp> SshTransport::makeOp(const CommandSpec& spec, bool resumable, ExecCallbacks cb)
{
    const QByteArray marker = spec.pty ? QByteArray() : newPidMarker();
    const QByteArray line = remoteCommand(spec, marker);
    auto op = std::make_shared<ExecOp>(line, spec.pty, marker, resumable, std::move(cb));
    if (const QString error = checkCommand(spec, line); !error.isEmpty())
        op->failBeforeStart(error);
    op->setStartInput(envBlock(spec.env) + spec.stdinData);
    return op;
}

// Written on the session thread before completion, read by the caller after it.
struct SshTransport::StartedExec
{
    ExecResult result;
    qint64 cap = 0;
    bool capped = false;
    std::shared_ptr<ExecOp> op;
    void add(QByteArray& to, const QByteArray& chunk)
    {
        if (capped)
            return;
        if (result.stdOut.size() + result.stdErr.size() + chunk.size() > cap) {
            capped = true; // stop the command; what came so far is kept
            to += chunk.left(qMax<qsizetype>(0, cap - result.stdOut.size() - result.stdErr.size()));
            op->requestCancel();
            return;
        }
        to += chunk;
    }
};

std::shared_ptr<SshTransport::StartedExec> SshTransport::submitExec(const CommandSpec& spec, bool keepStdinOpen)
{
    auto shared = std::make_shared<StartedExec>();
    shared->cap = spec.maxOutputBytes > 0 ? spec.maxOutputBytes : CommandSpec::kDefaultMaxOutputBytes;
    // The callbacks hold the state weakly: the op is owned by it (no cycle).
    std::weak_ptr<StartedExec> weak = shared;
    ExecCallbacks cb;
    cb.onStdout = [weak](const QByteArray& c) {
        if (auto s = weak.lock())
            s->add(s->result.stdOut, c);
    };
    cb.onStderr = [weak](const QByteArray& c) {
        if (auto s = weak.lock())
            s->add(s->result.stdErr, c);
    };
    cb.onFinished = [weak](const ProcessExit& e) {
        if (auto s = weak.lock())
            static_cast<ProcessExit&>(s->result) = e;
    };
    shared->op = makeOp(spec, false, cb);
    if (!keepStdinOpen)
        shared->op->closeStdin();
    m_session->submit(shared->op);
    return shared;
}

ExecResult SshTransport::awaitExec(StartedExec& started, int timeoutMs)
{
    if (const QString notDone = awaitOp(*m_session, started.op, timeoutMs); !notDone.isEmpty()) {
        // Cancelled and finished: what arrived so far, with the reason (and the op's own when
        // it says more than "cancelled", e.g. what it was waiting for); else the op may still
        // write into `result`, so none of it is read.
        const bool done = started.op->completion().isDone();
        ExecResult r = done ? started.result : ExecResult {};
        const bool says = done && !r.error.isEmpty() && r.error != QLatin1String("cancelled");
        r.error = says ? notDone + QStringLiteral(": ") + r.error : notDone;
        return r;
    }
    ExecResult r = started.result;
    if (started.capped) {
        r.exitCode = -1;
        r.signal.clear();
        r.error = outputCapError(started.cap);
    }
    return r;
}

ExecResult SshTransport::exec(const CommandSpec& spec, int timeoutMs)
{
    const auto started = submitExec(spec, false);
    return awaitExec(*started, timeoutMs);
}

std::unique_ptr<ProcessHandle> SshTransport::start(const CommandSpec& spec)
{
    auto relay = std::make_shared<ExecRelay>();
    ExecCallbacks cb;
    cb.onStdout = [relay](const QByteArray& c) { Q_EMIT relay->stdoutReceived(c); };
    cb.onStderr = [relay](const QByteArray& c) { Q_EMIT relay->stderrReceived(c); };
    cb.onResumed = [relay] { Q_EMIT relay->resumed(); };
    cb.onFinished = [relay](const ProcessExit& e) { Q_EMIT relay->finished(e); };
    auto op = makeOp(spec, spec.resumable, cb);
    return std::make_unique<SshProcessHandle>(m_session, op, relay);
}

Result<QByteArray> SshTransport::readFile(const QString& path, qint64 maxBytes)
{
    auto op = std::make_shared<SftpReadOp>(sftpPath(path), QString(), Progress(), qMax<qint64>(maxBytes, 0));
    if (Result<void> r = runOp(*m_session, op); !r)
        return r;
    return std::move(op->data);
}

Result<QByteArray> SshTransport::readFileRange(const QString& path, qint64 offset, qint64 length)
{
    if (offset < 0 || length < 0)
        return Result<QByteArray>::failure(QStringLiteral("cannot read %1: bad range").arg(path));
    auto op = std::make_shared<SftpReadOp>(sftpPath(path), QString(), Progress(), length, offset);
    if (Result<void> r = runOp(*m_session, op); !r)
        return r;
    return std::move(op->data);
}

SshSessionOptions SshTransport::helperSessionOptions() const
{
    SshSessionOptions o = m_session->options();
    if (!o.secrets && o.interaction) // the keychain may still log it in quietly
        o.secrets = o.interaction->secretStore();
    o.interaction = nullptr; // never prompt for a helper connection
    o.promptForHostKeys = false;
    o.acceptNewHostKey = false;
    o.trustedHostKey = m_session->verifiedHostKey(); // the key the main session verified
    return o;
}

std::shared_ptr<SshSession> SshTransport::bulkSession()
{
    std::lock_guard lock(m_bulkMutex);
    if (m_bulk && m_bulk->state() == ConnectionState::Ready)
        return m_bulk;
    if (m_bulkFailed || !m_session->loggedInWithoutPrompt())
        return m_session; // a second login would ask the person again: share the main one
    if (!m_bulk)
        m_bulk = std::make_shared<SshSession>(helperSessionOptions());
    const ConnectionState st = m_bulk->state();
    if (st == ConnectionState::Disconnected || st == ConnectionState::Failed)
        m_bulk->connectToHost();
    if (Result<void> s = m_bulk->waitUntilReady(m_session->options().timeoutMs * 2); !s) {
        log::ssh()->info(
            "{}: no second connection for bulk transfers ({}); sharing the main one", describe(), s.error());
        m_bulkFailed = true;
        m_bulk.reset();
        return m_session;
    }
    return m_bulk;
}

Result<void> SshTransport::download(const QString& remotePath, const QString& localPath, const Progress& progress)
{
    auto op = std::make_shared<SftpReadOp>(sftpPath(remotePath), localPath, progress);
    return runOp(*bulkSession(), op);
}

Result<void> SshTransport::writeFileAtomic(const QString& path, const QByteArray& data, const WriteOptions& options)
{
    return writeAtomic(path, &data, {}, {}, options);
}

Result<void> SshTransport::upload(
    const QString& localPath, const QString& remotePath, const Progress& progress, const WriteOptions& options)
{
    return writeAtomic(remotePath, nullptr, localPath, progress, options);
}

Result<void> SshTransport::writeAtomic(const QString& path, const QByteArray* data, const QString& localPath,
    const Progress& progress, const WriteOptions& options)
{
    const QString target = sftpPath(path);
    auto st = std::make_shared<SftpStatOp>(target);
    if (Result<void> r = runOp(*m_session, st); !r)
        return r;
    const FileInfo old = st->result;
    if (old.exists && old.isDir)
        return Result<void>::failure(QStringLiteral("cannot write %1: it is a folder").arg(path));

    const QString dir = parentDir(target);
    const QString name = baseName(target);
    const QString tmpPrefix = QLatin1Char('.') + name + QStringLiteral(".kf-tmp-");
    const QString tmp = (dir == QLatin1String(".") ? QString() : dir + QLatin1Char('/')) + tmpPrefix
        + QString::number(QRandomGenerator::global()->generate64(), 16);
    SftpWriteOp::Params params;
    params.path = tmp;
    if (data)
        params.data = *data;
    params.localPath = localPath;
    params.mode = options.mode >= 0 ? quint32(options.mode) : old.exists ? old.mode : 0644;
    params.setOwner = old.exists && options.keepOwner;
    params.uid = old.uid;
    params.gid = old.gid;
    if (!old.exists && (options.uid >= 0 || options.gid >= 0)) {
        params.setOwner = true; // chown(2) leaves an id of (uid_t)-1 as it is
        params.uid = options.uid >= 0 ? quint32(options.uid) : quint32(-1);
        params.gid = options.gid >= 0 ? quint32(options.gid) : quint32(-1);
    }
    params.progress = progress;
    auto w = std::make_shared<SftpWriteOp>(params);
    // Best effort: the temp file of a write that did not make it.
    const auto removeTemp = [&] { static_cast<void>(runOp(*m_session, std::make_shared<SftpUnlinkOp>(tmp))); };
    // The swap. OpenSSH's sftp-server implements SFTP v3 rename as link+unlink and refuses
    // an existing target, and libssh2 < 1.11.1 has no posix-rename: `mv -f` on an exec
    // channel is one rename(2). Temp files of earlier interrupted writes go with it.
    CommandSpec mv;
    mv.command = QStringLiteral("mv -f -- %1 %2 && { rm -f -- %3/%4* 2>/dev/null; true; }")
                     .arg(shellPath(tmp), shellPath(target), shellPath(dir), shellQuote(tmpPrefix));
    std::shared_ptr<StartedExec> swap;
#if LIBSSH2_VERSION_NUM < 0x010b01
    // Started now, while the data goes: channel open and exec cost their round trips during
    // the write, and the swap itself takes one (a line on stdin, the exit status back). The
    // command waits for the line; EOF, a lost connection or anything else never swaps.
    CommandSpec waiting = mv;
    waiting.command = QStringLiteral("IFS= read -r go && [ \"$go\" = swap ] && { %1; }").arg(mv.command);
    swap = submitExec(waiting, true);
    const auto dropSwap = [&] { // EOF instead of the line: it ends without swapping
        swap->op->closeStdin();
        m_session->wake();
        static_cast<void>(awaitExec(*swap, 30000));
    };
#else
    const auto dropSwap = [] {};
#endif
    // Large uploads go over a second connection so live streams on the main one keep flowing.
    if (Result<void> written = runOp(localPath.isEmpty() ? *m_session : *bulkSession(), w); !written) {
        dropSwap();
        removeTemp();
        const qint64 needed = data ? qint64(data->size()) : QFileInfo(localPath).size();
        const QString full = diskFullReason(dir, parentDir(path), needed);
        if (!full.isEmpty())
            return Result<void>::failure(QStringLiteral("cannot write %1: %2").arg(path, full));
        return written;
    }
#if LIBSSH2_VERSION_NUM >= 0x010b01
    {
        const Result<void> renamed = runOp(*m_session, std::make_shared<SftpPosixRenameOp>(tmp, target));
        if (renamed) {
            CommandSpec sweep; // best effort: temp files of earlier interrupted writes
            sweep.command
                = QStringLiteral("rm -f -- %1/%2* 2>/dev/null; true").arg(shellPath(dir), shellQuote(tmpPrefix));
            (void)exec(sweep, 30000);
            return {};
        }
        if (renamed.kind() != ErrorKind::Unsupported) {
            removeTemp();
            return renamed;
        }
    }
#endif
    // The early-started swap, unless it already ended (its channel went with a reconnect of
    // the main session): then a fresh one.
    ExecResult r;
    if (swap && !swap->op->completion().isDone()) {
        swap->op->writeStdin(QByteArrayLiteral("swap\n"));
        swap->op->closeStdin();
        m_session->wake();
        r = awaitExec(*swap, 120000);
    } else {
        r = exec(mv, 120000);
    }
    if (!r.ok()) {
        removeTemp();
        const QString why = !r.error.isEmpty() ? r.error : QString::fromUtf8(r.stdErr).trimmed();
        return Result<void>::failure(
            QStringLiteral("cannot replace %1: %2").arg(path, why.isEmpty() ? QStringLiteral("mv failed") : why));
    }
    return {};
}

// SFTP v3 has no "disk full" status: OpenSSH's sftp-server turns ENOSPC into a bare
// SSH_FX_FAILURE. So after a failed write (temp file already removed, its blocks freed) the
// free space of the folder is compared with the size of the write.
QString SshTransport::diskFullReason(const QString& sftpDir, const QString& shownDir, qint64 needed)
{
    qint64 avail = -1;
    qint64 inodes = -1;
    auto vfs = std::make_shared<SftpStatvfsOp>(sftpDir);
    if (const Result<void> r = runOp(*m_session, vfs); r) {
        avail = vfs->availableBytes;
        inodes = vfs->availableInodes;
    } else if (r.kind() == ErrorKind::Unsupported) {
        CommandSpec df; // servers without statvfs@openssh.com
        df.command = QStringLiteral("LC_ALL=C df -Pk -- ") + shellPath(sftpDir);
        const ExecResult r = exec(df, 30000);
        if (r.ok()) {
            if (auto kib = parseDfAvailableKiB(r.stdOut))
                avail = kib.value() * 1024;
        }
    }
    if (avail < 0)
        return {};
    if (inodes == 0)
        return QStringLiteral("no free inodes left on device on %1").arg(shownDir);
    // Slack for metadata and block rounding: a write that failed this close to the limit
    // failed for lack of space.
    constexpr qint64 kSlack = 64 * 1024;
    if (avail >= needed + kSlack)
        return {};
    return QStringLiteral("no space left on device on %1 (%2 free, %3 needed)")
        .arg(shownDir, formatByteSize(avail), formatByteSize(needed));
}

Result<qint64> SshTransport::parseDfAvailableKiB(const QByteArray& output)
{
    const QList<QByteArray> lines = output.trimmed().split('\n');
    if (lines.size() < 2 || !lines.first().startsWith("Filesystem"))
        return Result<qint64>::failure(QStringLiteral("unexpected df output"));
    // Device and mount point may contain spaces: anchor on the Capacity field ("37%").
    const QList<QByteArray> fields = lines[1].simplified().split(' ');
    for (qsizetype i = 3; i < fields.size(); ++i) {
        if (!fields[i].endsWith('%'))
            continue;
        bool ok = false;
        const qint64 kib = fields[i - 1].toLongLong(&ok);
        if (ok && kib >= 0)
            return kib;
    }
    return Result<qint64>::failure(QStringLiteral("unexpected df output"));
}

Result<FileInfo> SshTransport::stat(const QString& path)
{
    auto op = std::make_shared<SftpStatOp>(sftpPath(path));
    if (Result<void> r = runOp(*m_session, op); !r)
        return r;
    FileInfo fi = op->result;
    fi.name = path;
    return fi;
}

Result<QList<FileInfo>> SshTransport::list(const QString& directory)
{
    auto op = std::make_shared<SftpListOp>(sftpPath(directory));
    if (Result<void> r = runOp(*m_session, op); !r)
        return r;
    return op->result;
}

Result<void> SshTransport::mkpath(const QString& directory, int mode)
{
    return runOp(*m_session, std::make_shared<SftpMkpathOp>(sftpPath(directory), mode));
}

Result<QString> SshTransport::canonicalPath(const QString& path)
{
    auto op = std::make_shared<SftpRealpathOp>(sftpPath(path));
    if (Result<void> r = runOp(*m_session, op); !r)
        return r;
    return op->result;
}

Result<void> SshTransport::remove(const QString& path)
{
    const Result<void> r = runOp(*m_session, std::make_shared<SftpUnlinkOp>(sftpPath(path)));
    if (r.kind() == ErrorKind::NotFound)
        return {}; // nothing to remove
    return r;
}

Result<QByteArray> SshTransport::sha256(const QString& path)
{
    // OpenSSL's first: SHA-NI where the CPU has it (coreutils' sha256sum uses it only when built
    // with OpenSSL, which Debian's is not): 3x faster on a 256 MiB upload's check. Both print
    // the hex digest first. (shellPath() never starts with '-': no `--` needed for openssl.)
    CommandSpec spec;
    spec.command = QStringLiteral("f=%1; if command -v openssl >/dev/null 2>&1 && openssl dgst -sha256 -r \"$f\"; "
                                  "then :; elif command -v sha256sum >/dev/null 2>&1; then sha256sum -b -- \"$f\"; "
                                  "else exit 127; fi")
                       .arg(shellPath(path));
    const ExecResult r = exec(spec);
    if (r.ok()) {
        const QByteArray hex = r.stdOut.left(r.stdOut.indexOf(' '));
        if (hex.size() == 64)
            return hex;
    }
    if (r.error.isEmpty() && r.exitCode != 127)
        return Result<QByteArray>::failure(
            QStringLiteral("sha256sum %1 failed: %2").arg(path, QString::fromUtf8(r.stdErr).trimmed()));
    // No sha256sum on the server: read the file back and hash it here.
    QCryptographicHash hash(QCryptographicHash::Sha256);
    auto data = readFile(path);
    if (!data)
        return Result<QByteArray>::failure(data.error());
    hash.addData(data.value());
    return hash.result().toHex();
}

Result<std::unique_ptr<TunnelStream>> SshTransport::openTunnel(const QString& host, quint16 port)
{
    auto shared = std::make_shared<TunnelShared>();
    auto op = std::make_shared<TunnelOp>(host, port, shared);
    m_session->submit(op);
    std::unique_lock lock(shared->mutex);
    // Bounded by time and by the connection: a tunnel asked for just before the link went
    // waits no longer than it takes to notice (see awaitOp).
    QElapsedTimer clock;
    clock.start();
    while (
        !shared->cv.wait_for(lock, std::chrono::milliseconds(100), [&] { return shared->open || shared->finished; })) {
        const bool lost = m_session->state() != ConnectionState::Ready;
        if (lost || clock.elapsed() >= 30000) {
            lock.unlock();
            m_session->cancel(op);
            return Result<std::unique_ptr<TunnelStream>>::failure(lost
                    ? QStringLiteral("not connected to %1 (%2)").arg(describe(), m_session->stateReason())
                    : QStringLiteral("timed out opening a tunnel to %1:%2").arg(host).arg(port));
        }
    }
    if (!shared->open)
        return Result<std::unique_ptr<TunnelStream>>::failure(shared->error);
    lock.unlock();
    return std::unique_ptr<TunnelStream>(std::make_unique<SshTunnelStream>(m_session, op, shared));
}

} // namespace kf

#include "sshtransport.moc"
