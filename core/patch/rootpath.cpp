// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/rootpath.h"

#include "core/transport/transport.h"
#include "core/util/pathcheck.h"

#include <QStringList>

#include <sys/stat.h>

namespace kf::patch {

Result<RootPath> resolveInRoot(Transport& t, const QString& root, const QString& fileIn)
{
    const auto normalized = normalizeRelativePath(fileIn);
    if (!normalized)
        return normalized.withoutValue();
    RootPath out;
    out.file = normalized.value();
    const auto rootReal = t.canonicalPath(root);
    if (!rootReal)
        return Result<RootPath>::failure(QStringLiteral("cannot resolve the root %1: %2").arg(root, rootReal.error()));
    const QString base = rootReal.value() == QLatin1String("/") ? QString() : rootReal.value();
    const QStringList parts = out.file.split(QLatin1Char('/'));
    // The deepest part of root/file that exists (as a name: a dangling link counts).
    qsizetype existing = parts.size();
    FileInfo leaf;
    for (; existing > 0; --existing) {
        const auto st = t.stat(root + QLatin1Char('/') + parts.mid(0, existing).join(QLatin1Char('/')));
        if (!st)
            return st.withoutValue();
        if (st->exists) {
            if (existing == parts.size())
                leaf = st.value();
            break;
        }
    }
    QString resolved = base;
    if (existing > 0) {
        const QString prefix = root + QLatin1Char('/') + parts.mid(0, existing).join(QLatin1Char('/'));
        const auto real = t.canonicalPath(prefix);
        if (!real)
            return Result<RootPath>::failure(
                QStringLiteral("\"%1\" cannot be resolved on the target (a dangling symlink?): %2")
                    .arg(out.file, real.error()));
        resolved = real.value();
    }
    for (qsizetype i = existing; i < parts.size(); ++i)
        resolved += QLatin1Char('/') + parts[i];
    if (!resolved.startsWith(base + QLatin1Char('/')))
        return Result<RootPath>::failure(
            QStringLiteral("\"%1\" leads outside the root %2 through a symlink (to %3)").arg(out.file, root, resolved));
    out.path = resolved;
    out.exists = existing == parts.size();
    out.isSymlink = out.exists && leaf.isSymlink;
    if (out.isSymlink && (leaf.type & S_IFMT) == S_IFLNK)
        return Result<RootPath>::failure(
            QStringLiteral("\"%1\" is a dangling symlink (to %2)").arg(out.file, resolved));
    return out;
}

} // namespace kf::patch
