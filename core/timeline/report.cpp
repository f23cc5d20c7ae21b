// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/timeline/report.h"

#include "core/util/secretregistry.h"

#include <QHash>
#include <QJsonArray>
#include <QJsonDocument>

#include <cmath>
#include <limits>

namespace kf::timeline {
namespace {

constexpr int kLeft = 170; // lane and chart labels
constexpr int kRight = 20;
constexpr int kLaneH = 22;
constexpr int kChartH = 90;
constexpr int kGap = 14;

QString esc(const QString& s)
{
    return s.toHtmlEscaped();
}

QString timeLabel(qint64 ms, qint64 spanMs)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms).toLocalTime();
    if (spanMs > 3LL * 24 * 3600 * 1000)
        return t.toString(QStringLiteral("MMM d"));
    if (spanMs > 12LL * 3600 * 1000)
        return t.toString(QStringLiteral("MMM d HH:mm"));
    return t.toString(QStringLiteral("HH:mm"));
}

} // namespace

QList<ReportSeries> reportSeries(const SeriesRecorder* recorder, const QString& host, const QList<MinuteRow>& minutes,
    const QList<ServerMinuteRow>& serverMinutes, qint64 fromMs, qint64 toMs, int columns)
{
    QList<ReportSeries> out;
    for (int s = 0; s < kSeriesCount; ++s) {
        const Series series = Series(s);
        if (series != Series::Tokens) {
            const SeriesBuffer* live = recorder ? recorder->live(host, series) : nullptr;
            out.append({ series, mergedSeries(live, minutes, series, fromMs, toMs, columns), {} });
            continue;
        }
        const QList<LabelledSeries> servers
            = serverTokenSeries(recorder, host, serverMinutes, minutes, fromMs, toMs, columns);
        for (const LabelledSeries& server : servers)
            out.append({ series, server.points, server.label });
        if (servers.isEmpty())
            out.append({ series, {}, {} }); // "not measured in this period"
    }
    return out;
}

QString timelineSvg(const ReportInput& in, int width)
{
    QStringList lanes = categories();
    for (const Event& e : in.events)
        if (!lanes.contains(category(e.kind)))
            lanes.append(category(e.kind));
    const int plotW = width - kLeft - kRight;
    const qint64 span = qMax<qint64>(1, in.toMs - in.fromMs);
    auto x = [&](double ms) { return kLeft + (ms - double(in.fromMs)) * plotW / double(span); };
    const int lanesH = int(lanes.size()) * kLaneH;
    const int height = 24 + lanesH + kGap + int(in.series.size()) * (kChartH + kGap) + 20;
    QString svg
        = QStringLiteral("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%1\" height=\"%2\" viewBox=\"0 0 %1 %2\" "
                         "font-family=\"sans-serif\" font-size=\"11\">\n")
              .arg(width)
              .arg(height);
    svg += QStringLiteral("<rect width=\"%1\" height=\"%2\" fill=\"#ffffff\"/>\n").arg(width).arg(height);
    // Time axis: six labels with grid lines through everything.
    for (int i = 0; i <= 6; ++i) {
        const qint64 t = in.fromMs + span * i / 6;
        const double px = x(double(t));
        svg += QStringLiteral("<line x1=\"%1\" y1=\"18\" x2=\"%1\" y2=\"%2\" stroke=\"#e4e4e4\"/>"
                              "<text x=\"%1\" y=\"13\" text-anchor=\"middle\" fill=\"#555\">%3</text>\n")
                   .arg(px, 0, 'f', 1)
                   .arg(height - 20)
                   .arg(esc(timeLabel(t, span)));
    }
    int y = 24;
    for (const QString& lane : std::as_const(lanes)) {
        svg += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"end\" fill=\"#333\">%3</text>"
                              "<line x1=\"%4\" y1=\"%5\" x2=\"%6\" y2=\"%5\" stroke=\"#f0f0f0\"/>\n")
                   .arg(kLeft - 8)
                   .arg(y + kLaneH / 2 + 4)
                   .arg(esc(lane))
                   .arg(kLeft)
                   .arg(y + kLaneH / 2)
                   .arg(width - kRight);
        for (const Event& e : in.events) {
            if (category(e.kind) != lane)
                continue;
            const qint64 t = e.time.toMSecsSinceEpoch();
            if (t < in.fromMs || t > in.toMs)
                continue;
            const bool bad = isFailure(e);
            svg += QStringLiteral("<circle cx=\"%1\" cy=\"%2\" r=\"5\" fill=\"%3\" stroke=\"%4\" stroke-width=\"%5\">"
                                  "<title>%6 %7: %8</title></circle>\n")
                       .arg(x(double(t)), 0, 'f', 1)
                       .arg(y + kLaneH / 2)
                       .arg(categoryColor(lane), bad ? QStringLiteral("#d62728") : QStringLiteral("#ffffff"))
                       .arg(bad ? 2.5 : 1.0)
                       .arg(esc(e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))), esc(e.kind),
                           esc(e.summary));
        }
        y += kLaneH;
    }
    y += kGap;
    for (const ReportSeries& s : in.series) {
        double lo = std::numeric_limits<double>::infinity(), hi = -lo;
        for (const QPointF& p : s.points) {
            if (std::isfinite(p.y()) && p.x() >= double(in.fromMs) && p.x() <= double(in.toMs)) {
                lo = std::min(lo, p.y());
                hi = std::max(hi, p.y());
            }
        }
        svg += QStringLiteral("<rect x=\"%1\" y=\"%2\" width=\"%3\" height=\"%4\" fill=\"none\" stroke=\"#ccc\"/>"
                              "<text x=\"%5\" y=\"%6\" text-anchor=\"end\" fill=\"#333\">%7</text>\n")
                   .arg(kLeft)
                   .arg(y)
                   .arg(plotW)
                   .arg(kChartH)
                   .arg(kLeft - 8)
                   .arg(y + 14)
                   .arg(esc(seriesTitle(s.series)));
        if (!s.label.isEmpty()) // which server: inside the plot, where a long name has room
            svg += QStringLiteral("<text x=\"%1\" y=\"%2\" fill=\"#333\">%3</text>\n")
                       .arg(kLeft + 6)
                       .arg(y + 14)
                       .arg(esc(s.label));
        if (!std::isfinite(lo)) {
            svg += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"middle\" fill=\"#999\">not measured in this "
                                  "period</text>\n")
                       .arg(kLeft + plotW / 2)
                       .arg(y + kChartH / 2 + 4);
            y += kChartH + kGap;
            continue;
        }
        if (hi - lo < 1e-9) {
            hi += 1;
            lo = std::max(0.0, lo - 1);
        }
        auto py = [&](double v) { return y + kChartH - 4 - (v - lo) * (kChartH - 8) / (hi - lo); };
        svg += QStringLiteral("<text x=\"%1\" y=\"%2\" text-anchor=\"end\" fill=\"#777\">%3 %5</text>"
                              "<text x=\"%1\" y=\"%4\" text-anchor=\"end\" fill=\"#777\">%6 %5</text>\n")
                   .arg(kLeft - 8)
                   .arg(y + 30)
                   .arg(hi, 0, 'f', hi < 10 ? 1 : 0)
                   .arg(y + kChartH - 2)
                   .arg(esc(seriesUnit(s.series)))
                   .arg(lo, 0, 'f', lo < 10 ? 1 : 0);
        QString run;
        auto flush = [&] {
            if (!run.isEmpty())
                svg += QStringLiteral(
                    "<polyline fill=\"none\" stroke=\"#1f77b4\" stroke-width=\"1.4\" points=\"%1\"/>\n")
                           .arg(run.trimmed());
            run.clear();
        };
        for (const QPointF& p : s.points) {
            if (!std::isfinite(p.y()) || p.x() < double(in.fromMs) || p.x() > double(in.toMs)) {
                flush();
                continue;
            }
            run += QStringLiteral("%1,%2 ").arg(x(p.x()), 0, 'f', 1).arg(py(p.y()), 0, 'f', 1);
        }
        flush();
        y += kChartH + kGap;
    }
    svg += QStringLiteral("</svg>\n");
    return svg;
}

QByteArray htmlReport(const ReportInput& in)
{
    QJsonArray events;
    for (const Event& e : in.events)
        events.append(e.toJson());
    const QJsonObject data { { QStringLiteral("host"), in.host },
        { QStringLiteral("from"), QDateTime::fromMSecsSinceEpoch(in.fromMs, Qt::UTC).toString(Qt::ISODateWithMs) },
        { QStringLiteral("to"), QDateTime::fromMSecsSinceEpoch(in.toMs, Qt::UTC).toString(Qt::ISODateWithMs) },
        { QStringLiteral("generated"), in.generated.toUTC().toString(Qt::ISODateWithMs) },
        { QStringLiteral("events"), events } };
    // "</" would end the script element early.
    const QString json = QString::fromUtf8(QJsonDocument(data).toJson(QJsonDocument::Indented))
                             .replace(QStringLiteral("</"), QStringLiteral("<\\/"));
    QString rows;
    for (const Event& e : in.events)
        rows += QStringLiteral("<tr><td>%1</td><td>%2</td><td>%3</td><td>%4</td></tr>\n")
                    .arg(esc(e.time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))), esc(e.kind),
                        esc(e.summary), esc(e.actor));
    const QString title = QStringLiteral("KernelForge timeline of %1").arg(in.host);
    QString html = QStringLiteral(
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>%1</title>\n"
        "<style>body{font-family:sans-serif;margin:24px;color:#222}table{border-collapse:collapse;font-size:13px}"
        "td,th{border-bottom:1px solid #ddd;padding:4px 8px;text-align:left;vertical-align:top}"
        "th{background:#f4f4f4}.meta{color:#555}</style></head><body>\n"
        "<h1>%1</h1>\n<p class=\"meta\">From %2 to %3 (local time); generated %4 by KernelForge. Markers are "
        "what KernelForge did or saw; the charts show only what it measured (blank where it did not).</p>\n"
        "%5\n<h2>Events</h2>\n<table><tr><th>Time</th><th>Kind</th><th>What</th><th>By</th></tr>\n%6</table>\n"
        "<script type=\"application/json\" id=\"kf-timeline\">\n%7</script>\n</body></html>\n")
                       .arg(esc(title),
                           esc(QDateTime::fromMSecsSinceEpoch(in.fromMs).toLocalTime().toString(
                               QStringLiteral("yyyy-MM-dd HH:mm"))),
                           esc(QDateTime::fromMSecsSinceEpoch(in.toMs).toLocalTime().toString(
                               QStringLiteral("yyyy-MM-dd HH:mm"))),
                           esc(in.generated.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm:ss"))),
                           timelineSvg(in), rows, json);
    return redact(html).toUtf8();
}

Result<QList<Event>> eventsFromReport(const QByteArray& html)
{
    const QByteArray open = "<script type=\"application/json\" id=\"kf-timeline\">";
    const qsizetype start = html.indexOf(open);
    const qsizetype end = start < 0 ? -1 : html.indexOf("</script>", start);
    if (start < 0 || end < 0)
        return Result<QList<Event>>::failure(QStringLiteral("not a KernelForge timeline report (no kf-timeline data)"));
    // "<\/" is JSON's own escape of "</": it reads back as it was.
    const QByteArray json = html.mid(start + open.size(), end - start - open.size());
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &error);
    if (!doc.isObject())
        return Result<QList<Event>>::failure(
            QStringLiteral("the report's data is not JSON: %1").arg(error.errorString()));
    QList<Event> out;
    for (const QJsonValue& v : doc.object().value(QStringLiteral("events")).toArray()) {
        auto e = Event::fromJson(v.toObject());
        if (!e)
            return Result<QList<Event>>::failure(e.error());
        out.append(e.value());
    }
    return out;
}

} // namespace kf::timeline
