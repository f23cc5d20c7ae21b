// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #35: the workloads. Both meanings of --random-range-ratio give the ranges their tools
// compute (the expected values are Python's, from the tools' formulas: vLLM's
// vllm/benchmarks/datasets/random.py get_sampling_params, SGLang's
// python/sglang/benchmark/datasets/common.py compute_random_lens), floating-point rounding
// included (vLLM turns 100 with ratio 0.1 into 90..111, not 90..110); the drawn lengths cover
// exactly those ranges. ShareGPT files, shared-prefix groups and unique prefixes.
#include "core/servebench/workload.h"

#include <QSet>
#include <QtTest>

using namespace kf;

class TestWorkload : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void ranges_data()
    {
        QTest::addColumn<int>("meaning");
        QTest::addColumn<int>("length");
        QTest::addColumn<double>("ratio");
        QTest::addColumn<bool>("output");
        QTest::addColumn<int>("low");
        QTest::addColumn<int>("high");
        const int v = int(RangeMeaning::Vllm);
        const int s = int(RangeMeaning::Sglang);
        // python3: math.floor(L * (1 - r)), math.ceil(L * (1 + r))
        QTest::newRow("vllm 1024 0.5") << v << 1024 << 0.5 << false << 512 << 1536;
        QTest::newRow("vllm 128 0.1") << v << 128 << 0.1 << false << 115 << 141;
        QTest::newRow("vllm 100 0.1 (110.00000000000001)") << v << 100 << 0.1 << false << 90 << 111;
        QTest::newRow("vllm 1000 0.9 (99.99999999999997)") << v << 1000 << 0.9 << false << 99 << 1900;
        QTest::newRow("vllm 50 0.9") << v << 50 << 0.9 << false << 4 << 95;
        QTest::newRow("vllm 7 0.5") << v << 7 << 0.5 << false << 3 << 11;
        QTest::newRow("vllm 10 0.9 input") << v << 10 << 0.9 << false << 0 << 19;
        QTest::newRow("vllm 10 0.9 output (low at least 1)") << v << 10 << 0.9 << true << 1 << 19;
        QTest::newRow("vllm 256 0 fixed") << v << 256 << 0.0 << false << 256 << 256;
        // python3: max(int(L * r), 1), L
        QTest::newRow("sglang 1024 0.5") << s << 1024 << 0.5 << false << 512 << 1024;
        QTest::newRow("sglang 7 0.5") << s << 7 << 0.5 << false << 3 << 7;
        QTest::newRow("sglang 3 0.9") << s << 3 << 0.9 << false << 2 << 3;
        QTest::newRow("sglang 128 0 (its default: fully variable)") << s << 128 << 0.0 << false << 1 << 128;
        QTest::newRow("sglang 128 1 fixed") << s << 128 << 1.0 << true << 128 << 128;
    }
    void ranges()
    {
        QFETCH(int, meaning);
        QFETCH(int, length);
        QFETCH(double, ratio);
        QFETCH(bool, output);
        QFETCH(int, low);
        QFETCH(int, high);
        QCOMPARE(lengthRange(RangeMeaning(meaning), length, ratio, output), (LengthRange { low, high }));
    }

    void ratiosOutsideATool() // each tool's own domain
    {
        QVERIFY(!rangeRatioError(RangeMeaning::Vllm, 1.0).isEmpty());
        QVERIFY(rangeRatioError(RangeMeaning::Sglang, 1.0).isEmpty());
        QVERIFY(!rangeRatioError(RangeMeaning::Sglang, 1.5).isEmpty());
        QVERIFY(!rangeRatioError(RangeMeaning::Vllm, -0.1).isEmpty());
        const LengthRange none = lengthRange(RangeMeaning::Vllm, 100, 1.0, false);
        QVERIFY(none.low > none.high);
    }

    // The drawn lengths fill the tool's inclusive range, both ends reached, evenly.
    void drawnLengths_data()
    {
        QTest::addColumn<int>("meaning");
        QTest::newRow("vllm") << int(RangeMeaning::Vllm);
        QTest::newRow("sglang") << int(RangeMeaning::Sglang);
    }
    void drawnLengths()
    {
        QFETCH(int, meaning);
        WorkloadSpec spec;
        spec.inputTokens = 40;
        spec.outputTokens = 20;
        spec.rangeRatio = 0.5;
        spec.rangeMeaning = RangeMeaning(meaning);
        const int n = 3000;
        const auto w = makeWorkload(spec, n, 11);
        QVERIFY2(w, qPrintable(w.error()));
        QCOMPARE(w->size(), n);
        const LengthRange in = lengthRange(spec.rangeMeaning, 40, 0.5, false);
        const LengthRange out = lengthRange(spec.rangeMeaning, 20, 0.5, true);
        int minIn = 1 << 30, maxIn = 0, minOut = 1 << 30, maxOut = 0;
        double sumIn = 0;
        for (const WorkloadRequest& r : w.value()) {
            minIn = std::min(minIn, r.promptTokens);
            maxIn = std::max(maxIn, r.promptTokens);
            minOut = std::min(minOut, r.outputTokens);
            maxOut = std::max(maxOut, r.outputTokens);
            sumIn += r.promptTokens;
            // One word per token at wordsPerToken 1.
            QCOMPARE(int(r.prompt.count(' ')) + 1, r.promptTokens);
        }
        QCOMPARE((LengthRange { minIn, maxIn }), in);
        QCOMPARE((LengthRange { minOut, maxOut }), out);
        const double mid = (in.low + in.high) / 2.0;
        QVERIFY2(std::abs(sumIn / n - mid) < 0.03 * mid, qPrintable(QString::number(sumIn / n)));
    }

    void fixedLengthsWithoutARatio()
    {
        WorkloadSpec spec;
        spec.inputTokens = 12;
        spec.outputTokens = 7;
        spec.wordsPerToken = 0.5; // calibrated: a token is half a word
        const auto w = makeWorkload(spec, 20, 1);
        QVERIFY(w);
        for (const WorkloadRequest& r : w.value()) {
            QCOMPARE(r.promptTokens, 12);
            QCOMPARE(r.outputTokens, 7);
            QCOMPARE(int(r.prompt.count(' ')) + 1, 6);
        }
    }

    void sharedPrefixGroups()
    {
        WorkloadSpec spec;
        spec.dataset = Dataset::SharedPrefix;
        spec.prefixGroups = 3;
        spec.prefixPerGroup = 4;
        spec.prefixTokens = 30;
        spec.questionTokens = 5;
        spec.outputTokens = 9;
        const auto w = makeWorkload(spec, 999, 2);
        QVERIFY(w);
        QCOMPARE(w->size(), 12); // groups x per group, whatever count says
        QSet<QByteArray> prefixes;
        for (int i = 0; i < w->size(); ++i) {
            const WorkloadRequest& r = w->at(i);
            const QByteArray prefix = r.prompt.left(r.prompt.indexOf("\n\n"));
            QCOMPARE(int(prefix.count(' ')) + 1, 30);
            QCOMPARE(r.promptTokens, 35);
            QCOMPARE(r.outputTokens, 9);
            // A group's questions come in a row and share its system prompt.
            if (i % 4 != 0) {
                QCOMPARE(r.group, w->at(i - 1).group);
                QVERIFY(w->at(i - 1).prompt.startsWith(QByteArray(prefix + "\n\n")));
                QVERIFY(r.prompt != w->at(i - 1).prompt);
            }
            prefixes.insert(prefix);
        }
        QCOMPARE(prefixes.size(), 3);
    }

    void uniquePrefixesShareNoFirstWord()
    {
        WorkloadSpec spec;
        spec.inputTokens = 8;
        spec.uniquePrefix = true;
        spec.salt = "run-a/0";
        const auto a = makeWorkload(spec, 500, 3);
        spec.salt = "run-b/0";
        const auto b = makeWorkload(spec, 500, 3); // the same seed: a repeated run
        QVERIFY(a && b);
        QSet<QByteArray> first;
        for (const auto* w : { &a.value(), &b.value() })
            for (const WorkloadRequest& r : *w)
                first.insert(r.prompt.left(r.prompt.indexOf(' ')));
        QCOMPARE(first.size(), 1000); // neither within a run nor between runs
    }

    void shareGpt()
    {
        const QByteArray json = R"([
            {"id": "a", "conversations": [{"from": "human", "value": "one two three four five"},
                                          {"from": "gpt", "value": "six seven eight nine ten eleven"}]},
            {"id": "short", "conversations": [{"from": "human", "value": "hi"}, {"from": "gpt", "value": "hello there friend ok"}]},
            {"id": "single", "conversations": [{"from": "human", "value": "only one turn here yes"}]},
            {"id": "b", "conversations": [{"from": "human", "value": "w w w w w w w w"},
                                          {"from": "gpt", "value": "x x x x"}, {"from": "human", "value": "more"}]}
        ])";
        const auto pairs = parseShareGpt(json);
        QVERIFY2(pairs, qPrintable(pairs.error()));
        QCOMPARE(pairs->size(), 3); // the one-turn conversation is not one
        WorkloadSpec spec;
        spec.dataset = Dataset::ShareGpt;
        spec.shareGpt = pairs.value();
        spec.outputTokens = 0; // each reply's length
        const auto w = makeWorkload(spec, 2, 5);
        QVERIFY2(w, qPrintable(w.error()));
        // vLLM's filter drops "hi" (fewer than 4 tokens); the two others, in a seeded order.
        QSet<QByteArray> prompts;
        for (const WorkloadRequest& r : w.value()) {
            prompts.insert(r.prompt);
            QCOMPARE(r.outputTokens, r.prompt.startsWith("one") ? 6 : 4);
        }
        QCOMPARE(prompts, (QSet<QByteArray> { "one two three four five", "w w w w w w w w" }));
        spec.outputTokens = 64; // a fixed output length
        QCOMPARE(makeWorkload(spec, 2, 5)->first().outputTokens, 64);
        const auto tooFew = makeWorkload(spec, 3, 5);
        QVERIFY(!tooFew);
        QVERIFY2(tooFew.error().contains(QStringLiteral("2 usable conversations, 3 are needed")),
            qPrintable(tooFew.error()));
        QVERIFY(!parseShareGpt("{\"conversations\": []}"));
        QVERIFY(!parseShareGpt("[1, 2"));
    }
};

QTEST_GUILESS_MAIN(TestWorkload)
#include "tst_workload.moc"
