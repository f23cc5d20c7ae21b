// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildprofile.h"
#include "core/util/result.h"

#include <QString>

namespace kf {
class Transport;

// A build profile on a server, its sgl-kernel tree found: for a profile with kernel_tree, the
// tree below its working_dir (sglkernel::findKernelTree: an sglang checkout of either layout,
// sgl-kernel/ or the aot folder) becomes the working directory, so build_dir, .ninja_log and
// the wheels are the tree's. Build start, preflight, verify and the Build pane's follow-up
// reads ask this, so all of them use the same folder. Blocking (a few stat calls).
struct BuildTree
{
    BuildProfile profile;    // working_dir = the tree (unchanged for a profile without kernel_tree)
    QString note;            // "sgl-kernel tree: python/sglang/kernels/aot below ~/sglang (aot layout: ...)"
    QString sglangPyproject; // where sglang's pyproject.toml sits for this layout (empty: not a kernel tree)
};

// Fails when the transport does, or with "no sgl-kernel tree at ~/x: looked for ..." when a
// kernel_tree profile's working_dir holds none.
Result<BuildTree> resolveBuildTree(Transport& transport, const BuildProfile& profile);

} // namespace kf
