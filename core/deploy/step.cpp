// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/step.h"

namespace kf::deploy {

QString stepStatusName(StepStatus s)
{
    switch (s) {
    case StepStatus::Ok: return QStringLiteral("ok");
    case StepStatus::Failed: return QStringLiteral("failed");
    case StepStatus::Refused: return QStringLiteral("refused");
    case StepStatus::Skipped: return QStringLiteral("skipped");
    }
    return {};
}

} // namespace kf::deploy
