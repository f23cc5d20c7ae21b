// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/sshoptionarg.h"

#include "core/util/pathcheck.h"
#include "core/util/terminaltext.h"

namespace kf {

Result<QString> userKnownHostsOption(const QString& path)
{
    if (const QString c = firstControlCharacter(path); !c.isEmpty())
        return Result<QString>::failure(
            QStringLiteral("the known_hosts path '%1' has the control character %2").arg(terminalSafe(path), c));
    if (path.contains(QLatin1String("${")))
        return Result<QString>::failure(
            QStringLiteral("the known_hosts path '%1' has \"${\", which ssh would expand as a variable").arg(path));
    QString quoted = path;
    quoted.replace(QLatin1Char('\\'), QLatin1String("\\\\"))
        .replace(QLatin1Char('"'), QLatin1String("\\\""))
        .replace(QLatin1Char('%'), QLatin1String("%%"));
    return QStringLiteral("UserKnownHostsFile=\"%1\"").arg(quoted);
}

} // namespace kf
