// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QList>
#include <QPointF>
#include <QString>

// A chart's series as one CSV table (what Export CSV writes):
//
//   time_utc,epoch_ms,GPU utilization: GPU 0 (%),GPU utilization: GPU 1 (%)
//   2026-12-02T11:08:17.000Z,1764673697000,41,
//   2026-12-02T11:08:18.000Z,1764673698000,42.5,40
//
// One row per distinct time of any series, oldest first; time as ISO 8601 UTC with
// milliseconds and as ms since the epoch; one column per series, named "title: name (unit)"
// (parts left out when empty). A series without a value at a row's time, or with a gap (NaN)
// there, has an empty cell: no value is never written as 0. A field holding a comma, a quote
// or a line break is quoted as RFC 4180 says ("" inside). Lines end with CRLF (RFC 4180).
// No series, or none with points: the header alone.
namespace kf {

struct CsvSeries
{
    QString title;         // the chart's ("GPU utilization"); may be empty
    QString name;          // the series' ("GPU 0"); may be empty
    QString unit;          // "%", "tok/s"; may be empty
    QList<QPointF> points; // x: ms since the epoch (ascending), y: value (NaN: a gap)
};

// "title: name (unit)"
QString csvColumnName(const CsvSeries& series);
QByteArray seriesCsv(const QList<CsvSeries>& series);

} // namespace kf
