// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildhistory.h"

#include <QDateTime>
#include <QString>

// Which build made each library a verification checked, and whether a library may be called good.
//
// Every build KernelForge starts has a history row from its start (core/remotebuild/buildstart.h):
// the profile, the folder and when it started and ended, on the server's clock. A library was made
// by the build of its folder whose run (started .. ended, 2 s either side: the job folder counts
// whole seconds) holds its mtime (server clock too). The verified folder's newest build decides:
//   running                          WARN  the libraries may still change
//   failed (or cancelled, lost),
//     made the library               FAIL  "written by build Y, which failed: it may be incomplete"
//     did not                        FAIL  "stale: made by build X, the last build Y failed"
//   succeeded, made it or an earlier
//     successful build did           PASS  (ninja found it up to date)
//   succeeded, no known build did    WARN  older than the last build, which did not write it
// A FAIL stops a server launch (VerifyReport::launchBlockers, launchBlockedBecause). With no
// build of the folder in this machine's history nothing is claimed.
namespace kf {

struct VerifyReport;

// The absolute folder a build profile's working_dir names on the server: "~", "~/x" and relative
// folders are under home; cleaned. Empty when the folder or home is unknown.
QString absoluteBuildFolder(const QString& folder, const QString& home);
// Whether `path` is `folder` or lies inside it (both absolute and clean).
bool isInsideFolder(const QString& path, const QString& folder);
// Whether a build concerns the verified `dir` (absolute): it built in that folder or in one inside
// it, or `dir` is (inside) its build folder (working_dir/build_dir). A job started in the home
// folder (`build start --command`, a server) does not concern every folder below it.
bool buildConcernsFolder(const BuildRecord& build, const QString& home, const QString& dir);

// Fills each library's madeBy and appends the "provenance" check(s); report.builds, .home, .dir and
// the libraries' modified times are its input.
void evaluateProvenance(VerifyReport& report);

// "build 20261204-101500-ab12 (Demo sgl-kernel, 2026-12-04 10:15, failed)".
QString describeBuild(const BuildRecord& build);

} // namespace kf
