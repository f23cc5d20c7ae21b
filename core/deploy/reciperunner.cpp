// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/reciperunner.h"

#include "core/events/verification.h"
#include "core/hosts/hostevents.h"
#include "core/hosts/serverfacts.h"
#include "core/jobs/remotejob.h"
#include "core/patch/applier.h"
#include "core/patch/patchevents.h"
#include "core/patch/patchset.h"
#include "core/remotebuild/buildsession.h"
#include "core/remotebuild/buildstart.h"
#include "core/remotebuild/rootcause.h"
#include "core/server/serversession.h"
#include "core/timeline/eventstore.h"
#include "core/transport/transportpool.h"
#include "core/util/secretregistry.h"

#include <QElapsedTimer>
#include <QJsonArray>
#include <QThread>
#include <QtConcurrent>

namespace kf::deploy {
namespace {

struct PlanOutcome
{
    patch::SetPlan plan;
    patch::Review review;
    QStringList problems;
    QString error;
};

// Where each of the recipe's environment names takes its value from: the values given (--env,
// --env-file, the dialog's file) or, only when the user named it, a local build profile. A
// recipe never chooses a source itself: a shared recipe naming a local profile gets nothing
// from it.
struct EnvValue
{
    QString name;
    QString source; // for a person: "given", "the local build profile 'x'"; empty: no value
    QString value;
};

Result<QList<EnvValue>> recipeEnv(const BuildSection& build, const RecipeRunner::Options& options)
{
    std::optional<BuildProfile> local;
    if (!options.envFromProfile.isEmpty()) {
        const auto all = loadBuildProfiles();
        if (!all)
            return all.withoutValue();
        local = findBuildProfile(all.value(), options.envFromProfile);
        if (!local)
            return Result<QList<EnvValue>>::failure(
                QStringLiteral("no local build profile named '%1' to take environment values from")
                    .arg(options.envFromProfile));
    }
    QList<EnvValue> out;
    for (const QString& name : build.envNames) {
        if (options.env.contains(name))
            out.append({ name, QStringLiteral("given"), options.env.value(name) });
        else if (local && local->env.contains(name))
            out.append(
                { name, QStringLiteral("the local build profile '%1'").arg(local->name), local->env.value(name) });
        else
            out.append({ name, QString(), QString() });
    }
    return out;
}

// The build profile to run: the recipe's, with values for its environment names.
Result<BuildProfile> buildProfileFor(const BuildSection& build, const RecipeRunner::Options& options)
{
    const auto env = recipeEnv(build, options);
    if (!env)
        return env.withoutValue();
    BuildProfile p = build.profile;
    p.env.clear();
    QStringList missing;
    for (const EnvValue& v : env.value()) {
        if (v.source.isEmpty()) {
            missing.append(v.name);
            continue;
        }
        SecretRegistry::add(v.value.toUtf8());
        p.env.insert(v.name, v.value);
    }
    if (!missing.isEmpty())
        return Result<BuildProfile>::failure(
            QStringLiteral("no value for the environment variable%1 %2: give %3 with --env-file FILE (K=V lines) "
                           "or --env NAME=VALUE, or take %3 from a build profile of yours with --env-from-profile "
                           "NAME (a recipe never holds values)")
                .arg(missing.size() == 1 ? QString() : QStringLiteral("s"), missing.join(QStringLiteral(", ")),
                    missing.size() == 1 ? QStringLiteral("it") : QStringLiteral("them")));
    return p;
}

} // namespace

QString RecipeRunner::stepName(Step step)
{
    switch (step) {
    case Step::Facts: return QStringLiteral("facts");
    case Step::Plan: return QStringLiteral("plan");
    case Step::Apply: return QStringLiteral("apply");
    case Step::Build: return QStringLiteral("build");
    case Step::Verify: return QStringLiteral("verify");
    case Step::Launch: return QStringLiteral("launch");
    }
    return {};
}

QString RecipeRunner::statusName(Status status)
{
    switch (status) {
    case Status::Ok: return QStringLiteral("ok");
    case Status::Failed: return QStringLiteral("failed");
    case Status::Skipped: return QStringLiteral("skipped");
    }
    return {};
}

RecipeRunner::RecipeRunner(std::shared_ptr<Transport> transport, DeployRecipe recipe, Options options, QObject* parent)
    : QObject(parent)
    , m_transport(std::move(transport))
    , m_host(m_transport->describe())
    , m_recipe(std::move(recipe))
    , m_options(std::move(options))
{
    for (const QString& value : std::as_const(m_options.env))
        SecretRegistry::add(value.toUtf8());
    m_launchDeadline.setSingleShot(true);
    connect(&m_launchDeadline, &QTimer::timeout, this, [this] {
        finishStep(Step::Launch, Status::Failed,
            QStringLiteral("the server did not answer /health with 200 within %1 s (job %2 keeps running)")
                .arg(m_options.launchTimeoutS)
                .arg(m_serverJob));
    });
}

RecipeRunner::~RecipeRunner()
{
    cancel();
}

void RecipeRunner::start()
{
    Q_ASSERT(QThread::currentThread() == thread());
    m_running = true;
    run(Step::Facts);
}

void RecipeRunner::cancel()
{
    stopFollowing();
    m_running = false;
}

void RecipeRunner::interrupt()
{
    if (!m_running || m_stop->exchange(true))
        return;
    if (m_step == Step::Apply)
        return; // the apply in flight ends the run with its result (runApply)
    cancel();
    Q_EMIT finished(false,
        QStringLiteral("interrupted during %1: nothing more was started (what runs detached on "
                       "the host runs on)")
            .arg(stepName(m_step)));
}

void RecipeRunner::stopFollowing()
{
    m_requests.cancelAll();
    m_launchDeadline.stop();
    // Later: this may run inside one of their signals.
    auto drop = [this](auto& object) {
        if (!object)
            return;
        object->disconnect(this);
        object.release()->deleteLater();
    };
    drop(m_build);
    drop(m_server);
}

void RecipeRunner::run(Step step)
{
    m_step = step;
    switch (step) {
    case Step::Facts: runFacts(); break;
    case Step::Plan: runPlan(); break;
    case Step::Apply: runApply(); break;
    case Step::Build: runBuild(); break;
    case Step::Verify: runVerify(); break;
    case Step::Launch: runLaunch(); break;
    }
}

void RecipeRunner::next(Step done)
{
    if (done == Step::Launch) {
        stopFollowing();
        m_running = false;
        Q_EMIT finished(true, QStringLiteral("recipe applied to %1").arg(m_host));
        return;
    }
    if (m_options.dryRun && done == Step::Plan) {
        describeRest();
        m_running = false;
        Q_EMIT finished(true, QStringLiteral("dry run on %1: nothing was changed").arg(m_host));
        return;
    }
    run(Step(int(done) + 1));
}

void RecipeRunner::finishStep(Step step, Status status, const QString& reason, QJsonObject details)
{
    if (!m_running)
        return;
    static const QString panes[] = { QStringLiteral("overview"), QStringLiteral("patches"), QStringLiteral("patches"),
        QStringLiteral("build"), QStringLiteral("build"), QStringLiteral("server") };
    timeline::Event e;
    e.host = m_host;
    e.kind = timeline::kind::RecipeStep;
    e.summary = QStringLiteral("Recipe %1%2: %3 %4%5")
                    .arg(m_recipe.name, m_options.dryRun ? QStringLiteral(" (dry run)") : QString(), stepName(step),
                        statusName(status), reason.isEmpty() ? QString() : QStringLiteral(": ") + reason);
    details.insert(QStringLiteral("recipe"), m_recipe.name);
    details.insert(QStringLiteral("source"), m_recipe.sourceHost);
    details.insert(QStringLiteral("step"), stepName(step));
    details.insert(QStringLiteral("status"), statusName(status));
    details.insert(QStringLiteral("reason"), reason);
    details.insert(QStringLiteral("dry_run"), m_options.dryRun);
    details.insert(QStringLiteral("pane"), panes[int(step)]);
    e.details = details;
    timeline::recordOrWarn(e);
    Q_EMIT stepFinished(step, status, reason);
    if (status == Status::Failed) {
        cancel();
        Q_EMIT finished(false, QStringLiteral("%1: %2").arg(stepName(step), reason));
        return;
    }
    next(step);
}

void RecipeRunner::runFacts()
{
    Q_EMIT stepStarted(Step::Facts, QStringLiteral("comparing %1's tool versions with the recipe's").arg(m_host));
    if (m_recipe.facts.isEmpty()) {
        finishStep(Step::Facts, Status::Skipped, QStringLiteral("the recipe expects no versions"));
        return;
    }
    auto transport = m_transport;
    m_requests.track(QtConcurrent::run(transportPool(), [transport] { return collectServerFacts(*transport); }),
        [this](const Result<ServerFacts>& facts) {
            if (!facts) {
                finishStep(Step::Facts, Status::Failed, facts.error());
                return;
            }
            const QList<FactComparison> compared = compareFacts(m_recipe.facts, timeline::factsVersions(facts.value()));
            QStringList failed;
            QJsonArray lines;
            for (const FactComparison& c : compared) {
                Q_EMIT message(QStringLiteral("  %1 %2").arg(
                    !c.ok ? QStringLiteral("FAIL") : (c.differs ? QStringLiteral("DIFF") : QStringLiteral("same")),
                    c.text));
                lines.append(c.text);
                if (!c.ok)
                    failed.append(c.text);
            }
            if (!failed.isEmpty())
                finishStep(Step::Facts, Status::Failed, failed.join(QStringLiteral("; ")),
                    { { QStringLiteral("comparisons"), lines } });
            else
                finishStep(Step::Facts, Status::Ok,
                    QStringLiteral("%1 expectation%2 met")
                        .arg(compared.size())
                        .arg(compared.size() == 1 ? QString() : QStringLiteral("s")),
                    { { QStringLiteral("comparisons"), lines } });
        });
}

void RecipeRunner::runPlan()
{
    if (!m_recipe.patches) {
        Q_EMIT stepStarted(Step::Plan, QStringLiteral("no patches in the recipe"));
        finishStep(Step::Plan, Status::Skipped, QStringLiteral("the recipe has no patches"));
        return;
    }
    const PatchSection section = *m_recipe.patches;
    Q_EMIT stepStarted(Step::Plan, QStringLiteral("planning %1 on %2:%3").arg(section.set, m_host, section.root));
    auto transport = m_transport;
    m_requests.track(QtConcurrent::run(transportPool(),
                         [transport, section] {
                             PlanOutcome out;
                             const auto set = patch::loadPatchSet(section.set);
                             if (!set) {
                                 out.error = set.error();
                                 return out;
                             }
                             out.plan = patch::planSet(*transport, set.value(), section.root);
                             timeline::recordPatchPlanned(out.plan);
                             if (!out.plan) {
                                 out.error = out.plan.error;
                                 return out;
                             }
                             out.review = patch::Review(out.plan);
                             out.problems = out.review.applyDecisions(section.decisions);
                             return out;
                         }),
        [this](const PlanOutcome& out) {
            if (!out.error.isEmpty()) {
                finishStep(Step::Plan, Status::Failed, out.error);
                return;
            }
            m_review = out.review;
            QStringList conflicts;
            for (int i = 0; i < m_review.patchCount(); ++i) {
                const patch::PatchPlan& p = m_review.plan().patches[i];
                Q_EMIT message(QStringLiteral("  [%1] %2  %3").arg(m_review.stateText(i), p.id, p.file));
                if (m_review.state(i) == patch::ReviewState::Conflict)
                    conflicts.append(QStringLiteral("%1: %2").arg(p.id, m_review.stateReason(i)));
            }
            const QStringList problems = out.problems + conflicts;
            if (!problems.isEmpty()) {
                finishStep(Step::Plan, Status::Failed, problems.join(QStringLiteral("; ")));
                return;
            }
            const qsizetype files = m_review.changes().size();
            finishStep(Step::Plan, Status::Ok,
                files == 0 ? QStringLiteral("nothing to change: every patch is applied or not applicable")
                           : QStringLiteral("%1 file%2 to change under %3")
                                 .arg(files)
                                 .arg(files == 1 ? QString() : QStringLiteral("s"), m_review.plan().root));
        });
}

void RecipeRunner::runApply()
{
    if (!m_recipe.patches) {
        Q_EMIT stepStarted(Step::Apply, QStringLiteral("no patches in the recipe"));
        finishStep(Step::Apply, Status::Skipped, QStringLiteral("the recipe has no patches"));
        return;
    }
    const patch::ApplyOptions options = m_review.applyOptions();
    Q_EMIT stepStarted(Step::Apply, QStringLiteral("applying on %1:%2").arg(m_host, m_review.plan().root));
    if (options.onlyFiles.isEmpty()) {
        finishStep(Step::Apply, Status::Ok, QStringLiteral("nothing to apply: already as the recipe wants"));
        return;
    }
    auto transport = m_transport;
    const patch::SetPlan plan = m_review.plan();
    m_requests.track(QtConcurrent::run(transportPool(),
                         [transport, plan, options, stop = m_stop] {
                             patch::ApplyOptions o = options;
                             o.stop = stop.get();
                             return patch::applyPlan(*transport, plan, o);
                         }),
        [this](const patch::ApplyReport& report) {
            QStringList bad;
            for (const patch::FileApply& f : report.files) {
                Q_EMIT message(
                    QStringLiteral("  %1: %2 \u2014 %3").arg(f.file, patch::outcomeText(f.outcome), f.message));
                if (f.outcome == patch::FileApply::Refused || f.outcome == patch::FileApply::Failed)
                    bad.append(QStringLiteral("%1: %2").arg(f.file, f.message));
            }
            if (m_stop->load())
                bad.prepend(QStringLiteral("interrupted: the file in flight was finished, nothing more started"));
            if (!bad.isEmpty())
                finishStep(Step::Apply, Status::Failed, bad.join(QStringLiteral("; ")));
            else
                finishStep(Step::Apply, Status::Ok,
                    QStringLiteral("%1 file%2 written")
                        .arg(report.files.size())
                        .arg(report.files.size() == 1 ? QString() : QStringLiteral("s")));
        });
}

void RecipeRunner::runBuild()
{
    if (!m_recipe.build) {
        Q_EMIT stepStarted(Step::Build, QStringLiteral("no build in the recipe"));
        finishStep(Step::Build, Status::Skipped, QStringLiteral("the recipe has no build"));
        return;
    }
    Q_EMIT stepStarted(Step::Build,
        QStringLiteral("building %1 in %2")
            .arg(m_recipe.build->profile.name, m_recipe.build->profile.workingDirectory));
    const auto profile = buildProfileFor(*m_recipe.build, m_options);
    if (!profile) {
        finishStep(Step::Build, Status::Failed, profile.error());
        return;
    }
    m_buildProfile = profile.value();
    BuildStartOptions options;
    options.host = m_host;
    options.jobRoot = m_options.jobRoot;
    auto transport = m_transport;
    const BuildProfile buildProfile = m_buildProfile;
    m_requests.track(
        QtConcurrent::run(transportPool(),
            [transport, buildProfile, options] { return startRecordedBuild(*transport, buildProfile, options); }),
        [this](const Result<StartedBuild>& started) {
            if (!started) {
                finishStep(Step::Build, Status::Failed, started.error());
                return;
            }
            m_buildJob = started->job.id;
            if (!started->treeNote.isEmpty())
                Q_EMIT message(QStringLiteral("  ") + started->treeNote);
            if (!started->historyError.isEmpty())
                Q_EMIT message(
                    QStringLiteral("  warning: the build is not in this machine's history: ") + started->historyError);
            Q_EMIT buildStarted(m_buildJob);
            Q_EMIT message(QStringLiteral("  job %1 runs detached on %2; follow it elsewhere with `kernelforge-cli "
                                          "build attach %1 %2`")
                               .arg(m_buildJob, m_host));
            m_build = std::make_unique<BuildSession>(m_transport, m_host, m_buildJob);
            m_build->setJobRoot(m_options.jobRoot);
            m_build->setProfile(m_buildProfile);
            connect(m_build.get(), &BuildSession::progressChanged, this, &RecipeRunner::buildProgress);
            connect(m_build.get(), &BuildSession::failed, this,
                [this](const QString& why) { finishStep(Step::Build, Status::Failed, why); });
            connect(m_build.get(), &BuildSession::finished, this, [this](const JobInfo& info) {
                const RootCause cause = findRootCause(m_build->diagnostics());
                const QString firstError = cause.diagnostic ? diagnosticText(*cause.diagnostic) : QString();
                const QJsonObject details { { QStringLiteral("job"), m_buildJob },
                    { QStringLiteral("exit_status"), info.exitStatus } };
                if (info.exitStatus == 0 && !info.cancelled)
                    finishStep(Step::Build, Status::Ok, QStringLiteral("job %1 succeeded").arg(m_buildJob), details);
                else
                    finishStep(Step::Build, Status::Failed,
                        QStringLiteral("job %1 %2 (exit status %3)%4")
                            .arg(
                                m_buildJob, info.cancelled ? QStringLiteral("was cancelled") : QStringLiteral("failed"))
                            .arg(info.exitStatus)
                            .arg(firstError.isEmpty() ? QString() : QStringLiteral(": ") + firstError),
                        details);
            });
            m_build->attach(0);
        });
}

void RecipeRunner::runVerify()
{
    if (!m_recipe.build) {
        Q_EMIT stepStarted(Step::Verify, QStringLiteral("verification"));
        finishStep(Step::Verify, Status::Skipped, QStringLiteral("nothing was built"));
        return;
    }
    Q_EMIT stepStarted(Step::Verify, QStringLiteral("verifying what %1 built").arg(m_buildProfile.name));
    auto transport = m_transport;
    const BuildProfile profile = m_buildProfile;
    m_requests.track(
        QtConcurrent::run(transportPool(), [transport, profile] { return verifyBuild(*transport, profile); }),
        [this](const Result<timeline::VerificationResult>& result) {
            if (!result) {
                finishStep(Step::Verify, Status::Failed, result.error());
                return;
            }
            timeline::recordVerification(m_host, result.value());
            Q_EMIT message(QStringLiteral("  ") + result->summary);
            QStringList problems;
            if (m_recipe.verify)
                problems = compareVerification(*m_recipe.verify, result.value());
            else if (!result->ok)
                problems.append(result->summary);
            if (!problems.isEmpty())
                finishStep(Step::Verify, Status::Failed, problems.join(QStringLiteral("; ")));
            else
                finishStep(Step::Verify, Status::Ok, result->summary);
        });
}

void RecipeRunner::runLaunch()
{
    if (!m_recipe.server) {
        Q_EMIT stepStarted(Step::Launch, QStringLiteral("no server in the recipe"));
        finishStep(Step::Launch, Status::Skipped, QStringLiteral("the recipe has no server"));
        return;
    }
    const ServerLaunchProfile profile = *m_recipe.server;
    Q_EMIT stepStarted(
        Step::Launch, QStringLiteral("launching %1 on port %2").arg(profile.modelPath).arg(profile.port));
    // The one launch policy (core/server/launchpolicy.h), as the Server pane and `server launch`:
    // a recipe carries no --force, so what the policy refuses fails the step with its reason.
    m_server = std::make_unique<ServerSession>(m_transport, m_host);
    m_server->setJobRoot(m_options.jobRoot);
    m_server->setPollInterval(1000);
    connect(m_server.get(), &ServerSession::launchFinished, this,
        [this, profile](quint16, const LaunchAttempt& attempt, const QString& error) {
            for (const QString& note : attempt.notes)
                Q_EMIT message(QStringLiteral("  note: %1").arg(note));
            if (!error.isEmpty() || !attempt.job) {
                finishStep(Step::Launch, Status::Failed,
                    error.isEmpty() ? QStringLiteral("refused: %1").arg(attempt.refusals.join(QStringLiteral("; ")))
                                    : error);
                return;
            }
            m_serverJob = attempt.job->id;
            Q_EMIT message(QStringLiteral("  job %1 runs detached; waiting for /health on port %2")
                               .arg(m_serverJob)
                               .arg(profile.port));
            m_server->setPolling(this, true); // its health, and its log should it end first
            m_launchDeadline.start(m_options.launchTimeoutS * 1000);
        });
    connect(m_server.get(), &ServerSession::statusUpdated, this,
        [this, port = profile.port](quint16 at, const ServerStatus& s) {
            if (at != port || m_serverJob.isEmpty() || !s.healthy())
                return;
            m_launchDeadline.stop();
            finishStep(Step::Launch, Status::Ok, QStringLiteral("healthy on port %1 (job %2)").arg(at).arg(m_serverJob),
                { { QStringLiteral("job"), m_serverJob } });
        });
    connect(m_server.get(), &ServerSession::serverEnded, this, [this, port = profile.port](const JobInfo& info) {
        if (info.id != m_serverJob)
            return;
        // Its log tells why it ended before it was healthy.
        const ServerState* state = m_server->server(port);
        QStringList tail
            = state ? QString::fromUtf8(state->log).split(QLatin1Char('\n'), Qt::SkipEmptyParts) : QStringList();
        tail.removeIf([](const QString& line) { return line.startsWith(QLatin1String("[KernelForge]")); });
        if (tail.size() > 12)
            tail = tail.mid(tail.size() - 12);
        finishStep(Step::Launch, Status::Failed,
            QStringLiteral("the server exited with status %1 before it was healthy: %2")
                .arg(info.exitStatus)
                .arg(tail.isEmpty() ? QStringLiteral("(no output)") : tail.last()),
            { { QStringLiteral("job"), m_serverJob },
                { QStringLiteral("log_tail"), QJsonArray::fromStringList(tail) } });
    });
    LaunchRequest request;
    request.profile = profile;
    request.root = m_options.jobRoot;
    m_server->launch(request);
}

void RecipeRunner::describeRest()
{
    if (m_recipe.patches)
        Q_EMIT message(
            QStringLiteral("would apply: %1 file(s) of %2").arg(m_review.changes().size()).arg(m_recipe.patches->set));
    if (m_recipe.build) {
        // Everything the build would run with, as the recipe says it: a shared recipe is read here.
        const BuildProfile& p = m_recipe.build->profile;
        Q_EMIT message(QStringLiteral("would build: %1").arg(p.name));
        Q_EMIT message(QStringLiteral("  working dir: %1").arg(p.workingDirectory));
        Q_EMIT message(QStringLiteral("  command: %1").arg(p.command));
        Q_EMIT message(QStringLiteral("  CMAKE_ARGS: %1").arg(p.cmakeArgsValue()));
        Q_EMIT message(QStringLiteral("  build dir: %1").arg(p.buildPath()));
        if (p.maxJobs > 0)
            Q_EMIT message(QStringLiteral("  MAX_JOBS: %1").arg(p.maxJobs));
        if (p.nvccThreads > 0)
            Q_EMIT message(QStringLiteral("  nvcc threads: %1").arg(p.nvccThreads));
        const auto env = recipeEnv(*m_recipe.build, m_options);
        if (!env)
            Q_EMIT message(QStringLiteral("  environment: %1").arg(env.error()));
        for (const EnvValue& v : env ? env.value() : QList<EnvValue>())
            Q_EMIT message(v.source.isEmpty()
                    ? QStringLiteral("  env %1: no value (give --env %1=VALUE or --env-file FILE): the build would "
                                     "stop here")
                          .arg(v.name)
                    : QStringLiteral("  env %1: from %2").arg(v.name, v.source));
    }
    if (m_recipe.verify || m_recipe.build)
        Q_EMIT message(QStringLiteral("would verify the build against the recipe's expectation"));
    if (m_recipe.server)
        Q_EMIT message(QStringLiteral("would launch: %1").arg(m_recipe.server->command()));
}

} // namespace kf::deploy
