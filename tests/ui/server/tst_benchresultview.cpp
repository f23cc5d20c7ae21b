// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// What the Benchmark tab's result view says about a run the server counted no tokens for and
// whose requests partly failed: estimated figures are marked, failures carry their reasons,
// and a published result of another workload is not shown next to it. Issue #38 (item 7): two
// runs compared colour a change only beyond the runs' spread, not +0.3 % of noise.
#include "core/servebench/benchstats.h"
#include "ui/chart/sweepchart.h"
#include "ui/common/plaintext.h"
#include "ui/server/benchresultview.h"

#include <QLabel>
#include <QTableWidget>
#include <QtTest>

using namespace kf;

namespace {

RequestSample request(bool ok, double start, const QString& error = {})
{
    RequestSample r;
    r.ok = ok;
    r.error = error;
    r.start = start;
    r.ttft = ok ? 0.05 : -1;
    r.latency = ok ? 0.45 : 0.01;
    r.itl = ok ? QList<double> { 0.1, 0.1, 0.1, 0.1 } : QList<double> {};
    r.promptTokens = 32;
    r.outputTokens = ok ? 5 : 0;
    r.textEvents = r.outputTokens;
    return r; // no counts reported by the server
}

BenchRun run()
{
    BenchRun r;
    r.id = 7;
    r.status = QStringLiteral("completed");
    r.started = QDateTime::currentDateTimeUtc();
    r.params.inputTokens = 32;
    r.params.outputTokens = 5;
    r.facts.model = QStringLiteral("Qwen/Qwen3-8B");
    r.facts.precision = QStringLiteral("BF16");
    r.facts.gpuName = QStringLiteral("NVIDIA H200");
    r.facts.gpuCount = 1;
    for (int c : { 1, 2 }) {
        LevelResult l;
        l.concurrency = c;
        l.samples = { request(true, 0), request(true, 0.1) };
        if (c == 2)
            l.samples.append(request(false, 0.2, QStringLiteral("HTTP 500")));
        l.stats = computeLevelStats(l.samples, 1.0, c, 0);
        r.levels.append(l);
    }
    return r;
}

int rowOf(QTableWidget* t, const QString& label)
{
    for (int i = 0; i < t->rowCount(); ++i)
        if (t->verticalHeaderItem(i)->text() == label)
            return i;
    return -1;
}

} // namespace

class TestBenchResultView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void comparisonColoursOnlyBeyondTheSpread()
    {
        BenchResultView view;
        view.resize(1200, 700);
        view.show();
        BenchRun a = run();
        a.id = 1;
        BenchRun b = run();
        b.id = 2;
        for (LevelResult& l : b.levels)
            l.stats.outputThroughput *= 1.003; // +0.3 %: noise
        b.levels[1].stats.ttft.mean *= 3;      // TTFT mean three times as long: worse
        view.showComparison(a, b);
        QTableWidget* t = view.table();
        const int out = rowOf(t, QStringLiteral("output tok/s"));
        const int ttft = rowOf(t, QStringLiteral("TTFT mean (ms)"));
        QVERIFY(out >= 0 && ttft >= 0);
        QCOMPARE(t->horizontalHeaderItem(2)->text(), QStringLiteral("change"));
        QTableWidgetItem* noise = t->item(out, 2);
        QCOMPARE(noise->text(), QStringLiteral("+0.3%"));
        QCOMPARE(noise->data(Qt::UserRole).toString(), QStringLiteral("same"));
        QCOMPARE(noise->foreground().color(), t->item(out, 0)->foreground().color()); // not green
        QVERIFY(noise->toolTip().startsWith(QStringLiteral("Within the runs' spread")));
        QTableWidgetItem* worse = t->item(ttft, 5); // c=2's change
        QCOMPARE(worse->data(Qt::UserRole).toString(), QStringLiteral("worse"));
        QCOMPARE(worse->foreground().color(), QColor(0xd6, 0x27, 0x28));
        QVERIFY(view.header()->text().contains(QStringLiteral("Same workload")));
    }

    // Issue #38 (item 7): a level of one sample has no spread; the stated noise floor decides,
    // and the tool tip says so ("within noise"), not a spread the runs do not have.
    void oneSampleIsWithinNoise()
    {
        BenchResultView view;
        view.resize(1200, 700);
        view.show();
        BenchRun a = run();
        a.id = 1;
        for (LevelResult& l : a.levels) {
            l.samples = { request(true, 0) };
            l.stats = computeLevelStats(l.samples, 1.0, l.concurrency, 0);
        }
        BenchRun b = a;
        b.id = 2;
        for (LevelResult& l : b.levels)
            l.stats.outputThroughput *= 1.005; // +0.5 %
        view.showComparison(a, b);
        QTableWidget* t = view.table();
        const int out = rowOf(t, QStringLiteral("output tok/s"));
        QVERIFY(out >= 0);
        QTableWidgetItem* noise = t->item(out, 2);
        QCOMPARE(noise->text(), QStringLiteral("+0.5%"));
        QCOMPARE(noise->data(Qt::UserRole).toString(), QStringLiteral("same"));
        QCOMPARE(noise->foreground().color(), t->item(out, 0)->foreground().color());
        QVERIFY2(noise->toolTip().startsWith(QStringLiteral("Within noise")), qPrintable(noise->toolTip()));
        QVERIFY2(noise->toolTip().contains(QStringLiteral("one sample")), qPrintable(noise->toolTip()));
    }

    void estimatedAndFailedAreSaid()
    {
        BenchResultView view;
        view.resize(900, 700);
        view.show();
        ReferenceTable refs;
        refs.origin = QStringLiteral("test");
        ReferenceResult other; // the same model and GPUs, another precision: not this workload
        other.model = QStringLiteral("Qwen3 8B");
        other.gpu = QStringLiteral("H200");
        other.gpus = 1;
        other.precision = QStringLiteral("FP8");
        other.inputLen = 32;
        other.outputLen = 5;
        other.concurrency = 2;
        other.tokensPerS = 100;
        other.source = QStringLiteral("https://example.org");
        refs.rows = { other };
        view.showRun(run(), refs);

        QTableWidget* t = view.table();
        QCOMPARE(t->columnCount(), 2);
        const int out = rowOf(t, QStringLiteral("output tok/s"));
        QVERIFY(out >= 0);
        QVERIFY2(t->item(out, 0)->text().startsWith(QStringLiteral("≈")), qPrintable(t->item(out, 0)->text()));
        QVERIFY(t->item(out, 0)->toolTip().contains(QStringLiteral("Estimated")));
        QVERIFY2(view.notes()->text().contains(QStringLiteral("Input and output token counts are estimated")),
            qPrintable(view.notes()->text()));
        const int failed = rowOf(t, QStringLiteral("failed requests"));
        QVERIFY(failed >= 0);
        QCOMPARE(t->item(failed, 1)->text(), QStringLiteral("1"));
        QCOMPARE(t->item(failed, 1)->toolTip(), plainToolTip(QStringLiteral("1 × HTTP 500"))); // never markup
        QVERIFY(view.notes()->text().contains(QStringLiteral("1 of 3 requests failed at c=2: 1 × HTTP 500")));
        QCOMPARE(t->item(0, 1)->text(), QStringLiteral("2 / 3"));
        // Estimated levels are still drawn (hollow), one point each.
        QCOMPARE(view.chart()->pointCount(), 2);
        QVERIFY(view.chart()->curves().first().points.first().estimated);
        const QString r = view.references()->text();
        QVERIFY2(r.contains(QStringLiteral("No published result matches")), qPrintable(r));
        QVERIFY(!r.contains(QStringLiteral("example.org")));

        // The same row at this precision matches at concurrency 2 only.
        refs.rows[0].precision = QStringLiteral("BF16");
        view.showRun(run(), refs);
        QVERIFY2(view.references()->text().contains(QStringLiteral("c=2: <b>Qwen3 8B</b>")),
            qPrintable(view.references()->text()));
        QVERIFY(!view.references()->text().contains(QStringLiteral("c=1:")));
    }
};

QTEST_MAIN(TestBenchResultView)
#include "tst_benchresultview.moc"
