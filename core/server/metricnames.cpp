// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/metricnames.h"

#include <QStringList>

namespace kf {

QList<QStringView> serverMetricNames(ServerQuantity quantity, QStringView vocabulary)
{
    QList<QStringView> out;
    for (const ServerMetricName& row : kServerMetricNames)
        if (row.quantity == quantity && (vocabulary.isEmpty() || vocabulary == QLatin1String(row.vocabulary)))
            out.append(QStringView(row.name));
    return out;
}

std::optional<ServerMetricName> serverMetricName(QStringView name)
{
    for (const ServerMetricName& row : kServerMetricNames)
        if (name == QStringView(row.name))
            return row;
    return std::nullopt;
}

QString serverMetricRegex(std::initializer_list<ServerQuantity> quantities, QStringView vocabulary)
{
    QStringList names;
    for (ServerQuantity q : quantities)
        for (QStringView n : serverMetricNames(q, vocabulary))
            names.append(n.toString());
    return names.join(u'|');
}

} // namespace kf
