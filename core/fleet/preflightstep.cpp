// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/preflightstep.h"

#include "core/remotebuild/preflight.h"

namespace kf::fleet {

PreflightStep::PreflightStep(BuildProfile profile)
    : m_profile(std::move(profile))
{ }

deploy::StepResult PreflightStep::run(Transport& transport, const deploy::StepContext& ctx)
{
    const auto checks = runPreflight(transport, m_profile);
    if (!checks) {
        ctx.log(QStringLiteral("preflight failed: ") + checks.error());
        return { deploy::StepStatus::Failed, checks.error() };
    }
    int fails = 0, warns = 0;
    for (const PreflightCheck& c : checks.value()) {
        ctx.log(QStringLiteral("%1  %2: %3%4")
                    .arg(toString(c.level).leftJustified(4), c.id, c.message,
                        c.fix.isEmpty() ? QString() : QStringLiteral(" (") + c.fix + u')'));
        fails += c.level == PreflightCheck::Level::Fail;
        warns += c.level == PreflightCheck::Level::Warn;
    }
    const QString summary = QStringLiteral("%1 check(s): %2 fail, %3 warn").arg(checks->size()).arg(fails).arg(warns);
    return { fails ? deploy::StepStatus::Failed : deploy::StepStatus::Ok, summary };
}

} // namespace kf::fleet
