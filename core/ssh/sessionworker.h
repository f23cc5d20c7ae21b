// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/ssh/hostkeycheck.h"
#include "core/ssh/op.h"
#include "core/ssh/secretsource.h"
#include "core/ssh/sessionsocket.h"
#include "core/ssh/sshsession.h"

#include <QHash>
#include <QList>
#include <QObject>

#include <atomic>
#include <memory>

class QSocketNotifier;
class QTimer;

namespace kf::ssh {

class Authenticator;

// libssh2 sessions alive in this process: every teardown frees its session, also when the
// peer stopped answering (tests check that none is left behind).
int liveLibssh2Sessions();

// The part of SshSession that lives on the session thread; everything libssh2 is here.
// It logs in (SessionSocket, HostKeyCheck, Authenticator), then steps its ops whenever the
// socket (or a local socket an op watches) is ready, sends keepalives, notices a dead link,
// tears down in the documented order (docs/design/rules.md, Threading) and reconnects.
class SessionWorker final : public QObject, public OpContext
{
    Q_OBJECT
public:
    explicit SessionWorker(SshSession* facade);
    ~SessionWorker() override;

    // Any thread.
    std::atomic<bool> abortLogin { false };
    std::atomic<qint64> bytesIn { 0 };
    void scheduleRun();

    // Session thread (queued calls from the facade).
    void connectToHost();
    void disconnectFromHost(const QString& reason);
    void shutdown();
    void addOp(const std::shared_ptr<Op>& op);
    void cancelOp(const std::shared_ptr<Op>& op);
    void runOps();

    // OpContext
    LIBSSH2_SESSION* session() const override { return m_s; }
    bool acquire(Token token, const Op* owner) override;
    void release(Token token, const Op* owner) override;
    LIBSSH2_SFTP* sftp(const Op* owner, int* rc) override;
    QString lastError() const override;
    bool fatal(int rc) override;
    void post(std::shared_ptr<Op> op) override { addOp(op); }
    QString describe() const override { return m_facade->describe(); }
    void watchFd(const Op* owner, int fd, bool read, bool write) override;
    void unwatchFd(const Op* owner) override;
    void sessionOpened() override { ++m_openSessions; }
    void sessionFreed() override
    {
        --m_openSessions;
        ++m_sessionsFreed;
    }
    quint64 sessionsFreed() const override { return m_sessionsFreed; }
    bool sessionRefused() override;

    // From libssh2's callbacks.
    void noteInbound(qint64 n);
    Authenticator* authenticator() const { return m_authenticator; }

private:
    // Socket, handshake, host key, authentication. Permanent: retrying cannot help.
    Result<void> establish();
    Result<void> handshake();
    Result<void> checkHostKey();
    void resetDeadline();
    void becomeReady();
    void teardown(bool graceful);
    void dropWatches();
    void connectionLost(const QString& reason);
    void scheduleReconnect(const QString& why);
    void attemptReconnect();
    void abortAll(const QString& reason);
    void arm();
    void tick();
    void publish(ConnectionState state, const QString& reason = {});

    SshSession* m_facade;
    SshSessionOptions m_options;
    ConnectionState m_state = ConnectionState::Disconnected;
    std::atomic<bool> m_runQueued { false };
    SessionSocket m_socket;
    HostKeyCheck m_hostKeys;
    SecretSource m_secrets;
    Authenticator* m_authenticator = nullptr; // while authenticating
    LIBSSH2_SESSION* m_s = nullptr;
    LIBSSH2_SFTP* m_sftp = nullptr;
    QSocketNotifier* m_readNotifier = nullptr;
    QSocketNotifier* m_writeNotifier = nullptr;
    QTimer* m_ticker = nullptr;
    QList<std::shared_ptr<Op>> m_ops;       // running (state Ready)
    QList<std::shared_ptr<Op>> m_suspended; // resumable ops waiting for Ready
    std::shared_ptr<Op> m_pump;
    const Op* m_tokens[kTokenCount] = {};
    int m_openSessions = 0; // session channels of this connection (they die with it)
    quint64 m_sessionsFreed = 0;
    struct Watch
    {
        int fd = -1;
        QSocketNotifier* read = nullptr;
        QSocketNotifier* write = nullptr;
    };
    QHash<const Op*, Watch> m_watches; // local sockets of forwarding ops
    bool m_dead = false;
    QString m_deadReason;
    bool m_userDisconnect = false;
    qint64 m_lastInbound = 0;
    qint64 m_lastKeepalive = 0;
    int m_backoffMs = 1000;
    QByteArray m_lastHostKey;
};

} // namespace kf::ssh
