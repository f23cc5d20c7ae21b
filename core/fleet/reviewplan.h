// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/fleet/patchstep.h"
#include "core/fleet/rollout.h"

#include <atomic>
#include <optional>

// A patch rollout's review, once for the window and the CLI: the set planned now on one host
// (the review host) through the rollout runner (its own connection, the same stop), whose
// fingerprint every other host's plan must then match (PatchStep::setReviewed).
namespace kf::fleet {

struct ReviewedPlan
{
    std::optional<PlanFingerprint> fingerprint; // empty when the plan failed
    QString root;                               // the folder it was planned at
    HostRun run;                                // its run: state and summary (why it failed)
};

// Blocking; a worker thread. callbacks.log gets "reviewed plan <hash> at <root>".
ReviewedPlan planForReview(const HostProfile& host, const patch::PatchSet& set, const QString& root,
    const RolloutOptions& options, const RolloutCallbacks& callbacks = {}, const std::atomic<bool>* stop = nullptr);

} // namespace kf::fleet
