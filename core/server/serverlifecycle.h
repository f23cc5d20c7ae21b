// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/jobs/jobfolder.h"
#include "core/transport/transport.h"
#include "core/util/result.h"

#include <QList>

#include <optional>

// Finding and stopping the inference servers KernelForge starts on a host (launching them is
// launchpolicy.h, the one policy every launch goes through).
// A server is a detached RemoteJob named "sglang-server-<port>" (jobfolder.h), so it survives
// a dropped connection or a closed app, and any later session (the window after a restart,
// the CLI) finds it again by that name: servers are told apart from builds by the name alone.
// A port is checked on the host itself: a listening socket in /proc/net/tcp or /proc/net/tcp6
// (any address) means the port is taken, by our server or by anything else, so a launch is
// refused with why instead of a server dying with "Address already in use".
// Every call blocks (remote commands, output bounded): call from a worker thread.
namespace kf {

// The job name of a server for `port`.
QString serverJobName(quint16 port);
// The port of a server job (from its name); nullopt for anything else (a build).
std::optional<quint16> serverJobPort(const JobInfo& job);
inline bool isServerJob(const JobInfo& job)
{
    return serverJobPort(job).has_value();
}

// What runs on one port of a host, as far as KernelForge can tell.
struct ServerScan
{
    enum class Port {
        Unknown,   // the host has no /proc/net/tcp (not Linux); nothing is refused on its account
        Free,      // nothing listens on the port
        Listening, // something listens on it (ours or not)
    };
    quint16 port = 0;
    Port portState = Port::Unknown;
    QList<JobInfo> servers; // every server job KernelForge started on the host, newest first

    // The running (or starting) server job for `port`, if any.
    std::optional<JobInfo> running() const;
    // Every server job still running, newest first.
    QList<JobInfo> runningServers() const;
};

// The host's server jobs and whether `port` is taken. root: the job folder (empty: default).
Result<ServerScan> scanServers(Transport& transport, quint16 port, const QString& root = {});

// Stops a server job KernelForge started (TERM to its process group, KILL after a grace period).
// Refuses a job that is not a server, so a build is never stopped from here.
Result<void> stopServer(Transport& transport, const QString& id, const QString& root = {});

} // namespace kf
