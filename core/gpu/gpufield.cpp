// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpufield.h"

#include <QDateTime>
#include <QJsonArray>

#include <algorithm>

namespace kf {

namespace {

bool isKind(GpuField field, GpuFieldKind kind)
{
    return field != GpuField::Unknown && gpuFieldInfo(field).kind == kind;
}

// The fields with a JSON key.
const QList<GpuField>& exported()
{
    static const QList<GpuField> fields = gpuFieldsWhere([](const GpuFieldInfo& f) { return *f.json != 0; });
    return fields;
}

QJsonValue jsonText(const QString& text)
{
    return text.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(text);
}

} // namespace

QList<GpuField> gpuFieldsWhere(bool (*pick)(const GpuFieldInfo&))
{
    QList<GpuField> out;
    for (int i = 0; i < kGpuFieldCount; ++i) {
        if (pick(kGpuFields[i]))
            out.append(GpuField(i));
    }
    return out;
}

QList<GpuField> defaultGpuFields()
{
    return gpuFieldsWhere([](const GpuFieldInfo& f) { return f.stream && f.source == GpuFieldSource::Query; });
}

QList<GpuField> gpmGpuFields()
{
    return gpuFieldsWhere([](const GpuFieldInfo& f) { return f.stream && f.source == GpuFieldSource::Dmon; });
}

int gpmMetricId(GpuField field)
{
    if (field == GpuField::Unknown || gpuFieldInfo(field).source != GpuFieldSource::Dmon)
        return 0;
    return QByteArray(gpuFieldInfo(field).names).split(' ').value(0).toInt();
}

QList<GpuField> gpuChartFields()
{
    QList<GpuField> out = gpuFieldsWhere([](const GpuFieldInfo& f) { return f.chart > 0; });
    std::sort(
        out.begin(), out.end(), [](GpuField a, GpuField b) { return gpuFieldInfo(a).chart < gpuFieldInfo(b).chart; });
    return out;
}

QString gpuFieldLabel(GpuField field)
{
    return field == GpuField::Unknown ? QString() : QString::fromUtf8(gpuFieldInfo(field).label);
}

QString gpuFieldUnit(GpuField field)
{
    return field == GpuField::Unknown ? QString() : QString::fromUtf8(gpuFieldInfo(field).unit);
}

double GpuSample::value(GpuField field) const
{
    if (isKind(field, GpuFieldKind::Number))
        return m_numbers[kGpuFieldSlots[size_t(field)]];
    if (field == GpuField::MemUsedPercent) {
        const double fraction = memFraction();
        return hasValue(fraction) ? fraction * 100.0 : noValue();
    }
    return noValue();
}

void GpuSample::setValue(GpuField field, double v)
{
    Q_ASSERT(isKind(field, GpuFieldKind::Number));
    if (isKind(field, GpuFieldKind::Number))
        m_numbers[kGpuFieldSlots[size_t(field)]] = v;
}

QString GpuSample::text(GpuField field) const
{
    return isKind(field, GpuFieldKind::Text) ? m_texts[kGpuFieldSlots[size_t(field)]] : QString();
}

void GpuSample::setText(GpuField field, const QString& text)
{
    Q_ASSERT(isKind(field, GpuFieldKind::Text));
    if (isKind(field, GpuFieldKind::Text))
        m_texts[kGpuFieldSlots[size_t(field)]] = text;
}

double GpuSample::memFraction() const
{
    const double used = value(GpuField::MemUsed);
    const double total = value(GpuField::MemTotal);
    return (hasValue(used) && hasValue(total) && total > 0) ? used / total : noValue();
}

QJsonObject toJson(const GpuSample& s)
{
    QJsonObject o;
    for (const GpuField field : exported()) {
        const GpuFieldInfo& info = gpuFieldInfo(field);
        QJsonValue v;
        switch (info.kind) {
        case GpuFieldKind::Number:
        case GpuFieldKind::Derived: v = jsonValue(s.value(field)); break;
        case GpuFieldKind::Text: v = jsonText(s.text(field)); break;
        case GpuFieldKind::Index: v = s.index >= 0 ? QJsonValue(s.index) : QJsonValue(QJsonValue::Null); break;
        case GpuFieldKind::Time:
            v = s.timeMs != 0
                ? QJsonValue(QDateTime::fromMSecsSinceEpoch(s.timeMs, Qt::UTC).toString(Qt::ISODateWithMs))
                : QJsonValue(QJsonValue::Null);
            break;
        case GpuFieldKind::Mask:
            v = s.hasReasons ? QJsonValue(QJsonArray::fromStringList(reasonWords(s.reasons)))
                             : QJsonValue(QJsonValue::Null);
            break;
        }
        o.insert(QLatin1String(info.json), v);
    }
    return o;
}

QStringList gpuJsonKeys()
{
    QStringList keys;
    for (const GpuField field : exported()) {
        const GpuFieldInfo& info = gpuFieldInfo(field);
        keys.append(QLatin1String(info.json) + (info.kind == GpuFieldKind::Mask ? QStringLiteral("[]") : QString()));
    }
    return keys;
}

} // namespace kf
