// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QString>
#include <QStringList>

namespace kf {
class Transport;
}

// Where a patch set's target sits below the root a person gave. A set whose target is
// "sgl-kernel" is found as every other part of KernelForge finds sgl-kernel
// (core/sglkernel/kerneltree.h: an sglang checkout of either layout, an sgl-kernel folder or
// the aot folder); any other set by its own markers and subdirs. Blocking.
namespace kf::patch {

struct PatchSet;

struct TargetRoot
{
    QString dir; // what to plan against: the target's folder, or the root when none was found
    bool found = true;
    // One line for people: "sgl-kernel tree: python/sglang/kernels/aot below ~/sglang (aot layout:
    // sglang since 2026-07-29)", "target found in sub/ below ~/x", or where it was looked for.
    QString note;
};

Result<TargetRoot> locateTarget(Transport& transport, const PatchSet& set, const QString& root);

// locateTarget's folder (the root itself when the target was not found or the transport failed).
QString resolveRoot(Transport& transport, const PatchSet& set, const QString& root);

} // namespace kf::patch
