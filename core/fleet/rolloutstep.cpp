// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/rolloutstep.h"

namespace kf::fleet {

QString hostRunStateName(HostRunState s)
{
    switch (s) {
    case HostRunState::Waiting: return QStringLiteral("waiting");
    case HostRunState::Connecting: return QStringLiteral("connecting");
    case HostRunState::Running: return QStringLiteral("running");
    case HostRunState::Succeeded: return QStringLiteral("succeeded");
    case HostRunState::Failed: return QStringLiteral("failed");
    case HostRunState::Refused: return QStringLiteral("refused");
    case HostRunState::Skipped: return QStringLiteral("skipped");
    }
    return {};
}

} // namespace kf::fleet
