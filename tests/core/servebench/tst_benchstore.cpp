// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/benchcompare.h"
#include "core/servebench/benchstore.h"
#include "core/store/database.h"

#include <QDataStream>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace kf;

namespace {

BenchRun sampleRun(const QString& host, double scale)
{
    BenchRun run;
    run.host = host;
    run.started = QDateTime::fromMSecsSinceEpoch(1700000000000, Qt::UTC);
    run.ended = run.started.addSecs(30);
    run.status = QStringLiteral("completed");
    run.params.api = ServeApi::Generate;
    run.params.concurrencies = { 1, 4 };
    run.params.inputTokens = 512;
    run.params.outputTokens = 64;
    run.facts.model = QStringLiteral("org/Model-8B-FP8");
    run.facts.precision = QStringLiteral("FP8");
    run.facts.gpuName = QStringLiteral("NVIDIA H200");
    run.facts.gpuCount = 2;
    run.promptWords = 480;
    run.promptCalibrated = true;
    for (int c : run.params.concurrencies) {
        LevelResult l;
        l.concurrency = c;
        l.startedMs = run.started.toMSecsSinceEpoch() + c * 1000;
        l.endedMs = l.startedMs + 5000;
        for (int i = 0; i < 3; ++i) {
            RequestSample s;
            s.ok = i < 2;
            s.error = s.ok ? QString() : QStringLiteral("HTTP 500 Internal Server Error");
            s.start = 0.01 * i;
            s.ttft = 0.1 * scale;
            s.latency = 1.0 * scale;
            s.itl = { 0.01, 0.02 * scale, 0.03 };
            s.outputTokens = 64;
            s.outputTokensReported = true;
            s.promptTokens = 512;
            s.promptTokensReported = true;
            s.textEvents = 64;
            l.samples << s;
        }
        l.stats = computeLevelStats(l.samples, 5.0, c, 0);
        run.levels << l;
    }
    run.gpu << GpuPoint { run.started.toMSecsSinceEpoch() + 2000, 0, 90.0, 650.0, 70000.0 }
            << GpuPoint { run.started.toMSecsSinceEpoch() + 2000, 1, 80.0, noValue(), 71000.0 };
    run.metrics << MetricsPoint { run.started.toMSecsSinceEpoch() + 2000, 3, 0, 1234.5, 0.5, noValue(), 10, 20 };
    return run;
}

} // namespace

class TestBenchStore : public QObject
{
    Q_OBJECT
private:
    QTemporaryDir m_dir;

private Q_SLOTS:
    void init()
    {
        store::setDatabasePath(m_dir.filePath(QStringLiteral("h%1.sqlite").arg(QDateTime::currentMSecsSinceEpoch())));
    }

    void samplesBlobRoundTrip()
    {
        const BenchRun run = sampleRun(QStringLiteral("h"), 1.0);
        const auto back = benchstore::decodeSamples(benchstore::encodeSamples(run.levels[0].samples));
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(back->size(), 3);
        QCOMPARE(back->at(2).error, QStringLiteral("HTTP 500 Internal Server Error"));
        QCOMPARE(back->at(1).itl.size(), 3);
        QVERIFY(std::abs(back->at(1).itl[1] - 0.02) < 1e-7);
        QCOMPARE(back->at(0).promptTokens, 512);
        QVERIFY(back->at(0).promptTokensReported);
        // Damaged blobs are refused with a reason, never read past their end.
        QByteArray raw = qUncompress(benchstore::encodeSamples(run.levels[0].samples));
        raw.truncate(raw.size() / 2);
        const auto truncated = benchstore::decodeSamples(qCompress(raw));
        QVERIFY(!truncated);
        QVERIFY(truncated.error().contains(QStringLiteral("damaged")));
        QVERIFY(!benchstore::decodeSamples("not compressed"));
    }

    // Issue #35: the scheduled time travels (KFS2); blobs written before it (KFS1) still read.
    void samplesOfVersion1StillRead()
    {
        BenchRun run = sampleRun(QStringLiteral("h"), 1.0);
        run.levels[0].samples[1].scheduled = 0.004;
        const auto back = benchstore::decodeSamples(benchstore::encodeSamples(run.levels[0].samples));
        QVERIFY(back);
        QCOMPARE(back->at(1).scheduled, 0.004);
        QByteArray raw;
        QDataStream out(&raw, QIODevice::WriteOnly);
        out.setVersion(QDataStream::Qt_6_4);
        out << quint32(0x4b465331) << quint32(1) << true << QStringLiteral("") << 0.25 << 0.05 << 0.5 << qint32(7)
            << true << qint32(3) << true << qint32(3) << quint32(2) << float(0.1) << float(0.2);
        const auto old = benchstore::decodeSamples(qCompress(raw));
        QVERIFY2(old, qPrintable(old.error()));
        QCOMPARE(old->size(), 1);
        QCOMPARE(old->at(0).start, 0.25);
        QCOMPARE(old->at(0).scheduled, 0.25); // none was kept: as sent
        QCOMPARE(old->at(0).latency, 0.5);
        QCOMPARE(old->at(0).itl.size(), 2);
    }

    // Issue #35: the context, the analysis and the new series columns are stored and read back.
    void version2Fields()
    {
        BenchRun run = sampleRun(QStringLiteral("gpu9"), 1.0);
        run.note = QStringLiteral("stopped after c=4: saturated");
        run.context.kernelforgeVersion = QStringLiteral("9.9.9");
        run.context.driver = QStringLiteral("580.95.05");
        run.context.build = { { QStringLiteral("id"), 12 } };
        run.context.otherRunning = 3;
        run.params.slo.ttftMs = 250;
        run.params.rates = { 2.5 };
        run.params.burstiness = 0.5;
        LevelResult& l = run.levels[1];
        l.samples[2].ok = true; // every request streamed: the agreement is checked
        l.requestRate = 2.5;
        l.before.timeMs = 10;
        l.before.generationTokensTotal = 100;
        l.after.timeMs = 20;
        l.after.generationTokensTotal = 228;
        l.after.cachedTokensTotal = 40;
        l.analysis = analyzeLevel(run, l);
        run.gpu[0].smClockMhz = 1980;
        run.gpu[0].reasons = 0x4;
        run.gpu[0].hasReasons = true;
        run.gpu[0].smActivePercent = 93;
        run.gpu[0].tensorActivePercent = 71;
        run.gpu[0].dramActivePercent = 42;
        run.gpmNote = QStringLiteral("GPM not available: GPU 1: compute capability 8.0, predates Hopper");
        run.metrics[0].cachedTokensTotal = 77;
        auto id = benchstore::save(run);
        QVERIFY2(id, qPrintable(id.error()));
        auto back = benchstore::load(id.value());
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(back->note, run.note);
        QCOMPARE(back->context.driver, QStringLiteral("580.95.05"));
        QCOMPARE(back->context.build.value(QStringLiteral("id")).toInt(), 12);
        QCOMPARE(back->context.otherRunning, 3.0);
        QCOMPARE(back->params.slo.ttftMs, 250.0);
        QCOMPARE(back->params.rates, QList<double> { 2.5 });
        QCOMPARE(back->params.burstiness, 0.5);
        QCOMPARE(back->levels[1].requestRate, 2.5);
        QCOMPARE(back->levels[1].after.generationTokensTotal, 228.0);
        QCOMPARE(back->levels[1].after.cachedTokensTotal, 40.0);
        QCOMPARE(back->levels[1].analysis.goodput.good, l.analysis.goodput.good);
        QCOMPARE(back->levels[1].analysis.agreement.serverTokens, 128.0);
        QVERIFY(!back->levels[1].analysis.agreement.agrees); // 192 streamed
        QCOMPARE(back->gpu[0].smClockMhz, 1980.0);
        QVERIFY(back->gpu[0].hasReasons);
        QCOMPARE(back->gpu[0].reasons, quint64(0x4));
        QVERIFY(!back->gpu[1].hasReasons);
        // GPM per sample, and why not: stored as measured, no value stays no value (issue #37).
        QCOMPARE(back->gpu[0].smActivePercent, 93.0);
        QCOMPARE(back->gpu[0].tensorActivePercent, 71.0);
        QCOMPARE(back->gpu[0].dramActivePercent, 42.0);
        QVERIFY(std::isnan(back->gpu[1].smActivePercent));
        QCOMPARE(back->gpmNote, run.gpmNote);
        QCOMPARE(back->metrics[0].cachedTokensTotal, 77.0);
        // The aggregates-only listing keeps the analysis (the runs list shows goodput from it).
        auto listed = benchstore::list(QStringLiteral("gpu9"));
        QVERIFY(listed);
        QCOMPARE(listed->first().levels[1].analysis.goodput.good, l.analysis.goodput.good);
    }

    void saveListLoadRemove()
    {
        auto a = benchstore::save(sampleRun(QStringLiteral("gpu1"), 1.0));
        QVERIFY2(a, qPrintable(a.error()));
        BenchRun second = sampleRun(QStringLiteral("gpu2"), 2.0);
        second.started = second.started.addSecs(60);
        auto b = benchstore::save(second);
        QVERIFY2(b, qPrintable(b.error()));

        auto all = benchstore::list();
        QVERIFY2(all, qPrintable(all.error()));
        QCOMPARE(all->size(), 2);
        QCOMPARE(all->first().id, b.value()); // newest first
        QCOMPARE(all->first().levels.size(), 2);
        QVERIFY(all->first().levels[0].samples.isEmpty()); // aggregates only
        auto onlyGpu1 = benchstore::list(QStringLiteral("gpu1"));
        QVERIFY(onlyGpu1);
        QCOMPARE(onlyGpu1->size(), 1);

        auto loaded = benchstore::load(a.value());
        QVERIFY2(loaded, qPrintable(loaded.error()));
        const BenchRun& r = loaded.value();
        QCOMPARE(r.host, QStringLiteral("gpu1"));
        QCOMPARE(r.params.api, ServeApi::Generate);
        QCOMPARE(r.params.concurrencies, (QList<int> { 1, 4 }));
        QCOMPARE(r.facts.model, QStringLiteral("org/Model-8B-FP8"));
        QCOMPARE(r.facts.gpuCount, 2);
        QCOMPARE(r.promptWords, 480);
        QVERIFY(r.promptCalibrated);
        QCOMPARE(r.levels.size(), 2);
        QCOMPARE(r.levels[1].concurrency, 4);
        QCOMPARE(r.levels[1].samples.size(), 3);
        QCOMPARE(r.levels[1].stats.failed, 1);
        QCOMPARE(r.gpu.size(), 2);
        QVERIFY(std::isnan(r.gpu[1].powerW)); // no value stays no value
        QCOMPARE(r.gpu[0].powerW, 650.0);
        QCOMPARE(r.metrics.size(), 1);
        QCOMPARE(r.metrics[0].genThroughput, 1234.5);

        // Compared side by side: run b's latencies are twice run a's.
        auto other = benchstore::load(b.value(), false);
        QVERIFY(other);
        const RunComparison c = compareRuns(r, other.value());
        QVERIFY(c.differences.isEmpty());                                            // the same workload,
        QVERIFY(c.contextDifferences.contains(QStringLiteral("host gpu1 vs gpu2"))); // elsewhere
        QCOMPARE(c.levels.size(), 2);
        QVERIFY(c.levels[0].a && c.levels[0].b);
        const auto ttft = std::find_if(benchMetrics().cbegin(), benchMetrics().cend(),
            [](const BenchMetric& m) { return QByteArrayView(m.key) == "ttft_mean_ms"; });
        QVERIFY(ttft != benchMetrics().cend());
        QVERIFY(std::abs(relativeChange(ttft->value({ *c.levels[0].a, 2 }), ttft->value({ *c.levels[0].b, 2 })) - 1.0)
            < 1e-9);

        QVERIFY(benchstore::remove(a.value()));
        auto gone = benchstore::load(a.value());
        QVERIFY(!gone);
        QCOMPARE(gone.kind(), ErrorKind::NotFound);
        // Levels, GPU samples and metrics went with the run.
        QSqlQuery q(store::database().value());
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM bench_levels WHERE run_id = %1").arg(a.value())));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        QVERIFY(q.exec(QStringLiteral("SELECT COUNT(*) FROM bench_gpu_samples WHERE run_id = %1").arg(a.value())));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 0);
        QVERIFY(!benchstore::remove(a.value()));
    }

    void schemaVersion()
    {
        QVERIFY(benchstore::ensureSchema());
        QSqlQuery q(store::database().value());
        QVERIFY(q.exec(QStringLiteral("SELECT version FROM schema_versions WHERE component = 'servebench'")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 2);
        // Applying again changes nothing.
        QVERIFY(benchstore::ensureSchema());
        // A database from a newer KernelForge is refused, not misread.
        QVERIFY(q.exec(QStringLiteral("UPDATE schema_versions SET version = 7 WHERE component = 'servebench'")));
        const Result<void> newer = benchstore::ensureSchema();
        QVERIFY(!newer);
        QVERIFY2(newer.error().contains(QStringLiteral("version 7")), qPrintable(newer.error()));
        QVERIFY(!benchstore::list());
    }

    void stepsApplyInOrderOnce()
    {
        const QList<QStringList> v1 { { QStringLiteral("CREATE TABLE t_demo(a INTEGER)") } };
        QVERIFY(store::migrate(QStringLiteral("demo"), v1));
        QList<QStringList> v2 = v1;
        v2 << QStringList { QStringLiteral("ALTER TABLE t_demo ADD COLUMN b TEXT") };
        QVERIFY(store::migrate(QStringLiteral("demo"), v2)); // only step 2 runs (step 1 would fail: exists)
        QVERIFY(store::migrate(QStringLiteral("demo"), v2));
        QSqlQuery q(store::database().value());
        QVERIFY(q.exec(QStringLiteral("INSERT INTO t_demo(a, b) VALUES(1, 'x')")));
        // A failing step leaves the version where it was.
        QList<QStringList> bad = v2;
        bad << QStringList { QStringLiteral("CREATE TABLE t_other(x)"), QStringLiteral("NOT SQL") };
        QVERIFY(!store::migrate(QStringLiteral("demo"), bad));
        QVERIFY(q.exec(QStringLiteral("SELECT version FROM schema_versions WHERE component = 'demo'")));
        QVERIFY(q.next());
        QCOMPARE(q.value(0).toInt(), 2);
        QVERIFY(!q.exec(QStringLiteral("SELECT * FROM t_other"))); // rolled back
    }
};

QTEST_GUILESS_MAIN(TestBenchStore)
#include "tst_benchstore.moc"
