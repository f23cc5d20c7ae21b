// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/timeline/event.h"
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
// (core/log/secretregistry.h) last. Pure.
namespace kf::timeline {

struct ReportSeries
{
    Series series = Series::Power;
    QList<QPointF> points; // x = ms since the epoch, NaN y: a gap
};

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
