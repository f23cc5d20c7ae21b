// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/deploy/step.h"
#include "core/remotebuild/buildprofile.h"

#include <QString>

#include <functional>
#include <optional>

namespace kf {
struct BuildProgress;
}

// A build as a step's part: started the one way (startRecordedBuild: detached, its history row
// and environment written at once) and followed to its end (BuildSession::follow: its log,
// progress, memory gate, the row's end). The recipe's build phase and a promotion's "build it
// there instead" (promotestep.h) both run it; the lines they say are these.
namespace kf::deploy {

struct BuildToEnd
{
    StepStatus status = StepStatus::Failed; // Ok: the job succeeded
    QString reason;                         // "job J succeeded", "job J failed (exit status 1): ..."
    QString job;                            // empty: it did not start
    std::optional<int> exitStatus;
    bool interrupted = false; // stopped while following it: the job runs on (reason says how to attach)
};

struct BuildToEndOptions
{
    QString jobRoot; // empty: the default job folder
    std::function<void(const QString& job)> started;
    std::function<void(const BuildProgress&)> progress;
};

// Blocking (the step's thread; it runs an event loop while following).
BuildToEnd buildToEnd(
    Transport& transport, const StepContext& context, const BuildProfile& profile, const BuildToEndOptions& options);

} // namespace kf::deploy
