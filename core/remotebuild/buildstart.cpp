// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildstart.h"

#include "core/events/eventlog.h"
#include "core/jobs/remotejob.h"
#include "core/log/logging.h"
#include "core/remotebuild/buildenvironment.h"
#include "core/remotebuild/buildhistory.h"
#include "core/remotebuild/buildtree.h"
#include "core/remotebuild/preflight.h"

namespace kf {

Result<StartedBuild> startRecordedBuild(
    Transport& transport, const BuildProfile& profile, const BuildStartOptions& options)
{
    const auto tree = resolveBuildTree(transport, profile);
    if (!tree)
        return Result<StartedBuild>::failure(tree.error(), tree.kind());
    // The environment the libraries will link against, before anything starts (what a promotion
    // holds against the host later: core/deploy/buildfingerprint.h).
    const auto facts = collectServerFacts(transport, 120000, preflightProbe(tree->profile));
    if (!facts)
        log::build()->warn("the facts of {} before its build: {}", options.host, facts.error());
    // The memory gate comes with it, seeded with the peaks earlier runs of the profile learned.
    JobSpec spec = buildhistory::seededJobSpec(tree->profile, options.host);
    spec.root = options.jobRoot;
    for (auto it = options.secretEnv.cbegin(); it != options.secretEnv.cend(); ++it)
        spec.env.insert(it.key(), it.value());
    const auto started = RemoteJob::start(transport, spec);
    if (!started)
        return Result<StartedBuild>::failure(started.error(), started.kind());
    BuildRecord rec;
    rec.jobId = started->id;
    rec.profile = profile.name;
    rec.host = options.host;
    // The job folder's `started` is the server's clock, as its `ended` will be.
    rec.started = started->started.isValid() ? started->started : QDateTime::currentDateTimeUtc();
    rec.spec = buildSpec(tree->profile);
    if (facts)
        rec.spec.insert(QStringLiteral("environment"), BuildEnvironment::of(facts.value()).toJson());
    rec.actor = options.actor.isEmpty() ? timeline::defaultActor() : options.actor;
    StartedBuild out { *started, tree->profile, tree->note, {} };
    if (const auto saved = buildhistory::save(rec); !saved) {
        out.historyError = saved.error();
        log::build()->warn(
            "build {} on {} is not in this machine's history: {}", started->id, options.host, saved.error());
    }
    return out;
}

} // namespace kf
