// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

// Build history in the history database (core/store/database.h), table `builds`:
//   id INTEGER PRIMARY KEY, job_id TEXT, profile TEXT, host TEXT, started INTEGER (ms since epoch),
//   ended INTEGER (ms; NULL while running), result TEXT (running|succeeded|failed|cancelled|lost),
//   exit_status INTEGER, steps_done INTEGER, steps_total INTEGER, peak_mem_kb INTEGER (highest
//   MemTotal-MemAvailable seen), errors INTEGER, UNIQUE(host, job_id)
namespace kf {

struct BuildRecord
{
    qint64 id = 0;
    QString jobId;
    QString profile;
    QString host;
    QDateTime started;
    QDateTime ended;
    QString result = QStringLiteral("running");
    int exitStatus = -1;
    int stepsDone = 0;
    int stepsTotal = 0;
    qint64 peakMemKb = 0;
    int errors = 0;
    qint64 durationMs() const { return started.isValid() && ended.isValid() ? started.msecsTo(ended) : -1; }
};

// "succeeded" / "failed" / "cancelled" from an exit status.
QString buildResultFor(int exitStatus, bool cancelled);

// A comparison with the previous run of the same profile on the same host, for people.
QString compareBuilds(const BuildRecord& current, const BuildRecord& previous);

namespace buildhistory {
Result<void> ensureSchema();
// Inserts or updates by (host, job_id); returns the row id.
Result<qint64> save(const BuildRecord& record);
Result<QList<BuildRecord>> list(const QString& host = {}, int limit = 100);
Result<std::optional<BuildRecord>> find(const QString& host, const QString& jobId);
// The last finished build of profile on host before `before` (another job).
Result<std::optional<BuildRecord>> previous(
    const QString& host, const QString& profile, const QString& excludeJobId = {});
} // namespace buildhistory

} // namespace kf
