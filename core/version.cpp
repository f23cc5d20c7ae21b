// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/version.h"

#include <libssh2.h>
#include <spdlog/version.h>
#include <yaml-cpp/yaml.h>

#include <QtGlobal>

namespace kf {

QList<QPair<QString, QString>> componentVersions()
{
    const char* ssh2Runtime = libssh2_version(0);
    return {
        { QStringLiteral("KernelForge"), QStringLiteral(KF_VERSION_STRING) },
        { QStringLiteral("Qt"),
            QStringLiteral("%1 (built with %2)").arg(QString::fromLatin1(qVersion()), QStringLiteral(QT_VERSION_STR)) },
        { QStringLiteral("libssh2"),
            QStringLiteral("%1 (built with %2)")
                .arg(QString::fromLatin1(ssh2Runtime ? ssh2Runtime : "?"), QStringLiteral(LIBSSH2_VERSION)) },
        { QStringLiteral("spdlog"),
            QStringLiteral("%1.%2.%3").arg(SPDLOG_VER_MAJOR).arg(SPDLOG_VER_MINOR).arg(SPDLOG_VER_PATCH) },
        // yaml-cpp 0.7 has no version macro; pkg-config's answer is baked in by CMake.
        { QStringLiteral("yaml-cpp"), QStringLiteral(KF_YAMLCPP_VERSION_STRING) },
    };
}

QString versionReport(const QString& program, const QList<QPair<QString, QString>>& extra)
{
    QString s = program + QLatin1Char(' ') + QStringLiteral(KF_VERSION_STRING) + QLatin1Char('\n');
    for (const auto& [name, version] : componentVersions() + extra)
        if (name != QLatin1String("KernelForge"))
            s += QStringLiteral("  %1 %2\n").arg(name + QLatin1Char(':'), -11).arg(version);
    return s;
}

} // namespace kf
