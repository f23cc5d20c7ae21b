// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/timeline/hostkey.h"

#include <pwd.h>
#include <unistd.h>

namespace kf::timeline {

QString hostKey(const HostProfile& profile)
{
    if (profile.isLocal)
        return QStringLiteral("local");
    QString user = profile.user;
    if (user.isEmpty()) {
        const passwd* pw = ::getpwuid(::geteuid());
        user = pw ? QString::fromLocal8Bit(pw->pw_name) : qEnvironmentVariable("USER");
    }
    return user + QLatin1Char('@') + profile.host + QLatin1Char(':') + QString::number(profile.port);
}

} // namespace kf::timeline
