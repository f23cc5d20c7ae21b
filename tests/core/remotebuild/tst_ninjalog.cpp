// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/ninjalog.h"

#include "tests/support/testsupport.h"

#include <QtTest>

class TestNinjaLog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void twoRunsKeepsTheLast()
    {
        const auto log = kf::parseNinjaLog(kf::test::readData(QStringLiteral("buildlogs/ninja_log_v5_two_runs.txt")));
        QVERIFY2(log, qPrintable(log.error));
        QCOMPARE(log.version, 5);
        QCOMPARE(log.runs, 2);
        QCOMPARE(log.lastRun.size(), 3);
        QCOMPARE(log.wallMs(), 93000);
        QCOMPARE(log.totalEdgeMs(), 500 + 90000 + 2500);
        const auto slow = log.slowest(2);
        QCOMPARE(slow.size(), 2);
        QCOMPARE(slow[0].output, QStringLiteral("CMakeFiles/common_ops.dir/csrc/moe/moe_align_kernel.cu.o"));
        QCOMPARE(slow[0].durationMs(), 90000);
        QCOMPARE(slow[1].output, QStringLiteral("common_ops.so"));
    }

    void truncatedTailIsCountedNotLost()
    {
        const auto log = kf::parseNinjaLog(kf::test::readData(QStringLiteral("buildlogs/ninja_log_v7_truncated.txt")));
        QVERIFY(log);
        QCOMPARE(log.version, 7);
        QCOMPARE(log.lastRun.size(), 2);
        QCOMPARE(log.truncatedLines, 1);
        QCOMPARE(log.lastRun[1].output, QStringLiteral("obj/b.o"));
    }

    void impossibleTimesAreSkipped()
    {
        // Crafted times: end - start and the sum of durations overflowed qint64 (UBSan).
        const QByteArray data = "# ninja log v5\n"
                                "-9223372036854775807\t9223372036854775807\t0\ta.o\t0123456789abcdef\n"
                                "0\t9223372036854775807\t0\tb.o\t0123456789abcdef\n"
                                "5\t3\t0\tc.o\t0123456789abcdef\n"
                                "10\t20\t0\td.o\t0123456789abcdef\n";
        const auto log = kf::parseNinjaLog(data);
        QVERIFY(log);
        QCOMPARE(log.badLines, 3);
        QCOMPARE(log.lastRun.size(), 1);
        QCOMPARE(log.lastRun[0].output, QStringLiteral("d.o"));
        QCOMPARE(log.totalEdgeMs(), 10);
        QCOMPARE(log.wallMs(), 20);
    }

    void everyPrefixParses()
    {
        // A log cut at any byte keeps every complete line before the cut.
        const QByteArray data = kf::test::readData(QStringLiteral("buildlogs/ninja_log_v5_two_runs.txt"));
        int lastCount = 0;
        for (int cut = 16; cut <= data.size(); ++cut) {
            const auto log = kf::parseNinjaLog(data.left(cut));
            QVERIFY(log);
            const int count = int(log.lastRun.size()) + (log.runs > 1 ? 5 : 0);
            QVERIFY2(count >= lastCount, qPrintable(QString::number(cut)));
            lastCount = count;
        }
        QCOMPARE(lastCount, 8);
    }

    void rejectsOtherFiles_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("v4") << QByteArray("# ninja log v4\n1\t2\t3\ta\n");
        QTest::newRow("text") << QByteArray("hello\n");
    }
    void rejectsOtherFiles()
    {
        QFETCH(QByteArray, data);
        QVERIFY(!kf::parseNinjaLog(data));
    }
};

QTEST_GUILESS_MAIN(TestNinjaLog)
#include "tst_ninjalog.moc"
