// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/timeline/timespec.h"

#include <QHash>
#include <QRegularExpression>

namespace kf::timeline {

Result<QDateTime> parseTimeSpec(const QString& text, const QDateTime& now)
{
    const QString t = text.trimmed();
    static const QRegularExpression ago(QRegularExpression::anchoredPattern(QStringLiteral("(\\d{1,7})(s|m|h|d|w)")));
    if (const auto m = ago.match(t); m.hasMatch()) {
        static const QHash<QString, qint64> unitMs { { QStringLiteral("s"), 1000 }, { QStringLiteral("m"), 60000 },
            { QStringLiteral("h"), 3600000 }, { QStringLiteral("d"), 86400000 }, { QStringLiteral("w"), 604800000 } };
        return now.toUTC().addMSecs(-m.captured(1).toLongLong() * unitMs.value(m.captured(2)));
    }
    QString iso = t;
    iso.replace(QLatin1Char(' '), QLatin1Char('T'));
    QDateTime d = QDateTime::fromString(iso, Qt::ISODateWithMs);
    if (!d.isValid())
        d = QDateTime::fromString(iso, Qt::ISODate);
    if (!d.isValid()) {
        const QDate day = QDate::fromString(t, Qt::ISODate);
        if (day.isValid())
            d = day.startOfDay();
    }
    if (!d.isValid())
        return Result<QDateTime>::failure(
            QStringLiteral("'%1' is not a time: give a duration back from now (30m, 2h, 7d, 2w) or a date and time "
                           "(2026-12-01, 2026-12-01 14:30, 2026-12-01T14:30:00Z)")
                .arg(text));
    return d.toUTC();
}

} // namespace kf::timeline
