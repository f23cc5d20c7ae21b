// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpuhistory.h"

#include <QDateTime>

#include <cmath>

namespace kf {

QString gpuMetricName(GpuMetric metric)
{
    switch (metric) {
    case GpuMetric::Utilization: return QStringLiteral("Utilization");
    case GpuMetric::MemoryUsedPercent: return QStringLiteral("Memory used");
    case GpuMetric::Temperature: return QStringLiteral("Temperature");
    case GpuMetric::Power: return QStringLiteral("Power");
    case GpuMetric::SmClock: return QStringLiteral("SM clock");
    case GpuMetric::MemoryUtilization: return QStringLiteral("Memory bandwidth");
    }
    return {};
}

QString gpuMetricUnit(GpuMetric metric)
{
    switch (metric) {
    case GpuMetric::Utilization:
    case GpuMetric::MemoryUsedPercent:
    case GpuMetric::MemoryUtilization: return QStringLiteral("%");
    case GpuMetric::Temperature: return QStringLiteral("°C");
    case GpuMetric::Power: return QStringLiteral("W");
    case GpuMetric::SmClock: return QStringLiteral("MHz");
    }
    return {};
}

double gpuMetricValue(const GpuSample& s, GpuMetric metric)
{
    switch (metric) {
    case GpuMetric::Utilization: return s.utilGpu;
    case GpuMetric::MemoryUsedPercent: return hasValue(s.memFraction()) ? s.memFraction() * 100.0 : kNoValue;
    case GpuMetric::Temperature: return s.tempGpuC;
    case GpuMetric::Power: return s.powerW;
    case GpuMetric::SmClock: return s.smClockMHz;
    case GpuMetric::MemoryUtilization: return s.utilMemory;
    }
    return kNoValue;
}

void GpuHistory::append(qint64 tMs, const QList<GpuSample>& gpus)
{
    for (const auto& g : gpus) {
        if (g.index < 0)
            continue;
        auto& row = m_series[g.index];
        if (!row) {
            row = std::make_shared<Row>();
            for (auto& s : *row)
                s = std::make_unique<SeriesBuffer>();
        }
        for (int m = 0; m < kGpuMetricCount; ++m)
            (*row)[size_t(m)]->append(tMs, gpuMetricValue(g, GpuMetric(m)));
    }
}

const SeriesBuffer* GpuHistory::series(int gpu, GpuMetric metric) const
{
    const auto it = m_series.constFind(gpu);
    if (it == m_series.cend() || !*it)
        return nullptr;
    return (**it)[size_t(metric)].get();
}

QByteArray GpuHistory::toCsv(qint64 fromMs, qint64 toMs) const
{
    QByteArray out = "time,gpu";
    for (int m = 0; m < kGpuMetricCount; ++m) {
        const auto metric = GpuMetric(m);
        out += ',' + gpuMetricName(metric).toLower().replace(u' ', u'_').toUtf8();
        QString unit = gpuMetricUnit(metric);
        if (unit == QStringLiteral("°C"))
            unit = QStringLiteral("c");
        else if (unit == QStringLiteral("%"))
            unit = QStringLiteral("pct");
        out += '_' + unit.toLower().toUtf8();
    }
    out += '\n';
    for (auto it = m_series.cbegin(); it != m_series.cend(); ++it) {
        std::array<std::vector<SeriesBuffer::Point>, kGpuMetricCount> cols;
        for (int m = 0; m < kGpuMetricCount; ++m)
            cols[size_t(m)] = (**it)[size_t(m)]->points(0, fromMs, toMs);
        for (size_t i = 0; i < cols[0].size(); ++i) {
            out += QDateTime::fromMSecsSinceEpoch(cols[0][i].t, Qt::UTC).toString(Qt::ISODateWithMs).toUtf8();
            out += ',' + QByteArray::number(it.key());
            for (int m = 0; m < kGpuMetricCount; ++m) {
                out += ',';
                if (i < cols[size_t(m)].size() && !std::isnan(cols[size_t(m)][i].min))
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
