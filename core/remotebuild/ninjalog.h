// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArrayView>
#include <QList>
#include <QString>

// Ninja's build log (<build dir>/.ninja_log).
//
// Wire format:
//   "# ninja log v5\n" (v6, v7 the same columns; v4 and older are refused)
//   then one line per finished edge, tab-separated:
//     start_ms \t end_ms \t mtime \t output_path \t command_hash
//   start/end are milliseconds since that ninja invocation started; every invocation appends,
//   so the end times restart from a small number where a new run begins. Lines are appended
//   as edges finish: within one run end times never go down. A line may be cut short when
//   ninja was killed: a last line without all five fields is counted in truncatedLines and
//   skipped; every complete line is kept. Times are ninja's own (milliseconds since the
//   invocation started): a line whose start is negative, whose end is before its start or
//   past 2^32 ms (49 days) is impossible, counted in badLines and skipped, so durations and
//   sums of a crafted log cannot overflow.
namespace kf {

struct NinjaLogEntry
{
    qint64 startMs = 0;
    qint64 endMs = 0;
    QString output;
    qint64 durationMs() const { return endMs - startMs; }
    bool operator==(const NinjaLogEntry&) const = default;
};

struct NinjaLog
{
    int version = 0;
    QList<NinjaLogEntry> lastRun; // entries of the most recent invocation, in log order
    int runs = 0;                 // invocations found in the file
    int truncatedLines = 0;
    QString error;    // non-empty: not a ninja log
    int badLines = 0; // complete lines with impossible times (after `error`: aggregate users)
    explicit operator bool() const { return error.isEmpty(); }

    // Wall time of the last run: its largest end time.
    qint64 wallMs() const;
    // Sum of edge durations of the last run (CPU-ish time; wall x parallelism).
    qint64 totalEdgeMs() const;
    // The n slowest edges of the last run, slowest first (unique outputs).
    QList<NinjaLogEntry> slowest(int n) const;
};

NinjaLog parseNinjaLog(QByteArrayView data);

} // namespace kf
