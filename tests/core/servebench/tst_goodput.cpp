// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #35: goodput as vLLM's calculate_metrics() counts it, against SLO outcomes worked out
// by hand for each request (a value equal to its SLO passes: vLLM compares slo >= value; one
// output token has TPOT 0; a failed request is never good), and vLLM's --goodput syntax.
#include "core/servebench/goodput.h"

#include <QtTest>

using namespace kf;

namespace {

RequestSample request(double ttft, double latency, int output, int prompt = 10, bool ok = true)
{
    RequestSample r;
    r.ok = ok;
    r.ttft = ttft;
    r.latency = latency;
    r.outputTokens = output;
    r.promptTokens = prompt;
    return r;
}

bool near(double a, double b)
{
    return std::abs(a - b) < 1e-12 * std::max(1.0, std::abs(b));
}

} // namespace

class TestGoodput : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parses()
    {
        const auto slo = parseSlo(QStringLiteral("ttft:200 tpot:50 e2el:5000"));
        QVERIFY2(slo, qPrintable(slo.error()));
        QCOMPARE(slo->ttftMs, 200.0);
        QCOMPARE(slo->tpotMs, 50.0);
        QCOMPARE(slo->e2eMs, 5000.0);
        QCOMPARE(sloText(slo.value()), QStringLiteral("ttft:200 tpot:50 e2el:5000"));
        const auto two = parseSlo(QStringLiteral("TPOT:12.5,ttft:300"));
        QVERIFY(two);
        QVERIFY(!hasValue(two->e2eMs));
        QCOMPARE(sloText(two.value()), QStringLiteral("ttft:300 tpot:12.5"));
        QCOMPARE(sloFromJson(toJson(two.value())), two.value());
        for (const char* bad : { "ttft", "ttft:-1", "ttft:x", "e2e:10", "ttft:1 ttft:2", "" })
            QVERIFY2(!parseSlo(QString::fromLatin1(bad)), bad);
        QVERIFY(parseSlo(QStringLiteral("e2e:10")).error().contains(QStringLiteral("ttft, tpot and e2el")));
    }

    void countsAgainstHandComputedOutcomes()
    {
        // SLO ttft:100 tpot:20 (ms). Each request's outcome, by hand:
        const QList<RequestSample> rs {
            request(0.050, 0.050 + 9 * 0.015, 10),  // TTFT 50, TPOT 15: good
            request(0.100, 0.100 + 9 * 0.010, 10),  // TTFT exactly 100: good (slo >= value)
            request(0.101, 0.101 + 9 * 0.010, 10),  // TTFT 101: bad
            request(0.050, 0.050 + 9 * 0.021, 10),  // TPOT 21: bad
            request(0.050, 5.0, 1),                 // one token: TPOT 0, E2E not judged: good
            request(0.010, 0.100, 10, 10, false),   // failed: never good
            request(0.020, 0.020 + 19 * 0.019, 20), // TPOT 19: good
        };
        const Slo slo { 100, 20, noValue() };
        const QList<bool> expected { true, true, false, false, true, false, true };
        for (int i = 0; i < rs.size(); ++i)
            QVERIFY2(meetsSlo(rs[i], slo) == expected[i], qPrintable(QStringLiteral("request %1").arg(i)));
        const Goodput g = computeGoodput(rs, 2.0, slo);
        QCOMPARE(g.good, 4);
        QCOMPARE(g.requests, 7);
        QVERIFY(near(g.requestGoodput, 4 / 2.0));
        QVERIFY(near(g.outputGoodput, (10 + 10 + 1 + 20) / 2.0));
        QVERIFY(near(g.totalGoodput, (10 + 10 + 1 + 20 + 4 * 10) / 2.0));
        QVERIFY(near(g.fraction, 4 / 7.0));

        // With an E2E SLO of 1 s the one-token request (5 s) fails too.
        const Goodput e = computeGoodput(rs, 2.0, { 100, 20, 1000 });
        QCOMPARE(e.good, 3);
        // Only E2E: every successful request under 1 s.
        QCOMPARE(computeGoodput(rs, 2.0, { noValue(), noValue(), 1000 }).good, 5);
        // Round trip.
        const Goodput back = goodputFromJson(toJson(g));
        QCOMPARE(back.good, 4);
        QVERIFY(near(back.fraction, g.fraction));
    }

    void noSloNoGoodput()
    {
        const Goodput g = computeGoodput({ request(0.01, 0.1, 5) }, 1.0, {});
        QCOMPARE(g.good, 0);
        QVERIFY(!hasValue(g.requestGoodput));
        QVERIFY(!hasValue(g.fraction));
    }
};

QTEST_GUILESS_MAIN(TestGoodput)
#include "tst_goodput.moc"
