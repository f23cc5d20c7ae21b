// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/deploy/step.h"
#include "core/hosts/hostprofile.h"
#include "core/util/result.h"

#include <QList>
#include <QMap>
#include <QString>

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>

// Fleet-wide actions over SSH, in batches (Ansible's `serial`): the hosts are taken N at a
// time, the hosts of a batch run at once, each over its own SSH connection; after a batch
// with a failure the rollout stops (the remaining hosts are Skipped) unless continueOnError.
//
// The step is what runs on each host, the one step model of core/deploy/step.h: patch plan,
// patch apply (patchstep.h), build preflight (preflightstep.h), build start (buildstartstep.h),
// a whole deployment recipe (core/deploy/recipestep.h).
namespace kf::fleet {

enum class HostRunState : quint8 { Waiting, Connecting, Running, Succeeded, Failed, Refused, Skipped };
QString hostRunStateName(HostRunState s); // "waiting", ..., "refused", "skipped"
// A host's row after its step: Ok is Succeeded.
HostRunState hostRunState(deploy::StepStatus s);

struct HostRun
{
    HostProfile profile;
    HostRunState state = HostRunState::Waiting;
    QString summary;
    int batch = 0; // 1-based
};

using Connector = std::function<Result<std::shared_ptr<Transport>>(const HostProfile&)>;
// The default connector: this machine for a local profile, else SshTransport::connect without
// prompts or reconnects (a rollout asks nobody for a password halfway through).
Result<std::shared_ptr<Transport>> connectQuietly(const HostProfile& profile);
// The profile named hostName among profiles, connected quietly: how a promotion (or a recipe's
// promote section) reaches its source.
Result<std::shared_ptr<Transport>> connectByName(const QList<HostProfile>& profiles, const QString& hostName);
// The same from a hosts file (empty: hosts.yaml), read when called.
Result<std::shared_ptr<Transport>> connectByName(const QString& hostsFile, const QString& hostName);

struct RolloutOptions
{
    int batchSize = 1; // Ansible's serial
    bool continueOnError = false;
    // Before its step each host's GPUs are checked (core/gpu/gpuhealthprobe.h, over the host's
    // connection); a host with a failing GPU is Skipped with why, and does not count as a failed
    // batch. A host without NVIDIA driver is not judged (its step runs).
    bool skipUnhealthy = false;
    Connector connect; // empty: LocalTransport for local profiles, else SshTransport::connect (no prompts)
};

struct RolloutCallbacks
{
    std::function<void(int host, const HostRun& run)> changed; // any thread
    std::function<void(int host, const QString& line)> log;    // any thread
    std::function<bool(int host, const QString& why)> confirmDifferent;
};

// Blocking (not the GUI thread). Returns every host's final row; stop ends it after the
// running batch (hosts not started are Skipped).
QList<HostRun> runRollout(const QList<HostProfile>& hosts, deploy::Step& step, const RolloutOptions& options,
    const RolloutCallbacks& callbacks, const std::atomic<bool>* stop = nullptr);

// An Ansible inventory (INI) of profiles: one group per tag, host vars for address, port,
// user, key and jump host (ansible_host, ansible_port, ansible_user,
// ansible_ssh_private_key_file, ansible_ssh_common_args='-J ...'). Every value that is not plain
// is quoted so that Ansible reads back exactly the profile's text (`ansible-inventory --list`);
// refused, naming the host: a control character in any field, a name Ansible would read as a
// pattern or a port, an address that is no host name, a ProxyJump checkProxyJump() refuses.
Result<QString> ansibleInventory(const QList<HostProfile>& profiles);

} // namespace kf::fleet
