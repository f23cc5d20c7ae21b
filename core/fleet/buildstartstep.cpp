// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/buildstartstep.h"

#include "core/remotebuild/buildstart.h"
#include "core/transport/transport.h"

namespace kf::fleet {

BuildStartStep::BuildStartStep(BuildProfile profile)
    : m_profile(std::move(profile))
{ }

deploy::StepResult BuildStartStep::run(Transport& transport, const deploy::StepContext& ctx)
{
    BuildStartOptions options;
    options.host = transport.describe();
    const auto started = startRecordedBuild(transport, m_profile, options);
    if (!started) {
        ctx.log(QStringLiteral("build start failed: ") + started.error());
        return { deploy::StepStatus::Failed, started.error() };
    }
    const JobInfo& job = started->job;
    if (!started->treeNote.isEmpty())
        ctx.log(started->treeNote);
    ctx.log(QStringLiteral("started job %1 (%2)").arg(job.id, m_profile.name));
    if (!started->historyError.isEmpty())
        ctx.log(QStringLiteral("warning: the build is not in this machine's history: ") + started->historyError);
    return { deploy::StepStatus::Ok, QStringLiteral("job %1").arg(job.id) };
}

} // namespace kf::fleet
