// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/events/event.h"
#include "core/util/result.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// The event log: what happened on a host, recorded where it happens. The lowest layer above
// the store (docs/DESIGN.md, "Core's layers"), so every domain records its own events
// (core/patch/patchevents.h, core/server/serverevents.h, core/hosts/hostevents.h,
// core/events/verification.h) without knowing the timeline that merges them with the builds
// and benchmark runs (core/timeline/eventstore.h).
// Tables in the history database (core/store/database.h), schema component "timeline"
// (store::migrate):
//   timeline_events(id, t ms UTC, host, kind, actor, summary, details JSON, key UNIQUE)
//   timeline_minutes(host, t ms, power_w, temp_c, mem_pct, tok_s)   (core/timeline/seriesrecorder.h)
//   timeline_server_minutes(host, port, model, t ms, tok_s)           (core/timeline/seriesrecorder.h)
// Patch applies and rollbacks are events that name their journal rows (patch_applies); reading
// them fills in each file's path and hashes from the journal, never copied here.
// Thread-safe like the database: each thread uses its own connection.
namespace kf::timeline {

Result<void> ensureSchema();

// Records one event. An invalid time is now; an empty actor is defaultActor(). The summary
// and details pass through the secret redaction (core/util/secretregistry.h) first: a value registered
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
// The recorded events only (no builds, no benchmark runs: core/timeline/eventstore.h merges
// them in), oldest first (time, then id).
Result<QList<Event>> recorded(const Query& query);
// The newest recorded event of that kind on host.
Result<std::optional<Event>> latest(const QString& host, const QString& kind);

} // namespace kf::timeline
