// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/transport/transport.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>

// What runs on one host of a rollout (core/fleet/rollout.h): patch plan/apply (patchstep.h),
// build preflight (preflightstep.h), build start (buildstartstep.h), a deployment recipe
// (recipestep.h).
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

} // namespace kf::fleet
