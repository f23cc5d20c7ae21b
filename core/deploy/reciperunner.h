// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/deploy/recipestep.h"

#include <QObject>

#include <atomic>
#include <memory>

namespace kf {

class Transport;
struct BuildProgress;

namespace deploy {

// A deployment recipe replayed on one host for a view that lives in a thread with an event
// loop (the recipe dialog, `kernelforge-cli recipe apply`): the one RecipeStep (recipestep.h,
// what a rollout runs on each host) on a worker thread of its own, what it tells relayed as
// signals on the runner's thread. The step's order, its checks and its timeline events are
// RecipeStep's.
class RecipeRunner : public QObject
{
    Q_OBJECT
public:
    RecipeRunner(
        std::shared_ptr<Transport> transport, DeployRecipe recipe, RecipeOptions options, QObject* parent = nullptr);
    ~RecipeRunner() override;

    void start();
    // Stops at the next safe point and says nothing more: an apply in flight finishes the file
    // it is writing, nothing more starts; what runs detached on the host (a build, the server)
    // keeps running.
    void cancel();
    // As cancel(), and finished(false, the reason) follows when the step has stopped.
    void interrupt();
    bool isRunning() const { return m_running; }

Q_SIGNALS:
    void phaseStarted(kf::deploy::RecipePhase phase, const QString& what);
    // A line within the current phase (a fact compared, a patch planned, a job started).
    void message(const QString& line);
    void phaseFinished(kf::deploy::RecipePhase phase, kf::deploy::StepStatus status, const QString& reason);
    void buildStarted(const QString& jobId);
    void buildProgress(const kf::BuildProgress& progress);
    void finished(bool ok, const QString& reason);

private:
    struct Relay;
    std::shared_ptr<Transport> m_transport;
    std::shared_ptr<RecipeStep> m_step;
    std::shared_ptr<Relay> m_relay;
    bool m_running = false;
};

} // namespace deploy
} // namespace kf
