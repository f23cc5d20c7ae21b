// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/jobs/jobfolder.h"
#include "core/server/serverlaunchprofile.h"
#include "core/util/result.h"

#include <QList>
#include <QMetaType>
#include <QStringList>

#include <optional>

// The one launch policy: what every start of an inference server on a host goes through
// (ServerSession::launch, which the Server pane, `kernelforge-cli server launch` and a recipe's
// launch step call), checked on the host in this order:
//   port          a server of ours running on it, or anything listening there (/proc/net/tcp{,6})
//   GPUs exist    the GPUs the command uses (servergpus.h) against the host's (nvidia-smi)
//   verification  the host's last verification found what stops a server (launchBlockedBecause)
//   GPUs in use   a running server of ours on another port using one of those GPUs (its whole
//                 command, read from its job folder), or any process holding memory on one of
//                 them (nvidia-smi's compute apps, core/gpu/gpuprocesses.h)
// The first two cannot be forced: such a server cannot start. The last two refuse unless the
// request is forced, and a forced launch names what it went past (and records it in the timeline).
// What cannot be asked (nvidia-smi does not answer) is not refused on, but said (notes).
// Blocking (remote commands, the local history): call from a worker thread.
namespace kf {

class Transport;

struct LaunchRequest
{
    ServerLaunchProfile profile;
    QString root;       // the job folder (empty: the default)
    bool force = false; // launch although the verification or GPUs in use say no
};

struct LaunchAttempt
{
    std::optional<JobInfo> job; // the server started; none: refused for `refusals`
    QStringList refusals;       // what stops the launch unless forced; with a job, what the forced launch went past
    QStringList notes;          // what could not be checked, so was not refused on
    QList<int> gpus;            // the GPUs the server uses, ascending
};

// TP and the GPUs the profile's command uses against the host's GPU count (< 0: not known, not
// refused; 0: nvidia-smi reports none). "TP 9 needs 9 GPUs; this host has 8".
Result<void> checkServerFits(const ServerLaunchProfile& profile, int gpuCount);

// Runs the policy and, unless it refuses, starts profile.command() as the detached job
// "sglang-server-<port>" and records server.launched in the host's timeline. A failure is what
// force cannot change (the port, TP beyond the GPUs, the host cannot be asked) or a start that
// failed; a refusal that force lifts comes back as a LaunchAttempt without a job.
Result<LaunchAttempt> launchServer(Transport& transport, const LaunchRequest& request);

} // namespace kf

Q_DECLARE_METATYPE(kf::LaunchAttempt)
