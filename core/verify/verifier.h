// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildprofile.h"
#include "core/transport/transport.h"
#include "core/util/result.h"
#include "core/verify/fatbinreader.h"
#include "core/verify/verifyreport.h"

#include <QDeadlineTimer>

#include <optional>

// Runs a post-build verification on a server (blocking: call from a worker thread, e.g.
// QtConcurrent::run(transportPool(), ...)): the script of core/verify/verifyreport.h with
// the profile's environment, then, for libraries cuobjdump did not list (no cuobjdump on
// the server), their ELF and fat binary headers over ranged reads; wheels' member lists
// from their zip central directories; then evaluateVerify().
namespace kf {

struct VerifyRequest
{
    QString dir;                         // the project or build folder; empty: the profile's working_dir
    std::optional<BuildProfile> profile; // environment (which python) and FA3 flags
    int maxLibraries = 200;
    // Reading headers over SFTP costs about one ranged read (five round trips) per
    // device-code entry; past this budget the libraries left say so instead of being read.
    int headerReadBudgetMs = 180000;
    // The host's builds this machine knows (newest first): which one made each library
    // (core/verify/provenance.h). Empty: no provenance is judged.
    QList<BuildRecord> builds;
};

Result<VerifyReport> runVerify(Transport& transport, const VerifyRequest& request);

// A library's targets from its headers, read in ranges (at most kMaxHeaderReads reads, and
// none after the deadline: the scan then ends with an error saying so).
inline constexpr int kMaxHeaderReads = 20000;
FatbinScan scanRemoteFatbin(
    Transport& transport, const QString& path, qint64 size, QDeadlineTimer deadline = QDeadlineTimer::Forever);

} // namespace kf
