// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/timeseries/seriesbuffer.h"

#include <QtTest>

#include <cmath>

using namespace kf;

class TestSeriesBuffer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rawWindowKeepsEverySampleWhenColumnsSuffice()
    {
        SeriesBuffer b;
        for (int i = 0; i < 300; ++i)
            b.append(1000LL * i, i % 7);
        const auto pts = b.decimated(0, 299000, 1000);
        QCOMPARE(pts.size(), 300);
        QCOMPARE(pts[10].x(), 10000.0);
        QCOMPARE(pts[10].y(), 3.0);
    }

    void minMaxPerColumnKeepsSpikes()
    {
        SeriesBuffer b;
        for (int i = 0; i < 3600; ++i)
            b.append(1000LL * i, i == 1234 ? 100.0 : (i == 2000 ? -5.0 : 50.0));
        const auto pts = b.decimated(0, 3599000, 100);
        QVERIFY(pts.size() <= 200);
        double mx = -1e9, mn = 1e9;
        double prevX = -1;
        for (const auto& p : pts) {
            mx = qMax(mx, p.y());
            mn = qMin(mn, p.y());
            QVERIFY(p.x() >= prevX); // time order inside and across columns
            prevX = p.x();
        }
        QCOMPARE(mx, 100.0);
        QCOMPARE(mn, -5.0);
    }

    void twentyFourHoursInBoundedMemory()
    {
        SeriesBuffer b;
        const size_t before = b.memoryBytes();
        const qint64 day = 24LL * 3600 * 1000;
        const qint64 t0 = 1'700'000'000'000LL;
        for (qint64 t = 0; t <= 2 * day; t += 1000)
            b.append(t0 + t, (t / 1000) % 100);
        QCOMPARE(b.memoryBytes(), before); // no growth after preallocation
        QVERIFY(b.memoryBytes() < 256 * 1024);
        const qint64 end = t0 + 2 * day;
        // 5 minutes come from raw samples, 24 h from the 10 s buckets.
        QCOMPARE(b.levelFor(end - 5 * 60 * 1000), 0);
        QCOMPARE(b.levelFor(end - day + 20000), 1);
        const auto pts = b.decimated(end - day, end, 1200);
        QVERIFY(pts.size() <= 2400);
        QVERIFY(pts.size() > 1500);
        double mx = 0, mn = 1e9;
        for (const auto& p : pts) {
            mx = qMax(mx, p.y());
            mn = qMin(mn, p.y());
        }
        QCOMPARE(mx, 99.0);
        QCOMPARE(mn, 0.0);
        QCOMPARE(b.lastValue(), double((2 * day / 1000) % 100));
    }

    void youngSeriesUsesRawLevel()
    {
        // Three samples: the 10 s bucket starts before the first sample, yet the raw level
        // (nothing dropped yet) is the one to draw.
        SeriesBuffer b;
        for (int i = 0; i < 3; ++i)
            b.append(1'700'000'003'000LL + i * 1000, i);
        QCOMPARE(b.levelFor(1'700'000'003'000LL - 300000), 0);
        QCOMPARE(b.decimated(1'700'000'003'000LL - 300000, 1'700'000'006'000LL, 500).size(), 3);
    }

    void gapsAndOutOfOrder()
    {
        SeriesBuffer b({ { 0, 10 }, { 5000, 10 } });
        b.append(1000, 1);
        b.append(2000, std::nan(""));
        b.append(3000, 3);
        b.append(2500, 99); // older than the last: dropped
        QCOMPARE(b.levelSize(0), 3);
        const auto pts = b.decimated(0, 10000, 100);
        // The NaN is a gap marker between the two points, not a value.
        QCOMPARE(pts.size(), 3);
        QCOMPARE(pts[0], QPointF(1000, 1));
        QCOMPARE(pts[1].x(), 2000.0);
        QVERIFY(std::isnan(pts[1].y()));
        QCOMPARE(pts[2], QPointF(3000, 3));
        const auto agg = b.points(1, 0, 10000);
        QCOMPARE(agg.size(), size_t(1)); // the open bucket
        QCOMPARE(agg[0].min, 1.0f);
        QCOMPARE(agg[0].max, 3.0f);
    }

    void gapMarkersInEveryLevel_data()
    {
        QTest::addColumn<int>("columns");
        QTest::addColumn<qint64>("from");
        QTest::newRow("raw, a column per sample") << 1000 << qint64(0);
        QTest::newRow("raw, many samples per column") << 20 << qint64(0);
        QTest::newRow("10 s buckets") << 100 << qint64(-1); // a window older than the raw ring
    }

    void gapMarkersInEveryLevel()
    {
        QFETCH(int, columns);
        QFETCH(qint64, from);
        // 1 Hz for 10 min, a 2 min outage recorded as NaN samples, then 10 min more; the raw
        // ring holds only the last 20 min, so a window from before it uses the 10 s buckets.
        SeriesBuffer b({ { 0, 1200 }, { 10000, 1000 } });
        const qint64 t0 = 1'700'000'000'000LL;
        for (int i = 0; i < 1320; ++i)
            b.append(t0 + i * 1000LL, (i >= 600 && i < 720) ? std::nan("") : 40.0 + i % 10);
        const qint64 end = t0 + 1319 * 1000LL;
        const qint64 start = from < 0 ? t0 : end - 1000 * 1000;
        if (from < 0)
            QCOMPARE(b.levelFor(start), 1);
        else
            QCOMPARE(b.levelFor(start), 0);
        const auto pts = b.decimated(start, end, columns);
        int gaps = 0;
        double prevX = -1;
        for (int i = 0; i < pts.size(); ++i) {
            QVERIFY(pts[i].x() >= prevX);
            prevX = pts[i].x();
            if (!std::isnan(pts[i].y()))
                continue;
            ++gaps;
            // Inside the outage, with data on both sides.
            QVERIFY2(pts[i].x() >= double(t0 + 600000) && pts[i].x() <= double(t0 + 720000),
                qPrintable(QString::number(pts[i].x() - t0)));
            QVERIFY(i > 0 && i + 1 < pts.size());
            QVERIFY(pts[i - 1].x() < double(t0 + 600000) && pts[i + 1].x() >= double(t0 + 720000));
        }
        QCOMPARE(gaps, 1);
        QVERIFY(pts.size() <= 2 * columns + 1);
    }

    void ringWrapsAround()
    {
        SeriesBuffer b({ { 0, 5 } });
        for (int i = 0; i < 12; ++i)
            b.append(i * 1000, i);
        QCOMPARE(b.levelSize(0), 5);
        QCOMPARE(b.firstTime(), 7000);
        const auto pts = b.points(0, 0, 100000);
        QCOMPARE(pts.front().min, 7.0f);
        QCOMPARE(pts.back().min, 11.0f);
    }

    // Export writes everything held: the raw samples where the raw ring reaches, buckets before.
    void historyIsEverySampleThenTheBucketsBefore()
    {
        SeriesBuffer young;
        QVERIFY(young.history().isEmpty());
        young.append(1000, 1);
        young.append(2000, std::nan(""));
        young.append(3000, 3);
        const QList<QPointF> h = young.history();
        QCOMPARE(h.size(), 3);
        QCOMPARE(h[0], QPointF(1000, 1));
        QVERIFY(std::isnan(h[1].y()));
        QCOMPARE(h[2], QPointF(3000, 3));

        // A raw ring of 5 samples and 10 s buckets: 30 samples, the first 25 only as buckets.
        SeriesBuffer b({ { 0, 5 }, { 10000, 100 } });
        for (int i = 0; i < 30; ++i)
            b.append(1000LL * i, i);
        const QList<QPointF> all = b.history();
        // Buckets starting at 0, 10 s and 20 s (before the first raw sample at 25 s), then 25..29 s.
        QCOMPARE(all.size(), 3 + 5);
        QCOMPARE(all[0], QPointF(0, 4.5));      // samples 0..9: min 0, max 9
        QCOMPARE(all[1], QPointF(10000, 14.5)); // 10..19
        QCOMPARE(all[2], QPointF(20000, 24.5)); // the open bucket: 20..29
        QCOMPARE(all[3], QPointF(25000, 25));
        QCOMPARE(all.last(), QPointF(29000, 29));
    }
};

QTEST_GUILESS_MAIN(TestSeriesBuffer)
#include "tst_seriesbuffer.moc"
