// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "core/util/result.h"

#include <QProcess>
#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace kf {

// The built-in demo server: a private OpenSSH sshd on 127.0.0.1 (random free port),
// throwaway ed25519 host and client keys, its own authorized_keys and known_hosts,
// internal-sftp, UsePAM no. The login user is the user running KernelForge, but the
// session's HOME is a private folder (SetEnv HOME, internal-sftp -d) and PATH starts with
// a private bin folder, so nothing touches the real home.
//
// Layout of rootDir():
//   etc/sshd_config, etc/ssh_host_ed25519_key(.pub), etc/authorized_keys
//   (sshd also reads home/.ssh/authorized_keys, the session's ~/.ssh/authorized_keys: key install)
//   client/id_ed25519(.pub), client/known_hosts    (what the client side uses)
//   home/        the "remote" home; gets a copy of resources :/demo/home/ (the demo project)
//   bin/         PATH prefix on the remote side; gets :/demo/bin/* (replaying nvidia-smi, ...)
//   log/sshd.log captured sshd output, quoted in error messages
//
// Also the test fixture (tests/support): restart with the same or a new host key,
// drop live connections, add a password user when running as root.
class DemoHost
{
public:
    struct Options
    {
        QString rootDir;           // empty: a fresh temporary folder removed by stop()
        bool installAssets = true; // copy :/demo/home and :/demo/bin
        bool usePam = false;       // needed for keyboard-interactive tests (root only)
        QString listenAddress = QStringLiteral("127.0.0.1");
        // Empty: the user running KernelForge logs in. Else another existing system user
        // (root only; tests of login shells): home/ and etc/authorized_keys are made theirs,
        // and their session gets home/ as HOME like the default user's.
        QString user;
        // sshd's MaxSessions: sessions (commands, the SFTP subsystem) on one connection.
        // OpenSSH's default is 10; the demo allows many, a test may allow few.
        int maxSessions = 128;
        // Each GPU runs a worker process of its own besides the demo servers' ranks (the GPU
        // process list has rows to signal without a server; GPU 7's ignores TERM). Off: a GPU
        // has processes only while a demo server uses it.
        bool standingGpuWorkers = false;
    };

    DemoHost();
    explicit DemoHost(Options options);
    ~DemoHost();
    DemoHost(const DemoHost&) = delete;
    DemoHost& operator=(const DemoHost&) = delete;

    // Generates keys and config (first time), starts sshd and waits until it answers with
    // an SSH banner. Retries with another port when the chosen one was taken meanwhile.
    Result<void> start();
    // Stops sshd and everything the demo started, detached jobs included.
    void stop();
    bool isRunning() const;
    // Stops and starts again on the same port; with newHostKey a fresh host key is made
    // (client/known_hosts keeps the old one, so clients must refuse it).
    Result<void> restart(bool newHostKey);
    // Kills every per-connection sshd child (the listener stays): clients see the link drop.
    int dropConnections();
    // The per-connection sshd processes (children of the listener), e.g. to SIGSTOP a link.
    QList<qint64> connectionPids() const;
    // Stops the listener and drops live connections, as a server that went away; detached
    // jobs live on. start() brings it back on the same port.
    void stopListenerKeepJobs() { stopListener(/*endDetachedJobs=*/false); }
    // Creates a local user with a password (root only) and enables password auth.
    Result<void> addPasswordUser(const QString& name, const QString& password);

    QString host() const { return m_options.listenAddress; }
    quint16 port() const { return m_port; }
    QString user() const;
    QString rootDir() const { return m_root; }
    QString homeDir() const { return m_root + QStringLiteral("/home"); }
    QString binDir() const { return m_root + QStringLiteral("/bin"); }
    QString clientKeyPath() const { return m_root + QStringLiteral("/client/id_ed25519"); }
    QString knownHostsPath() const { return m_root + QStringLiteral("/client/known_hosts"); }
    QString hostKeyPath() const { return m_root + QStringLiteral("/etc/ssh_host_ed25519_key"); }
    QString authorizedKeysPath() const { return m_root + QStringLiteral("/etc/authorized_keys"); }
    QString sshdLogPath() const { return m_root + QStringLiteral("/log/sshd.log"); }
    QString sshdLog() const;
    qint64 sshdPid() const;
    // A profile that connects to this host with the client key and known_hosts above.
    HostProfile profile(const QString& name = QStringLiteral("demo")) const;
    // Arguments for the system ssh client (-p, -i, UserKnownHostsFile, StrictHostKeyChecking=yes, ...).
    QStringList sshArguments() const;

private:
    Result<void> prepare();
    Result<void> writeConfig();
    Result<void> generateHostKey();
    Result<void> launch();
    Result<void> installAssets();
    // Kills every process below the listener (sessions and what they started) and, with
    // endDetachedJobs, the demo's detached jobs too (found by the demo HOME in their environment).
    void killSessionTrees(bool endDetachedJobs);
    void stopListener(bool endDetachedJobs);

    Options m_options;
    std::unique_ptr<QTemporaryDir> m_tempRoot;
    QString m_root;
    quint16 m_port = 0;
    bool m_passwordAuth = false;
    std::unique_ptr<QProcess> m_sshd;
};

} // namespace kf
