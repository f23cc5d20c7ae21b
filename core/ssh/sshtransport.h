// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "core/hosts/userinteraction.h"
#include "core/ssh/knownhosts.h"
#include "core/transport/transport.h"

#include <functional>
#include <memory>
#include <mutex>

namespace kf {

class SshSession;
struct SshSessionOptions;
namespace ssh {
class ExecOp;
struct ExecCallbacks;
} // namespace ssh

struct SshConnectOptions
{
    // OpenSSH's StrictHostKeyChecking=accept-new (unknown keys are saved; changed ones refused).
    bool acceptNewHostKey = false;
    // Null (the CLI default): unknown host keys are refused unless acceptNewHostKey, and
    // there are no password or passphrase prompts.
    UserInteraction* interaction = nullptr;
    // Stored passwords and passphrases; null: the interaction's secretStore(), if any.
    std::shared_ptr<SecretStore> secrets;
    // False: unknown host keys are refused even with an interaction (StrictHostKeyChecking=yes).
    bool promptForHostKeys = true;
    int timeoutMs = 20000;
    // Where ssh_config and the global known_hosts files are read (tests: a temp dir, not /etc/ssh).
    KnownHostsSources knownHostsSources;
    bool reconnect = true;
    int keepaliveIntervalS = 5;
};

// The Transport over one SshSession (core/ssh): commands on exec channels, files over
// SFTP, tunnels over direct-tcpip, all multiplexed on the host's one connection.
//
// Paths: absolute, or relative to the login home ("~/x" and "x" are the same file).
// Commands run in the home directory unless CommandSpec::workingDirectory says otherwise.
class SshTransport final : public Transport
{
public:
    using Progress = std::function<void(qint64 done, qint64 total)>;

    // Connects and logs in, blocking until Ready or a failure a person can read (host key
    // refused, permission denied, ...). For the CLI and tests; the GUI uses SshHostConnection.
    static Result<std::shared_ptr<SshTransport>> connect(
        const HostProfile& profile, const SshConnectOptions& options = {});

    explicit SshTransport(std::shared_ptr<SshSession> session);
    ~SshTransport() override;

    std::shared_ptr<SshSession> session() const { return m_session; }
    // The options of a helper connection to the same host (bulk transfers): the main session's,
    // never prompting (no interaction, no host-key question), trusting only the host key the main
    // session verified; the keychain still logs it in quietly. Only meaningful when the main
    // session logged in without a prompt (SshSession::loggedInWithoutPrompt).
    SshSessionOptions helperSessionOptions() const;

    QString describe() const override;
    ExecResult exec(const CommandSpec& spec, int timeoutMs = -1) override;
    std::unique_ptr<ProcessHandle> start(const CommandSpec& spec) override;
    Result<QByteArray> readFile(const QString& path, qint64 maxBytes = kDefaultReadLimit) override;
    Result<QByteArray> readFileRange(const QString& path, qint64 offset, qint64 length) override;
    Result<void> writeFileAtomic(
        const QString& path, const QByteArray& data, const WriteOptions& options = {}) override;
    Result<FileInfo> stat(const QString& path) override;
    Result<QList<FileInfo>> list(const QString& directory) override;
    Result<void> mkpath(const QString& directory, int mode = 0755) override;
    Result<QString> canonicalPath(const QString& path) override;
    Result<std::unique_ptr<TunnelStream>> openTunnel(const QString& host, quint16 port) override;

    // Large files, streamed from/to local files with progress (called on the session
    // thread: keep it cheap). upload() is atomic on the remote side like writeFileAtomic.
    Result<void> download(const QString& remotePath, const QString& localPath, const Progress& progress = {});
    Result<void> upload(const QString& localPath, const QString& remotePath, const Progress& progress = {},
        const WriteOptions& options = {});
    // Hex SHA-256 of a remote file: `openssl dgst` or `sha256sum` when the server has one, else read back.
    Result<QByteArray> sha256(const QString& path);
    // Removes a file; one that is not there is not an error.
    Result<void> remove(const QString& path);
    // After a failed write into sftpDir (SFTP v3 has no "disk full" status): "no space left on
    // device on <shownDir> (<free> free, <needed> needed)" when the free space explains it, else
    // empty. upload() and bulkUpload() say it.
    QString diskFullReason(const QString& sftpDir, const QString& shownDir, qint64 needed);

    // `df -Pk DIR` output -> the "Available" column in KiB. POSIX format:
    //   Filesystem 1024-blocks Used Available Capacity Mounted on
    //   tmpfs             256    256         0     100% /home/u/full
    // Device and mount point may contain spaces; the Capacity field ("100%") anchors the parse.
    static Result<qint64> parseDfAvailableKiB(const QByteArray& output);

    // The command line sent to the server for a spec (documented in the .cpp); pidMarker
    // from ssh::newPidMarker(), empty for none.
    static QByteArray remoteCommand(const CommandSpec& spec, const QByteArray& pidMarker);
    // The env lines the wrapper reads from stdin before the command's input.
    static QByteArray envBlock(const QMap<QString, QString>& env);
    // Why the spec cannot be sent as `line` (too long, bad env name); empty when it can.
    static QString checkCommand(const CommandSpec& spec, const QByteArray& line);
    // "~/x" -> "x", "~" -> "." (SFTP starts in the home directory).
    static QString sftpPath(const QString& path);
    // The path as a shell word that resolves like sftpPath() does.
    static QString shellPath(const QString& path);

private:
    std::shared_ptr<ssh::ExecOp> makeOp(const CommandSpec& spec, bool resumable, ssh::ExecCallbacks cb);
    // exec() in two halves: a command started on the main session (its stdin left open when
    // asked, for the caller to write and close), and the wait for its result.
    struct StartedExec;
    std::shared_ptr<StartedExec> submitExec(const CommandSpec& spec, bool keepStdinOpen);
    ExecResult awaitExec(StartedExec& started, int timeoutMs);
    Result<void> writeAtomic(const QString& path, const QByteArray* data, const QString& localPath,
        const Progress& progress, const WriteOptions& options);

    // The connection for upload()/download(): a second session to the same host, opened on
    // first use when the main one logged in without prompts; otherwise the main one.
    std::shared_ptr<SshSession> bulkSession();

    std::shared_ptr<SshSession> m_session;
    std::mutex m_bulkMutex; // guards the two below
    std::shared_ptr<SshSession> m_bulk;
    bool m_bulkFailed = false;
};

} // namespace kf
