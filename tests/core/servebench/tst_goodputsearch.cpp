// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #35: the search for the highest concurrency (or rate) that keeps goodput at its
// target, against servers whose limit is known: it doubles, then halves the gap, and finds the
// limit exactly in about 2 x log2 levels.
#include "core/servebench/goodputsearch.h"

#include <QtTest>

using namespace kf;

namespace {

// Runs the search against a server that passes every value up to `limit`.
GoodputSearch searchUpTo(int limit, int high, QList<int>* tried)
{
    GoodputSearch s(1, high);
    while (const std::optional<int> v = s.next()) {
        tried->append(*v);
        s.record(*v, *v <= limit);
        if (tried->size() > 100)
            break;
    }
    return s;
}

} // namespace

class TestGoodputSearch : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void findsTheLimit()
    {
        QList<int> tried;
        const GoodputSearch s = searchUpTo(23, 256, &tried);
        QCOMPARE(tried, (QList<int> { 1, 2, 4, 8, 16, 32, 24, 20, 22, 23 }));
        QCOMPARE(s.best(), std::optional<int>(23));
        QCOMPARE(s.firstFailure(), std::optional<int>(24));
        QVERIFY(s.finished());
        QCOMPARE(s.summary(QStringLiteral("concurrency")),
            QStringLiteral("highest concurrency meeting the target: 23 (24 misses it); 10 levels run"));
    }

    void everyLimit()
    {
        for (int limit = 1; limit <= 70; ++limit) {
            QList<int> tried;
            const GoodputSearch s = searchUpTo(limit, 64, &tried);
            QCOMPARE(s.best(), std::optional<int>(std::min(limit, 64)));
            QVERIFY2(tried.size() <= 14, qPrintable(QString::number(tried.size())));
        }
    }

    void nothingPassesOrEverything()
    {
        QList<int> tried;
        const GoodputSearch none = searchUpTo(0, 64, &tried);
        QCOMPARE(tried, QList<int> { 1 });
        QVERIFY(!none.best());
        QVERIFY(none.summary(QStringLiteral("rate")).startsWith(QStringLiteral("no rate meets the target")));
        tried.clear();
        const GoodputSearch all = searchUpTo(1000, 40, &tried);
        QCOMPARE(tried, (QList<int> { 1, 2, 4, 8, 16, 32, 40 }));
        QCOMPARE(all.best(), std::optional<int>(40));
        QVERIFY(!all.firstFailure());
    }
};

QTEST_GUILESS_MAIN(TestGoodputSearch)
#include "tst_goodputsearch.moc"
