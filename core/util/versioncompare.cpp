// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/versioncompare.h"

#include <QRegularExpression>
#include <QStringList>

#include <algorithm>

namespace kf {

int compareVersions(const QString& a, const QString& b)
{
    static const QRegularExpression lead(QStringLiteral("^(\\d+(?:\\.\\d+)*)"));
    const QStringList pa = lead.match(a.trimmed()).captured(1).split(QLatin1Char('.'), Qt::SkipEmptyParts);
    const QStringList pb = lead.match(b.trimmed()).captured(1).split(QLatin1Char('.'), Qt::SkipEmptyParts);
    for (qsizetype i = 0; i < std::max(pa.size(), pb.size()); ++i) {
        const int x = pa.value(i, QStringLiteral("0")).toInt();
        const int y = pb.value(i, QStringLiteral("0")).toInt();
        if (x != y)
            return x < y ? -1 : 1;
    }
    return 0;
}

} // namespace kf
