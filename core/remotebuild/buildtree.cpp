// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildtree.h"

#include "core/sglkernel/kerneltree.h"

namespace kf {

Result<BuildTree> resolveBuildTree(Transport& transport, const BuildProfile& profile)
{
    BuildTree t;
    t.profile = profile;
    if (!profile.kernelTree)
        return t;
    const QString root = profile.workingDirectory.isEmpty() ? QStringLiteral("~") : profile.workingDirectory;
    const auto search = sglkernel::findKernelTree(transport, root);
    if (!search)
        return Result<BuildTree>::failure(search.error(), search.kind());
    if (!search->tree)
        return Result<BuildTree>::failure(search->notFound(), ErrorKind::NotFound);
    t.profile.workingDirectory = search->tree->dir;
    t.note = QStringLiteral("sgl-kernel tree: ") + search->tree->describe();
    t.sglangPyproject = search->tree->sglangPyproject();
    return t;
}

} // namespace kf
