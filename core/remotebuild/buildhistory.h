// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/jobs/jobfolder.h"
#include "core/remotebuild/unitpeak.h"
#include "core/util/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

// Build history in the history database (core/store/database.h), table `builds`, schema
// component "builds" (store::migrate; version 1 is the table as it was before versions):
//   id INTEGER PRIMARY KEY, job_id TEXT, profile TEXT, host TEXT (Transport::describe()),
//   started INTEGER (ms since epoch), ended INTEGER (ms; NULL while running), result TEXT
//   (running|succeeded|failed|cancelled|lost), exit_status INTEGER, steps_done INTEGER,
//   steps_total INTEGER, peak_mem_kb INTEGER (highest MemTotal-MemAvailable seen), errors INTEGER,
//   UNIQUE(host, job_id)
//   version 2: spec TEXT (buildSpec() JSON: what was built, environment NAMES only), oom INTEGER
//   (an out-of-memory kill was seen), first_error TEXT, actor TEXT (who started or first followed it)
//   version 3: table `build_unit_peaks` (host, profile, unit TEXT, kind TEXT, peak_kb INTEGER, job_id TEXT,
//   updated INTEGER ms; PRIMARY KEY(host, profile, unit)): per translation unit the peak memory the memory
//   gate learned (core/remotebuild/memorygate.h), the seed of the profile's next run on the host
// The deployment timeline reads its build events from here (core/timeline/eventstore.h).
namespace kf {

struct BuildProfile;

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
    QJsonObject spec; // buildSpec(); empty when the profile is not known
    bool oom = false;
    QString firstError;
    QString actor;
    // From its start on the server to its end there (the job folder's started/ended), whatever it did.
    qint64 durationMs() const { return started.isValid() && ended.isValid() ? started.msecsTo(ended) : -1; }
    // The folder it built in, as the profile named it ("~/sgl-kernel"); empty when not recorded.
    QString folder() const;
};

// What a build ran, for its history row and deployment recipes: name, working_dir, command,
// cmake_args, max_jobs, nvcc_threads, nvcc_threads_define, build_dir, memory_gate and env_names (the
// names of its environment variables: values never, they may be secrets).
QJsonObject buildSpec(const BuildProfile& profile);

// "succeeded" / "failed" / "cancelled" from an exit status.
QString buildResultFor(int exitStatus, bool cancelled);

// A comparison with the previous run of the same profile on the same host, for people. Durations
// are both job clocks (start to end on the server); a percentage only compares two successful runs
// (a failed one stopped early: "this run failed after 3 s; that one succeeded in 9 s").
QString compareBuilds(const BuildRecord& current, const BuildRecord& previous);

namespace buildhistory {
Result<void> ensureSchema();
// Inserts or updates by (host, job_id); returns the row id.
Result<qint64> save(const BuildRecord& record);
Result<QList<BuildRecord>> list(const QString& host = {}, int limit = 100);
// The builds of host that started or ended in [since, until] (invalid: open), oldest first.
Result<QList<BuildRecord>> inRange(const QString& host, const QDateTime& since, const QDateTime& until);
Result<std::optional<BuildRecord>> find(const QString& host, const QString& jobId);
// The last finished build of profile on host before `before` (another job).
Result<std::optional<BuildRecord>> previous(
    const QString& host, const QString& profile, const QString& excludeJobId = {});
// The peaks the memory gate learned for the profile's units on host, by unit.
Result<QList<UnitPeak>> learnedPeaks(const QString& host, const QString& profile);
// Replaces them with `peaks` (memorygate::learn() of the old ones and a run's), from job jobId.
Result<void> saveLearnedPeaks(
    const QString& host, const QString& profile, const QString& jobId, const QList<UnitPeak>& peaks);
// The profile's job (BuildProfile::toJobSpec) with its memory gate seeded from the peaks learned
// on host; a history that cannot be read seeds nothing (the gate starts from its first guesses).
JobSpec seededJobSpec(const BuildProfile& profile, const QString& host);
} // namespace buildhistory

} // namespace kf
