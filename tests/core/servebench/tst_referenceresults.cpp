// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/referenceresults.h"

#include <QStandardPaths>
#include <QtTest>

using namespace kf;

namespace {

const QByteArray kRow = R"(results:
  - model: Llama-3.3-70B-Instruct
    gpu: H100
    gpus: 2
    precision: FP8
    server: NIM 1.8.0
    input_len: 5000
    output_len: 500
    concurrency: 50
    throughput: output
    tok_s: 800
    source: https://example.org/table
)";

struct Fixture
{
    BenchRun run;
    LevelStats level;
};

Fixture matching()
{
    Fixture f;
    f.run.facts.model = QStringLiteral("meta-llama/Llama-3.3-70B-Instruct");
    f.run.facts.gpuName = QStringLiteral("NVIDIA H100 80GB HBM3");
    f.run.facts.gpuCount = 2;
    f.run.facts.precision = QStringLiteral("FP8");
    f.run.params.inputTokens = 5000;
    f.run.params.outputTokens = 500;
    f.level.concurrency = 50;
    f.level.meanInputTokens = 5200; // server-counted, within 10%
    f.level.meanOutputTokens = 500;
    f.level.outputThroughput = 1000;
    f.level.totalThroughput = 11000;
    return f;
}

} // namespace

class TestReferenceResults : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void builtInTableIsValidAndSourced()
    {
        QFile::remove(userReferencePath());
        auto t = loadReferenceTable();
        QVERIFY2(t, qPrintable(t.error()));
        QCOMPARE(t->origin, QStringLiteral(":/servebench/reference.yaml"));
        QVERIFY(t->rows.size() >= 3);
        for (const ReferenceResult& r : t->rows) {
            QVERIFY(r.source.startsWith(QLatin1String("https://")));
            QVERIFY(r.tokensPerS > 0 && r.gpus > 0);
            QVERIFY(!r.server.isEmpty());
        }
    }

    void userCopyReplacesTheBuiltIn()
    {
        QFile::remove(userReferencePath());
        auto path = ensureUserReferenceCopy();
        QVERIFY2(path, qPrintable(path.error()));
        QCOMPARE(path.value(), userReferencePath());
        QFile f(path.value());
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        f.write(kRow);
        f.close();
        auto t = loadReferenceTable();
        QVERIFY2(t, qPrintable(t.error()));
        QCOMPARE(t->origin, userReferencePath());
        QCOMPARE(t->rows.size(), 1);
        QCOMPARE(t->rows[0].tokensPerSPerGpu(), 400.0);
        // An existing copy is kept, never overwritten.
        QVERIFY(ensureUserReferenceCopy());
        QCOMPARE(loadReferenceTable()->rows.size(), 1);
        QFile::remove(userReferencePath());
    }

    void parseErrors_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("error");
        QTest::newRow("no list") << QByteArray("rows: []")
                                 << QStringLiteral("t:1: results: a reference table is a 'results:' list");
        QTest::newRow("not yaml") << QByteArray("results: [") << QStringLiteral("t:1: invalid YAML");
        QTest::newRow("missing source") << QByteArray(kRow).replace("    source: https://example.org/table\n", "")
                                        << QStringLiteral("t:2: results[0].source: is required");
        QTest::newRow("negative tok/s") << QByteArray(kRow).replace("tok_s: 800", "tok_s: -3")
                                        << QStringLiteral("results[0].tok_s: must be a number from 0");
        QTest::newRow("kind") << QByteArray(kRow).replace("throughput: output", "throughput: fast")
                              << QStringLiteral("results[0].throughput: output or total, not 'fast'");
        QTest::newRow("too big") << QByteArray(2 << 20, '#') << QStringLiteral("t: larger than 1048576 bytes");
    }
    void parseErrors()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, error);
        auto t = parseReferenceTable(yaml, QStringLiteral("t"));
        QVERIFY(!t);
        QVERIFY2(t.error().contains(error), qPrintable(t.error()));
    }

    void matchingRule()
    {
        const ReferenceTable table = parseReferenceTable(kRow, QStringLiteral("t")).value();
        const ReferenceResult& ref = table.rows[0];
        Fixture f = matching();
        QCOMPARE(referenceMismatch(ref, f.run, f.level), QString());
        const QList<ReferenceMatch> m = matchReferences(table, f.run, f.level);
        QCOMPARE(m.size(), 1);
        QCOMPARE(m[0].ours, 1000.0); // output throughput, aggregate
        QCOMPARE(m[0].oursPerGpu, 500.0);
        QCOMPARE(m[0].ratio, 1.25);

        auto mismatch = [&](auto change, const QString& why) {
            Fixture g = matching();
            change(g);
            const QString got = referenceMismatch(ref, g.run, g.level);
            QVERIFY2(got.startsWith(why), qPrintable(got + QStringLiteral(" / ") + why));
            QVERIFY(matchReferences(table, g.run, g.level).isEmpty());
        };
        mismatch([](Fixture& g) { g.run.facts.model = QStringLiteral("meta-llama/Llama-3.1-70B-Instruct"); },
            QStringLiteral("model"));
        mismatch([](Fixture& g) { g.run.facts.gpuName = QStringLiteral("NVIDIA H200"); }, QStringLiteral("GPU"));
        mismatch([](Fixture& g) { g.run.facts.gpuCount = 8; }, QStringLiteral("2 GPUs vs 8"));
        mismatch([](Fixture& g) { g.run.facts.precision.clear(); }, QStringLiteral("precision FP8 vs unknown"));
        mismatch([](Fixture& g) { g.level.meanInputTokens = 4000; }, QStringLiteral("input 5000 tokens vs 4000"));
        mismatch([](Fixture& g) { g.level.meanOutputTokens = 128; }, QStringLiteral("output 500 tokens vs 128"));
        mismatch([](Fixture& g) { g.level.concurrency = 64; }, QStringLiteral("concurrency 50 vs 64"));
        // Estimated counts fall back to the requested lengths.
        Fixture est = matching();
        est.level.meanInputTokens = 100;
        est.level.inputTokensEstimated = true;
        QCOMPARE(referenceMismatch(ref, est.run, est.level), QString());

        // A total-throughput row compares total throughput.
        const ReferenceTable total = parseReferenceTable(
            QByteArray(kRow).replace("throughput: output", "throughput: total"), QStringLiteral("t"))
                                         .value();
        QCOMPARE(matchReferences(total, f.run, f.level).value(0).ours, 11000.0);
    }

    void precisionNames()
    {
        QCOMPARE(normalizePrecision(QStringLiteral("fp8_e4m3")), QStringLiteral("FP8"));
        QCOMPARE(normalizePrecision(QStringLiteral("modelopt_fp4")), QStringLiteral("FP4"));
        QCOMPARE(normalizePrecision(QStringLiteral("Qwen/Qwen3.5-397B-A17B-NVFP4")), QStringLiteral("NVFP4"));
        QCOMPARE(normalizePrecision(QStringLiteral("bfloat16")), QStringLiteral("BF16"));
        QCOMPARE(normalizePrecision(QStringLiteral("auto")), QString());
    }
};

QTEST_GUILESS_MAIN(TestReferenceResults)
#include "tst_referenceresults.moc"
