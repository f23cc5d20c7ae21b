// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/prometheustext.h"
#include "tests/support/testsupport.h"

#include <QtTest>

#include <cmath>

using namespace kf;

class TestPrometheusText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void samples_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("value");
        QTest::addColumn<QString>("labelKey");
        QTest::addColumn<QString>("labelValue");
        QTest::addColumn<qint64>("timestamp"); // -1: none
        QTest::newRow("bare") << QByteArray("up 1") << QStringLiteral("up") << 1.0 << QString() << QString()
                              << qint64(-1);
        QTest::newRow("colon name") << QByteArray("sglang:token_usage{tp_rank=\"0\"} 0.5")
                                    << QStringLiteral("sglang:token_usage") << 0.5 << QStringLiteral("tp_rank")
                                    << QStringLiteral("0") << qint64(-1);
        QTest::newRow("escaped quote") << QByteArray("m{path=\"C:\\\\dir\\\"x\\\"\",a=\"b\"} 2") << QStringLiteral("m")
                                       << 2.0 << QStringLiteral("path") << QStringLiteral("C:\\dir\"x\"") << qint64(-1);
        QTest::newRow("escaped newline") << QByteArray("m{msg=\"a\\nb\"} 3") << QStringLiteral("m") << 3.0
                                         << QStringLiteral("msg") << QStringLiteral("a\nb") << qint64(-1);
        QTest::newRow("comma inside value") << QByteArray("m{a=\"x,y}\",b=\"z\"} 4") << QStringLiteral("m") << 4.0
                                            << QStringLiteral("a") << QStringLiteral("x,y}") << qint64(-1);
        QTest::newRow("trailing comma") << QByteArray("m{a=\"1\",} 5") << QStringLiteral("m") << 5.0
                                        << QStringLiteral("a") << QStringLiteral("1") << qint64(-1);
        QTest::newRow("timestamp") << QByteArray("m 6 1700000000123") << QStringLiteral("m") << 6.0 << QString()
                                   << QString() << qint64(1700000000123);
        QTest::newRow("exponent") << QByteArray("m 1.5e+03") << QStringLiteral("m") << 1500.0 << QString() << QString()
                                  << qint64(-1);
        QTest::newRow("+Inf") << QByteArray("m +Inf") << QStringLiteral("m") << qInf() << QString() << QString()
                              << qint64(-1);
        QTest::newRow("-Inf") << QByteArray("m -Inf") << QStringLiteral("m") << -qInf() << QString() << QString()
                              << qint64(-1);
        QTest::newRow("spaces") << QByteArray("  m { a = \"1\" }   7  ") << QStringLiteral("m") << 7.0
                                << QStringLiteral("a") << QStringLiteral("1") << qint64(-1);
    }
    void samples()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, name);
        QFETCH(double, value);
        QFETCH(QString, labelKey);
        QFETCH(QString, labelValue);
        QFETCH(qint64, timestamp);
        const PromText t = parsePrometheusText(line);
        QCOMPARE(t.badLines, 0);
        QCOMPARE(t.samples.size(), 1);
        QCOMPARE(t.samples[0].name, name);
        QCOMPARE(t.samples[0].value, value);
        if (!labelKey.isEmpty())
            QCOMPARE(t.samples[0].label(labelKey), labelValue);
        QCOMPARE(t.samples[0].timestampMs.has_value(), timestamp >= 0);
        if (timestamp >= 0)
            QCOMPARE(*t.samples[0].timestampMs, timestamp);
    }

    void nanValue()
    {
        const PromText t = parsePrometheusText("m NaN\n");
        QCOMPARE(t.samples.size(), 1);
        QVERIFY(std::isnan(t.samples[0].value));
    }

    void badLinesAreSkipped_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::newRow("no value") << QByteArray("m");
        QTest::newRow("bad value") << QByteArray("m abc");
        QTest::newRow("unterminated") << QByteArray("m{a=\"x} 1");
        QTest::newRow("no quote") << QByteArray("m{a=x} 1");
        QTest::newRow("digit name") << QByteArray("1m 1");
        QTest::newRow("bad timestamp") << QByteArray("m 1 soon");
    }
    void badLinesAreSkipped()
    {
        QFETCH(QByteArray, line);
        const PromText t = parsePrometheusText(QByteArray("ok 1\n" + line + "\nok 2\n"));
        QCOMPARE(t.badLines, 1);
        QCOMPARE(t.samples.size(), 2);
        QCOMPARE(t.errors.size(), 1);
        QVERIFY(t.errors[0].startsWith(QStringLiteral("line 2:")));
    }

    void helpAndType()
    {
        const PromText t = parsePrometheusText(test::readData(QStringLiteral("metrics/sglang_tp2.prom")));
        QCOMPARE(t.badLines, 0);
        QCOMPARE(t.types.value(QStringLiteral("sglang:time_to_first_token_seconds")), QStringLiteral("histogram"));
        QCOMPARE(t.types.value(QStringLiteral("sglang:generation_tokens_total")), QStringLiteral("counter"));
        QCOMPARE(t.help.value(QStringLiteral("sglang:token_usage")), QStringLiteral("The token usage."));
        QCOMPARE(t.find(u"sglang:num_running_reqs").size(), 2);
        QCOMPARE(t.sum(u"sglang:num_queue_reqs"), 6.0);
        QVERIFY(!hasValue(t.sum(u"nothing")));
    }

    void quantiles_data()
    {
        QTest::addColumn<double>("q");
        QTest::addColumn<double>("expected");
        // buckets 0.1:100, 0.25:400, 0.5:900, 1.0:1000, +Inf:1000
        QTest::newRow("p50 interpolated") << 0.5 << 0.25 + 0.25 * (100.0 / 500.0);
        QTest::newRow("p95") << 0.95 << 0.5 + 0.5 * (50.0 / 100.0);
        QTest::newRow("p05 from zero") << 0.05 << 0.05;
        QTest::newRow("p100") << 1.0 << 1.0;
    }
    void quantiles()
    {
        QFETCH(double, q);
        QFETCH(double, expected);
        const PromText t = parsePrometheusText(test::readData(QStringLiteral("metrics/sglang_tp2.prom")));
        const Histogram h = histogramFrom(t, u"sglang:time_to_first_token_seconds");
        QCOMPARE(h.buckets.size(), 5);
        QCOMPARE(h.count, 1000.0);
        QCOMPARE(h.sum, 300.0);
        const Quantile got = histogramQuantile(h, q);
        QVERIFY(!got.above);
        QVERIFY(qAbs(got.value - expected) < 1e-9);
    }

    void quantileInInfBucket()
    {
        Histogram h;
        h.buckets = { { 0.1, 1 }, { 0.2, 2 }, { qInf(), 10 } };
        // Only a lower bound is known: the largest finite bound, flagged (never a plain 0.2).
        const Quantile p95 = histogramQuantile(h, 0.95);
        QVERIFY(p95.above);
        QCOMPARE(p95.value, 0.2);
        QVERIFY(std::isnan(p95.estimate()));
        QVERIFY(!histogramQuantile(h, 0.1).above);
        QVERIFY(!histogramQuantile(Histogram {}, 0.5).known());
        Histogram empty;
        empty.buckets = { { 0.1, 0 }, { qInf(), 0 } };
        QVERIFY(!histogramQuantile(empty, 0.5).known());
        // The bound is the largest finite one: a -Inf bucket below is no bound (found by
        // fuzzing: "> -inf s").
        Histogram negInf;
        negInf.buckets = { { -qInf(), 1 }, { qInf(), 5 } };
        QVERIFY(!histogramQuantile(negInf, 0.9).known());
        negInf.buckets = { { -qInf(), 1 }, { 0.5, 2 }, { qInf(), 5 } };
        QCOMPARE(histogramQuantile(negInf, 0.9).value, 0.5);
        QVERIFY(histogramQuantile(negInf, 0.9).above);
        // Only a +Inf bucket: no bound at all.
        Histogram onlyInf;
        onlyInf.buckets = { { qInf(), 5 } };
        QVERIFY(!histogramQuantile(onlyInf, 0.5).known());
    }

    void manyBucketsAndOddBounds()
    {
        // 80k le= buckets (the page that took 3.4 s): every bucket kept, in order, quantiles
        // right. Speed is measured by bench_monitor (10k vs 80k), not here.
        const Histogram h
            = histogramFrom(parsePrometheusText(test::histogramPage(80000, 2)), u"kf:big_latency_seconds");
        QCOMPARE(h.buckets.size(), 80001);
        QCOMPARE(h.buckets.last().count, 2.0 * 80000);
        for (qsizetype i = 1; i < h.buckets.size(); ++i)
            QVERIFY(h.buckets[i - 1].upperBound < h.buckets[i].upperBound);
        QCOMPARE(h.buckets[0].count, 2.0);
        const Quantile p50 = histogramQuantile(h, 0.5);
        QVERIFY(!p50.above);
        QVERIFY(qAbs(p50.value - 40000 * 0.001) < 1e-6);
        // NaN or unparseable bounds are skipped (a NaN bound made the sort's order undefined).
        const QByteArray odd = "o_bucket{le=\"NaN\"} 3\no_bucket{le=\"x\"} 1\no_bucket{le=\"1\"} 2\n"
                               "o_bucket{le=\"NaN\"} 1\no_bucket{le=\"+Inf\"} 4\n";
        const Histogram o = histogramFrom(parsePrometheusText(odd), u"o");
        QCOMPARE(o.buckets.size(), 2);
        QCOMPARE(o.buckets[0].upperBound, 1.0);
    }

    void histogramsSumOverRanks()
    {
        const QByteArray text
            = "h_bucket{le=\"1\",tp_rank=\"0\"} 2\nh_bucket{le=\"+Inf\",tp_rank=\"0\"} 4\n"
              "h_bucket{tp_rank=\"1\",le=\"1\"} 6\nh_bucket{le=\"+Inf\",tp_rank=\"1\"} 6\nh_count 10\nh_sum 3\n";
        const Histogram h = histogramFrom(parsePrometheusText(text), u"h");
        QCOMPARE(h.buckets.size(), 2);
        QCOMPARE(h.buckets[0].count, 8.0);
        QCOMPARE(h.buckets[1].count, 10.0);
    }

    void delta()
    {
        Histogram a;
        a.buckets = { { 1, 10 }, { qInf(), 20 } };
        a.count = 20;
        Histogram b;
        b.buckets = { { 1, 15 }, { qInf(), 30 } };
        b.count = 30;
        const Histogram d = histogramDelta(b, a);
        QCOMPARE(d.count, 10.0);
        QCOMPARE(d.buckets[0].count, 5.0);
        // Counter reset (server restarted): the later histogram as it is.
        QCOMPARE(histogramDelta(a, b).count, 20.0);
    }
};

QTEST_GUILESS_MAIN(TestPrometheusText)
#include "tst_prometheustext.moc"
