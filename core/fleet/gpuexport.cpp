// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/gpuexport.h"

#include "core/gpu/exporterfields.h"

namespace kf::fleet {

namespace {

QByteArray escapeLabel(const QString& v)
{
    QByteArray out;
    for (const char c : v.toUtf8()) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

// 15 significant digits: NVLink's bytes per second pass 10^10, and 10 digits would round them.
QByteArray number(double v)
{
    return QByteArray::number(v, 'g', 15);
}

// The row's value in the exporter's unit (core/gpu/exporterfields.h); consumers take the
// memory total as used + free (dcgm-exporter has no total): free is derived when the stream has
// only used and total (some fields lists omit memory.free).
double exported(const ExporterField& row, const GpuSample& g)
{
    if (row.value == ExporterValue::Reasons)
        return g.hasReasons ? double(g.reasons) : noValue();
    double v = g.value(row.field);
    if (row.field == GpuField::MemFree && !hasValue(v) && hasValue(g.value(GpuField::MemTotal))
        && hasValue(g.value(GpuField::MemUsed)))
        v = g.value(GpuField::MemTotal) - g.value(GpuField::MemUsed);
    return hasValue(v) ? v / row.scale : noValue();
}

} // namespace

QByteArray dcgmExposition(const QList<GpuSample>& gpus, const QString& hostname)
{
    QList<QByteArray> labels;
    labels.reserve(gpus.size());
    for (const GpuSample& g : gpus) {
        labels.append("{gpu=\"" + QByteArray::number(g.index) + "\",UUID=\"" + escapeLabel(g.text(GpuField::Uuid))
            + "\",device=\"nvidia" + QByteArray::number(g.index) + "\",modelName=\""
            + escapeLabel(g.text(GpuField::Name)) + "\",Hostname=\"" + escapeLabel(hostname) + "\",pci_bus_id=\""
            + escapeLabel(g.text(GpuField::BusId)) + "\",exporter=\"kernelforge\"}");
    }
    QByteArray out;
    out.reserve(gpus.size() * 2048 + 1024);
    for (const ExporterField& f : kExporterFields) {
        if (f.exporter != GpuExporter::Dcgm || !*f.help)
            continue;
        QByteArray lines;
        for (qsizetype i = 0; i < gpus.size(); ++i) {
            const double v = exported(f, gpus.at(i));
            if (hasValue(v))
                lines += f.name + labels.at(i) + ' ' + number(v) + '\n';
        }
        if (lines.isEmpty())
            continue;
        out += QByteArray("# HELP ") + f.name + ' ' + f.help + "\n# TYPE " + f.name + " gauge\n" + lines;
    }
    return out;
}

} // namespace kf::fleet
