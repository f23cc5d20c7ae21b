// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/deploy/deployrecipe.h"
#include "core/deploy/step.h"

#include <QMap>

#include <functional>
#include <memory>

namespace kf {
struct BuildProgress;
}

namespace kf::deploy {

// A recipe's steps on one host, in this order; the first that fails ends the recipe:
//   facts   the target's facts (core/hosts/serverfacts) against the recipe's expectations,
//           differences first (compareFacts)
//   plan    the patch set planned on the target's root, the recipe's review decisions taken
//           over (Review::applyDecisions); a conflict or a decision that does not fit fails
//   apply   what the review selects, the safe way (core/patch/applier)
//   build   the build started detached (startRecordedBuild: it runs on if this stops; the job
//           is named for `kernelforge-cli build attach`) and followed to its end (BuildSession);
//           a recipe with a promote section installs that artifact instead (promotestep.h: the
//           fingerprint held against the target, sent, installed, its JIT caches seeded), taken
//           from this machine's cache or fetched from its source again (connectSource; the hash
//           must be the recipe's); a target it does not fit fails the step, or builds the profile
//           itself when buildWhenRefused
//   verify  the verifier (core/verify/verifyrun.h) against the recipe's expectation
//   launch  the server started through the one launch policy of the Server pane and `server
//           launch` (core/server/launchpolicy.h; a recipe never forces it), and followed until
//           /health answers 200, its job ends, or launchTimeoutS passes
// A dry run does facts and plan only, and says what the other steps would do (the build's
// command, CMAKE_ARGS, build dir and every environment name with where its value would come
// from, the launch's command line). Each step's outcome goes into the target's timeline
// (recipe.step), next to what the step itself records there (facts, plan, apply, build, launch,
// health).
enum class RecipePhase : quint8 { Facts, Plan, Apply, Build, Verify, Launch };
QString recipePhaseName(RecipePhase phase); // "facts", "plan", ...
// The two lines every view of a replay prints (the CLI, the recipe dialog, a rollout's host log).
QString phaseStartedLine(RecipePhase phase, const QString& what);                       // "== plan: planning ..."
QString phaseFinishedLine(RecipePhase phase, StepStatus status, const QString& reason); // "   plan OK: ..."

struct RecipeOptions
{
    bool dryRun = false;
    // Values for the build's environment names (--env, --env-file, the dialog's file).
    QMap<QString, QString> env;
    // A local build profile the user named (--env-from-profile, the dialog's checkbox) whose
    // values fill the names not given above; empty: none, whatever the recipe's build is
    // called. A dry run lists every name with its source.
    QString envFromProfile;
    QString jobRoot; // empty: the default job folder
    int launchTimeoutS = 600;
    // A promote section (deployrecipe.h): where the build does not fit the target, build it there.
    bool buildWhenRefused = false;
    // Reaches the promotion's source by its name when this machine's cache lacks the artifact;
    // empty: a missing artifact fails the step.
    std::function<Result<std::shared_ptr<Transport>>(const QString& hostName)> connectSource;
    QString promoteCacheDir; // empty: paths::cacheDir() + "/promote"
};

// What a replay tells besides its log lines (any of them may be empty; called on the step's thread).
struct RecipeObserver
{
    std::function<void(RecipePhase, const QString& what)> started;
    std::function<void(RecipePhase, StepStatus, const QString& reason)> finished;
    std::function<void(const QString& jobId)> buildStarted;
    std::function<void(const BuildProgress&)> buildProgress;
};

// A deployment recipe as one step: a rollout replays it on many hosts, RecipeRunner on one.
// Without an observer each phase's two lines go to the context's log.
class RecipeStep : public Step
{
public:
    RecipeStep(DeployRecipe recipe, RecipeOptions options);
    QString name() const override; // "recipe NAME", "recipe dry run NAME"
    StepResult run(Transport& transport, const StepContext& context) override;
    StepResult run(Transport& transport, const StepContext& context, const RecipeObserver& observer) const;

private:
    DeployRecipe m_recipe;
    RecipeOptions m_options;
};

} // namespace kf::deploy
