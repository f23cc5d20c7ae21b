// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/events/event.h"
#include "core/timeline/seriesrecorder.h"

#include <QByteArray>
#include <QDateTime>
#include <QList>
#include <QPointF>
#include <QString>

// A bring-up's timeline as one file a person can attach to a bug report: self-contained HTML
// (no scripts, no network) holding an inline SVG drawing (the events as markers in lanes on
// one time axis above the measured series, gaps left as gaps), the events as a table, and the
// same events as JSON in <script type="application/json" id="kf-timeline">, which tools read
// back with eventsFromReport(). The whole document passes through the secret redaction
// (core/util/secretregistry.h) last. Pure.
namespace kf::timeline {

struct ReportSeries
{
    Series series = Series::Power;
    QList<QPointF> points; // x = ms since the epoch, NaN y: a gap
    QString label;         // which one of the series' kind ("port 30000 · Qwen/Qwen3-8B": a server's tok/s)
};

// The report's series for a host: the GPU ones, then a tok/s chart per server (serverTokenSeries).
QList<ReportSeries> reportSeries(const SeriesRecorder* recorder, const QString& host, const QList<MinuteRow>& minutes,
    const QList<ServerMinuteRow>& serverMinutes, qint64 fromMs, qint64 toMs, int columns = 1000);

struct ReportInput
{
    QString host;
    qint64 fromMs = 0;
    qint64 toMs = 0;
    QList<Event> events;
    QList<ReportSeries> series;
    QDateTime generated; // UTC
};

QString timelineSvg(const ReportInput& input, int width = 1100);
QByteArray htmlReport(const ReportInput& input);
// The events of a report written by htmlReport().
Result<QList<Event>> eventsFromReport(const QByteArray& html);

} // namespace kf::timeline
