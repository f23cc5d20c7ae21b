// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpmdmon.h"

#include "core/util/bytelines.h"
#include "core/util/shellquote.h"

#include <QVarLengthArray>

#include <charconv>
#include <cmath>

namespace kf {

namespace {

constexpr int kMaxMessages = 20;
constexpr int kMaxColumns = 128;
constexpr double kMaxPercent = 100.5; // rounding may print 101 of 100.4
constexpr double kMaxMiBps = 1e9;

bool separator(char c, bool csv)
{
    return csv ? c == ',' : (c == ' ' || c == '\t');
}

bool blank(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

// The fields of one line: comma-separated when the line has a comma (--format csv), else
// blank-separated; each trimmed. At most kMaxColumns (a longer line is not dmon's).
using Fields = QVarLengthArray<QByteArrayView, 32>;
bool splitFields(QByteArrayView line, Fields& out)
{
    out.clear();
    const bool csv = line.contains(',');
    qsizetype i = 0;
    const qsizetype n = line.size();
    while (i < n) {
        if (!csv) {
            while (i < n && blank(line[i]))
                ++i;
            if (i == n)
                break;
        }
        qsizetype end = i;
        while (end < n && !separator(line[end], csv))
            ++end;
        qsizetype b = i, e = end;
        while (b < e && blank(line[b]))
            ++b;
        while (e > b && blank(line[e - 1]))
            --e;
        if (out.size() == kMaxColumns)
            return false;
        out.append(line.sliced(b, e - b));
        i = end + 1;
    }
    return true;
}

// A dmon value: "-" (or anything not a number) is no value; out-of-range is no value.
double dmonValue(QByteArrayView v, bool percent)
{
    double out = 0;
    const auto res = std::from_chars(v.data(), v.data() + v.size(), out);
    if (v.isEmpty() || res.ec != std::errc() || res.ptr != v.data() + v.size() || !std::isfinite(out) || out < 0
        || out > (percent ? kMaxPercent : kMaxMiBps))
        return noValue();
    return out;
}

int gpuIndex(QByteArrayView v)
{
    int out = -1;
    const auto res = std::from_chars(v.data(), v.data() + v.size(), out);
    return (v.isEmpty() || res.ec != std::errc() || res.ptr != v.data() + v.size() || out < 0 || out > 4096) ? -1 : out;
}

// A header names the GPU column ("gpu"); the units line under it ("Idx", "W", "GPM:%") does not.
bool readHeader(const Fields& names, DmonLayout& layout)
{
    DmonLayout next;
    for (qsizetype i = 0; i < names.size(); ++i) {
        const QByteArrayView name = names[i];
        if (name.compare(QByteArrayView("gpu"), Qt::CaseInsensitive) == 0)
            next.gpuColumn = int(i);
        next.columns.append(gpmFieldFromColumn(name));
    }
    if (!next.known())
        return false;
    layout = std::move(next);
    return true;
}

} // namespace

GpuField gpmFieldFromColumn(QByteArrayView name)
{
    for (const GpuField field : gpmGpuFields()) {
        const QList<QByteArray> spellings = QByteArray(gpuFieldInfo(field).names).split(' ');
        for (qsizetype i = 1; i < spellings.size(); ++i)
            if (!spellings[i].isEmpty() && name.compare(spellings[i], Qt::CaseInsensitive) == 0)
                return field;
    }
    return GpuField::Unknown;
}

DmonResult parseDmon(QByteArrayView data, const DmonLayout& layout)
{
    DmonResult result;
    result.layout = layout;
    Fields fields;
    ByteLines lines(data);
    for (QByteArrayView line; lines.next(line);) {
        while (!line.isEmpty() && blank(line.back()))
            line.chop(1);
        while (!line.isEmpty() && blank(line.front()))
            line = line.sliced(1);
        if (line.isEmpty())
            continue;
        if (line.front() == '#') {
            if (splitFields(line.sliced(1), fields))
                readHeader(fields, result.layout);
            continue;
        }
        const bool split = splitFields(line, fields);
        const DmonLayout& l = result.layout;
        const bool digitFirst = !fields.isEmpty() && !fields[0].isEmpty() && fields[0][0] >= '0' && fields[0][0] <= '9';
        if (!digitFirst) {
            // Not a data line: nvidia-smi's own words (an error, a notice).
            if (result.messages.size() < kMaxMessages)
                result.messages.append(QString::fromUtf8(firstBytes(line, 400)));
            continue;
        }
        if (!split || !l.known() || fields.size() != l.columns.size()) {
            ++result.badLines;
            continue;
        }
        GpuSample s;
        s.index = gpuIndex(fields[l.gpuColumn]);
        if (s.index < 0) {
            ++result.badLines;
            continue;
        }
        for (qsizetype i = 0; i < fields.size(); ++i) {
            const GpuField field = l.columns[i];
            if (field != GpuField::Unknown)
                s.setValue(field, dmonValue(fields[i], gpuFieldUnit(field) == QLatin1String("%")));
        }
        result.samples.append(std::move(s));
    }
    return result;
}

int dmonIntervalSeconds(int intervalMs)
{
    return qBound(1, (intervalMs + 999) / 1000, 10);
}

QString gpmMetricIds(const QList<GpuField>& metrics)
{
    QStringList ids;
    for (const GpuField f : metrics)
        if (const int id = gpmMetricId(f); id > 0)
            ids << QString::number(id);
    return ids.join(u',');
}

QString gpmStreamCommand(const QString& nvidiaSmi, const QList<GpuField>& metrics, int intervalS)
{
    const QString dmon = shellQuote(nvidiaSmi) + QStringLiteral(" dmon -s p --gpm-metrics ") + gpmMetricIds(metrics)
        + QStringLiteral(" -d ") + QString::number(qBound(1, intervalS, 10));
    return QStringLiteral("if command -v stdbuf >/dev/null 2>&1; then exec stdbuf -oL %1; else exec %1; fi").arg(dmon);
}

} // namespace kf
