// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/reciperunner.h"

#include "core/hosts/serverfacts.h"
#include "core/jobs/remotejob.h"
#include "core/log/secretregistry.h"
#include "core/patch/applier.h"
#include "core/patch/patchset.h"
#include "core/remotebuild/buildhistory.h"
#include "core/remotebuild/buildsession.h"
#include "core/server/serverclient.h"
#include "core/server/serverlifecycle.h"
#include "core/timeline/eventstore.h"
#include "core/timeline/producers.h"
#include "core/transport/transportpool.h"

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

// The build profile to run: the recipe's, with values for its environment names.
Result<BuildProfile> buildProfileFor(const BuildSection& build, const QMap<QString, QString>& given)
{
    BuildProfile p = build.profile;
    p.env.clear();
    std::optional<BuildProfile> local;
    if (const auto all = loadBuildProfiles(); all)
        local = findBuildProfile(all.value(), p.name);
    QStringList missing;
    for (const QString& name : build.envNames) {
        if (given.contains(name))
            p.env.insert(name, given.value(name));
        else if (local && local->env.contains(name))
            p.env.insert(name, local->env.value(name));
        else
            missing.append(name);
    }
    if (!missing.isEmpty())
        return Result<BuildProfile>::failure(
            QStringLiteral("no value for the environment variable%1 %2: give %3 with --env-file FILE (K=V lines) "
                           "or --env NAME=VALUE (a recipe never holds values)")
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
    drop(m_serverLog);
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
                         [transport, plan, options] { return patch::applyPlan(*transport, plan, options); }),
        [this](const patch::ApplyReport& report) {
            QStringList bad;
            for (const patch::FileApply& f : report.files) {
                Q_EMIT message(
                    QStringLiteral("  %1: %2 \u2014 %3").arg(f.file, patch::outcomeText(f.outcome), f.message));
                if (f.outcome == patch::FileApply::Refused || f.outcome == patch::FileApply::Failed)
                    bad.append(QStringLiteral("%1: %2").arg(f.file, f.message));
            }
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
    const auto profile = buildProfileFor(*m_recipe.build, m_options.env);
    if (!profile) {
        finishStep(Step::Build, Status::Failed, profile.error());
        return;
    }
    m_buildProfile = profile.value();
    JobSpec spec = buildhistory::seededJobSpec(m_buildProfile, m_host);
    spec.root = m_options.jobRoot;
    auto transport = m_transport;
    m_requests.track(
        QtConcurrent::run(transportPool(), [transport, spec] { return RemoteJob::start(*transport, spec); }),
        [this](const Result<JobInfo>& started) {
            if (!started) {
                finishStep(Step::Build, Status::Failed, started.error());
                return;
            }
            m_buildJob = started->id;
            BuildRecord rec;
            rec.jobId = m_buildJob;
            rec.profile = m_buildProfile.name;
            rec.host = m_host;
            rec.started = started->started.isValid() ? started->started : QDateTime::currentDateTimeUtc();
            rec.spec = buildSpec(m_buildProfile);
            rec.actor = timeline::defaultActor();
            if (const auto saved = buildhistory::save(rec); !saved)
                Q_EMIT message(
                    QStringLiteral("  warning: the build is not in this machine's history: ") + saved.error());
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
                QString firstError;
                for (const Diagnostic& d : m_build->diagnostics())
                    if (d.severity == Diagnostic::Severity::Error && firstError.isEmpty())
                        firstError = d.message;
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
    auto transport = m_transport;
    const QString root = m_options.jobRoot;
    m_requests.track(QtConcurrent::run(transportPool(),
                         [transport, profile, root] { return launchServer(*transport, profile, root); }),
        [this, profile](const Result<JobInfo>& started) {
            if (!started) {
                finishStep(Step::Launch, Status::Failed, started.error());
                return;
            }
            m_serverJob = started->id;
            Q_EMIT message(QStringLiteral("  job %1 runs detached; waiting for /health on port %2")
                               .arg(m_serverJob)
                               .arg(profile.port));
            // Its log tells why, should it end before it is healthy.
            m_serverLog = std::make_unique<RemoteJob>(m_transport, m_serverJob, m_options.jobRoot);
            connect(m_serverLog.get(), &RemoteJob::logReceived, this, [this](qint64, const QByteArray& data) {
                m_serverTail += QString::fromUtf8(data).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
                if (m_serverTail.size() > 12)
                    m_serverTail = m_serverTail.mid(m_serverTail.size() - 12);
            });
            connect(m_serverLog.get(), &RemoteJob::finished, this, [this](const JobInfo& info) {
                timeline::recordServerStopped(m_host, info.id, info.exitStatus, info.cancelled);
                finishStep(Step::Launch, Status::Failed,
                    QStringLiteral("the server exited with status %1 before it was healthy: %2")
                        .arg(info.exitStatus)
                        .arg(m_serverTail.isEmpty() ? QStringLiteral("(no output)") : m_serverTail.last()),
                    { { QStringLiteral("job"), m_serverJob },
                        { QStringLiteral("log_tail"), QJsonArray::fromStringList(m_serverTail) } });
            });
            m_serverLog->attach(0);
            m_server = std::make_unique<ServerClient>(m_transport, profile.port);
            connect(m_server.get(), &ServerClient::statusUpdated, this, &RecipeRunner::onServerStatus);
            m_server->start(1000);
            m_launchDeadline.start(m_options.launchTimeoutS * 1000);
        });
}

void RecipeRunner::onServerStatus(const ServerStatus& status)
{
    if (!status.healthy())
        return;
    m_launchDeadline.stop();
    finishStep(Step::Launch, Status::Ok,
        QStringLiteral("healthy on port %1 (job %2)").arg(status.port).arg(m_serverJob),
        { { QStringLiteral("job"), m_serverJob } });
}

void RecipeRunner::describeRest()
{
    if (m_recipe.patches)
        Q_EMIT message(
            QStringLiteral("would apply: %1 file(s) of %2").arg(m_review.changes().size()).arg(m_recipe.patches->set));
    if (m_recipe.build)
        Q_EMIT message(QStringLiteral("would build: %1 in %2 (%3)")
                           .arg(m_recipe.build->profile.name, m_recipe.build->profile.workingDirectory,
                               m_recipe.build->profile.command));
    if (m_recipe.verify || m_recipe.build)
        Q_EMIT message(QStringLiteral("would verify the build against the recipe's expectation"));
    if (m_recipe.server)
        Q_EMIT message(QStringLiteral("would launch: %1").arg(m_recipe.server->command()));
}

} // namespace kf::deploy
