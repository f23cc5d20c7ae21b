// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sshsession.h"

#include "core/hosts/destination.h"
#include "core/hosts/secretstore.h"
#include "core/log/logging.h"
#include "core/ssh/authenticator.h"
#include "core/ssh/op.h"
#include "core/ssh/sessionworker.h"
#include "core/transport/transport.h"

#include <QThread>

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

// Runs while the QCoreApplication exists (docs/design/rules.md, Threading): the teardown goes through
// the session thread's event loop, and once the application object is being destroyed Qt
// delivers no events in any thread, so this would wait for ever.
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
    log::ssh()->debug("{}: session closed, its thread joined", describe());
}

QString SshSession::describe() const
{
    const HostProfile& p = m_options.profile;
    return ssh::loginUserName(p) + QLatin1Char('@') + p.host + QLatin1Char(':') + QString::number(p.port);
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
    return locked(m_state);
}

QString SshSession::stateReason() const
{
    return locked(m_reason);
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
    return locked(m_verifiedHostKey);
}

bool SshSession::loggedInWithoutPrompt() const
{
    return locked(m_quietLogin);
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
    QStringList out { SecretStore::passwordKey(ssh::loginUserName(profile), profile.host, profile.port) };
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

Result<bool> hasStoredSecrets(SecretStore& store, const HostProfile& profile)
{
    for (const QString& key : storedSecretKeys(profile)) {
        const auto stored = store.read(key);
        if (!stored)
            return Result<bool>::failure(stored.error());
        if (stored.value())
            return true;
    }
    return false;
}

} // namespace kf
