// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/exporterfields.h"

#include <QStringList>

#include <algorithm>
#include <cmath>

namespace kf {

const ExporterField* exporterField(QStringView name)
{
    for (const ExporterField& row : kExporterFields)
        if (name == QLatin1String(row.name))
            return &row;
    return nullptr;
}

const ExporterField* exporterFieldFor(GpuExporter exporter, GpuField field)
{
    for (const ExporterField& row : kExporterFields)
        if (row.exporter == exporter && row.value == ExporterValue::Number && row.field == field)
            return &row;
    return nullptr;
}

QString exporterNameRegex(std::initializer_list<ExporterValue> values)
{
    QStringList names;
    for (const ExporterField& row : kExporterFields)
        if (values.size() == 0 || std::find(values.begin(), values.end(), row.value) != values.end())
            names.append(QLatin1String(row.name));
    return names.join(u'|');
}

double exporterNumber(const ExporterField& row, double value)
{
    // The largest real counter is far below 10^15; DCGM's blank sentinels are near 2^63.
    if (!std::isfinite(value) || value < 0 || value >= 1e15)
        return noValue();
    return value * row.scale;
}

} // namespace kf
