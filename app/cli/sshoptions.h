// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/destinationresolver.h"
#include "core/hosts/hostprofile.h"
#include "core/transport/transport.h"
#include "core/util/result.h"

#include <QString>
#include <QStringList>

#include <memory>
#include <optional>

// SSH options shared by every kernelforge-cli command that talks to a server, with
// OpenSSH's spellings and defaults (StrictHostKeyChecking=yes unless --accept-new,
// ~/.ssh/known_hosts):
//   -p PORT  -i KEY (repeatable)  -J [user@]jump[:port]  -F CONFIG  --known-hosts FILE
//   --accept-new  --no-reconnect  --timeout SECONDS
//   [user@]host            the destination, resolved as ssh resolves it (~/.ssh/config: Host
//                          and Match blocks, ProxyJump, Include...), then saved host names
//   [user@]host:PATH       the destination with a remote path (scp's rule: a ':' before any '/')
namespace kf::cli {

struct SshCliOptions
{
    QString user;                // as typed (user@); empty: from the configuration, else the local user name
    QString host;                // as typed: an address, a name, a Host alias of the ssh configuration or a saved host
    std::optional<quint16> port; // -p; none: from the configuration, else 22
    QString remotePath;          // from user@host:PATH; empty when not given
    bool hasRemotePath = false;
    QStringList identityFiles;
    QString jump;
    QString knownHostsFile; // empty: ~/.ssh/known_hosts
    QString configFile;     // -F FILE ("none": no file); empty: ~/.ssh/config, then /etc/ssh/ssh_config
    bool acceptNew = false;
    // A dropped link is logged in again with the app's backoff (1 s doubling to 30 s) unless
    // --no-reconnect; --timeout: how long the server may stay unreachable before the command
    // gives up with exit status 255.
    bool reconnect = true;
    int timeoutS = 300;
    // What the destination resolved to (core/hosts/destinationresolver.h): the ssh
    // configuration, a saved host, or the name as typed.
    ResolvedDestination resolved;

    // The profile to connect with: the resolution, with --known-hosts over it.
    HostProfile profile() const;
};

// Removes the options above and the destination from args (everything after a "--" is
// left alone). The destination is the first positional argument that has a '@' or a
// ':' before any '/', else the first positional argument; it is read by kf::parseDestination
// (core/hosts/destination.h) in scp's [user@]host[:PATH] form. Fails (a usage error, exit 2)
// when an option lacks its value, a port is invalid, the destination is missing or bad, or the
// ssh configuration cannot be read.
Result<SshCliOptions> takeSshOptions(QStringList& args);
// The same options, with the destination given (patch --root user@host:PATH).
Result<SshCliOptions> takeSshOptions(QStringList& args, const QString& destination);

// Connects and logs in (blocking). Prints nothing: on failure the caller prints the error
// and exits with kExitConnection (255). Passwords and passphrases are asked on the
// terminal when there is one; host keys are never asked (use --accept-new).
// Afterwards the connection is watched from the main thread's event loop: a drop and a
// reconnect are reported on stderr, and when the link is gone for good (--no-reconnect, a
// login refused while reconnecting, or unreachable past --timeout) one line says so and
// every event loop of the main thread exits with kExitConnection.
kf::Result<std::shared_ptr<kf::Transport>> connectForCli(const SshCliOptions& options);
// Before the application object goes (main() calls it when a command returns): ends every
// connection connectForCli() opened and waits for the transport calls still running on worker
// threads, so no SSH session outlives QCoreApplication. Its destructor stops event delivery in
// every thread: a session thread could then no longer read its socket (it spins at 100 % CPU)
// and a call left running on it could neither finish nor be cancelled.
void closeConnections();
// True once a watched connection was given up (the command then exits with 255).
bool connectionGivenUp();
// True while a watched connection is not Ready (lost, reconnecting, given up).
bool connectionDown();
// Whether the last connectForCli() reconnects after a drop.
bool reconnectEnabled();

// Commands that read a server or, with --local, this machine (build, facts, gpu watch,
// server status): the ssh options and destination are required unless args hold --local
// (consumed here) or --help. A destination with a :PATH is refused. Commands take their own
// flags (FlagTable, app/cli/flagtable.h) first, so that no flag's value is read as the destination.
struct TargetOptions
{
    SshCliOptions ssh;
    bool local = false;
};
Result<TargetOptions> takeTargetOptions(QStringList& args);

struct Target
{
    std::shared_ptr<kf::Transport> transport;
    QString label;   // the host name, or "local"
    QString hostKey; // how the history names the host: Transport::describe() (core/timeline/hostkey.h)
};
// The one way commands open their target: a LocalTransport for --local, else connectForCli
// (same failure contract: the caller exits with kExitConnection, 255).
kf::Result<Target> openTarget(const TargetOptions& options);

} // namespace kf::cli

// Also reachable as kf::SshCliOptions etc. (commands written with `using namespace kf;`).
namespace kf {
using cli::connectForCli;
using cli::SshCliOptions;
using cli::takeSshOptions;
} // namespace kf
