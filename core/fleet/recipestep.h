// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/deploy/deployrecipe.h"
#include "core/deploy/reciperunner.h"
#include "core/fleet/rolloutstep.h"

namespace kf::fleet {

// A deployment recipe (core/deploy) replayed on every host of a rollout: the same
// RecipeRunner as `recipe apply` (facts, plan with the recipe's review decisions, apply,
// build followed to its end, verify, launch; a dry run does facts and plan), on the worker
// thread in its own event loop. Each recipe step goes into the host's log ("== plan: ...",
// its lines, "   plan OK"); the host fails at the first failing step, with the runner's reason
// as its row's summary. A stop cancels the following (a detached build or server runs on).
class RecipeStep : public RolloutStep
{
public:
    RecipeStep(deploy::DeployRecipe recipe, deploy::RecipeRunner::Options options);
    QString name() const override;
    StepResult run(Transport& transport, const StepContext& context) override;

private:
    deploy::DeployRecipe m_recipe;
    deploy::RecipeRunner::Options m_options;
};

} // namespace kf::fleet
