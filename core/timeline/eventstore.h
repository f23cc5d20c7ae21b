// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/events/eventlog.h"
#include "core/util/result.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

// A host's timeline as read: the recorded events (core/events/eventlog.h) merged with the
// facts that live elsewhere, so they are never copied (docs/design/timeline.md): builds
// from `builds` (core/remotebuild/buildhistory) and serving benchmarks from `bench_runs`
// (core/servebench/benchstore). Thread-safe like the database.
namespace kf::timeline {

// Oldest first (time, then id); events of builds and benchmark runs come from their tables.
Result<QList<Event>> events(const Query& query);
// The time of the host's first event (invalid: none yet).
Result<QDateTime> firstTime(const QString& host);
// Every host with an event, a build or a benchmark run, sorted.
Result<QStringList> hosts();

} // namespace kf::timeline
