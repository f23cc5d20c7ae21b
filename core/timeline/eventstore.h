// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/timeline/event.h"
#include "core/util/result.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// The timeline's events in the history database (core/store/database.h), schema component
// "timeline" (store::migrate), version 1:
//   timeline_events(id, t ms UTC, host, kind, actor, summary, details JSON, key UNIQUE)
//   timeline_minutes(host, t ms, power_w, temp_c, mem_pct, tok_s)   (core/timeline/seriesrecorder.h)
// One source of truth per fact (docs/DESIGN.md, "Timeline"): builds live in `builds`
// (core/remotebuild/buildhistory) and serving benchmarks in `bench_runs`
// (core/servebench/benchstore); events() reads them from there and merges them in, so they
// are never copied here. Patch applies and rollbacks are events here that name their journal
// rows (patch_applies); events() fills in each file's path and hashes from the journal.
// Everything else a producer records (core/timeline/producers.h).
// Thread-safe like the database: each thread uses its own connection.
namespace kf::timeline {

Result<void> ensureSchema();

// Records one event. An invalid time is now; an empty actor is defaultActor(). The summary
// and details pass through the secret redaction (core/log/secretregistry.h) first: a value registered
// as a secret never reaches the database. With a key, an event already recorded under that
// key is left as it is (returns 0). Returns the row id.
Result<qint64> record(Event event);
// record(), with a failure logged (the "timeline" logger) instead of returned: what producers
// call, so that a broken history never stops the work it records.
void recordOrWarn(const Event& event);

// "alice (kernelforge-cli)": the local user and the program's file name.
QString defaultActor();

struct Query
{
    QString host;      // required
    QDateTime since;   // invalid: from the beginning
    QDateTime until;   // invalid: up to now and beyond
    QStringList kinds; // empty: every kind
    int limit = 100000;
};
// Oldest first (time, then id); events of builds and benchmark runs come from their tables.
Result<QList<Event>> events(const Query& query);
// The newest event of that kind on host (from timeline_events only).
Result<std::optional<Event>> latest(const QString& host, const QString& kind);
// The time of the host's first event (invalid: none yet).
Result<QDateTime> firstTime(const QString& host);
// Every host with an event, a build or a benchmark run, sorted.
Result<QStringList> hosts();

} // namespace kf::timeline
