// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/buildtoend.h"

#include "core/remotebuild/buildsession.h"
#include "core/remotebuild/buildstart.h"

namespace kf::deploy {

BuildToEnd buildToEnd(
    Transport& transport, const StepContext& context, const BuildProfile& profile, const BuildToEndOptions& options)
{
    BuildToEnd out;
    const QString host = transport.describe();
    BuildStartOptions start;
    start.host = host;
    start.jobRoot = options.jobRoot;
    const auto begun = startRecordedBuild(transport, profile, start);
    if (!begun) {
        out.reason = begun.error();
        return out;
    }
    out.job = begun->job.id;
    if (!begun->treeNote.isEmpty())
        context.say(QStringLiteral("  ") + begun->treeNote);
    if (!begun->historyError.isEmpty())
        context.say(QStringLiteral("  warning: the build is not in this machine's history: ") + begun->historyError);
    if (options.started)
        options.started(out.job);
    context.say(QStringLiteral("  job %1 runs detached on %2; follow it elsewhere with `kernelforge-cli build attach "
                               "%1 %2`")
                    .arg(out.job, host));
    // The connection as shared, for the build followed (a rollout hands its own).
    const std::shared_ptr<Transport> shared
        = context.transport ? context.transport : std::shared_ptr<Transport>(&transport, [](Transport*) {});
    const FollowedBuild end
        = BuildSession::follow(shared, host, out.job, profile, options.jobRoot, context.stop, options.progress);
    if (!end.info && end.error.isEmpty()) {
        out.interrupted = true;
        out.reason = QStringLiteral("interrupted: no longer following job %1, which runs on (`kernelforge-cli build "
                                    "attach %1 %2`)")
                         .arg(out.job, host);
        return out;
    }
    if (!end.info) {
        out.reason = end.error;
        return out;
    }
    const JobInfo& info = *end.info;
    out.exitStatus = info.exitStatus;
    if (info.exitStatus == 0 && !info.cancelled) {
        out.status = StepStatus::Ok;
        out.reason = QStringLiteral("job %1 succeeded").arg(out.job);
        return out;
    }
    out.reason = QStringLiteral("job %1 %2 (exit status %3)%4")
                     .arg(out.job, info.cancelled ? QStringLiteral("was cancelled") : QStringLiteral("failed"))
                     .arg(info.exitStatus)
                     .arg(end.firstError.isEmpty() ? QString() : QStringLiteral(": ") + end.firstError);
    return out;
}

} // namespace kf::deploy
