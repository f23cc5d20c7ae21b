// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/transport/transport.h"

#include <QString>

#include <atomic>
#include <functional>
#include <memory>

// The one step model of deployment: a step is blocking work on one host over its connection,
// run on a worker thread, that sees a stop token. A deployment recipe is steps on one host
// (core/deploy/recipestep.h: facts, plan, apply, build, verify, launch in order); a rollout is
// one step on many hosts (core/fleet/rollout.h: patch plan/apply, build preflight, build
// start, a whole recipe). `kernelforge-cli recipe apply` and the recipe dialog run a recipe
// through RecipeRunner (reciperunner.h), which runs the same step off their thread.
namespace kf::deploy {

enum class StepStatus : quint8 { Ok, Failed, Refused, Skipped };
QString stepStatusName(StepStatus s); // "ok", "failed", "refused", "skipped"

// What one host's step needs besides the connection (called from worker threads).
struct StepContext
{
    QString hostName;
    std::function<void(const QString& line)> log;
    // The host's plan differs from the reviewed one: true to go on anyway. Called at most once.
    std::function<bool(const QString& why)> confirmDifferent;
    // Set: end at the next safe point (a file being written is finished, nothing more starts; a
    // build or server followed is left running on the host). Read by the step's worker.
    const std::atomic<bool>* stop = nullptr;
    // The connection as shared, for work that holds it beyond one call (a build followed).
    std::shared_ptr<Transport> transport;

    bool stopped() const { return stop && stop->load(); }
    void say(const QString& line) const
    {
        if (log)
            log(line);
    }
};

struct StepResult
{
    StepStatus status = StepStatus::Failed; // Ok, Failed or Refused
    QString summary;                        // one line for the host's row
};

class Step
{
public:
    virtual ~Step() = default;
    virtual QString name() const = 0; // "patch apply", "build preflight", "recipe x", ...
    // Blocking, on a worker thread; thread-safe (the hosts of a rollout's batch run at once).
    virtual StepResult run(Transport& transport, const StepContext& context) = 0;
};

} // namespace kf::deploy
