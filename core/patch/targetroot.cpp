// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/targetroot.h"

#include "core/patch/patchset.h"
#include "core/sglkernel/kerneltree.h"
#include "core/transport/transport.h"

namespace kf::patch {

Result<TargetRoot> locateTarget(Transport& transport, const PatchSet& set, const QString& rootIn)
{
    QString root = rootIn;
    while (root.size() > 1 && root.endsWith(QLatin1Char('/')))
        root.chop(1);
    TargetRoot t;
    t.dir = root;
    if (set.targetName == QLatin1String("sgl-kernel")) {
        const auto search = sglkernel::findKernelTree(transport, root);
        if (!search)
            return Result<TargetRoot>::failure(search.error(), search.kind());
        if (!search->tree) {
            t.found = false;
            t.note = search->notFound();
            return t;
        }
        t.dir = search->tree->dir;
        t.note = QStringLiteral("sgl-kernel tree: ") + search->tree->describe();
        if (!search->alsoFound.isEmpty())
            t.note += QStringLiteral("; also found %1, not used").arg(search->alsoFound.join(QStringLiteral(", ")));
        return t;
    }
    if (set.markers.isEmpty())
        return t;
    QStringList looked { root };
    const auto here = sglkernel::holdsAll(transport, root, set.markers);
    if (!here)
        return Result<TargetRoot>::failure(here.error(), here.kind());
    if (*here)
        return t;
    for (const QString& sub : set.subdirs) {
        const QString candidate = root + QLatin1Char('/') + sub;
        looked.append(candidate);
        const auto found = sglkernel::holdsAll(transport, candidate, set.markers);
        if (!found)
            return Result<TargetRoot>::failure(found.error(), found.kind());
        if (*found) {
            t.dir = candidate;
            t.note = QStringLiteral("%1 found in %2 below %3").arg(set.targetName, sub, root);
            return t;
        }
    }
    t.found = false;
    t.note = QStringLiteral("no %1 at %2: looked for %3 in %4")
                 .arg(set.targetName.isEmpty() ? QStringLiteral("target") : set.targetName, root,
                     set.markers.join(QStringLiteral(", ")), looked.join(QStringLiteral(", ")));
    return t;
}

QString resolveRoot(Transport& transport, const PatchSet& set, const QString& root)
{
    const auto t = locateTarget(transport, set, root);
    return t ? t->dir : root;
}

} // namespace kf::patch
