// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpuhistory.h"

#include <QDateTime>

#include <algorithm>

namespace kf {

namespace {
// A charted field's series in a row.
size_t chartSlot(GpuField field)
{
    return size_t(gpuFieldInfo(field).chart - 1);
}

bool isGpm(GpuField field)
{
    return gpuFieldInfo(field).source == GpuFieldSource::Dmon;
}
} // namespace

void GpuHistory::append(qint64 tMs, const QList<GpuSample>& gpus)
{
    static const QList<GpuField> charted = gpuChartFields();
    for (const auto& g : gpus) {
        if (g.index < 0)
            continue;
        auto& row = m_series[g.index];
        if (!row) {
            row = std::make_shared<Row>();
            for (const GpuField field : charted)
                if (!isGpm(field))
                    (*row)[chartSlot(field)] = std::make_unique<SeriesBuffer>();
        }
        const bool gpmValue = std::any_of(
            charted.cbegin(), charted.cend(), [&](GpuField f) { return isGpm(f) && hasValue(g.value(f)); });
        for (const GpuField field : charted) {
            auto& series = (*row)[chartSlot(field)];
            if (!series && gpmValue)
                series = std::make_unique<SeriesBuffer>();
            if (series)
                series->append(tMs, g.value(field));
        }
    }
}

const SeriesBuffer* GpuHistory::series(int gpu, GpuField field) const
{
    const auto it = m_series.constFind(gpu);
    if (it == m_series.cend() || !*it || field == GpuField::Unknown || gpuFieldInfo(field).chart <= 0)
        return nullptr;
    return (**it)[chartSlot(field)].get();
}

double GpuHistory::mean(int gpu, GpuField field, qint64 fromMs, qint64 toMs) const
{
    const SeriesBuffer* s = series(gpu, field);
    if (!s)
        return noValue();
    double sum = 0;
    int n = 0;
    for (const SeriesBuffer::Point& p : s->points(0, fromMs, toMs))
        if (hasValue(p.min)) {
            sum += p.min;
            ++n;
        }
    return n ? sum / n : noValue();
}

QByteArray GpuHistory::toCsv(qint64 fromMs, qint64 toMs) const
{
    // Slots are chart places: column m is the field in place m + 1.
    QByteArray out = "time,gpu";
    for (const GpuField field : gpuChartFields()) {
        out += ',' + gpuFieldLabel(field).toLower().replace(u' ', u'_').toUtf8();
        QString unit = gpuFieldUnit(field);
        if (unit == QStringLiteral("°C"))
            unit = QStringLiteral("c");
        else if (unit == QStringLiteral("%"))
            unit = QStringLiteral("pct");
        out += '_' + unit.toLower().replace(u'/', u'_').toUtf8();
    }
    out += '\n';
    for (auto it = m_series.cbegin(); it != m_series.cend(); ++it) {
        std::array<std::vector<SeriesBuffer::Point>, kGpuChartCount> cols;
        for (int m = 0; m < kGpuChartCount; ++m)
            if (const auto& series = (**it)[size_t(m)])
                cols[size_t(m)] = series->points(0, fromMs, toMs);
        // Slot 0 (utilization) is never a GPM series: it has every sample. A series made later
        // holds the tail of them: column m's point i - offset[m] belongs to row i.
        const size_t rows = cols[0].size();
        for (size_t i = 0; i < rows; ++i) {
            out += QDateTime::fromMSecsSinceEpoch(cols[0][i].t, Qt::UTC).toString(Qt::ISODateWithMs).toUtf8();
            out += ',' + QByteArray::number(it.key());
            for (int m = 0; m < kGpuChartCount; ++m) {
                out += ',';
                const auto& col = cols[size_t(m)];
                const size_t offset = rows - qMin(rows, col.size());
                if (i >= offset && hasValue(col[i - offset].min))
                    out += QByteArray::number(double(col[i - offset].min), 'g', 6);
            }
            out += '\n';
        }
    }
    return out;
}

size_t GpuHistory::memoryBytes() const
{
    size_t bytes = 0;
    for (const auto& row : m_series) {
        for (const auto& s : *row)
            bytes += s ? s->memoryBytes() : 0;
    }
    return bytes;
}

} // namespace kf
