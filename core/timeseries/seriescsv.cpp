// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/timeseries/seriescsv.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <vector>

namespace kf {

namespace {

QByteArray field(const QString& text)
{
    QByteArray utf8 = text.toUtf8();
    if (!utf8.contains(',') && !utf8.contains('"') && !utf8.contains('\n') && !utf8.contains('\r'))
        return utf8;
    utf8.replace("\"", "\"\"");
    return '"' + utf8 + '"';
}

} // namespace

QString csvColumnName(const CsvSeries& s)
{
    QString name = s.title;
    if (!s.name.isEmpty())
        name = name.isEmpty() ? s.name : name + QStringLiteral(": ") + s.name;
    if (!s.unit.isEmpty())
        name += (name.isEmpty() ? QString() : QStringLiteral(" ")) + QStringLiteral("(") + s.unit + u')';
    return name;
}

QByteArray seriesCsv(const QList<CsvSeries>& series)
{
    QByteArray out = "time_utc,epoch_ms";
    for (const CsvSeries& s : series)
        out += ',' + field(csvColumnName(s));
    out += "\r\n";
    // Every (time, series, value) sorted by time then series: one pass writes the rows. When a
    // series holds two points at one time, the later one (in its order) is kept.
    struct Cell
    {
        qint64 t;
        int series;
        qsizetype order;
        double value;
    };
    std::vector<Cell> cells;
    qsizetype total = 0;
    for (const CsvSeries& s : series)
        total += s.points.size();
    cells.reserve(size_t(total));
    for (int i = 0; i < series.size(); ++i) {
        const QList<QPointF>& pts = series.at(i).points;
        for (qsizetype k = 0; k < pts.size(); ++k)
            cells.push_back({ qint64(std::llround(pts.at(k).x())), i, k, pts.at(k).y() });
    }
    std::sort(cells.begin(), cells.end(), [](const Cell& a, const Cell& b) {
        return a.t != b.t ? a.t < b.t : (a.series != b.series ? a.series < b.series : a.order < b.order);
    });
    std::vector<double> row(size_t(series.size()));
    for (size_t i = 0; i < cells.size();) {
        const qint64 t = cells[i].t;
        std::fill(row.begin(), row.end(), std::nan(""));
        for (; i < cells.size() && cells[i].t == t; ++i)
            row[size_t(cells[i].series)] = cells[i].value;
        out += QDateTime::fromMSecsSinceEpoch(t, Qt::UTC)
                   .toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss.zzzZ"))
                   .toLatin1();
        out += ',' + QByteArray::number(t);
        for (const double v : row) {
            out += ',';
            if (std::isfinite(v))
                out += QByteArray::number(v, 'g', 12);
        }
        out += "\r\n";
    }
    return out;
}

} // namespace kf
