// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/deploy/deployrecipe.h"
#include "core/patch/review.h"
#include "core/util/jobtracker.h"
#include "core/verify/verifyrun.h"

#include <QMap>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <memory>

namespace kf {

class BuildSession;
class ServerSession;
class Transport;
struct BuildProgress;

namespace deploy {

// Replays a deployment recipe on a host, step by step, and stops at the first step that
// fails, with the reason:
//   facts   the target's facts (core/hosts/serverfacts) against the recipe's expectations,
//           differences first (compareFacts)
//   plan    the patch set planned on the target's root, the recipe's review decisions taken
//           over (Review::applyDecisions); a conflict or a decision that does not fit fails
//   apply   what the review selects, the safe way (core/patch/applier)
//   build   the build started detached (core/jobs: it runs on if this stops; buildStarted()
//           names the job for `kernelforge-cli build attach`) and followed to its end
//   verify  the verifier (verifier.h) against the recipe's expectation
//   launch  the server started through a ServerSession, the one launch policy of the Server pane
//           and `server launch` (core/server/launchpolicy.h; a recipe never forces it), and
//           followed until /health answers 200, its job ends, or launchTimeoutS passes
// A dry run does facts and plan only, and says what the other steps would do (the build's
// command, CMAKE_ARGS, build dir and every environment name with where its value would come
// from, the launch's command line). Each step's
// outcome goes into the target's timeline (recipe.step), next to what the step itself
// records there (facts, plan, apply, build, launch, health).
// Lives in a thread with an event loop (the GUI thread, the CLI's main thread); blocking
// work runs on transportPool() through a JobTracker.
class RecipeRunner : public QObject
{
    Q_OBJECT
public:
    enum class Step { Facts, Plan, Apply, Build, Verify, Launch };
    Q_ENUM(Step)
    enum class Status { Ok, Failed, Skipped };
    Q_ENUM(Status)
    static QString stepName(Step step);       // "facts", "plan", ...
    static QString statusName(Status status); // "ok", "failed", "skipped"

    struct Options
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
    };

    RecipeRunner(std::shared_ptr<Transport> transport, DeployRecipe recipe, Options options, QObject* parent = nullptr);
    ~RecipeRunner() override;

    void start();
    // Stops following; what runs detached on the host (a build, the server) keeps running.
    void cancel();
    // Stops at the next safe point (a signal, the fleet's stop): an apply in flight finishes
    // the file it is writing and starts no other, then the run ends; any other step ends at
    // once as cancel() ends it. finished(false, "interrupted ...") follows either way.
    void interrupt();
    bool isRunning() const { return m_running; }
    QString buildJobId() const { return m_buildJob; }
    QString serverJobId() const { return m_serverJob; }

Q_SIGNALS:
    void stepStarted(kf::deploy::RecipeRunner::Step step, const QString& what);
    // A line within the current step (a fact compared, a patch planned, a build's progress).
    void message(const QString& line);
    void stepFinished(
        kf::deploy::RecipeRunner::Step step, kf::deploy::RecipeRunner::Status status, const QString& reason);
    void buildStarted(const QString& jobId);
    void buildProgress(const kf::BuildProgress& progress);
    void finished(bool ok, const QString& reason);

private:
    void run(Step step);
    void next(Step done);
    void finishStep(Step step, Status status, const QString& reason, QJsonObject details = {});
    void runFacts();
    void runPlan();
    void runApply();
    void runBuild();
    void runVerify();
    void runLaunch();
    void describeRest();
    void stopFollowing();

    std::shared_ptr<Transport> m_transport;
    QString m_host;
    DeployRecipe m_recipe;
    Options m_options;
    patch::Review m_review;
    BuildProfile m_buildProfile;
    std::unique_ptr<BuildSession> m_build;
    std::unique_ptr<ServerSession> m_server;
    QTimer m_launchDeadline;
    QString m_buildJob;
    QString m_serverJob;
    Step m_step = Step::Facts;
    bool m_running = false;
    // Read by the apply's worker (patch::ApplyOptions::stop), which may outlive the runner.
    std::shared_ptr<std::atomic<bool>> m_stop = std::make_shared<std::atomic<bool>>(false);
    JobTracker m_requests { this };
};

} // namespace deploy
} // namespace kf
