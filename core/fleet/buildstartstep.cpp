// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/buildstartstep.h"

#include "core/jobs/remotejob.h"
#include "core/remotebuild/buildhistory.h"

namespace kf::fleet {

BuildStartStep::BuildStartStep(BuildProfile profile)
    : m_profile(std::move(profile))
{ }

StepResult BuildStartStep::run(Transport& transport, const StepContext& ctx)
{
    const auto job = RemoteJob::start(transport, buildhistory::seededJobSpec(m_profile, transport.describe()));
    if (!job) {
        ctx.log(QStringLiteral("build start failed: ") + job.error());
        return { HostRunState::Failed, job.error() };
    }
    ctx.log(QStringLiteral("started job %1 (%2)").arg(job->id, m_profile.name));
    return { HostRunState::Succeeded, QStringLiteral("job %1").arg(job->id) };
}

} // namespace kf::fleet
