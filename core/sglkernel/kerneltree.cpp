// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/sglkernel/kerneltree.h"

#include "core/transport/transport.h"

namespace kf::sglkernel {

namespace {

QString joined(const QStringList& items)
{
    if (items.size() <= 1)
        return items.join(QString());
    return items.mid(0, items.size() - 1).join(QStringLiteral(", ")) + QStringLiteral(" and ") + items.last();
}

QStringList markers()
{
    QStringList m;
    for (const char* marker : kKernelTreeMarkers)
        m.append(QLatin1String(marker));
    return m;
}

QString markersText()
{
    return joined(markers());
}

} // namespace

Result<bool> holdsAll(Transport& transport, const QString& dir, const QStringList& markers)
{
    for (const QString& marker : markers) {
        const auto st = transport.stat(dir + QLatin1Char('/') + marker);
        if (!st && st.kind() != ErrorKind::NotFound)
            return Result<bool>::failure(st.error(), st.kind());
        if (!st || !st->exists)
            return false;
    }
    return true;
}

const LayoutRule& layoutRule(KernelLayout layout)
{
    for (const LayoutRule& r : kKernelLayouts)
        if (r.layout == layout)
            return r;
    return kKernelLayouts[0];
}

KernelLayout layoutOfTreePath(const QString& path)
{
    QString p = path;
    while (p.size() > 1 && p.endsWith(QLatin1Char('/')))
        p.chop(1);
    const QString aot = QLatin1Char('/') + QLatin1String(layoutRule(KernelLayout::Aot).subdir);
    return p.endsWith(aot) || p == QLatin1String(layoutRule(KernelLayout::Aot).subdir) ? KernelLayout::Aot
                                                                                       : KernelLayout::SglKernelFolder;
}

QString KernelTree::sglangPyproject() const
{
    // aot: <checkout>/python/sglang/kernels/aot -> <checkout>/python/pyproject.toml;
    // sgl-kernel/: <checkout>/sgl-kernel -> <checkout>/python/pyproject.toml.
    return layout == KernelLayout::Aot ? dir + QStringLiteral("/../../../pyproject.toml")
                                       : dir + QStringLiteral("/../python/pyproject.toml");
}

QString KernelTree::describe() const
{
    const QString name = QLatin1String(layoutRule(layout).name);
    if (subdir.isEmpty())
        return QStringLiteral("%1 (%2)").arg(dir, name);
    return QStringLiteral("%1 below %2 (%3)").arg(subdir, root, name);
}

QString KernelTreeSearch::notFound() const
{
    return QStringLiteral("no sgl-kernel tree at %1: looked for %2 in %3")
        .arg(looked.value(0), markersText(), joined(looked));
}

Result<KernelTreeSearch> findKernelTree(Transport& transport, const QString& rootIn)
{
    QString root = rootIn;
    while (root.size() > 1 && root.endsWith(QLatin1Char('/')))
        root.chop(1);
    KernelTreeSearch search;
    search.looked.append(root);
    const auto here = holdsAll(transport, root, markers());
    if (!here)
        return Result<KernelTreeSearch>::failure(here.error(), here.kind());
    if (*here) {
        KernelTree t;
        t.root = root;
        t.dir = root;
        t.layout = layoutOfTreePath(root);
        if (t.layout != KernelLayout::Aot) {
            // "." or a link named otherwise: the real path tells.
            if (const auto real = transport.canonicalPath(root))
                t.layout = layoutOfTreePath(*real);
        }
        search.tree = t;
        return search;
    }
    for (const LayoutRule& rule : kKernelLayouts) {
        const QString dir = root + QLatin1Char('/') + QLatin1String(rule.subdir);
        search.looked.append(dir);
        const auto found = holdsAll(transport, dir, markers());
        if (!found)
            return Result<KernelTreeSearch>::failure(found.error(), found.kind());
        if (!*found)
            continue;
        if (search.tree) {
            search.alsoFound.append(dir);
            continue;
        }
        KernelTree t;
        t.root = root;
        t.dir = dir;
        t.subdir = QLatin1String(rule.subdir);
        t.layout = rule.layout;
        search.tree = t;
    }
    return search;
}

} // namespace kf::sglkernel
