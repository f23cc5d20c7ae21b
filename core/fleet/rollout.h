// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/remotebuild/buildprofile.h"
#include "core/transport/transport.h"
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
// Steps (RolloutStep) are what runs on one host: patch plan, patch apply, build preflight,
// build start, and a deployment recipe (core/fleet/recipestep.h, issue #16's replay).
namespace kf::fleet {

enum class HostRunState : quint8 { Waiting, Connecting, Running, Succeeded, Failed, Refused, Skipped };
QString hostRunStateName(HostRunState s); // "waiting", ..., "refused", "skipped"

// What one host's step needs besides the connection (called from worker threads).
struct StepContext
{
    QString hostName;
    std::function<void(const QString& line)> log;
    // The host's plan differs from the reviewed one: true to go on anyway. Called at most once.
    std::function<bool(const QString& why)> confirmDifferent;
    const std::atomic<bool>* stop = nullptr;
    // The connection the step runs over, for steps whose work may outlive run() (a cancelled
    // recipe's requests on transportPool()).
    std::shared_ptr<Transport> transport;
};

struct StepResult
{
    HostRunState state = HostRunState::Failed; // Succeeded, Failed or Refused
    QString summary;                           // one line for the host's row
};

class RolloutStep
{
public:
    virtual ~RolloutStep() = default;
    virtual QString name() const = 0; // "patch apply", "build preflight", ...
    // Blocking, on a worker thread; thread-safe (hosts of a batch run at once).
    virtual StepResult run(Transport& transport, const StepContext& context) = 0;
};

// A plan reduced to what matters for "is this the plan I reviewed": per file its path,
// hash before, hash after and removal. Two hosts with the same files and the same patch
// outcome have equal fingerprints, whatever their host names.
struct PlanFingerprint
{
    QMap<QString, QString> files; // file -> "sha256Before>sha256After" or "sha256Before>removed"
    QString hash() const;         // sha256 of the sorted lines, 16 hex digits
    bool operator==(const PlanFingerprint&) const = default;
};
PlanFingerprint fingerprint(const patch::SetPlan& plan);
// "file a.cu: this host has 3f2a... before, the reviewed plan 9c1d..." lines; empty when equal.
QStringList describeDifferences(const PlanFingerprint& reviewed, const PlanFingerprint& here);

// patch plan / patch apply of one set at one root on every host. apply compares each host's
// plan with the reviewed one (setReviewed) and asks before writing where they differ; without
// a reviewed plan the first host planned becomes it (the CLI prints its fingerprint).
class PatchStep : public RolloutStep
{
public:
    PatchStep(patch::PatchSet set, QString root, bool apply);
    QString name() const override;
    StepResult run(Transport& transport, const StepContext& context) override;
    void setReviewed(const PlanFingerprint& reviewed);
    std::optional<PlanFingerprint> reviewed() const;

private:
    patch::PatchSet m_set;
    QString m_root;
    bool m_apply;
    mutable std::mutex m_mutex;
    std::optional<PlanFingerprint> m_reviewed;
};

class PreflightStep : public RolloutStep
{
public:
    explicit PreflightStep(BuildProfile profile);
    QString name() const override { return QStringLiteral("build preflight"); }
    StepResult run(Transport& transport, const StepContext& context) override;

private:
    BuildProfile m_profile;
};

// Starts the detached build (RemoteJob) and reports its job id; follow it with `build attach`.
class BuildStartStep : public RolloutStep
{
public:
    explicit BuildStartStep(BuildProfile profile);
    QString name() const override { return QStringLiteral("build start"); }
    StepResult run(Transport& transport, const StepContext& context) override;

private:
    BuildProfile m_profile;
};

struct HostRun
{
    HostProfile profile;
    HostRunState state = HostRunState::Waiting;
    QString summary;
    int batch = 0; // 1-based
};

using Connector = std::function<Result<std::shared_ptr<Transport>>(const HostProfile&)>;

struct RolloutOptions
{
    int batchSize = 1; // Ansible's serial
    bool continueOnError = false;
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
QList<HostRun> runRollout(const QList<HostProfile>& hosts, RolloutStep& step, const RolloutOptions& options,
    const RolloutCallbacks& callbacks, const std::atomic<bool>* stop = nullptr);

// An Ansible inventory (INI) of profiles: one group per tag, host vars for address, port,
// user, key and jump host (ansible_host, ansible_port, ansible_user,
// ansible_ssh_private_key_file, ansible_ssh_common_args='-J ...').
QString ansibleInventory(const QList<HostProfile>& profiles);

} // namespace kf::fleet
