// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/rootpath.h"

#include "core/transport/localtransport.h"
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

Result<QList<std::optional<QString>>> canonicalRoots(Transport& t, const QStringList& roots)
{
    using Out = QList<std::optional<QString>>;
    if (roots.isEmpty())
        return Out();
    // Here: realpath(3), no shell needed (and none that needs the home folder to exist).
    if (dynamic_cast<LocalTransport*>(&t)) {
        Out out;
        for (const QString& root : roots) {
            const auto real = t.canonicalPath(root);
            const auto st = real ? t.stat(real.value()) : Result<FileInfo>(real.withoutValue());
            out.append(st && st->isDir ? std::optional<QString>(real.value()) : std::nullopt);
        }
        return out;
    }
    // Output: a marker line (a login script may print before it), then per folder "+PATH" or
    // "-", each ended by a NUL (a path may hold a newline). CDPATH would make cd look
    // elsewhere and print.
    static const QByteArray kMarker = QByteArrayLiteral("\x1eKFROOTS\n");
    CommandSpec spec;
    spec.command
        = QStringLiteral("unset CDPATH; printf '\\036KFROOTS\\n'\n"
                         "for kf_d; do\n"
                         "  if kf_r=$(cd -- \"$kf_d\" 2>/dev/null && pwd -P); then printf '+%s\\000' \"$kf_r\";\n"
                         "  else printf '%s\\000' -; fi\n"
                         "done\n");
    for (const QString& root : roots) {
        // Transport paths are relative to the home folder, where the command starts.
        QString arg = root;
        if (arg == QLatin1String("~"))
            arg = QStringLiteral(".");
        else if (arg.startsWith(QLatin1String("~/")))
            arg = arg.mid(2).isEmpty() ? QStringLiteral(".") : arg.mid(2);
        spec.arguments.append(arg.isEmpty() ? QStringLiteral(".") : arg);
    }
    spec.maxOutputBytes = 1024 * 1024;
    const ExecResult r = t.exec(spec, 60000);
    const qsizetype start = r.stdOut.indexOf(kMarker);
    if (!r.ok() || start < 0)
        return Result<Out>::failure(
            QStringLiteral("cannot resolve %1 on %2: %3")
                .arg(roots.join(QStringLiteral(", ")), t.describe(),
                    !r.error.isEmpty()                 ? r.error
                        : r.stdErr.trimmed().isEmpty() ? QStringLiteral("exit status %1").arg(r.exitCode)
                                                       : QString::fromUtf8(r.stdErr.trimmed())));
    QList<QByteArray> fields = r.stdOut.mid(start + kMarker.size()).split('\0');
    fields.removeLast(); // after the last NUL
    if (fields.size() != roots.size())
        return Result<Out>::failure(QStringLiteral("cannot resolve %1 on %2: %3 answers for %4 folders")
                                        .arg(roots.join(QStringLiteral(", ")), t.describe())
                                        .arg(fields.size())
                                        .arg(roots.size()));
    Out out;
    for (const QByteArray& f : std::as_const(fields))
        out.append(f.startsWith('+') ? std::optional<QString>(QString::fromUtf8(f.mid(1))) : std::nullopt);
    return out;
}

Result<QString> canonicalRoot(Transport& t, const QString& root)
{
    const auto all = canonicalRoots(t, { root });
    if (!all)
        return all.withoutValue();
    if (!all->first())
        return Result<QString>::failure(
            QStringLiteral("cannot resolve the root %1: no such folder (or it cannot be entered)").arg(root));
    return *all->first();
}

} // namespace kf::patch
