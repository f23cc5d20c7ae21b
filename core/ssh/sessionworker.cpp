// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sessionworker.h"

#include "core/log/logging.h"
#include "core/ssh/authenticator.h"
#include "core/ssh/libssh2error.h"
#include "core/ssh/pumpop.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QSocketNotifier>
#include <QThread>
#include <QTimer>

#include <openssl/crypto.h>

#include <algorithm>
#include <cerrno>
#include <iterator>
#include <sys/socket.h>

namespace kf::ssh {
namespace {

std::atomic<int> g_liveSessions { 0 }; // liveLibssh2Sessions()

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

LIBSSH2_RECV_FUNC(recvCallback)
{
    auto* worker = static_cast<SessionWorker*>(*abstract);
    const ssize_t n = ::recv(socket, buffer, length, flags);
    if (n < 0)
        return -errno;
    if (n > 0)
        worker->noteInbound(n);
    return n;
}

LIBSSH2_SEND_FUNC(sendCallback)
{
    Q_UNUSED(abstract);
    // MSG_NOSIGNAL: a peer that vanished must be an error, not a SIGPIPE for the whole app.
    const ssize_t n = ::send(socket, buffer, length, flags | MSG_NOSIGNAL);
    if (n < 0)
        return -errno;
    return n;
}

LIBSSH2_USERAUTH_KBDINT_RESPONSE_FUNC(promptCallback)
{
    if (Authenticator* auth = static_cast<SessionWorker*>(*abstract)->authenticator())
        auth->answerPrompts(name, name_len, instruction, instruction_len, num_prompts, prompts, responses);
}

} // namespace

int liveLibssh2Sessions()
{
    return g_liveSessions.load();
}

SessionWorker::SessionWorker(SshSession* facade)
    : m_facade(facade)
    , m_options(facade->options())
    , m_socket(facade->describe(), abortLogin)
    , m_hostKeys(m_options)
    , m_secrets(facade->describe(), m_options.interaction, m_options.secrets)
{
    m_secrets.waiting = [this](const QString& what) {
        // While logging in again after a drop, the window says what the reconnect waits for.
        if (m_state == ConnectionState::Reconnecting)
            publish(ConnectionState::Reconnecting,
                QStringLiteral("the connection was lost; reconnecting to %1 needs the %2: waiting for it to be entered")
                    .arg(describe(), what));
    };
    m_secrets.waited = [this] { resetDeadline(); };
}

SessionWorker::~SessionWorker() = default;

void SessionWorker::scheduleRun()
{
    if (!m_runQueued.exchange(true))
        QMetaObject::invokeMethod(this, &SessionWorker::runOps, Qt::QueuedConnection);
}

void SessionWorker::publish(ConnectionState state, const QString& reason)
{
    m_state = state;
    m_facade->publishState(state, reason);
}

void SessionWorker::noteInbound(qint64 n)
{
    bytesIn += n;
    m_lastInbound = nowMs();
}

// ---------------------------------------------------------------------------------------
// OpContext

bool SessionWorker::acquire(Token token, const Op* owner)
{
    const Op*& holder = m_tokens[int(token)];
    if (holder && holder != owner)
        return false;
    holder = owner;
    return true;
}

void SessionWorker::release(Token token, const Op* owner)
{
    if (m_tokens[int(token)] == owner)
        m_tokens[int(token)] = nullptr;
}

bool SessionWorker::sessionRefused()
{
    if (m_pump) // it only keeps libssh2 reading while nothing else runs, and something does
        m_pump->requestCancel();
    return m_openSessions > 0;
}

QString SessionWorker::lastError() const
{
    return libssh2LastError(m_s);
}

bool SessionWorker::fatal(int rc)
{
    if (!isLinkLost(rc))
        return false;
    if (!m_dead) {
        m_dead = true;
        m_deadReason = QStringLiteral("connection to %1 lost: %2").arg(describe(), lastError());
    }
    return true;
}

LIBSSH2_SFTP* SessionWorker::sftp(const Op* owner, int* rc)
{
    if (!m_sftp)
        m_sftp = openLocked<LIBSSH2_SFTP>(
            owner, [](LIBSSH2_SESSION* s) { return libssh2_sftp_init(s); }, rc);
    return m_sftp;
}

void SessionWorker::watchFd(const Op* owner, int fd, bool read, bool write)
{
    Watch& w = m_watches[owner];
    if (w.fd != fd) {
        delete w.read;
        delete w.write;
        w.fd = fd;
        w.read = new QSocketNotifier(fd, QSocketNotifier::Read, this);
        w.write = new QSocketNotifier(fd, QSocketNotifier::Write, this);
        connect(w.read, &QSocketNotifier::activated, this, &SessionWorker::runOps);
        connect(w.write, &QSocketNotifier::activated, this, &SessionWorker::runOps);
    }
    w.read->setEnabled(read);
    w.write->setEnabled(write);
}

void SessionWorker::unwatchFd(const Op* owner)
{
    auto it = m_watches.find(owner);
    if (it == m_watches.end())
        return;
    delete it->read;
    delete it->write;
    m_watches.erase(it);
}

void SessionWorker::dropWatches()
{
    for (const Watch& w : std::as_const(m_watches)) {
        delete w.read;
        delete w.write;
    }
    m_watches.clear();
}

// ---------------------------------------------------------------------------------------
// Login (blocking on this thread, bounded by the deadline and abortLogin)

void SessionWorker::resetDeadline()
{
    m_socket.setDeadline(qMax(1000, m_options.timeoutMs));
}

Result<void> SessionWorker::establish()
{
    m_dead = false;
    m_deadReason.clear();
    std::fill(std::begin(m_tokens), std::end(m_tokens), nullptr);
    m_openSessions = 0;
    m_secrets.beginLogin(m_state == ConnectionState::Reconnecting);
    resetDeadline();
    if (Result<void> s = m_socket.connect(m_options.profile, m_options.jump); !s)
        return s;
    m_s = libssh2_session_init_ex(nullptr, nullptr, nullptr, this);
    if (!m_s)
        return Result<void>::failure(QStringLiteral("libssh2 could not create a session"));
    ++g_liveSessions;
    libssh2_session_set_blocking(m_s, 0);
    libssh2_session_callback_set(m_s, LIBSSH2_CALLBACK_RECV, reinterpret_cast<void*>(&recvCallback));
    libssh2_session_callback_set(m_s, LIBSSH2_CALLBACK_SEND, reinterpret_cast<void*>(&sendCallback));
    if (Result<void> s = handshake(); !s)
        return s;
    if (Result<void> s = checkHostKey(); !s)
        return s;
    if (m_state != ConnectionState::Reconnecting)
        publish(ConnectionState::Authenticating);
    Authenticator auth(m_s, m_socket, m_options.profile, m_secrets, describe(), &promptCallback);
    m_authenticator = &auth;
    const Result<void> s = auth.run();
    m_authenticator = nullptr;
    return s;
}

Result<void> SessionWorker::handshake()
{
    // Ask for the host key type we already trust first, so a server with several keys
    // shows us the one we can verify (OpenSSH does the same).
    if (const QStringList stored = m_hostKeys.knownKeyTypes(); !stored.isEmpty()) {
        const char** algs = nullptr;
        const int n = libssh2_session_supported_algs(m_s, LIBSSH2_METHOD_HOSTKEY, &algs);
        QStringList supported;
        for (int i = 0; i < n; ++i)
            supported << QString::fromLatin1(algs[i]);
        if (algs)
            libssh2_free(m_s, algs);
        QStringList pref;
        for (const QString& t : stored)
            if (supported.contains(t))
                pref << t;
        for (const QString& t : supported)
            if (!pref.contains(t))
                pref << t;
        if (!pref.isEmpty())
            libssh2_session_method_pref(
                m_s, LIBSSH2_METHOD_HOSTKEY, pref.join(QLatin1Char(',')).toLatin1().constData());
    }
    const Result<int> rc = m_socket.drive(m_s, [this] { return libssh2_session_handshake(m_s, m_socket.fd()); });
    if (!rc || rc.value() != 0)
        return Result<void>::failure(
            QStringLiteral("SSH handshake with %1 failed: %2").arg(describe(), rc ? lastError() : rc.error()));
    return {};
}

Result<void> SessionWorker::checkHostKey()
{
    size_t len = 0;
    int type = 0;
    const char* key = libssh2_session_hostkey(m_s, &len, &type);
    if (!key)
        return Result<void>::failure(QStringLiteral("%1 sent no host key").arg(describe()));
    m_lastHostKey = QByteArray(key, qsizetype(len));
    const Result<void> s = m_hostKeys.check(
        m_lastHostKey, [this](const QString& reason) { publish(ConnectionState::HostKeyPrompt, reason); });
    resetDeadline(); // a person may have taken a while
    return s;
}

// ---------------------------------------------------------------------------------------
// Running

void SessionWorker::connectToHost()
{
    Q_ASSERT(QThread::currentThread() == thread());
    if (m_s || m_state == ConnectionState::Reconnecting)
        return;
    m_userDisconnect = false;
    abortLogin = false;
    publish(ConnectionState::Connecting);
    const Result<void> login = establish();
    if (!login) {
        teardown(false);
        log::ssh()->info("{}: {}", describe(), login.error()); // the caller reports it
        abortAll(login.error());
        publish(ConnectionState::Failed, login.error());
        return;
    }
    becomeReady();
}

void SessionWorker::becomeReady()
{
    m_facade->setLoginFacts(m_lastHostKey, !m_secrets.prompted());
    m_backoffMs = 1000;
    m_lastInbound = nowMs();
    m_lastKeepalive = nowMs();
    libssh2_keepalive_config(m_s, 1, unsigned(qMax(1, m_options.keepaliveIntervalS)));
    m_readNotifier = new QSocketNotifier(m_socket.fd(), QSocketNotifier::Read, this);
    m_writeNotifier = new QSocketNotifier(m_socket.fd(), QSocketNotifier::Write, this);
    m_writeNotifier->setEnabled(false);
    connect(m_readNotifier, &QSocketNotifier::activated, this, &SessionWorker::runOps);
    connect(m_writeNotifier, &QSocketNotifier::activated, this, &SessionWorker::runOps);
    if (!m_ticker) {
        m_ticker = new QTimer(this);
        m_ticker->setInterval(1000);
        connect(m_ticker, &QTimer::timeout, this, &SessionWorker::tick);
    }
    m_ticker->start();
    m_pump = std::make_shared<PumpOp>();
    m_ops.prepend(m_pump);
    m_ops += m_suspended;
    m_suspended.clear();
    publish(ConnectionState::Ready);
    log::ssh()->info("{}: ready", describe());
    runOps();
}

void SessionWorker::addOp(const std::shared_ptr<Op>& op)
{
    if (op->cancelRequested()) { // given up on while it waited in the queue
        op->abort(QStringLiteral("cancelled"));
        return;
    }
    if (m_state == ConnectionState::Ready && m_s) {
        m_ops << op;
        scheduleRun();
        return;
    }
    const bool pending = m_state == ConnectionState::Connecting || m_state == ConnectionState::HostKeyPrompt
        || m_state == ConnectionState::Authenticating || m_state == ConnectionState::Reconnecting;
    if (op->resumable() && pending) {
        op->resetForResume();
        m_suspended << op;
        return;
    }
    const QString reason = m_facade->stateReason();
    op->abort(QStringLiteral("not connected to %1 (%2%3)")
                  .arg(describe(), toString(m_state).toLower(),
                      reason.isEmpty() ? QString() : QStringLiteral(": ") + reason));
}

void SessionWorker::cancelOp(const std::shared_ptr<Op>& op)
{
    op->requestCancel();
    if (m_suspended.removeOne(op)) {
        op->abort(QStringLiteral("cancelled"));
        return;
    }
    scheduleRun();
}

void SessionWorker::runOps()
{
    m_runQueued = false;
    if (!m_s || m_state != ConnectionState::Ready)
        return;
    for (int iteration = 0; iteration < 64; ++iteration) {
        const qint64 inBefore = bytesIn;
        bool progress = false;
        const QList<std::shared_ptr<Op>> ops = m_ops; // ops may post new ops
        for (const auto& op : ops) {
            if (m_dead)
                break;
            const Op::Step s = op->step(*this);
            if (s == Op::Step::Done) {
                m_ops.removeOne(op);
                unwatchFd(op.get());
                release(Token::ChannelSetup, op.get());
                release(Token::Sftp, op.get());
                progress = true;
            } else if (s == Op::Step::Progress) {
                progress = true;
            }
        }
        if (m_dead) {
            connectionLost(m_deadReason);
            return;
        }
        // Bytes that arrived during this pass may belong to an op stepped before they came.
        if (!progress && bytesIn == inBefore) {
            arm();
            return;
        }
    }
    arm();
    scheduleRun(); // still busy: let queued calls in, then continue
}

void SessionWorker::arm()
{
    if (!m_s || !m_readNotifier)
        return;
    m_readNotifier->setEnabled(true);
    m_writeNotifier->setEnabled((libssh2_session_block_directions(m_s) & LIBSSH2_SESSION_BLOCK_OUTBOUND) != 0);
}

void SessionWorker::tick()
{
    if (!m_s || m_state != ConnectionState::Ready)
        return;
    const qint64 now = nowMs();
    const qint64 interval = qint64(qMax(1, m_options.keepaliveIntervalS)) * 1000;
    if (now - m_lastKeepalive >= interval) {
        m_lastKeepalive = now;
        int next = 0;
        const int rc = libssh2_keepalive_send(m_s, &next);
        if (rc < 0 && rc != LIBSSH2_ERROR_EAGAIN)
            fatal(rc);
    }
    // libssh2 does not count unanswered keepalives: like ServerAliveCountMax=3, three
    // intervals without a byte from the server mean the link is dead.
    if (!m_dead && now - m_lastInbound > 3 * interval) {
        m_dead = true;
        m_deadReason = QStringLiteral("connection to %1 lost: no reply from the server for %2 s")
                           .arg(describe())
                           .arg((now - m_lastInbound) / 1000);
    }
    if (m_dead) {
        connectionLost(m_deadReason);
        return;
    }
    runOps(); // deadlines of ops (a cancel's grace period) are checked when they step
}

// ---------------------------------------------------------------------------------------
// Teardown and reconnect

void SessionWorker::teardown(bool graceful)
{
    delete m_readNotifier;
    m_readNotifier = nullptr;
    delete m_writeNotifier;
    m_writeNotifier = nullptr;
    if (m_ticker)
        m_ticker->stop();
    if (m_s) {
        m_socket.setDeadline(1000);
        if (graceful)
            abortLogin = false;
        else
            m_socket.shutdown(); // the peer is gone: every send while freeing fails at once
        // Each call runs to its end or the deadline; what it says no longer matters. A peer
        // that stops answering (a channel close waits for the server's close) would leave the
        // call half done and its memory held: past the deadline the link is cut, so that every
        // read sees EOF and every send fails, and the call finishes at once.
        const auto settle = [this](const std::function<int()>& call) {
            if (const Result<int> rc = m_socket.drive(m_s, call); rc && *rc != LIBSSH2_ERROR_EAGAIN)
                return *rc;
            m_socket.shutdown();
            const Result<int> rc = m_socket.drive(m_s, call);
            return rc ? *rc : LIBSSH2_ERROR_EAGAIN;
        };
        // Open SFTP handles first (neither libssh2_sftp_shutdown nor libssh2_session_free
        // frees them), then the SFTP channel.
        for (const auto& op : std::as_const(m_ops))
            settle([&op] { return op->releaseLibssh2(); });
        if (m_sftp) {
            settle([this] { return libssh2_sftp_shutdown(m_sftp); });
            m_sftp = nullptr;
        }
        if (graceful)
            settle([this] { return libssh2_session_disconnect(m_s, "bye"); });
        if (settle([this] { return libssh2_session_free(m_s); }) == 0)
            --g_liveSessions;
        else
            log::ssh()->warn("{}: libssh2 did not free the session", describe());
        m_s = nullptr;
    }
    m_socket.close();
    m_pump.reset();
    std::fill(std::begin(m_tokens), std::end(m_tokens), nullptr);
    m_openSessions = 0;
    dropWatches();
}

void SessionWorker::abortAll(const QString& reason)
{
    dropWatches(); // forwarding ops close their sockets when aborted: stop watching them first
    const auto ops = std::exchange(m_ops, {});
    const auto suspended = std::exchange(m_suspended, {});
    for (const auto& op : ops)
        op->abort(reason);
    for (const auto& op : suspended)
        op->abort(reason);
}

void SessionWorker::connectionLost(const QString& reason)
{
    log::ssh()->info("{}", reason); // the state change carries it to the user
    teardown(false);
    const auto ops = std::exchange(m_ops, {});
    for (const auto& op : ops) {
        if (op->resumable() && m_options.reconnect && !m_userDisconnect) {
            op->resetForResume();
            m_suspended << op;
        } else {
            op->abort(reason);
        }
    }
    m_dead = false;
    if (m_options.reconnect && !m_userDisconnect) {
        scheduleReconnect(reason);
    } else {
        abortAll(reason);
        publish(ConnectionState::Failed, reason);
    }
}

void SessionWorker::scheduleReconnect(const QString& why)
{
    const int jitter = int(QRandomGenerator::global()->bounded(m_backoffMs / 4 + 1));
    const int delay = m_backoffMs + jitter;
    m_backoffMs = qMin(m_backoffMs * 2, 30000);
    publish(ConnectionState::Reconnecting,
        QStringLiteral("%1; retrying in %2 s").arg(why).arg(double(delay) / 1000.0, 0, 'f', 1));
    QTimer::singleShot(delay, this, &SessionWorker::attemptReconnect);
}

void SessionWorker::attemptReconnect()
{
    if (m_state != ConnectionState::Reconnecting || m_userDisconnect)
        return;
    abortLogin = false;
    const Result<void> login = establish();
    if (login) {
        log::ssh()->info("{}: reconnected", describe());
        becomeReady();
        return;
    }
    teardown(false);
    if (login.kind() == ErrorKind::Permanent) {
        abortAll(login.error());
        publish(ConnectionState::Failed, login.error());
        return;
    }
    scheduleReconnect(login.error());
}

void SessionWorker::disconnectFromHost(const QString& reason)
{
    m_userDisconnect = true;
    const QString why = reason.isEmpty() ? QStringLiteral("disconnected") : reason;
    if (m_pump)
        m_ops.removeOne(m_pump);
    teardown(true); // frees what the ops hold in libssh2; abort() then only reports
    abortAll(why);
    if (m_state != ConnectionState::Disconnected)
        publish(ConnectionState::Disconnected, reason);
}

void SessionWorker::shutdown()
{
    disconnectFromHost(QStringLiteral("session closed"));
    delete m_ticker;
    m_ticker = nullptr;
    // The last thing this thread does with libssh2: free OpenSSL's per-thread state (the
    // DRBGs key exchange created) now. OpenSSL would otherwise free it from a pthread key
    // destructor after QThread::wait() has already returned, racing a process exit.
    OPENSSL_thread_stop();
}

} // namespace kf::ssh
