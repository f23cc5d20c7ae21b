// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

namespace kf {
class Transport;
}

namespace kf::patch {

// Where a patch set's file really is on the target. Blocking (a few stat/realpath calls).
struct RootPath
{
    QString file; // normalized, relative to the root (kf::normalizeRelativePath)
    QString path; // what to read and write: root's real path + "/" + file, symlinks resolved
    bool exists = false;
    bool isSymlink = false; // the file itself is a symlink (inside the root) to `path`
};

// Checks `file` lexically (kf::normalizeRelativePath) and then on the target: the root and
// the deepest existing folder (or the file) are resolved with Transport::canonicalPath, and
// the result must lie inside the root's real path. So "a/../x", "/etc/x" and a folder or
// file that is a symlink leading out of the root are refused, with a message such as
//   "sub/setup.py" leads outside the root /home/u/tree through a symlink (to /etc/setup.py)
// A symlink that stays inside the root is followed: writes go to its target, the link stays.
Result<RootPath> resolveInRoot(Transport& transport, const QString& root, const QString& file);

// The one name of a root folder: what plans, the journal and every message use, so that
// "./sgl", "sgl/", "~/sgl" and /home/u/sgl (or a symlink to it) are one tree: "~", ".", "..",
// doubled or trailing slashes and every symlink resolved. Locally realpath(3); on a server
// `cd -- DIR && pwd -P`, as the user's shell sees the folder, one command for all the folders
// through Transport::exec (the login-shell-safe runner). Relative paths are relative to the
// home folder, as every Transport path. A folder that does not exist (or cannot be entered)
// gets nullopt. Blocking.
Result<QList<std::optional<QString>>> canonicalRoots(Transport& transport, const QStringList& roots);
// The same for one folder; "cannot resolve the root DIR: no such folder (or not enterable)"
// when it does not resolve.
Result<QString> canonicalRoot(Transport& transport, const QString& root);

} // namespace kf::patch
