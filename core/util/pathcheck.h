// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QString>

// Checks on paths that come from outside (patch files, recipes, journals, command lines).
namespace kf {

// The first control character (U+0000..U+001F, U+007F) in s, spelled for a message ("\n",
// "\t", "\x00"); empty when there is none. A newline in a path would end a shell word.
QString firstControlCharacter(const QString& s);

// Lexical check of a path that must stay below a root: relative, no ".." component, no
// leading "~", no control character, not empty. "." components and repeated '/' are
// dropped, so "./a//b" becomes "a/b". Errors read
//   path "a/../victim.txt" leaves the root: it has a ".." component
// This is the one check for every path of a patch set (YAML recipes and unified diffs alike),
// backups and rollback; what symlinks on the target make of it is checked by
// kf::patch::resolveInRoot (core/patch/rootpath.h).
Result<QString> normalizeRelativePath(const QString& path);

} // namespace kf
