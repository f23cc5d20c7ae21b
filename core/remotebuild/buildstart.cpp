// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildstart.h"

#include "core/events/eventlog.h"
#include "core/jobs/remotejob.h"
#include "core/log/logging.h"
#include "core/remotebuild/buildhistory.h"
#include "core/remotebuild/buildtree.h"

namespace kf {

Result<StartedBuild> startRecordedBuild(
    Transport& transport, const BuildProfile& profile, const BuildStartOptions& options)
{
    const auto tree = resolveBuildTree(transport, profile);
    if (!tree)
        return Result<StartedBuild>::failure(tree.error(), tree.kind());
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
