// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/deploy/step.h"
#include "core/remotebuild/buildprofile.h"

namespace kf::fleet {

class PreflightStep : public deploy::Step
{
public:
    explicit PreflightStep(BuildProfile profile);
    QString name() const override { return QStringLiteral("build preflight"); }
    deploy::StepResult run(Transport& transport, const deploy::StepContext& context) override;

private:
    BuildProfile m_profile;
};

} // namespace kf::fleet
