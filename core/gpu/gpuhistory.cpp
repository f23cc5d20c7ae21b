// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpuhistory.h"

#include <QDateTime>

namespace kf {

namespace {
// A charted field's series in a row.
size_t chartSlot(GpuField field)
{
    return size_t(gpuFieldInfo(field).chart - 1);
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
            for (auto& s : *row)
                s = std::make_unique<SeriesBuffer>();
        }
        for (const GpuField field : charted)
            (*row)[chartSlot(field)]->append(tMs, g.value(field));
    }
}

const SeriesBuffer* GpuHistory::series(int gpu, GpuField field) const
{
    const auto it = m_series.constFind(gpu);
    if (it == m_series.cend() || !*it || field == GpuField::Unknown || gpuFieldInfo(field).chart <= 0)
        return nullptr;
    return (**it)[chartSlot(field)].get();
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
        out += '_' + unit.toLower().toUtf8();
    }
    out += '\n';
    for (auto it = m_series.cbegin(); it != m_series.cend(); ++it) {
        std::array<std::vector<SeriesBuffer::Point>, kGpuChartCount> cols;
        for (int m = 0; m < kGpuChartCount; ++m)
            cols[size_t(m)] = (**it)[size_t(m)]->points(0, fromMs, toMs);
        for (size_t i = 0; i < cols[0].size(); ++i) {
            out += QDateTime::fromMSecsSinceEpoch(cols[0][i].t, Qt::UTC).toString(Qt::ISODateWithMs).toUtf8();
            out += ',' + QByteArray::number(it.key());
            for (int m = 0; m < kGpuChartCount; ++m) {
                out += ',';
                if (i < cols[size_t(m)].size() && hasValue(cols[size_t(m)][i].min))
                    out += QByteArray::number(double(cols[size_t(m)][i].min), 'g', 6);
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
            bytes += s->memoryBytes();
    }
    return bytes;
}

} // namespace kf
