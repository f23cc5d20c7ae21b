// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "core/hosts/userinteraction.h"
#include "core/ssh/knownhosts.h"
#include "core/util/result.h"

#include <QObject>
#include <QString>

#include <condition_variable>
#include <memory>
#include <mutex>

class QThread;

namespace kf {

namespace ssh {
class Op;
class SessionWorker;
} // namespace ssh

struct SshSessionOptions
{
    HostProfile profile;
    // Asks a person about unknown host keys and secrets; called on the session thread. Null:
    // no prompts (unknown host keys are refused unless acceptNewHostKey; no passwords).
    UserInteraction* interaction = nullptr;
    // Stored passwords and passphrases. Null: the interaction's secretStore(), if any.
    std::shared_ptr<SecretStore> secrets;
    // OpenSSH's StrictHostKeyChecking=accept-new: save an unknown key without asking.
    // A changed or revoked key is refused whatever this says.
    bool acceptNewHostKey = false;
    // Whether an unknown host key is put to `interaction` (StrictHostKeyChecking=ask) or
    // refused outright (=yes, the CLI's default; interaction still answers secrets).
    bool promptForHostKeys = true;
    // Bound on each network wait while logging in (TCP connect, handshake, auth replies).
    int timeoutMs = 20000;
    // Keepalive every interval; the link is declared dead after 3 intervals without inbound bytes.
    int keepaliveIntervalS = 5;
    // After a Ready connection drops: Reconnecting with backoff (1 s doubling to 30 s, jitter).
    bool reconnect = true;
    // A host key already verified by another session to the same host (the bulk-transfer
    // session reuses what the main one accepted): accepted when known_hosts has no entry.
    // A changed or revoked key is still refused.
    QByteArray trustedHostKey;
    // Where ~/.ssh/config and the system ssh_config (User/GlobalKnownHostsFile, HashKnownHosts)
    // and the default global known_hosts are read from; tests use a temp dir instead of /etc/ssh.
    KnownHostsSources knownHostsSources;
    // ProxyJump: the session of the first hop; this session's socket is a direct-tcpip
    // channel through it. Null: connect directly.
    std::shared_ptr<class SshSession> jump;
};

// One SSH connection to one host, on its own thread. The LIBSSH2_SESSION and every
// channel and SFTP handle derived from it live and die on that thread (libssh2 is not
// thread-safe per session); other threads talk to it through ssh::Op objects.
//
// libssh2 runs non-blocking: a QSocketNotifier wakes the thread, every operation is
// stepped, and when all wait on EAGAIN the notifiers are armed for the directions
// libssh2_session_block_directions() reports.
//
// States: Disconnected -> Connecting -> [HostKeyPrompt] -> Authenticating -> Ready;
// Ready -> Reconnecting (link lost) -> Ready again, or Failed (host key changed, auth
// failed, given up). stateReason() says why in words a person understands.
//
// The facade itself is thread-safe; it lives in the thread that created it.
class SshSession : public QObject
{
    Q_OBJECT
public:
    explicit SshSession(SshSessionOptions options, QObject* parent = nullptr);
    ~SshSession() override;
    // Like the constructor, but builds the ProxyJump chain from profile.proxyJump
    // ("[user@]host[:port][,more]", OpenSSH syntax) when options.jump is not set: every
    // hop is a session whose socket is a direct-tcpip channel through the previous one.
    // Hops use the profile's identity files, known_hosts and interaction.
    static std::shared_ptr<SshSession> create(SshSessionOptions options);

    const SshSessionOptions& options() const { return m_options; }
    QString describe() const; // "alice@gpu1:22"

    void connectToHost();
    void disconnectFromHost();

    ConnectionState state() const;
    QString stateReason() const;
    // Blocks (never call it on the session thread) until Ready (ok) or Failed/Disconnected.
    // timeoutMs < 0: wait as long as the login takes (each network step is bounded anyway).
    Result<void> waitUntilReady(int timeoutMs = -1);
    bool isSessionThread() const;

    // Runs an operation on the session thread. If the session is not Ready, non-resumable
    // operations fail at once with the state's reason; resumable ones wait for Ready.
    void submit(std::shared_ptr<ssh::Op> op);
    void cancel(const std::shared_ptr<ssh::Op>& op);
    // Makes the session step its operations soon (e.g. after stdin was queued).
    void wake();

    // The host key this session verified at its last login (empty before).
    QByteArray verifiedHostKey() const;
    // Whether the last login needed no prompt (agent or key without passphrase): a second
    // session can then be opened quietly.
    bool loggedInWithoutPrompt() const;

    // Bytes received from the server so far (for tests and dead-peer statistics).
    qint64 bytesReceived() const;

Q_SIGNALS:
    void stateChanged(kf::ConnectionState state, const QString& reason);

private:
    friend class ssh::SessionWorker;
    void publishState(ConnectionState state, const QString& reason); // any thread
    void setLoginFacts(const QByteArray& hostKey, bool quiet);       // any thread
    // A copy of a field m_mutex guards.
    template <typename T> T locked(const T& field) const
    {
        std::lock_guard lock(m_mutex);
        return field;
    }

    SshSessionOptions m_options;
    QThread* m_thread = nullptr;
    ssh::SessionWorker* m_worker = nullptr; // lives in m_thread
    mutable std::mutex m_mutex;             // guards the state and the login facts below
    std::condition_variable m_stateCv;
    ConnectionState m_state = ConnectionState::Disconnected;
    QString m_reason;
    QByteArray m_verifiedHostKey;
    bool m_quietLogin = false;
};

// The SecretStore keys a login to `profile` looks up: the password of user@host:port, then
// the passphrase of each identity file it would try (the profile's, else ~/.ssh defaults).
QStringList storedSecretKeys(const HostProfile& profile);
// Removes all of them from `store` (blocking); returns how many were stored.
Result<int> forgetStoredSecrets(SecretStore& store, const HostProfile& profile);
// Whether any of them is stored (blocking): "Forget stored password" is offered only then.
Result<bool> hasStoredSecrets(SecretStore& store, const HostProfile& profile);

// libssh2_init, once per process, before any session thread starts.
void initLibssh2();

} // namespace kf
