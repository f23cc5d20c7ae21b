// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/bytelines.h"

#include <QTest>

using namespace kf;

class TestByteLines : public QObject
{
    Q_OBJECT

    static QList<QByteArray> all(QByteArrayView data, QList<bool>* terminated = nullptr)
    {
        QList<QByteArray> out;
        ByteLines lines(data);
        for (QByteArrayView line; lines.next(line);) {
            // A wrong number() shows as a line that no expected list has.
            out.append(lines.number() == int(out.size()) + 1 ? line.toByteArray() : QByteArray("<bad number>"));
            if (terminated)
                terminated->append(lines.terminated());
        }
        return out;
    }

private slots:
    void splitsOnNewlineOnly() { QCOMPARE(all("a\r\nb\n\nc"), (QList<QByteArray> { "a\r", "b", "", "c" })); }

    void aFinalNewlineAddsNoEmptyLine()
    {
        QList<bool> terminated;
        QCOMPARE(all("x\ny\n", &terminated), (QList<QByteArray> { "x", "y" }));
        QCOMPARE(terminated, (QList<bool> { true, true }));
    }

    void aCutLastLineIsUnterminated()
    {
        QList<bool> terminated;
        QCOMPARE(all("x\ny", &terminated), (QList<QByteArray> { "x", "y" }));
        QCOMPARE(terminated, (QList<bool> { true, false }));
    }

    void emptyDataHasNoLines()
    {
        QVERIFY(all("").isEmpty());
        QCOMPARE(all("\n"), (QList<QByteArray> { "" }));
    }

    void startsAtAnOffset()
    {
        ByteLines lines("header\nbody\n", 7);
        QByteArrayView line;
        QVERIFY(lines.next(line));
        QCOMPARE(line, QByteArrayView("body"));
        QVERIFY(!lines.next(line));
        QCOMPARE(line, QByteArrayView("body"));
    }

    void firstBytesNeverReadsPastTheEnd()
    {
        QCOMPARE(firstBytes("abcdef", 3), QByteArrayView("abc"));
        QCOMPARE(firstBytes("ab", 80), QByteArrayView("ab"));
        QCOMPARE(firstBytes({}, 5), QByteArrayView());
    }
};

QTEST_GUILESS_MAIN(TestByteLines)
#include "tst_bytelines.moc"
