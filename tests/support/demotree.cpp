// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "tests/support/demotree.h"

#include "tests/support/testsupport.h"

namespace kf::test {

bool takeOutCcclPatch(const QString& cmakeLists)
{
    QByteArray text = readFile(cmakeLists);
    // The block the patch inserts (resources/patchsets/sgl-kernel-sm120-cuda13.yaml), with the blank
    // line before it.
    const qsizetype from = text.indexOf("\n# CUDA 13 keeps CUB/Thrust/libcu++");
    const QByteArray end = "endforeach()\n";
    const qsizetype to = from < 0 ? -1 : text.indexOf(end, from);
    if (to < 0)
        return false;
    text.remove(from, to + end.size() - from);
    return writeFile(cmakeLists, text);
}

} // namespace kf::test
