// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/hostprofile.h"

namespace kf {

QString HostProfile::destination() const
{
    if (isLocal)
        return QStringLiteral("local");
    QString d = user.isEmpty() ? host : user + QLatin1Char('@') + host;
    if (port != 22)
        d += QLatin1Char(':') + QString::number(port);
    return d;
}

QString toString(ConnectionState state)
{
    switch (state) {
    case ConnectionState::Disconnected: return QStringLiteral("Disconnected");
    case ConnectionState::Connecting: return QStringLiteral("Connecting");
    case ConnectionState::HostKeyPrompt: return QStringLiteral("Waiting for host key decision");
    case ConnectionState::Authenticating: return QStringLiteral("Authenticating");
    case ConnectionState::Ready: return QStringLiteral("Connected");
    case ConnectionState::Reconnecting: return QStringLiteral("Reconnecting");
    case ConnectionState::Failed: return QStringLiteral("Failed");
    }
    return {};
}

} // namespace kf
