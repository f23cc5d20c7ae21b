// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/verify/provenance.h"

#include "core/verify/verifyreport.h"

#include <QDir>

namespace kf {
namespace {

using Level = PreflightCheck::Level;

constexpr qint64 kSlackMs = 2000;

bool succeeded(const BuildRecord& b)
{
    return b.result == QLatin1String("succeeded");
}

bool running(const BuildRecord& b)
{
    return b.result == QLatin1String("running") && !b.ended.isValid();
}

// Did b's run write at `when`? A running build's run goes on.
bool ranAt(const BuildRecord& b, const QDateTime& when)
{
    if (!b.started.isValid() || !when.isValid())
        return false;
    const qint64 t = when.toMSecsSinceEpoch();
    const qint64 from = b.started.toMSecsSinceEpoch() - kSlackMs;
    return t >= from && (!b.ended.isValid() || t <= b.ended.toMSecsSinceEpoch() + kSlackMs);
}

} // namespace

QString absoluteBuildFolder(const QString& folder, const QString& home)
{
    if (home.isEmpty() && !folder.startsWith(QLatin1Char('/')))
        return {};
    QString path;
    if (folder.isEmpty() || folder == QLatin1String("~"))
        path = home;
    else if (folder.startsWith(QLatin1String("~/")))
        path = home + folder.mid(1);
    else if (folder.startsWith(QLatin1Char('/')))
        path = folder;
    else
        path = home + QLatin1Char('/') + folder;
    return QDir::cleanPath(path);
}

bool isInsideFolder(const QString& path, const QString& folder)
{
    if (path.isEmpty() || folder.isEmpty())
        return false;
    return path == folder || path.startsWith(folder.endsWith(QLatin1Char('/')) ? folder : folder + QLatin1Char('/'));
}

bool buildConcernsFolder(const BuildRecord& build, const QString& home, const QString& dir)
{
    const QString folder = absoluteBuildFolder(build.folder(), home);
    if (folder.isEmpty() || dir.isEmpty())
        return false;
    if (isInsideFolder(folder, dir))
        return true;
    const QString buildDir = build.spec.value(QStringLiteral("build_dir")).toString();
    return !buildDir.isEmpty()
        && isInsideFolder(dir,
            buildDir.startsWith(QLatin1Char('/')) ? QDir::cleanPath(buildDir)
                                                  : QDir::cleanPath(folder + QLatin1Char('/') + buildDir));
}

QString describeBuild(const BuildRecord& b)
{
    return QStringLiteral("build %1 (%2, %3, %4)")
        .arg(b.jobId, b.profile.isEmpty() ? QStringLiteral("no profile") : b.profile,
            b.started.isValid() ? b.started.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"))
                                : QStringLiteral("?"),
            b.result);
}

void evaluateProvenance(VerifyReport& report)
{
    const QString dir = QDir::cleanPath(report.dir);
    // The verified folder's builds, newest first (report.builds is).
    QList<const BuildRecord*> builds;
    for (const BuildRecord& b : report.builds)
        if (buildConcernsFolder(b, report.home, dir) && b.started.isValid())
            builds << &b;
    if (report.dirMissing || builds.isEmpty() || report.libraries.isEmpty())
        return;
    const BuildRecord& last = *builds.first();
    QStringList good;
    QStringList left;
    auto add = [&](Level level, const QString& message, const QString& fix = {}) {
        report.checks.append({ level, QStringLiteral("provenance"), message, fix });
    };
    for (VerifyLibrary& l : report.libraries) {
        const QString name = l.path.startsWith(dir + QLatin1Char('/')) ? l.path.mid(dir.size() + 1) : l.path;
        const BuildRecord* maker = nullptr;
        for (const BuildRecord* b : builds)
            if (ranAt(*b, l.modified)) {
                maker = b;
                break;
            }
        l.madeBy = maker ? maker->jobId : QString();
        // An installed package elsewhere is a build's only when a build of this folder wrote it.
        if (!maker && !isInsideFolder(QDir::cleanPath(l.path), dir))
            continue;
        if (running(last)) {
            if (maker == &last || !maker)
                continue; // said once below
        } else if (!succeeded(last)) {
            if (maker == &last)
                add(Level::Fail,
                    QStringLiteral("%1 was written by %2, which %3: it may be incomplete")
                        .arg(name, describeBuild(last), last.result),
                    QStringLiteral("fix the build (its diagnostics are in the Build tab) and build again"));
            else
                add(Level::Fail,
                    QStringLiteral("stale: %1 was made by %2; the last build, %3, %4: it is not what the sources "
                                   "build now")
                        .arg(name, maker ? describeBuild(*maker) : QStringLiteral("no build this machine knows"),
                            describeBuild(last), last.result),
                    QStringLiteral("fix the build (its diagnostics are in the Build tab) and build again, or undo the "
                                   "change that broke it"));
            continue;
        }
        if (maker && succeeded(*maker))
            good << QStringLiteral("%1 by %2").arg(name, maker->jobId);
        else if (maker && !running(*maker))
            add(Level::Warn,
                QStringLiteral("%1 was written by %2, which %3; a later build succeeded without rewriting it")
                    .arg(name, describeBuild(*maker), maker->result),
                QStringLiteral("build again from a clean build folder"));
        else if (!maker && !running(last))
            left << name;
    }
    if (running(last))
        add(Level::Warn, QStringLiteral("%1 is still running: the libraries may change").arg(describeBuild(last)),
            QStringLiteral("verify again when it has ended (the Build tab does after a build that succeeds)"));
    if (!left.isEmpty())
        add(Level::Warn,
            QStringLiteral("%1 written by no build this machine knows, and not by the last one, %2: left over from an "
                           "earlier configuration, or written by hand?")
                .arg(left.join(QStringLiteral(", ")), describeBuild(last)),
            QStringLiteral("build again from a clean build folder"));
    if (!good.isEmpty())
        add(Level::Pass, QStringLiteral("made by the builds of this folder: ") + good.join(QStringLiteral("; ")));
}

} // namespace kf
