// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Clock event reasons in words for people, not nvidia-smi's field names.
#include "core/gpu/gpufield.h"
#include "core/gpu/throttlereasons.h"

#include <QtTest>

using namespace kf;

class TestThrottleReasons : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyKnownBitInWords()
    {
        QCOMPARE(reasonPhrases(0), QStringList());
        QCOMPARE(reasonPhrases(kReasonIdle), QStringList { QStringLiteral("idle") });
        QCOMPARE(reasonPhrases(kReasonSwPowerCap), QStringList { QStringLiteral("power cap") });
        QCOMPARE(reasonPhrases(0x1FF),
            (QStringList { QStringLiteral("idle"), QStringLiteral("app clocks setting"), QStringLiteral("power cap"),
                QStringLiteral("HW slowdown"), QStringLiteral("sync boost"), QStringLiteral("thermal slowdown"),
                QStringLiteral("HW thermal slowdown"), QStringLiteral("HW power brake"),
                QStringLiteral("display clock setting") }));
        // No phrase is a field name (no '_'); each bit has its own phrase.
        for (int b = 0; b < 9; ++b) {
            const QStringList one = reasonPhrases(quint64(1) << b);
            QCOMPARE(one.size(), 1);
            QVERIFY2(!one.first().contains(u'_'), qPrintable(one.first()));
            QVERIFY(one.first() != reasonWords(quint64(1) << b).first());
        }
    }

    void unknownBitsNamed()
    {
        QCOMPARE(reasonPhrases(0x1000 | kReasonHwThermal),
            (QStringList { QStringLiteral("HW thermal slowdown"), QStringLiteral("reason 0x1000") }));
    }
};

QTEST_GUILESS_MAIN(TestThrottleReasons)
#include "tst_throttlereasons.moc"
