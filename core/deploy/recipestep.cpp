// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/recipestep.h"

#include "core/deploy/artifactfiles.h"
#include "core/deploy/buildtoend.h"
#include "core/deploy/promotestep.h"
#include "core/events/verification.h"
#include "core/hosts/hostevents.h"
#include "core/hosts/serverfacts.h"
#include "core/jobs/remotejob.h"
#include "core/patch/applier.h"
#include "core/patch/patchevents.h"
#include "core/patch/patchset.h"
#include "core/patch/review.h"
#include "core/server/launchpolicy.h"
#include "core/server/serverclient.h"
#include "core/server/serverevents.h"
#include "core/timeline/eventstore.h"
#include "core/util/secretregistry.h"
#include "core/verify/verifyrun.h"

#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QThread>

namespace kf::deploy {
namespace {

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

Result<QList<EnvValue>> recipeEnv(const BuildSection& build, const RecipeOptions& options)
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
Result<BuildProfile> buildProfileFor(const BuildSection& build, const RecipeOptions& options)
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

QString plural(qsizetype n, const char* what)
{
    return QStringLiteral("%1 %2%3").arg(n).arg(QLatin1String(what), n == 1 ? QString() : QStringLiteral("s"));
}

// How a phase ended.
struct PhaseEnd
{
    StepStatus status = StepStatus::Failed;
    QString reason;
    QJsonObject details; // for its timeline event
    // Stopped while following what runs detached (a build, a server): the phase did not end, so
    // nothing is recorded for it; the recipe ends with the reason.
    bool interrupted = false;
};

// One replay of a recipe on one host: the phases in order, and what one hands the next.
class Replay
{
public:
    Replay(const DeployRecipe& recipe, const RecipeOptions& options, Transport& transport, const StepContext& ctx,
        const RecipeObserver& observer)
        : m_recipe(recipe)
        , m_options(options)
        , m_transport(transport)
        , m_ctx(ctx)
        , m_observer(observer)
        , m_host(transport.describe())
    { }

    StepResult run()
    {
        static constexpr RecipePhase order[] = { RecipePhase::Facts, RecipePhase::Plan, RecipePhase::Apply,
            RecipePhase::Build, RecipePhase::Verify, RecipePhase::Launch };
        for (const RecipePhase phase : order) {
            if (m_ctx.stopped())
                return { StepStatus::Failed,
                    QStringLiteral("interrupted before %1: nothing more was started (what runs detached on the host "
                                   "runs on)")
                        .arg(recipePhaseName(phase)) };
            const PhaseEnd end = runPhase(phase);
            if (end.interrupted)
                return { StepStatus::Failed, QStringLiteral("%1: %2").arg(recipePhaseName(phase), end.reason) };
            record(phase, end);
            if (m_observer.finished)
                m_observer.finished(phase, end.status, end.reason);
            else
                m_ctx.say(phaseFinishedLine(phase, end.status, end.reason));
            if (end.status == StepStatus::Failed)
                return { StepStatus::Failed, QStringLiteral("%1: %2").arg(recipePhaseName(phase), end.reason) };
            if (m_options.dryRun && phase == RecipePhase::Plan) {
                describeRest();
                return { StepStatus::Ok, QStringLiteral("dry run on %1: nothing was changed").arg(m_host) };
            }
        }
        return { StepStatus::Ok, QStringLiteral("recipe applied to %1").arg(m_host) };
    }

private:
    void started(RecipePhase phase, const QString& what) const
    {
        if (m_observer.started)
            m_observer.started(phase, what);
        else
            m_ctx.say(phaseStartedLine(phase, what));
    }

    PhaseEnd runPhase(RecipePhase phase)
    {
        switch (phase) {
        case RecipePhase::Facts: return facts();
        case RecipePhase::Plan: return plan();
        case RecipePhase::Apply: return apply();
        case RecipePhase::Build: return build();
        case RecipePhase::Verify: return verify();
        case RecipePhase::Launch: return launch();
        }
        return {};
    }

    void record(RecipePhase phase, const PhaseEnd& end) const
    {
        static const QString panes[] = { QStringLiteral("overview"), QStringLiteral("patches"),
            QStringLiteral("patches"), QStringLiteral("build"), QStringLiteral("build"), QStringLiteral("server") };
        timeline::Event e;
        e.host = m_host;
        e.kind = timeline::kind::RecipeStep;
        e.summary = QStringLiteral("Recipe %1%2: %3 %4%5")
                        .arg(m_recipe.name, m_options.dryRun ? QStringLiteral(" (dry run)") : QString(),
                            recipePhaseName(phase), stepStatusName(end.status),
                            end.reason.isEmpty() ? QString() : QStringLiteral(": ") + end.reason);
        QJsonObject details = end.details;
        details.insert(QStringLiteral("recipe"), m_recipe.name);
        details.insert(QStringLiteral("source"), m_recipe.sourceHost);
        details.insert(QStringLiteral("step"), recipePhaseName(phase));
        details.insert(QStringLiteral("status"), stepStatusName(end.status));
        details.insert(QStringLiteral("reason"), end.reason);
        details.insert(QStringLiteral("dry_run"), m_options.dryRun);
        details.insert(QStringLiteral("pane"), panes[int(phase)]);
        e.details = details;
        timeline::recordOrWarn(e);
    }

    PhaseEnd facts()
    {
        started(RecipePhase::Facts, QStringLiteral("comparing %1's tool versions with the recipe's").arg(m_host));
        if (m_recipe.facts.isEmpty())
            return { StepStatus::Skipped, QStringLiteral("the recipe expects no versions"), {} };
        const auto facts = collectServerFacts(m_transport);
        if (!facts)
            return { StepStatus::Failed, facts.error(), {} };
        const QList<FactComparison> compared = compareFacts(m_recipe.facts, timeline::factsVersions(facts.value()));
        QStringList failed;
        QJsonArray lines;
        for (const FactComparison& c : compared) {
            m_ctx.say(QStringLiteral("  %1 %2").arg(
                !c.ok ? QStringLiteral("FAIL") : (c.differs ? QStringLiteral("DIFF") : QStringLiteral("same")),
                c.text));
            lines.append(c.text);
            if (!c.ok)
                failed.append(c.text);
        }
        const QJsonObject details { { QStringLiteral("comparisons"), lines } };
        if (!failed.isEmpty())
            return { StepStatus::Failed, failed.join(QStringLiteral("; ")), details };
        return { StepStatus::Ok, plural(compared.size(), "expectation") + QStringLiteral(" met"), details };
    }

    PhaseEnd plan()
    {
        if (!m_recipe.patches) {
            started(RecipePhase::Plan, QStringLiteral("no patches in the recipe"));
            return { StepStatus::Skipped, QStringLiteral("the recipe has no patches"), {} };
        }
        const PatchSection& section = *m_recipe.patches;
        started(RecipePhase::Plan, QStringLiteral("planning %1 on %2:%3").arg(section.set, m_host, section.root));
        const auto set = patch::loadPatchSet(section.set);
        if (!set)
            return { StepStatus::Failed, set.error(), {} };
        const patch::SetPlan planned = patch::planSet(m_transport, set.value(), section.root);
        timeline::recordPatchPlanned(planned);
        if (!planned)
            return { StepStatus::Failed, planned.error, {} };
        m_review = patch::Review(planned);
        QStringList problems = m_review.applyDecisions(section.decisions);
        for (int i = 0; i < m_review.patchCount(); ++i) {
            const patch::PatchPlan& p = m_review.plan().patches[i];
            m_ctx.say(QStringLiteral("  [%1] %2  %3").arg(m_review.stateText(i), p.id, p.file));
            if (m_review.state(i) == patch::ReviewState::Conflict)
                problems.append(QStringLiteral("%1: %2").arg(p.id, m_review.stateReason(i)));
        }
        if (!problems.isEmpty())
            return { StepStatus::Failed, problems.join(QStringLiteral("; ")), {} };
        const qsizetype files = m_review.changes().size();
        return { StepStatus::Ok,
            files == 0 ? QStringLiteral("nothing to change: every patch is applied or not applicable")
                       : QStringLiteral("%1 to change under %2").arg(plural(files, "file"), m_review.plan().root),
            {} };
    }

    PhaseEnd apply()
    {
        if (!m_recipe.patches) {
            started(RecipePhase::Apply, QStringLiteral("no patches in the recipe"));
            return { StepStatus::Skipped, QStringLiteral("the recipe has no patches"), {} };
        }
        patch::ApplyOptions options = m_review.applyOptions();
        started(RecipePhase::Apply, QStringLiteral("applying on %1:%2").arg(m_host, m_review.plan().root));
        if (options.onlyFiles.isEmpty())
            return { StepStatus::Ok, QStringLiteral("nothing to apply: already as the recipe wants"), {} };
        options.stop = m_ctx.stop; // the file in flight is finished, no other is started
        const patch::ApplyReport report = patch::applyPlan(m_transport, m_review.plan(), options);
        QStringList bad;
        for (const patch::FileApply& f : report.files) {
            m_ctx.say(QStringLiteral("  %1: %2 \u2014 %3").arg(f.file, patch::outcomeText(f.outcome), f.message));
            if (f.outcome == patch::FileApply::Refused || f.outcome == patch::FileApply::Failed)
                bad.append(QStringLiteral("%1: %2").arg(f.file, f.message));
        }
        if (m_ctx.stopped())
            bad.prepend(QStringLiteral("interrupted: the file in flight was finished, nothing more started"));
        if (!bad.isEmpty())
            return { StepStatus::Failed, bad.join(QStringLiteral("; ")), {} };
        return { StepStatus::Ok, plural(report.files.size(), "file") + QStringLiteral(" written"), {} };
    }

    PhaseEnd build()
    {
        if (!m_recipe.build) {
            started(RecipePhase::Build, QStringLiteral("no build in the recipe"));
            return { StepStatus::Skipped, QStringLiteral("the recipe has no build"), {} };
        }
        if (m_recipe.promote)
            started(RecipePhase::Build,
                QStringLiteral("promoting %1 from %2 (SHA-256 %3) into %4")
                    .arg(m_recipe.promote->file, m_recipe.promote->from,
                        QString::fromLatin1(m_recipe.promote->sha256.left(12)),
                        m_recipe.build->profile.workingDirectory));
        else
            started(RecipePhase::Build,
                QStringLiteral("building %1 in %2")
                    .arg(m_recipe.build->profile.name, m_recipe.build->profile.workingDirectory));
        const auto profile = buildProfileFor(*m_recipe.build, m_options);
        if (!profile)
            return { StepStatus::Failed, profile.error(), {} };
        if (m_recipe.promote) {
            m_buildProfile = profile.value();
            return promote();
        }
        BuildToEndOptions options;
        options.jobRoot = m_options.jobRoot;
        options.started = m_observer.buildStarted;
        options.progress = m_observer.buildProgress;
        m_buildProfile = profile.value();
        const BuildToEnd end = buildToEnd(m_transport, m_ctx, m_buildProfile, options);
        QJsonObject details;
        if (!end.job.isEmpty())
            details.insert(QStringLiteral("job"), end.job);
        if (end.exitStatus)
            details.insert(QStringLiteral("exit_status"), *end.exitStatus);
        return { end.status, end.reason, details, end.interrupted };
    }

    // The recipe's artifact, from this machine's cache or its source again, installed the way
    // a promotion installs it (PromoteStep: refusals, transfer, install, JIT caches); the
    // verification is the recipe's next phase.
    PhaseEnd promote()
    {
        const PromoteSection& p = *m_recipe.promote;
        const QString cache = localPromoteDir(m_options.promoteCacheDir);
        auto artifact = cachedPromotion(cache, p.file, p.sha256, m_buildProfile, p.cachesFile, p.cachesSha256);
        if (!artifact) {
            if (!m_options.connectSource)
                return { StepStatus::Failed, artifact.error(), {} };
            m_ctx.say(QStringLiteral("  %1: fetching it from %2 again").arg(artifact.error(), p.from));
            const auto source = m_options.connectSource(p.from);
            if (!source)
                return { StepStatus::Failed, QStringLiteral("%1: %2").arg(p.from, source.error()), {} };
            PromotionSource from;
            from.hostName = p.from;
            from.profile = m_buildProfile;
            from.cacheDir = cache;
            from.withCaches = !p.cachesSha256.isEmpty();
            from.stop = m_ctx.stop;
            from.log = [this](const QString& line) { m_ctx.say(QStringLiteral("  ") + line); };
            artifact = preparePromotion(*source.value(), from);
            if (!artifact)
                return { StepStatus::Failed, artifact.error(), {} };
            if (artifact->sha256 != p.sha256)
                return { StepStatus::Failed,
                    QStringLiteral("the build on %1 is not the recipe's any more (SHA-256 %2 there, %3 in the recipe): "
                                   "export the recipe again, or build")
                        .arg(p.from, QString::fromLatin1(artifact->sha256.left(12)),
                            QString::fromLatin1(p.sha256.left(12))),
                    {} };
        }
        PromoteOptions options;
        options.buildWhenRefused = m_options.buildWhenRefused;
        options.jobRoot = m_options.jobRoot;
        options.verify = false;
        const StepResult r = PromoteStep(artifact.value(), options).run(m_transport, m_ctx);
        const QJsonObject details { { QStringLiteral("promoted"), QString::fromLatin1(p.sha256) },
            { QStringLiteral("from"), p.from } };
        // Refused is the step's end here: a recipe goes on only past what it did.
        return { r.status == StepStatus::Ok ? StepStatus::Ok : StepStatus::Failed, r.summary, details };
    }

    PhaseEnd verify()
    {
        if (!m_recipe.build) {
            started(RecipePhase::Verify, QStringLiteral("verification"));
            return { StepStatus::Skipped, QStringLiteral("nothing was built"), {} };
        }
        started(RecipePhase::Verify, QStringLiteral("verifying what %1 built").arg(m_buildProfile.name));
        const auto result = verifyBuild(m_transport, m_buildProfile);
        if (!result)
            return { StepStatus::Failed, result.error(), {} };
        timeline::recordVerification(m_host, result.value());
        m_ctx.say(QStringLiteral("  ") + result->summary);
        QStringList problems;
        if (m_recipe.verify)
            problems = compareVerification(*m_recipe.verify, result.value());
        else if (!result->ok)
            problems.append(result->summary);
        if (!problems.isEmpty())
            return { StepStatus::Failed, problems.join(QStringLiteral("; ")), {} };
        return { StepStatus::Ok, result->summary, {} };
    }

    PhaseEnd launch()
    {
        if (!m_recipe.server) {
            started(RecipePhase::Launch, QStringLiteral("no server in the recipe"));
            return { StepStatus::Skipped, QStringLiteral("the recipe has no server"), {} };
        }
        const ServerLaunchProfile& profile = *m_recipe.server;
        started(
            RecipePhase::Launch, QStringLiteral("launching %1 on port %2").arg(profile.modelPath).arg(profile.port));
        // The one launch policy, as the Server pane and `server launch`: a recipe carries no
        // --force, so what the policy refuses fails the step with its reason.
        LaunchRequest request;
        request.profile = profile;
        request.root = m_options.jobRoot;
        const auto attempt = launchServer(m_transport, request);
        if (!attempt)
            return { StepStatus::Failed, attempt.error(), {} };
        for (const QString& note : attempt->notes)
            m_ctx.say(QStringLiteral("  note: %1").arg(note));
        if (!attempt->job)
            return { StepStatus::Failed,
                QStringLiteral("refused: %1").arg(attempt->refusals.join(QStringLiteral("; "))), {} };
        const QString job = attempt->job->id;
        m_ctx.say(QStringLiteral("  job %1 runs detached; waiting for /health on port %2").arg(job).arg(profile.port));
        return followServer(job, profile.port);
    }

    // Until /health answers 200, the job ends, the deadline passes or the stop is set.
    PhaseEnd followServer(const QString& job, quint16 port)
    {
        QJsonObject details { { QStringLiteral("job"), job } };
        const QDeadlineTimer deadline(qint64(m_options.launchTimeoutS) * 1000);
        QElapsedTimer since; // the start time, warm caches or not (core/deploy/jitcache.h)
        since.start();
        std::optional<ServerStatus> last;
        for (;;) {
            const ServerStatus now = pollServer(m_transport, port, last ? &*last : nullptr, false);
            timeline::recordServerHealth(m_host, last ? &*last : nullptr, now);
            last = now;
            if (now.healthy()) {
                const double seconds = double(since.elapsed()) / 1000.0;
                details.insert(QStringLiteral("start_s"), seconds);
                return { StepStatus::Ok,
                    QStringLiteral("healthy on port %1 after %2 s (job %3)").arg(port).arg(seconds, 0, 'f', 1).arg(job),
                    details };
            }
            const auto info = RemoteJob::info(m_transport, job, m_options.jobRoot);
            if (info && info->state == JobInfo::State::Finished)
                return serverEnded(*info, details);
            if (deadline.hasExpired())
                return { StepStatus::Failed,
                    QStringLiteral("the server did not answer /health with 200 within %1 s (job %2 keeps running)")
                        .arg(m_options.launchTimeoutS)
                        .arg(job),
                    details };
            // Four times a second for the first minute (the start time is measured), then once.
            const int pauseMs = since.elapsed() < 60000 ? 250 : 1000;
            for (int waited = 0; waited < pauseMs && !m_ctx.stopped(); waited += 50)
                QThread::msleep(50);
            if (m_ctx.stopped())
                return { StepStatus::Failed,
                    QStringLiteral("interrupted: no longer waiting for /health (job %1 runs on)").arg(job), details,
                    true };
        }
    }

    // Its log tells why it ended before it was healthy.
    PhaseEnd serverEnded(const JobInfo& info, QJsonObject details) const
    {
        timeline::recordServerStopped(m_host, info.id, info.exitStatus, info.cancelled);
        constexpr qint64 tailBytes = 64 << 10;
        const auto log = RemoteJob::readLog(
            m_transport, info.id, std::max<qint64>(0, info.logSize - tailBytes), tailBytes, m_options.jobRoot);
        QStringList tail = log ? QString::fromUtf8(*log).split(QLatin1Char('\n'), Qt::SkipEmptyParts) : QStringList();
        tail.removeIf([](const QString& line) { return line.startsWith(QLatin1String("[KernelForge]")); });
        if (tail.size() > 12)
            tail = tail.mid(tail.size() - 12);
        details.insert(QStringLiteral("log_tail"), QJsonArray::fromStringList(tail));
        return { StepStatus::Failed,
            QStringLiteral("the server exited with status %1 before it was healthy: %2")
                .arg(info.exitStatus)
                .arg(tail.isEmpty() ? QStringLiteral("(no output)") : tail.last()),
            details };
    }

    void describeRest() const
    {
        if (m_recipe.patches)
            m_ctx.say(QStringLiteral("would apply: %1 file(s) of %2")
                          .arg(m_review.changes().size())
                          .arg(m_recipe.patches->set));
        if (m_recipe.promote)
            m_ctx.say(
                QStringLiteral("would promote: %1 (%2, SHA-256 %3) from %4%5, where the build fits this host%6")
                    .arg(m_recipe.promote->file, m_recipe.promote->kind,
                        QString::fromLatin1(m_recipe.promote->sha256.left(12)), m_recipe.promote->from,
                        m_recipe.promote->cachesSha256.isEmpty() ? QString() : QStringLiteral(" with its JIT caches"),
                        m_options.buildWhenRefused ? QStringLiteral("; else it builds:")
                                                   : QStringLiteral(" (else the step fails)")));
        if (m_recipe.build && (!m_recipe.promote || m_options.buildWhenRefused)) {
            // Everything the build would run with, as the recipe says it: a shared recipe is read here.
            const BuildProfile& p = m_recipe.build->profile;
            m_ctx.say(QStringLiteral("would build: %1").arg(p.name));
            m_ctx.say(QStringLiteral("  working dir: %1").arg(p.workingDirectory));
            m_ctx.say(QStringLiteral("  command: %1").arg(p.command));
            m_ctx.say(QStringLiteral("  CMAKE_ARGS: %1").arg(p.cmakeArgsValue()));
            m_ctx.say(QStringLiteral("  build dir: %1").arg(p.buildPath()));
            if (p.maxJobs > 0)
                m_ctx.say(QStringLiteral("  MAX_JOBS: %1").arg(p.maxJobs));
            if (p.nvccThreads > 0)
                m_ctx.say(QStringLiteral("  nvcc threads: %1").arg(p.nvccThreads));
            const auto env = recipeEnv(*m_recipe.build, m_options);
            if (!env)
                m_ctx.say(QStringLiteral("  environment: %1").arg(env.error()));
            for (const EnvValue& v : env ? env.value() : QList<EnvValue>())
                m_ctx.say(v.source.isEmpty()
                        ? QStringLiteral("  env %1: no value (give --env %1=VALUE or --env-file FILE): the build "
                                         "would stop here")
                              .arg(v.name)
                        : QStringLiteral("  env %1: from %2").arg(v.name, v.source));
        }
        if (m_recipe.verify || m_recipe.build)
            m_ctx.say(QStringLiteral("would verify the build against the recipe's expectation"));
        if (m_recipe.server)
            m_ctx.say(QStringLiteral("would launch: %1").arg(m_recipe.server->command()));
    }

    const DeployRecipe& m_recipe;
    const RecipeOptions& m_options;
    Transport& m_transport;
    const StepContext& m_ctx;
    const RecipeObserver& m_observer;
    const QString m_host;
    patch::Review m_review;      // plan -> apply
    BuildProfile m_buildProfile; // build -> verify
};

} // namespace

QString recipePhaseName(RecipePhase phase)
{
    switch (phase) {
    case RecipePhase::Facts: return QStringLiteral("facts");
    case RecipePhase::Plan: return QStringLiteral("plan");
    case RecipePhase::Apply: return QStringLiteral("apply");
    case RecipePhase::Build: return QStringLiteral("build");
    case RecipePhase::Verify: return QStringLiteral("verify");
    case RecipePhase::Launch: return QStringLiteral("launch");
    }
    return {};
}

QString phaseStartedLine(RecipePhase phase, const QString& what)
{
    return QStringLiteral("== %1: %2").arg(recipePhaseName(phase), what);
}

QString phaseFinishedLine(RecipePhase phase, StepStatus status, const QString& reason)
{
    return QStringLiteral("   %1 %2%3")
        .arg(recipePhaseName(phase), stepStatusName(status).toUpper(),
            reason.isEmpty() ? QString() : QStringLiteral(": ") + reason);
}

RecipeStep::RecipeStep(DeployRecipe recipe, RecipeOptions options)
    : m_recipe(std::move(recipe))
    , m_options(std::move(options))
{
    for (const QString& value : std::as_const(m_options.env))
        SecretRegistry::add(value.toUtf8());
}

QString RecipeStep::name() const
{
    return (m_options.dryRun ? QStringLiteral("recipe dry run ") : QStringLiteral("recipe "))
        + (m_recipe.name.isEmpty() ? QStringLiteral("(unnamed)") : m_recipe.name);
}

StepResult RecipeStep::run(Transport& transport, const StepContext& context)
{
    return run(transport, context, RecipeObserver {});
}

StepResult RecipeStep::run(Transport& transport, const StepContext& context, const RecipeObserver& observer) const
{
    return Replay(m_recipe, m_options, transport, context, observer).run();
}

} // namespace kf::deploy
