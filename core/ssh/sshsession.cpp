// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sshsession.h"

#include "core/hosts/destination.h"
#include "core/hosts/secretstore.h"
#include "core/log/logging.h"
#include "core/log/redact.h"
#include "core/ssh/knownhosts.h"
#include "core/ssh/sshkeyfile.h"
#include "core/ssh/sshops.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QPointer>
#include <QRandomGenerator>
#include <QSocketNotifier>
#include <QThread>
#include <QTimer>

#include <openssl/crypto.h>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace kf {

void initLibssh2()
{
    static std::once_flag once;
    std::call_once(once, [] {
        qRegisterMetaType<kf::ConnectionState>();
        qRegisterMetaType<kf::ProcessExit>();
        if (const int rc = libssh2_init(0); rc != 0)
            log::ssh()->error("libssh2_init failed: {}", rc);
    });
}

namespace ssh {
namespace {

qint64 nowMs()
{
    return QDateTime::currentMSecsSinceEpoch();
}

QString localUserName()
{
    const passwd* pw = ::getpwuid(::geteuid());
    return pw ? QString::fromLocal8Bit(pw->pw_name) : qEnvironmentVariable("USER");
}

QString expandHome(const QString& path)
{
    if (path == QLatin1String("~"))
        return QDir::homePath();
    if (path.startsWith(QLatin1String("~/")))
        return QDir::homePath() + path.mid(1);
    return path;
}

QStringList identityFilesToTry(const HostProfile& p)
{
    QStringList keys;
    for (const QString& k : p.identityFiles)
        keys << expandHome(k);
    if (keys.isEmpty()) {
        for (const char* def : { "id_ed25519", "id_ecdsa", "id_rsa" }) {
            const QString path = QDir::homePath() + QStringLiteral("/.ssh/") + QLatin1String(def);
            if (QFile::exists(path))
                keys << path;
        }
    }
    return keys;
}

struct Login
{
    Result<void> status;
    bool permanent = false; // host key or authentication: retrying cannot help
};

Login transientFailure(const QString& why)
{
    return { Result<void>::failure(why), false };
}
Login permanentFailure(const QString& why)
{
    return { Result<void>::failure(why), true };
}

} // namespace

// The part of SshSession that lives on the session thread. Everything libssh2 is here.
class SessionWorker final : public QObject, public OpContext
{
    Q_OBJECT
public:
    explicit SessionWorker(SshSession* facade)
        : m_facade(facade)
        , m_options(facade->options())
    { }
    ~SessionWorker() override = default;

    std::atomic<bool> abortLogin { false };
    std::atomic<bool> runQueued { false };
    std::atomic<qint64> bytesIn { 0 };

    // --- session-thread entry points (invoked through queued calls) -----------------
    void connectToHost();
    void disconnectFromHost(const QString& reason);
    void shutdown();
    void addOp(const std::shared_ptr<Op>& op);
    void cancelOp(const std::shared_ptr<Op>& op);
    void runOps();

    void scheduleRun()
    {
        if (!runQueued.exchange(true))
            QMetaObject::invokeMethod(this, &SessionWorker::runOps, Qt::QueuedConnection);
    }

    // --- OpContext -----------------------------------------------------------------
    LIBSSH2_SESSION* session() const override { return m_s; }
    bool acquire(Token token, const Op* owner) override
    {
        const Op*& holder = m_tokens[int(token)];
        if (holder && holder != owner)
            return false;
        holder = owner;
        return true;
    }
    void release(Token token, const Op* owner) override
    {
        if (m_tokens[int(token)] == owner)
            m_tokens[int(token)] = nullptr;
    }
    LIBSSH2_SFTP* sftp(const Op* owner, int* rc) override;
    QString lastError() const override
    {
        if (!m_s)
            return QStringLiteral("not connected");
        char* msg = nullptr;
        int len = 0;
        const int rc = libssh2_session_last_error(m_s, &msg, &len, 0);
        return QStringLiteral("%1 (libssh2 error %2)").arg(QString::fromUtf8(msg, len)).arg(rc);
    }
    bool fatal(int rc) override;
    void post(std::shared_ptr<Op> op) override { addOp(op); }
    QString describe() const override { return m_facade->describe(); }
    void watchFd(const Op* owner, int fd, bool read, bool write) override
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
    void unwatchFd(const Op* owner) override
    {
        auto it = m_watches.find(owner);
        if (it == m_watches.end())
            return;
        delete it->read;
        delete it->write;
        m_watches.erase(it);
    }

    // Called from libssh2 callbacks.
    void noteInbound(qint64 n)
    {
        bytesIn += n;
        m_lastInbound = nowMs();
    }
    void keyboardInteractive(const char* name, int nameLen, const char* instruction, int instructionLen, int numPrompts,
        const LIBSSH2_USERAUTH_KBDINT_PROMPT* prompts, LIBSSH2_USERAUTH_KBDINT_RESPONSE* responses);

private:
    Login establish();
    Login openSocket();
    Login checkHostKey();
    KnownHostsSetup knownHosts() const;
    Login authenticate();
    // The keychain for stored passwords and passphrases: the options' own, else the
    // interaction's; null when there is none. The helpers below log what happened (never
    // the secret) and carry on as if nothing was stored when the keychain fails.
    SecretStore* secretStore() const;
    std::optional<QByteArray> readStoredSecret(SecretStore* store, const QString& key, const QString& what);
    void storeSecret(SecretStore* store, const QString& key, const QByteArray& secret, const QString& what);
    // A secret kept for this session under key (a private copy), or nullopt.
    std::optional<QByteArray> keptSecret(const QString& key) const;
    void keepSecret(const QString& key, const QByteArray& secret);
    void forgetKept(const QString& key);
    // While logging in again after a drop: tells the window, through the state's reason, that
    // the reconnect now waits for a person to enter `what`.
    void announceSecretWait(const QString& what);
    // Removes a stored secret the server refused; returns the prompt that says so.
    QString forgetRefusedSecret(SecretStore* store, const QString& key, const QString& kind, const QString& what);
    // Waits until the socket is ready for what libssh2 is blocked on, or the deadline.
    Result<void> waitSocket();
    void resetDeadline() { m_deadline = nowMs() + qMax(1000, m_options.timeoutMs); }
    void becomeReady();
    void teardown(bool graceful);
    void connectionLost(const QString& reason);
    void scheduleReconnect(const QString& why);
    void attemptReconnect();
    void abortAll(const QString& reason);
    void arm();
    void tick();
    void publish(ConnectionState state, const QString& reason = {})
    {
        m_state = state;
        m_facade->publishState(state, reason);
    }

    SshSession* m_facade;
    SshSessionOptions m_options;
    ConnectionState m_state = ConnectionState::Disconnected;
    int m_fd = -1;
    LIBSSH2_SESSION* m_s = nullptr;
    LIBSSH2_SFTP* m_sftp = nullptr;
    QSocketNotifier* m_readNotifier = nullptr;
    QSocketNotifier* m_writeNotifier = nullptr;
    QTimer* m_ticker = nullptr;
    QList<std::shared_ptr<Op>> m_ops;       // running (state Ready)
    QList<std::shared_ptr<Op>> m_suspended; // resumable ops waiting for Ready
    std::shared_ptr<Op> m_pump;
    const Op* m_tokens[2] = { nullptr, nullptr };
    struct Watch
    {
        int fd = -1;
        QSocketNotifier* read = nullptr;
        QSocketNotifier* write = nullptr;
    };
    QHash<const Op*, Watch> m_watches; // local sockets of forwarding ops
    bool m_promptedForSecret = false;
    bool m_dead = false;
    QString m_deadReason;
    bool m_everReady = false;
    bool m_userDisconnect = false;
    qint64 m_deadline = 0;
    qint64 m_lastInbound = 0;
    qint64 m_lastKeepalive = 0;
    int m_backoffMs = 1000;
    QByteArray m_acceptedOnceKey; // "accept once": valid for reconnects of this session
    QByteArray m_lastHostKey;
    bool m_kbdCancelled = false;
    int m_kbdRounds = 0;
    int m_kbdAttempt = 0;
    QString m_kbdKeyPrefix;    // m_kept keys of keyboard-interactive answers: prefix + prompt
    QStringList m_kbdKeptUsed; // kept answers given in the current attempt
    // Secrets the person asked to keep for this session (SecretAnswer::keepForSession), by
    // SecretStore key: tried before asking when logging in again. Own copies, wiped at the end.
    QHash<QString, QByteArray> m_kept;
};

namespace {

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

LIBSSH2_USERAUTH_KBDINT_RESPONSE_FUNC(kbdCallback)
{
    static_cast<SessionWorker*>(*abstract)->keyboardInteractive(
        name, name_len, instruction, instruction_len, num_prompts, prompts, responses);
}

} // namespace

bool SessionWorker::fatal(int rc)
{
    switch (rc) {
    case LIBSSH2_ERROR_SOCKET_SEND:
    case LIBSSH2_ERROR_SOCKET_RECV:
    case LIBSSH2_ERROR_SOCKET_DISCONNECT:
    case LIBSSH2_ERROR_SOCKET_TIMEOUT:
    case LIBSSH2_ERROR_TIMEOUT:
    case LIBSSH2_ERROR_BAD_SOCKET:
    case LIBSSH2_ERROR_BANNER_RECV:
    case LIBSSH2_ERROR_BANNER_SEND:
    case LIBSSH2_ERROR_KEX_FAILURE:
    case LIBSSH2_ERROR_KEY_EXCHANGE_FAILURE:
    case LIBSSH2_ERROR_DECRYPT:
    case LIBSSH2_ERROR_ENCRYPT:
    case LIBSSH2_ERROR_INVALID_MAC:
    case LIBSSH2_ERROR_PROTO:
        if (!m_dead) {
            m_dead = true;
            m_deadReason = QStringLiteral("connection to %1 lost: %2").arg(describe(), lastError());
        }
        return true;
    default: return false;
    }
}

LIBSSH2_SFTP* SessionWorker::sftp(const Op* owner, int* rc)
{
    if (m_sftp)
        return m_sftp;
    if (!acquire(Token::ChannelOpen, owner)) {
        *rc = LIBSSH2_ERROR_EAGAIN;
        return nullptr;
    }
    m_sftp = libssh2_sftp_init(m_s);
    if (!m_sftp) {
        *rc = libssh2_session_last_errno(m_s);
        if (*rc != LIBSSH2_ERROR_EAGAIN)
            release(Token::ChannelOpen, owner);
        return nullptr;
    }
    release(Token::ChannelOpen, owner);
    return m_sftp;
}

// ---------------------------------------------------------------------------------------
// Login (blocking on this thread, bounded by the deadline and abortLogin)

Result<void> SessionWorker::waitSocket()
{
    for (;;) {
        if (abortLogin)
            return Result<void>::failure(QStringLiteral("cancelled"));
        const int dirs = libssh2_session_block_directions(m_s);
        short events = 0;
        if (dirs & LIBSSH2_SESSION_BLOCK_INBOUND)
            events |= POLLIN;
        if (dirs & LIBSSH2_SESSION_BLOCK_OUTBOUND)
            events |= POLLOUT;
        if (events == 0)
            return {}; // libssh2 is not waiting on the socket: call again
        const qint64 left = m_deadline - nowMs();
        if (left <= 0)
            return Result<void>::failure(QStringLiteral("timed out waiting for %1").arg(describe()));
        pollfd p { m_fd, events, 0 };
        const int r = ::poll(&p, 1, int(qMin<qint64>(left, 200)));
        if (r > 0)
            return {};
        if (r < 0 && errno != EINTR)
            return Result<void>::failure(QStringLiteral("poll failed: ") + QString::fromLocal8Bit(strerror(errno)));
    }
}

Login SessionWorker::openSocket()
{
    const HostProfile& p = m_options.profile;
    if (const auto jump = m_options.jump) {
        // ProxyJump: our "socket" is one end of a socketpair; the jump session forwards the
        // other end over a direct-tcpip channel to host:port as the jump host sees it.
        const ConnectionState js = jump->state();
        if (js == ConnectionState::Disconnected || js == ConnectionState::Failed)
            jump->connectToHost();
        if (Result<void> s = jump->waitUntilReady(int(qMax<qint64>(1000, m_deadline - nowMs()))); !s)
            return { Result<void>::failure(QStringLiteral("jump host %1: %2").arg(jump->describe(), s.error())),
                jump->state() == ConnectionState::Failed };
        int sv[2];
        if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0, sv) != 0)
            return transientFailure(QStringLiteral("socketpair: ") + QString::fromLocal8Bit(strerror(errno)));
        auto shared = std::make_shared<ForwardShared>();
        jump->submit(std::make_shared<ForwardOp>(p.host, p.port, sv[0], shared));
        std::unique_lock lock(shared->mutex);
        const bool settled = shared->cv.wait_for(lock, std::chrono::milliseconds(qMax<qint64>(1, m_deadline - nowMs())),
            [&] { return shared->open || shared->finished; });
        if (!settled || !shared->open) {
            ::close(sv[1]);
            return transientFailure(settled
                    ? shared->error
                    : QStringLiteral("timed out opening a channel through %1").arg(jump->describe()));
        }
        m_fd = sv[1];
        return {};
    }
    addrinfo hints {};
    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    addrinfo* res = nullptr;
    const QByteArray host = p.host.toUtf8();
    const QByteArray port = QByteArray::number(p.port ? p.port : 22);
    if (const int rc = ::getaddrinfo(host.constData(), port.constData(), &hints, &res); rc != 0)
        return transientFailure(
            QStringLiteral("cannot resolve %1: %2").arg(p.host, QString::fromLocal8Bit(gai_strerror(rc))));
    QString lastError = QStringLiteral("no address");
    for (addrinfo* ai = res; ai; ai = ai->ai_next) {
        const int fd = ::socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, ai->ai_protocol);
        if (fd < 0)
            continue;
        int r = ::connect(fd, ai->ai_addr, ai->ai_addrlen);
        if (r != 0 && errno == EINPROGRESS) {
            for (;;) {
                const qint64 left = m_deadline - nowMs();
                if (left <= 0 || abortLogin) {
                    errno = abortLogin ? ECANCELED : ETIMEDOUT;
                    break;
                }
                pollfd pf { fd, POLLOUT, 0 };
                const int pr = ::poll(&pf, 1, int(qMin<qint64>(left, 200)));
                if (pr > 0) {
                    int err = 0;
                    socklen_t len = sizeof err;
                    ::getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
                    errno = err;
                    r = err == 0 ? 0 : -1;
                    break;
                }
                if (pr < 0 && errno != EINTR)
                    break;
            }
        }
        if (r == 0) {
            const int one = 1;
            ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
            ::freeaddrinfo(res);
            m_fd = fd;
            return {};
        }
        lastError = QString::fromLocal8Bit(strerror(errno));
        ::close(fd);
    }
    ::freeaddrinfo(res);
    return transientFailure(QStringLiteral("cannot connect to %1 port %2: %3").arg(p.host).arg(p.port).arg(lastError));
}

Login SessionWorker::establish()
{
    m_promptedForSecret = false;
    m_dead = false;
    m_deadReason.clear();
    m_tokens[0] = m_tokens[1] = nullptr;
    resetDeadline();
    if (Login l = openSocket(); !l.status)
        return l;
    m_s = libssh2_session_init_ex(nullptr, nullptr, nullptr, this);
    if (!m_s)
        return transientFailure(QStringLiteral("libssh2 could not create a session"));
    libssh2_session_set_blocking(m_s, 0);
    libssh2_session_callback_set(m_s, LIBSSH2_CALLBACK_RECV, reinterpret_cast<void*>(&recvCallback));
    libssh2_session_callback_set(m_s, LIBSSH2_CALLBACK_SEND, reinterpret_cast<void*>(&sendCallback));

    // Ask for the host key type we already trust first, so a server with several keys
    // shows us the one we can verify (OpenSSH does the same).
    const HostProfile& p = m_options.profile;
    const QStringList stored = knownKeyTypes(knownHosts().readAll(), p.host, p.port);
    if (!stored.isEmpty()) {
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

    for (;;) {
        const int rc = libssh2_session_handshake(m_s, m_fd);
        if (rc == 0)
            break;
        if (rc != LIBSSH2_ERROR_EAGAIN)
            return transientFailure(QStringLiteral("SSH handshake with %1 failed: %2").arg(describe(), lastError()));
        if (Result<void> w = waitSocket(); !w)
            return transientFailure(QStringLiteral("SSH handshake with %1 failed: %2").arg(describe(), w.error()));
    }
    if (Login l = checkHostKey(); !l.status)
        return l;
    if (m_state != ConnectionState::Reconnecting)
        publish(ConnectionState::Authenticating);
    return authenticate();
}

KnownHostsSetup SessionWorker::knownHosts() const
{
    const HostProfile& p = m_options.profile;
    return knownHostsSetup(p.name.isEmpty() ? p.host : p.name, p.knownHostsFile, m_options.knownHostsSources);
}

Login SessionWorker::checkHostKey()
{
    const HostProfile& p = m_options.profile;
    size_t len = 0;
    int type = 0;
    const char* key = libssh2_session_hostkey(m_s, &len, &type);
    if (!key)
        return transientFailure(QStringLiteral("%1 sent no host key").arg(describe()));
    const QByteArray blob(key, qsizetype(len));
    // Every file OpenSSH reads (User/GlobalKnownHostsFile); new keys go to the first user file.
    const KnownHostsSetup kh = knownHosts();
    const QString khPath = kh.writeFile();
    const HostKeyLookup found = lookupHostKey(kh.readAll(), p.host, p.port, blob);
    HostKeyInfo info;
    info.host = p.host;
    info.port = p.port;
    info.keyType = keyTypeOfBlob(blob);
    info.fingerprint = sshFingerprint(blob);
    info.keyBlob = blob;
    info.knownHostsFile = khPath;
    info.oldEntryFile = found.file;
    info.oldEntryLine = found.line;
    info.oldKeyType = found.oldKeyType;
    const QString name = knownHostsName(p.host, p.port);
    m_lastHostKey = blob;
    switch (found.status) {
    case HostKeyLookup::Status::Match: return {};
    case HostKeyLookup::Status::Revoked:
        info.kind = HostKeyInfo::Kind::Revoked;
        if (m_options.interaction)
            m_options.interaction->askHostKey(info);
        return permanentFailure(
            QStringLiteral("The host key of %1 (%2 %3) is marked @revoked in %4:%5. Refusing to connect.")
                .arg(name, info.keyType, info.fingerprint, found.file)
                .arg(found.line));
    case HostKeyLookup::Status::Mismatch:
        info.kind = HostKeyInfo::Kind::Changed;
        if (m_options.interaction)
            m_options.interaction->askHostKey(info);
        return permanentFailure(QStringLiteral(
            "HOST KEY CHANGED for %1: the server offers %2 %3, but %4:%5 holds a different %6 key. Someone could be "
            "intercepting the connection, or the server was reinstalled. Refusing to connect; if the change is "
            "expected, remove line %5 of %4.")
                                    .arg(name, info.keyType, info.fingerprint, found.file)
                                    .arg(found.line)
                                    .arg(found.oldKeyType));
    case HostKeyLookup::Status::NotFound: break;
    }
    if (!m_options.trustedHostKey.isEmpty() && m_options.trustedHostKey == blob)
        return {};
    if (!m_acceptedOnceKey.isEmpty()) {
        if (m_acceptedOnceKey == blob)
            return {};
        return permanentFailure(QStringLiteral(
            "HOST KEY CHANGED for %1 since it was accepted in this session (now %2 %3). Refusing to connect.")
                                    .arg(name, info.keyType, info.fingerprint));
    }
    HostKeyDecision decision = HostKeyDecision::Reject;
    if (m_options.acceptNewHostKey) {
        decision = HostKeyDecision::AcceptAndSave;
    } else if (m_options.interaction && m_options.promptForHostKeys) {
        publish(ConnectionState::HostKeyPrompt,
            QStringLiteral("unknown host key %1 %2").arg(info.keyType, info.fingerprint));
        info.kind = HostKeyInfo::Kind::Unknown;
        decision = m_options.interaction->askHostKey(info);
        resetDeadline();
    } else {
        return permanentFailure(
            QStringLiteral("The host key of %1 is not known (%2 %3). Refusing to connect; use --accept-new to trust "
                           "it on first use, or add it to %4.")
                .arg(name, info.keyType, info.fingerprint, khPath));
    }
    switch (decision) {
    case HostKeyDecision::Reject:
        return permanentFailure(
            QStringLiteral("The host key of %1 (%2 %3) was not accepted.").arg(name, info.keyType, info.fingerprint));
    case HostKeyDecision::AcceptOnce: m_acceptedOnceKey = blob; return {};
    case HostKeyDecision::AcceptAndSave:
        if (khPath.isEmpty())
            return permanentFailure(QStringLiteral("cannot save the host key: UserKnownHostsFile is \"none\""));
        if (Result<void> s = appendKnownHostsLine(khPath, knownHostsLine(p.host, p.port, blob, kh.hashNewEntries)); !s)
            return permanentFailure(QStringLiteral("cannot save the host key: ") + s.error());
        log::ssh()->info("{}: added {} {} to {}", describe(), info.keyType, info.fingerprint, khPath);
        return {};
    }
    return permanentFailure(QStringLiteral("host key not accepted"));
}

void SessionWorker::keyboardInteractive(const char* name, int nameLen, const char* instruction, int instructionLen,
    int numPrompts, const LIBSSH2_USERAUTH_KBDINT_PROMPT* prompts, LIBSSH2_USERAUTH_KBDINT_RESPONSE* responses)
{
    ++m_kbdRounds;
    const QString header
        = QString(QString::fromUtf8(name, nameLen) + QLatin1Char(' ') + QString::fromUtf8(instruction, instructionLen))
              .trimmed();
    for (int i = 0; i < numPrompts; ++i) {
        responses[i].text = nullptr;
        responses[i].length = 0;
        if (m_kbdCancelled || !m_options.interaction)
            continue;
        const QString text = QString::fromUtf8(prompts[i].text, int(prompts[i].length));
        const QString keptKey = m_kbdKeyPrefix + text;
        const bool echo = prompts[i].echo != 0;
        std::optional<SecretAnswer> answer;
        if (!echo && m_kbdAttempt == 0) {
            if (std::optional<QByteArray> kept = keptSecret(keptKey)) {
                answer = SecretAnswer { std::move(*kept), false, false };
                m_kbdKeptUsed << keptKey;
            }
        }
        if (!answer) {
            SecretRequest req;
            req.kind = SecretRequest::Kind::KeyboardInteractive;
            req.destination = describe();
            req.reconnecting = m_state == ConnectionState::Reconnecting;
            QString intro = header;
            if (m_kbdAttempt > 0)
                intro = QStringLiteral("Wrong answer; try again.\n") + intro;
            else if (req.reconnecting)
                intro = QStringLiteral("The connection to %1 was lost. Reconnecting needs this answer again.\n")
                            .arg(describe())
                    + intro;
            intro = intro.trimmed();
            req.prompt = intro.isEmpty() ? text : intro + QLatin1Char('\n') + text;
            req.echo = echo;
            req.offerKeepForSession = !echo;
            m_promptedForSecret = true;
            announceSecretWait(QStringLiteral("answer to \"%1\"").arg(text.trimmed()));
            answer = m_options.interaction->askSecret(req);
            if (!answer) {
                m_kbdCancelled = true;
                continue;
            }
            if (!echo && answer->keepForSession) {
                keepSecret(keptKey, answer->secret);
                m_kbdKeptUsed << keptKey; // forgotten again if the server refuses it
            }
        }
        if (!echo)
            SecretRegistry::add(answer->secret);
        // libssh2 frees the response with its allocator (malloc/free: we passed none).
        auto* copy = static_cast<char*>(::malloc(size_t(answer->secret.size()) + 1));
        if (copy) {
            std::memcpy(copy, answer->secret.constData(), size_t(answer->secret.size()));
            responses[i].text = copy;
            responses[i].length = unsigned(answer->secret.size());
        }
        wipe(answer->secret);
    }
    resetDeadline();
}

SecretStore* SessionWorker::secretStore() const
{
    if (m_options.secrets)
        return m_options.secrets.get();
    return m_options.interaction ? m_options.interaction->secretStore().get() : nullptr;
}

std::optional<QByteArray> SessionWorker::readStoredSecret(SecretStore* store, const QString& key, const QString& what)
{
    Result<std::optional<QByteArray>> r = store->read(key);
    resetDeadline(); // an unlock prompt of the keychain may have taken a while
    if (!r) {
        log::ssh()->info("{}: keychain lookup for {} failed: {}", describe(), what, r.error());
        return std::nullopt;
    }
    if (r.value())
        log::ssh()->info("{}: trying the secret stored in the keychain for {}", describe(), what);
    return std::move(r.value());
}

void SessionWorker::storeSecret(SecretStore* store, const QString& key, const QByteArray& secret, const QString& what)
{
    if (Result<void> s = store->write(key, secret); !s)
        log::ssh()->warn("{}: could not store the {} in the keychain: {}", describe(), what, s.error());
    else
        log::ssh()->info("{}: stored the {} in the keychain", describe(), what);
    resetDeadline();
}

QString SessionWorker::forgetRefusedSecret(
    SecretStore* store, const QString& key, const QString& kind, const QString& what)
{
    // A secret that no longer works must not be offered again at every login.
    if (!m_options.interaction)
        return {};
    if (Result<void> s = store->remove(key); !s)
        log::ssh()->warn("{}: could not remove the refused {} from the keychain: {}", describe(), kind, s.error());
    else
        log::ssh()->info("{}: the {} stored in the keychain for {} was refused; removed it", describe(), kind, what);
    resetDeadline();
    return QStringLiteral("The %1 stored in the keychain for %2 was refused and has been removed. Enter the %1")
        .arg(kind, what);
}

std::optional<QByteArray> SessionWorker::keptSecret(const QString& key) const
{
    const auto it = m_kept.constFind(key);
    if (it == m_kept.cend())
        return std::nullopt;
    return QByteArray(it->constData(), it->size()); // a copy the caller wipes
}

void SessionWorker::keepSecret(const QString& key, const QByteArray& secret)
{
    forgetKept(key);
    m_kept.insert(key, QByteArray(secret.constData(), secret.size()));
}

void SessionWorker::forgetKept(const QString& key)
{
    auto it = m_kept.find(key);
    if (it == m_kept.end())
        return;
    wipe(*it);
    m_kept.erase(it);
}

void SessionWorker::announceSecretWait(const QString& what)
{
    if (m_state == ConnectionState::Reconnecting)
        publish(ConnectionState::Reconnecting,
            QStringLiteral("the connection was lost; reconnecting to %1 needs the %2: waiting for it to be entered")
                .arg(describe(), what));
}

Login SessionWorker::authenticate()
{
    const HostProfile& p = m_options.profile;
    const QByteArray user = (p.user.isEmpty() ? localUserName() : p.user).toUtf8();
    const auto ulen = unsigned(user.size());
    QString methods;
    for (;;) {
        char* list = libssh2_userauth_list(m_s, user.constData(), ulen);
        if (list) {
            methods = QString::fromLatin1(list);
            break;
        }
        if (libssh2_userauth_authenticated(m_s))
            return {};
        const int rc = libssh2_session_last_errno(m_s);
        if (rc != LIBSSH2_ERROR_EAGAIN)
            return transientFailure(
                QStringLiteral("%1 did not list authentication methods: %2").arg(describe(), lastError()));
        if (Result<void> w = waitSocket(); !w)
            return transientFailure(w.error());
    }
    const QStringList offered = methods.split(QLatin1Char(','), Qt::SkipEmptyParts);
    SecretStore* store = secretStore();
    QStringList tried;
    QStringList problems;
    bool rsaFailed = false;
    bool nonRsaTried = false;

    // Repeats a libssh2 auth call through EAGAIN. Returns its final rc.
    auto drive = [this](const std::function<int()>& call) -> int {
        for (;;) {
            const int rc = call();
            if (rc != LIBSSH2_ERROR_EAGAIN)
                return rc;
            if (Result<void> w = waitSocket(); !w)
                return LIBSSH2_ERROR_TIMEOUT;
        }
    };

    if (offered.contains(QLatin1String("publickey"))) {
        // 1. ssh-agent
        if (!qEnvironmentVariableIsEmpty("SSH_AUTH_SOCK")) {
            LIBSSH2_AGENT* agent = libssh2_agent_init(m_s);
            if (agent && libssh2_agent_connect(agent) == 0) {
                int lr = 0;
                while ((lr = libssh2_agent_list_identities(agent)) == LIBSSH2_ERROR_EAGAIN) { }
                libssh2_agent_publickey* id = nullptr;
                libssh2_agent_publickey* prev = nullptr;
                int agentKeys = 0;
                while (lr == 0 && libssh2_agent_get_identity(agent, &id, prev) == 0) {
                    prev = id;
                    ++agentKeys;
                    const bool rsa
                        = keyTypeOfBlob(QByteArray(reinterpret_cast<const char*>(id->blob), qsizetype(id->blob_len)))
                        == QLatin1String("ssh-rsa");
                    const int rc = drive([&] { return libssh2_agent_userauth(agent, user.constData(), id); });
                    if (rc == 0) {
                        // id belongs to the agent's identity list: read it before freeing the agent.
                        const QString comment = QString::fromUtf8(id->comment);
                        libssh2_agent_disconnect(agent);
                        libssh2_agent_free(agent);
                        log::ssh()->info("{}: authenticated with an agent key ({})", describe(), comment);
                        return {};
                    }
                    if (fatal(rc))
                        break;
                    (rsa ? rsaFailed : nonRsaTried) = true;
                }
                if (agentKeys > 0)
                    tried << QStringLiteral("ssh-agent (%1 keys)").arg(agentKeys);
                else
                    problems << QStringLiteral("ssh-agent holds no keys");
                libssh2_agent_disconnect(agent);
            } else {
                problems << QStringLiteral("cannot reach ssh-agent at %1").arg(qEnvironmentVariable("SSH_AUTH_SOCK"));
            }
            if (agent)
                libssh2_agent_free(agent);
            if (m_dead)
                return transientFailure(m_deadReason);
        }
        // 2. identity files
        const QStringList keys = identityFilesToTry(p);
        for (const QString& keyPath : keys) {
            QFile f(keyPath);
            if (!f.open(QIODevice::ReadOnly)) {
                problems << QStringLiteral("cannot read key %1: %2").arg(keyPath, f.errorString());
                continue;
            }
            const SshKeyFileInfo info = inspectPrivateKey(f.readAll());
            const QByteArray path = QFile::encodeName(keyPath);
            const QString storeKey = SecretStore::passphraseKey(keyPath);
            bool storedTried = false; // the keychain's passphrase, at most once
            bool keptTried = false;   // the one kept for this session, at most once
            QString storedRefused;    // why the next prompt says the stored one was removed
            for (int prompts = 0; prompts < 3;) {
                QByteArray passphrase;
                bool fromKeychain = false;
                bool fromSession = false;
                bool remember = false;
                bool keep = false;
                if (info.encrypted) {
                    if (!keptTried) {
                        keptTried = true;
                        if (std::optional<QByteArray> kept = keptSecret(storeKey)) {
                            passphrase = std::move(*kept);
                            fromSession = true;
                        }
                    }
                    if (!fromSession && store && !storedTried) {
                        storedTried = true;
                        if (std::optional<QByteArray> stored = readStoredSecret(store, storeKey, keyPath)) {
                            passphrase = std::move(*stored);
                            SecretRegistry::add(passphrase);
                            fromKeychain = true;
                        }
                    }
                    if (!fromKeychain && !fromSession) {
                        if (!m_options.interaction) {
                            problems << QStringLiteral("key %1 needs a passphrase and there is no way to ask for it")
                                            .arg(keyPath);
                            break;
                        }
                        SecretRequest req;
                        req.kind = SecretRequest::Kind::Passphrase;
                        req.destination = describe();
                        req.keyFile = keyPath;
                        req.offerKeychain = store != nullptr;
                        req.offerKeepForSession = true;
                        req.reconnecting = m_state == ConnectionState::Reconnecting;
                        req.prompt = !storedRefused.isEmpty() ? std::exchange(storedRefused, {})
                            : prompts > 0 ? QStringLiteral("Wrong passphrase; try again for %1").arg(keyPath)
                            : req.reconnecting
                            ? QStringLiteral("The connection to %1 was lost. Reconnecting needs the passphrase for %2 "
                                             "again")
                                  .arg(describe(), keyPath)
                            : QStringLiteral("Passphrase for %1").arg(keyPath);
                        ++prompts;
                        m_promptedForSecret = true;
                        announceSecretWait(QStringLiteral("passphrase for ") + keyPath);
                        std::optional<SecretAnswer> answer = m_options.interaction->askSecret(req);
                        resetDeadline();
                        if (!answer) {
                            problems << QStringLiteral("no passphrase given for %1").arg(keyPath);
                            break;
                        }
                        passphrase = std::move(answer->secret);
                        remember = answer->storeInKeychain;
                        keep = answer->keepForSession;
                        SecretRegistry::add(passphrase);
                    }
                } else {
                    ++prompts; // one try is enough for a key without passphrase
                }
                if (!tried.contains(keyPath))
                    tried << keyPath;
                const QByteArray pass = passphrase.isEmpty() ? QByteArray("") : passphrase;
                const int rc = drive([&] {
                    return libssh2_userauth_publickey_fromfile_ex(
                        m_s, user.constData(), ulen, nullptr, path.constData(), pass.constData());
                });
                const QString err = lastError();
                if (rc == 0 && remember && store)
                    storeSecret(store, storeKey, passphrase, QStringLiteral("passphrase of ") + keyPath);
                if (rc == 0 && keep)
                    keepSecret(storeKey, passphrase);
                wipe(passphrase);
                if (rc == 0) {
                    log::ssh()->info("{}: authenticated with {}{}", describe(), keyPath,
                        fromKeychain ? QStringLiteral(" (passphrase from the keychain)") : QString());
                    return {};
                }
                if (fatal(rc))
                    return transientFailure(m_deadReason);
                if (info.encrypted && (rc == LIBSSH2_ERROR_FILE || rc == LIBSSH2_ERROR_KEYFILE_AUTH_FAILED)
                    && err.contains(QLatin1String("passphrase"), Qt::CaseInsensitive)) {
                    if (fromSession) {
                        forgetKept(storeKey);
                        continue;
                    }
                    if (fromKeychain) {
                        storedRefused = forgetRefusedSecret(store, storeKey, QStringLiteral("passphrase"), keyPath);
                        if (!m_options.interaction) {
                            problems
                                << QStringLiteral("the passphrase stored in the keychain for %1 is wrong").arg(keyPath);
                            break;
                        }
                        continue;
                    }
                    problems << QStringLiteral("wrong passphrase for %1").arg(keyPath);
                    continue;
                }
                if (rc == LIBSSH2_ERROR_FILE || rc == LIBSSH2_ERROR_KEYFILE_AUTH_FAILED
                    || rc == LIBSSH2_ERROR_METHOD_NOT_SUPPORTED) {
                    problems << QStringLiteral("cannot use key %1: %2").arg(keyPath, err);
                } else {
                    (info.isRsa() ? rsaFailed : nonRsaTried) = true;
                    if (!info.isRsa())
                        problems << QStringLiteral("the server refused key %1").arg(keyPath);
                }
                break;
            }
        }
    }
    if (offered.contains(QLatin1String("keyboard-interactive")) && m_options.interaction) {
        // Three tries, like the password: each one a fresh exchange with the server.
        m_kbdCancelled = false;
        m_kbdKeyPrefix = QStringLiteral("kbd:") + SecretStore::passwordKey(QString::fromUtf8(user), p.host, p.port)
            + QLatin1Char(':');
        bool asked = false;
        for (m_kbdAttempt = 0; m_kbdAttempt < 3 && !m_kbdCancelled; ++m_kbdAttempt) {
            m_kbdRounds = 0;
            m_kbdKeptUsed.clear();
            const int rc = drive(
                [&] { return libssh2_userauth_keyboard_interactive_ex(m_s, user.constData(), ulen, &kbdCallback); });
            if (m_kbdRounds > 0 && !asked) {
                asked = true;
                tried << QStringLiteral("keyboard-interactive");
            }
            if (rc == 0)
                return {};
            if (fatal(rc))
                return transientFailure(m_deadReason);
            for (const QString& key : std::as_const(m_kbdKeptUsed))
                forgetKept(key); // refused: ask next time
            if (m_kbdRounds == 0)
                break; // the server asked nothing: no answer of ours can help
        }
        if (asked)
            problems << (m_kbdCancelled ? QStringLiteral("keyboard-interactive cancelled")
                                        : QStringLiteral("keyboard-interactive: wrong answer"));
    }
    if (offered.contains(QLatin1String("password")) && (m_options.interaction || store)) {
        const QString storeKey = SecretStore::passwordKey(QString::fromUtf8(user), p.host, p.port);
        bool storedTried = false;
        bool keptTried = false;
        QString storedRefused;
        bool sent = false; // a password went to the server
        for (int prompts = 0; prompts < 3;) {
            QByteArray pw;
            bool fromKeychain = false;
            bool fromSession = false;
            bool remember = false;
            bool keep = false;
            if (!keptTried) {
                keptTried = true;
                if (std::optional<QByteArray> kept = keptSecret(storeKey)) {
                    pw = std::move(*kept);
                    fromSession = true;
                }
            }
            if (!fromSession && store && !storedTried) {
                storedTried = true;
                if (std::optional<QByteArray> stored = readStoredSecret(store, storeKey, storeKey)) {
                    pw = std::move(*stored);
                    SecretRegistry::add(pw);
                    fromKeychain = true;
                }
            }
            if (!fromKeychain && !fromSession) {
                if (!m_options.interaction)
                    break;
                SecretRequest req;
                req.kind = SecretRequest::Kind::Password;
                req.destination = describe();
                req.reconnecting = m_state == ConnectionState::Reconnecting;
                req.prompt = !storedRefused.isEmpty() ? std::exchange(storedRefused, {})
                    : prompts > 0 ? QStringLiteral("Wrong password; try again for %1").arg(describe())
                    : req.reconnecting
                    ? QStringLiteral("The connection to %1 was lost. Reconnecting needs the password again")
                          .arg(describe())
                    : QStringLiteral("Password for %1").arg(describe());
                req.offerKeychain = store != nullptr;
                req.offerKeepForSession = true;
                ++prompts;
                m_promptedForSecret = true;
                announceSecretWait(QStringLiteral("password"));
                std::optional<SecretAnswer> answer = m_options.interaction->askSecret(req);
                resetDeadline();
                if (!answer) {
                    problems << QStringLiteral("password prompt cancelled");
                    break;
                }
                pw = std::move(answer->secret);
                remember = answer->storeInKeychain;
                keep = answer->keepForSession;
                SecretRegistry::add(pw);
            }
            if (!sent) {
                sent = true;
                tried << QStringLiteral("password");
            }
            const int rc = drive([&] {
                return libssh2_userauth_password_ex(
                    m_s, user.constData(), ulen, pw.constData(), unsigned(pw.size()), nullptr);
            });
            if (rc == 0 && remember && store)
                storeSecret(store, storeKey, pw, QStringLiteral("password of ") + storeKey);
            if (rc == 0 && keep)
                keepSecret(storeKey, pw);
            wipe(pw);
            if (rc == 0) {
                if (fromKeychain)
                    log::ssh()->info("{}: authenticated with the password stored in the keychain", describe());
                return {};
            }
            if (fatal(rc))
                return transientFailure(m_deadReason);
            if (rc == LIBSSH2_ERROR_PASSWORD_EXPIRED) {
                problems << QStringLiteral("the password has expired; change it with a terminal ssh login");
                break;
            }
            if (fromSession) {
                forgetKept(storeKey);
                continue;
            }
            if (fromKeychain) {
                storedRefused = forgetRefusedSecret(store, storeKey, QStringLiteral("password"), describe());
                if (!m_options.interaction) {
                    problems << QStringLiteral("the password stored in the keychain was refused");
                    break;
                }
                continue;
            }
            if (prompts == 3)
                problems << QStringLiteral("wrong password");
        }
    }
#ifndef KF_LIBSSH2_HAS_RSA_SHA2
    if (rsaFailed && !nonRsaTried)
        return permanentFailure(
            QStringLiteral("Authentication to %1 failed: RSA keys need libssh2 >= 1.11; use an ed25519 or ECDSA key")
                .arg(describe()));
#endif
    if (rsaFailed)
        problems << QStringLiteral("an RSA key was refused")
#ifndef KF_LIBSSH2_HAS_RSA_SHA2
                + QStringLiteral(" (RSA keys need libssh2 >= 1.11; use an ed25519 or ECDSA key)")
#endif
            ;
    if (tried.isEmpty())
        problems << QStringLiteral("the server offers %1 and no usable key or prompt is available").arg(methods);
    return permanentFailure(
        QStringLiteral("Permission denied for %1 (tried: %2)%3")
            .arg(describe(), tried.isEmpty() ? QStringLiteral("nothing") : tried.join(QStringLiteral(", ")),
                problems.isEmpty() ? QString() : QStringLiteral(": ") + problems.join(QStringLiteral("; "))));
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
    const Login login = establish();
    if (!login.status) {
        teardown(false);
        log::ssh()->info("{}: {}", describe(), login.status.error()); // the caller reports it
        abortAll(login.status.error());
        publish(ConnectionState::Failed, login.status.error());
        return;
    }
    becomeReady();
}

void SessionWorker::becomeReady()
{
    m_facade->setLoginFacts(m_lastHostKey, !m_promptedForSecret);
    m_everReady = true;
    m_backoffMs = 1000;
    m_lastInbound = nowMs();
    m_lastKeepalive = nowMs();
    libssh2_keepalive_config(m_s, 1, unsigned(qMax(1, m_options.keepaliveIntervalS)));
    m_readNotifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
    m_writeNotifier = new QSocketNotifier(m_fd, QSocketNotifier::Write, this);
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
    runQueued = false;
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
                release(Token::ChannelOpen, op.get());
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
    for (const auto& op : std::as_const(m_ops))
        op->tick(*this);
    runOps();
}

void SessionWorker::teardown(bool graceful)
{
    delete m_readNotifier;
    m_readNotifier = nullptr;
    delete m_writeNotifier;
    m_writeNotifier = nullptr;
    if (m_ticker)
        m_ticker->stop();
    if (m_s) {
        m_deadline = nowMs() + 1000;
        if (graceful)
            abortLogin = false;
        if (!graceful && m_fd >= 0) {
            // The peer is gone: make every send libssh2 tries while freeing fail at once.
            ::shutdown(m_fd, SHUT_RDWR);
        }
        // Open SFTP handles first (neither libssh2_sftp_shutdown nor libssh2_session_free
        // frees them), then the SFTP channel.
        for (const auto& op : std::as_const(m_ops))
            while (op->releaseLibssh2() == LIBSSH2_ERROR_EAGAIN)
                if (!waitSocket())
                    break;
        if (m_sftp) {
            while (libssh2_sftp_shutdown(m_sftp) == LIBSSH2_ERROR_EAGAIN)
                if (!waitSocket())
                    break;
            m_sftp = nullptr;
        }
        if (graceful) {
            while (libssh2_session_disconnect(m_s, "bye") == LIBSSH2_ERROR_EAGAIN)
                if (!waitSocket())
                    break;
        }
        while (libssh2_session_free(m_s) == LIBSSH2_ERROR_EAGAIN)
            if (!waitSocket())
                break;
        m_s = nullptr;
    }
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
    m_pump.reset();
    m_tokens[0] = m_tokens[1] = nullptr;
    for (const Watch& w : std::as_const(m_watches)) {
        delete w.read;
        delete w.write;
    }
    m_watches.clear();
}

void SessionWorker::abortAll(const QString& reason)
{
    // Forwarding ops close their sockets when aborted: stop watching them first.
    for (const Watch& w : std::as_const(m_watches)) {
        delete w.read;
        delete w.write;
    }
    m_watches.clear();
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
    const Login login = establish();
    if (login.status) {
        log::ssh()->info("{}: reconnected", describe());
        becomeReady();
        return;
    }
    teardown(false);
    if (login.permanent) {
        abortAll(login.status.error());
        publish(ConnectionState::Failed, login.status.error());
        return;
    }
    scheduleReconnect(login.status.error());
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
    for (QByteArray& kept : m_kept)
        wipe(kept);
    m_kept.clear();
    delete m_ticker;
    m_ticker = nullptr;
    // The last thing this thread does with libssh2: free OpenSSL's per-thread state (the
    // DRBGs key exchange created) now. OpenSSL would otherwise free it from a pthread key
    // destructor after QThread::wait() has already returned, racing a process exit.
    OPENSSL_thread_stop();
}

} // namespace ssh

// ---------------------------------------------------------------------------------------
// Facade

SshSession::SshSession(SshSessionOptions options, QObject* parent)
    : QObject(parent)
    , m_options(std::move(options))
{
    initLibssh2();
    if (m_options.profile.port == 0)
        m_options.profile.port = 22;
    m_thread = new QThread;
    m_thread->setObjectName(QStringLiteral("ssh:") + m_options.profile.host);
    m_worker = new ssh::SessionWorker(this);
    m_worker->moveToThread(m_thread);
    m_thread->start();
}

SshSession::~SshSession()
{
    m_worker->abortLogin = true;
    Q_ASSERT(!isSessionThread());
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->shutdown(); }, Qt::BlockingQueuedConnection);
    m_thread->quit();
    m_thread->wait();
    delete m_worker; // its thread has finished; it holds no libssh2 state any more
    delete m_thread;
}

QString SshSession::describe() const
{
    const HostProfile& p = m_options.profile;
    const QString user = p.user.isEmpty() ? ssh::localUserName() : p.user;
    return user + QLatin1Char('@') + p.host + QLatin1Char(':') + QString::number(p.port);
}

void SshSession::connectToHost()
{
    {
        std::unique_lock lock(m_mutex);
        if (m_state == ConnectionState::Disconnected || m_state == ConnectionState::Failed) {
            lock.unlock();
            // Synchronously, so waitUntilReady() right after this does not see the old state.
            publishState(ConnectionState::Connecting, {});
        }
    }
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->connectToHost(); }, Qt::QueuedConnection);
}

void SshSession::disconnectFromHost()
{
    m_worker->abortLogin = true;
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker] { w->disconnectFromHost({}); }, Qt::QueuedConnection);
}

ConnectionState SshSession::state() const
{
    std::lock_guard lock(m_mutex);
    return m_state;
}

QString SshSession::stateReason() const
{
    std::lock_guard lock(m_mutex);
    return m_reason;
}

bool SshSession::isSessionThread() const
{
    return QThread::currentThread() == m_thread;
}

qint64 SshSession::bytesReceived() const
{
    return m_worker->bytesIn;
}

QByteArray SshSession::verifiedHostKey() const
{
    std::lock_guard lock(m_mutex);
    return m_verifiedHostKey;
}

bool SshSession::loggedInWithoutPrompt() const
{
    std::lock_guard lock(m_mutex);
    return m_quietLogin;
}

void SshSession::setLoginFacts(const QByteArray& hostKey, bool quiet)
{
    std::lock_guard lock(m_mutex);
    m_verifiedHostKey = hostKey;
    m_quietLogin = quiet;
}

namespace {

// "[user@]host[:port]", "[user@][v6addr]:port" or "ssh://..." (kf::parseDestination). A hop
// that does not parse keeps its text as the host name, so the login fails naming it.
HostProfile hopProfile(const QString& spec, const HostProfile& target)
{
    HostProfile hop;
    const auto d = parseDestination(spec.trimmed());
    hop.user = d ? d->user : QString();
    hop.host = d ? d->host : spec.trimmed();
    hop.port = d ? d->port.value_or(22) : 22;
    hop.name = hop.host;
    hop.identityFiles = target.identityFiles;
    hop.knownHostsFile = target.knownHostsFile;
    return hop;
}

} // namespace

std::shared_ptr<SshSession> SshSession::create(SshSessionOptions options)
{
    const QString jumps = options.profile.proxyJump.trimmed();
    if (!options.jump && !jumps.isEmpty() && jumps != QLatin1String("none")) {
        std::shared_ptr<SshSession> previous;
        for (const QString& spec : jumps.split(QLatin1Char(','), Qt::SkipEmptyParts)) {
            SshSessionOptions hop = options;
            hop.profile = hopProfile(spec, options.profile);
            hop.jump = previous;
            hop.trustedHostKey.clear();
            previous = std::make_shared<SshSession>(hop);
        }
        options.jump = previous;
    }
    return std::make_shared<SshSession>(options);
}

void SshSession::publishState(ConnectionState state, const QString& reason)
{
    {
        std::lock_guard lock(m_mutex);
        m_state = state;
        m_reason = reason;
    }
    m_stateCv.notify_all();
    log::ssh()->debug("{}: {} {}", describe(), toString(state), reason);
    Q_EMIT stateChanged(state, reason);
}

Result<void> SshSession::waitUntilReady(int timeoutMs)
{
    Q_ASSERT(!isSessionThread());
    std::unique_lock lock(m_mutex);
    auto settled = [this] {
        return m_state == ConnectionState::Ready || m_state == ConnectionState::Failed
            || m_state == ConnectionState::Disconnected;
    };
    if (timeoutMs < 0)
        m_stateCv.wait(lock, settled);
    else if (!m_stateCv.wait_for(lock, std::chrono::milliseconds(timeoutMs), settled))
        return Result<void>::failure(QStringLiteral("timed out connecting to %1").arg(describe()));
    if (m_state == ConnectionState::Ready)
        return {};
    return Result<void>::failure(m_reason.isEmpty() ? QStringLiteral("not connected to %1").arg(describe()) : m_reason);
}

void SshSession::submit(std::shared_ptr<ssh::Op> op)
{
    QString refused;
    {
        std::lock_guard lock(m_mutex);
        // While Reconnecting the session thread may sit in a login for a long time (a network
        // timeout, a password prompt nobody answers): a call fails now instead of queueing
        // behind it. Posting under the lock orders the call before any later state change.
        if (m_state != ConnectionState::Reconnecting || op->resumable()) {
            QMetaObject::invokeMethod(
                m_worker, [w = m_worker, op = std::move(op)] { w->addOp(op); }, Qt::QueuedConnection);
            return;
        }
        refused = QStringLiteral("not connected to %1 (reconnecting%2)")
                      .arg(describe(), m_reason.isEmpty() ? QString() : QStringLiteral(": ") + m_reason);
    }
    op->abort(refused); // never reached the session thread: it holds no libssh2 objects
}

void SshSession::cancel(const std::shared_ptr<ssh::Op>& op)
{
    op->requestCancel();
    QMetaObject::invokeMethod(
        m_worker, [w = m_worker, op] { w->cancelOp(op); }, Qt::QueuedConnection);
}

void SshSession::wake()
{
    m_worker->scheduleRun();
}

QStringList storedSecretKeys(const HostProfile& profile)
{
    QStringList out { SecretStore::passwordKey(
        profile.user.isEmpty() ? ssh::localUserName() : profile.user, profile.host, profile.port) };
    for (const QString& key : ssh::identityFilesToTry(profile))
        out << SecretStore::passphraseKey(key);
    return out;
}

Result<int> forgetStoredSecrets(SecretStore& store, const HostProfile& profile)
{
    int removed = 0;
    for (const QString& key : storedSecretKeys(profile)) {
        // Read first, so that the caller can say whether anything was there.
        const auto stored = store.read(key);
        if (!stored)
            return Result<int>::failure(stored.error());
        if (!stored.value())
            continue;
        if (Result<void> s = store.remove(key); !s)
            return Result<int>::failure(s.error());
        ++removed;
    }
    return removed;
}

} // namespace kf

#include "sshsession.moc"
