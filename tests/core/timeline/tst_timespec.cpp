// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/timeline/timespec.h"

#include <QtTest>

using namespace kf::timeline;

class TestTimeSpec : public QObject
{
    Q_OBJECT
    const QDateTime m_now { QDate(2026, 12, 2), QTime(12, 0), Qt::UTC };

private Q_SLOTS:
    void durations()
    {
        QCOMPARE(parseTimeSpec(QStringLiteral("90s"), m_now).value(), m_now.addSecs(-90));
        QCOMPARE(parseTimeSpec(QStringLiteral("30m"), m_now).value(), m_now.addSecs(-1800));
        QCOMPARE(parseTimeSpec(QStringLiteral("2h"), m_now).value(), m_now.addSecs(-7200));
        QCOMPARE(parseTimeSpec(QStringLiteral("7d"), m_now).value(), m_now.addDays(-7));
        QCOMPARE(parseTimeSpec(QStringLiteral(" 2w "), m_now).value(), m_now.addDays(-14));
    }

    void datesAndTimes()
    {
        QCOMPARE(parseTimeSpec(QStringLiteral("2026-12-01T14:30:00Z"), m_now).value(),
            QDateTime(QDate(2026, 12, 1), QTime(14, 30), Qt::UTC));
        QCOMPARE(parseTimeSpec(QStringLiteral("2026-12-01T14:30:00+02:00"), m_now).value(),
            QDateTime(QDate(2026, 12, 1), QTime(12, 30), Qt::UTC));
        QCOMPARE(parseTimeSpec(QStringLiteral("2026-12-01 14:30"), m_now).value(),
            QDateTime(QDate(2026, 12, 1), QTime(14, 30)).toUTC()); // local time
        QCOMPARE(parseTimeSpec(QStringLiteral("2026-12-01"), m_now).value(), QDate(2026, 12, 1).startOfDay().toUTC());
        QVERIFY(parseTimeSpec(QStringLiteral("2026-12-01"), m_now).value().timeSpec() == Qt::UTC);
    }

    void refused()
    {
        for (const QString& bad : { QString(), QStringLiteral("yesterday"), QStringLiteral("5y"), QStringLiteral("-3h"),
                 QStringLiteral("2026-13-01"), QStringLiteral("12:00"), QStringLiteral("2h\n3h"),
                 QString::fromUtf8("2h\0", 3), QStringLiteral("--2h") }) {
            const auto r = parseTimeSpec(bad, m_now);
            QVERIFY2(!r, qPrintable(bad));
            QVERIFY(r.error().contains(QStringLiteral("30m, 2h")));
        }
    }
};

QTEST_GUILESS_MAIN(TestTimeSpec)
#include "tst_timespec.moc"
