// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/fleet/rolloutstep.h"
#include "core/remotebuild/buildprofile.h"

namespace kf::fleet {

// Starts the detached build (RemoteJob) and reports its job id; follow it with `build attach`.
class BuildStartStep : public RolloutStep
{
public:
    explicit BuildStartStep(BuildProfile profile);
    QString name() const override { return QStringLiteral("build start"); }
    StepResult run(Transport& transport, const StepContext& context) override;

private:
    BuildProfile m_profile;
};

} // namespace kf::fleet
