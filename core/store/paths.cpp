// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/store/paths.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>

namespace kf::paths {
namespace {

QString resolve(const char* xdgVar, const QString& fallbackBelowHome)
{
    QString base;
    if (QStandardPaths::isTestModeEnabled()) {
        base = QDir::homePath() + QStringLiteral("/.qttest/") + QString::fromLatin1(xdgVar).toLower();
    } else {
        base = qEnvironmentVariable(xdgVar);
        if (base.isEmpty() || !QDir::isAbsolutePath(base))
            base = QDir::homePath() + QLatin1Char('/') + fallbackBelowHome;
    }
    const QString dir = base + QStringLiteral("/kernelforge");
    if (!QDir(dir).exists()) {
        QDir().mkpath(dir);
        QFile::setPermissions(dir, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    return dir;
}

} // namespace

QString configDir()
{
    return resolve("XDG_CONFIG_HOME", QStringLiteral(".config"));
}
QString stateDir()
{
    return resolve("XDG_STATE_HOME", QStringLiteral(".local/state"));
}
QString dataDir()
{
    return resolve("XDG_DATA_HOME", QStringLiteral(".local/share"));
}
QString cacheDir()
{
    return resolve("XDG_CACHE_HOME", QStringLiteral(".cache"));
}

} // namespace kf::paths
