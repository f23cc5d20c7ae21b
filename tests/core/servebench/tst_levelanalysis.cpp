// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #35: what KernelForge adds to a level, against values worked out by hand: the steady
// window, the three saturation checks (each firing and each staying quiet), the server's token
// count against the client's, and J per output token from a replayed power stream (the H200
// capture of tests/data/field-h200, its power-cap throttle reason included).
#include "core/gpu/nvidiasmi.h"
#include "core/servebench/benchrun.h"
#include "core/servebench/levelanalysis.h"
#include "tests/support/testsupport.h"

#include <QtTest>

using namespace kf;

namespace {

RequestSample request(double start, double ttft, double latency, int output = 10, double scheduled = -1)
{
    RequestSample r;
    r.ok = true;
    r.start = start;
    r.scheduled = scheduled < 0 ? start : scheduled;
    r.ttft = ttft;
    r.latency = latency;
    r.outputTokens = output;
    // The last token 10 ms before the end of the stream ([DONE]).
    for (int i = 1; i < output; ++i)
        r.itl.append((latency - 0.01 - ttft) / (output - 1));
    return r;
}

// Requests every 1 / rate seconds, each taking `e2e` (TTFT `ttft`), for `seconds`.
QList<RequestSample> steadyLoad(double rate, double seconds, double ttft, double e2e)
{
    QList<RequestSample> out;
    for (double t = 0; t < seconds; t += 1 / rate)
        out.append(request(t, ttft, e2e));
    return out;
}

MetricsPoint queued(qint64 t, double q)
{
    MetricsPoint m;
    m.timeMs = t;
    m.queued = q;
    return m;
}

MetricsPoint counters(qint64 t, double generated, double running = 0)
{
    MetricsPoint m;
    m.timeMs = t;
    m.generationTokensTotal = generated;
    m.running = running;
    m.queued = 0;
    return m;
}

const SaturationCheck& check(const Saturation& s, const char* key)
{
    for (const SaturationCheck& c : s.checks)
        if (c.key == QLatin1String(key))
            return c;
    static const SaturationCheck none;
    return none;
}

bool near(double a, double b, double eps = 1e-9)
{
    return std::abs(a - b) <= eps * std::max(1.0, std::abs(b));
}

} // namespace

class TestLevelAnalysis : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void steadyWindowExcludesRampAndDrain()
    {
        // Eight requests of 1 s each, sent every 0.5 s from 0: the first finishes at 1 s, the
        // last is sent at 3.5 s. Inside [1, 3.5]: the 6 requests sent at 1 ... 3.5, 6
        // completions (at 1 ... 3.5 s), and the tokens that arrived then.
        QList<RequestSample> rs;
        for (int i = 0; i < 8; ++i)
            rs.append(request(0.5 * i, 0.1, 1.0, 10));
        const SteadyWindow w = steadyWindow(rs, false);
        QVERIFY2(w.valid(), qPrintable(w.note));
        QCOMPARE(w.startS, 1.0);
        QCOMPARE(w.endS, 3.5);
        QCOMPARE(w.requests, 6);
        QVERIFY(near(w.requestThroughput, 6 / 2.5));
        // Token times: start + 0.1 + k x 0.0989 (k = 0..9), the last at start + 0.99. In
        // [1, 3.5]: none of request 0's, request 1's from 1.094 (5), all 10 of requests 2 to 5,
        // request 6's to 3.496 (5), none of request 7's (its first at 3.6).
        QVERIFY2(near(w.outputThroughput, 50 / 2.5, 1e-6), qPrintable(QString::number(w.outputThroughput)));
        QCOMPARE(w.ttft.count, 6);
        // The first four alone: 2 requests inside [1, 1.5], too few for a steady state.
        const SteadyWindow shortOne = steadyWindow(rs.mid(0, 4), false);
        QVERIFY(!shortOne.valid());
        QVERIFY2(shortOne.note.contains(QStringLiteral("only 2 requests sent")), qPrintable(shortOne.note));
        // Everything sent at once: the last send (0) precedes the first finish: no window.
        QList<RequestSample> burst { request(0, 0.1, 1.0), request(0, 0.1, 1.2) };
        QVERIFY(!steadyWindow(burst, false).valid());
        QVERIFY(!steadyWindow(rs, true).valid()); // a ramp has none
        QVERIFY(steadyWindow(rs, true).note.contains(QStringLiteral("ramp")));
    }

    void keepingUpIsNotSaturated()
    {
        // 10 requests/s offered and served (each 0.3 s), the queue empty, TTFT flat.
        const QList<RequestSample> rs = steadyLoad(10, 10, 0.05, 0.3);
        const Saturation s = detectSaturation(rs, 10, false, { queued(0, 0), queued(5000, 0), queued(9000, 1) });
        QVERIFY2(!s.saturated(), qPrintable(s.summary()));
        QVERIFY(check(s, "rate").available && check(s, "queue").available && check(s, "ttft").available);
    }

    void fallingBehindIsSaturated()
    {
        // Offered 20/s, but a server that finishes 5/s: request i completes at 0.2 (i + 1) s
        // and waits longer and longer for its first token.
        QList<RequestSample> rs;
        for (int i = 0; i < 100; ++i) {
            const double start = i / 20.0;
            const double finish = 0.2 * (i + 1);
            rs.append(request(start, finish - start - 0.05, finish - start));
        }
        const Saturation s = detectSaturation(rs, 20, false, { queued(0, 0), queued(2000, 28), queued(4000, 57) });
        QVERIFY(s.saturated());
        QVERIFY2(check(s, "rate").fired, qPrintable(check(s, "rate").detail));
        // 99 completions after the first, from 0.2 s to 20 s.
        QVERIFY2(check(s, "rate").detail.startsWith(QStringLiteral("completed 5.00 requests/s of the 20 offered")),
            qPrintable(check(s, "rate").detail));
        QVERIFY(check(s, "queue").fired);
        QVERIFY(check(s, "ttft").fired);
        QVERIFY(s.summary().contains(QStringLiteral("the server's queue: 0 -> 57")));
    }

    void closedLoopQueueAndUnavailableChecks()
    {
        // All at once: no offered rate; a queue that stays at 6 is saturation.
        const QList<RequestSample> rs = steadyLoad(100, 0.05, 0.5, 1.0);
        const Saturation s = detectSaturation(rs, 0, false, { queued(0, 6), queued(900, 6) });
        QVERIFY(!check(s, "rate").available);
        QVERIFY(check(s, "queue").fired);
        QVERIFY(!check(s, "ttft").available); // 5 requests: too few
        const Saturation none = detectSaturation(rs, 0, false, { queued(0, 6) });
        QVERIFY(!none.saturated()); // one poll says nothing about a queue's trend
    }

    void clientAgainstServer()
    {
        QList<RequestSample> rs { request(0, 0.1, 1, 100), request(0.1, 0.1, 1, 92) };
        const ServerAgreement same = checkAgreement(rs, counters(1000, 5000), counters(3000, 5192), false);
        QVERIFY(same.checked);
        QVERIFY2(same.agrees, qPrintable(same.detail));
        QCOMPARE(same.clientTokens, qint64(192));
        QCOMPARE(same.serverTokens, 192.0);
        QCOMPARE(same.windowS, 2.0);
        // A /metrics that counts half of what it streamed.
        const ServerAgreement half = checkAgreement(rs, counters(1000, 5000), counters(3000, 5096), false);
        QVERIFY(half.checked && !half.agrees);
        QVERIFY2(half.detail.contains(QStringLiteral("counts fewer tokens than it streams")), qPrintable(half.detail));
        // Other traffic on the server.
        const ServerAgreement more = checkAgreement(rs, counters(1000, 5000), counters(3000, 9000), false);
        QVERIFY(!more.agrees);
        QVERIFY(more.detail.contains(QStringLiteral("other traffic")));
        // Within 2 %: 192 vs 195 (3 tokens; the tolerance is max(2 % = 3.84, 2)).
        QVERIFY(checkAgreement(rs, counters(0, 0), counters(1, 195), false).agrees);
        QVERIFY(!checkAgreement(rs, counters(0, 0), counters(1, 197), false).agrees);
        // Not checked: cancelled, failed requests, no counter.
        QVERIFY(!checkAgreement(rs, counters(0, 0), counters(1, 192), true).checked);
        QList<RequestSample> failed = rs;
        failed[1].ok = false;
        QVERIFY(!checkAgreement(failed, counters(0, 0), counters(1, 192), false).checked);
        QVERIFY(!checkAgreement(rs, MetricsPoint {}, counters(1, 192), false).checked);
    }

    // J per output token from the field capture's power stream, by hand.
    void energyFromAReplayedPowerStream()
    {
        QList<GpuField> columns;
        for (const QByteArray& n : test::readData(QStringLiteral("field-h200/stream_fields.txt")).trimmed().split(','))
            columns << gpuFieldFromName(n);
        const GpuCsvResult csv = parseGpuCsv(test::readData(QStringLiteral("field-h200/stream.csv")), columns);
        QVERIFY(csv.samples.size() > 10);
        QList<GpuPoint> points;
        for (const GpuSample& s : csv.samples)
            points.append(gpuPoint(s, s.timeMs));
        // Lines 2-5 of stream.csv: 22:03:18.706 692.49 W, 19.707 691.09 W, 20.708 693.37 W,
        // 21.709 689.41 W (one GPU).
        const qint64 t2 = points[1].timeMs;
        QCOMPARE(points[2].timeMs - t2, qint64(1001));
        QCOMPARE(points[1].powerW, 692.49);
        // A level from sample 2 to sample 4: two trapezoids of 1.001 s.
        const double joules = 0.5 * (692.49 + 691.09) * 1.001 + 0.5 * (691.09 + 693.37) * 1.001;
        const LevelEnergy e = levelEnergy(points, t2, t2 + 2002, 1000);
        QVERIFY2(near(e.joules, joules), qPrintable(QStringLiteral("%1 vs %2").arg(e.joules).arg(joules)));
        QVERIFY(near(e.joules, 1385.40402));
        QVERIFY(near(e.joulesPerOutputToken, 1.38540402));
        QVERIFY(near(e.meanPowerW, joules / 2.002));
        QCOMPARE(e.gpus, 1);
        QCOMPARE(e.samples, 3);
        // Edges between samples are interpolated: from 0.5 s after sample 2 to 0.5 s after sample 4.
        const double p0 = 692.49 + (691.09 - 692.49) * 500.0 / 1001.0;
        const double p1 = 693.37 + (689.41 - 693.37) * 500.0 / 1001.0;
        const double inner
            = (0.5 * (p0 + 691.09) * 501 + 0.5 * (691.09 + 693.37) * 1001 + 0.5 * (693.37 + p1) * 500) / 1000.0;
        const LevelEnergy mid = levelEnergy(points, t2 + 500, t2 + 2502, 250);
        QVERIFY2(near(mid.joules, inner), qPrintable(QStringLiteral("%1 vs %2").arg(mid.joules).arg(inner)));
        QVERIFY(near(mid.joulesPerOutputToken, inner / 250));
        // The capture ran at the power cap: the reason is seen, and the SM clocks with it.
        const LevelGpuState g = levelGpuState(points, t2, t2 + 2002);
        QVERIFY(g.hasReasons);
        QCOMPARE(g.reasons, quint64(0x4));
        QCOMPARE(g.smClockMinMhz, 1440.0);
        QVERIFY(near(g.smClockMeanMhz, (1515 + 1455 + 1440) / 3.0));
    }

    void energyOfSeveralGpus()
    {
        // Two GPUs sampled together: P = sum. 100 W + 300 W, then 200 W + 400 W one second later.
        QList<GpuPoint> points;
        points.append({ 1000, 0, noValue(), 100 });
        points.append({ 1000, 1, noValue(), 300 });
        points.append({ 2000, 0, noValue(), 200 });
        points.append({ 2000, 1, noValue(), 400 });
        const LevelEnergy e = levelEnergy(points, 1000, 2000, 50);
        QVERIFY(near(e.joules, 0.5 * (400 + 600) * 1.0));
        QVERIFY(near(e.joulesPerOutputToken, 500.0 / 50));
        QCOMPARE(e.gpus, 2);
        // A level longer than the samples: the mean power of the covered part, for the whole level.
        const LevelEnergy longer = levelEnergy(points, 0, 4000, 100);
        QVERIFY(near(longer.meanPowerW, 500));
        QVERIFY(near(longer.joules, 500 * 4.0));
        QVERIFY(!hasValue(levelEnergy({}, 0, 1000, 10).joules));
    }

    // GPM in a benchmark (issue #37): each sample's SM, tensor and DRAM activity, the level's
    // means over its GPUs and samples; samples without GPM leave the means without a value.
    void gpmMeansOverTheLevel()
    {
        GpuSample g;
        g.index = 1;
        g.setValue(GpuField::SmActive, 90);
        g.setValue(GpuField::TensorActive, 60);
        g.setValue(GpuField::DramActive, 30);
        const GpuPoint a = gpuPoint(g, 1000);
        QCOMPARE(a.gpu, 1);
        QCOMPARE(a.smActivePercent, 90.0);
        QCOMPARE(a.tensorActivePercent, 60.0);
        QCOMPARE(a.dramActivePercent, 30.0);
        GpuPoint b = a;
        b.gpu = 0;
        b.smActivePercent = 70;
        b.tensorActivePercent = 20;
        b.dramActivePercent = 50;
        GpuPoint later = a;
        later.timeMs = 9000; // after the level: not counted
        later.smActivePercent = 0;
        BenchRun run;
        run.gpu = { a, b, later };
        LevelResult level;
        level.startedMs = 500;
        level.endedMs = 2000;
        const LevelSideData d = levelSideData(run, level);
        QCOMPARE(d.smActivePercent, 80.0);
        QCOMPARE(d.tensorActivePercent, 40.0);
        QCOMPARE(d.dramActivePercent, 40.0);
        run.gpu = { GpuPoint { 1000, 0, 50.0 } };
        QVERIFY(!hasValue(levelSideData(run, level).smActivePercent));
        QCOMPARE(levelSideData(run, level).gpuUtilPercent, 50.0);
    }

    void roundTrip()
    {
        LevelAnalysis a;
        a.goodput.good = 3;
        a.goodput.requests = 4;
        a.goodput.fraction = 0.75;
        a.steady = steadyWindow(steadyLoad(10, 3, 0.05, 0.3), false);
        a.saturation.checks.append({ QStringLiteral("queue"), true, true, QStringLiteral("grew") });
        a.agreement.checked = true;
        a.agreement.agrees = false;
        a.agreement.clientTokens = 10;
        a.agreement.serverTokens = 5;
        a.energy.joules = 12;
        a.gpu.reasons = 0x24;
        a.gpu.hasReasons = true;
        a.otherRunning = 3;
        const LevelAnalysis b = levelAnalysisFromJson(toJson(a));
        QCOMPARE(b.goodput.good, 3);
        QCOMPARE(b.steady.startS, a.steady.startS);
        QCOMPARE(b.steady.ttft.p50, a.steady.ttft.p50);
        QVERIFY(b.saturation.saturated());
        QVERIFY(b.agreement.checked && !b.agreement.agrees);
        QCOMPARE(b.agreement.serverTokens, 5.0);
        QCOMPARE(b.energy.joules, 12.0);
        QCOMPARE(b.gpu.reasons, quint64(0x24));
        QCOMPARE(b.otherRunning, 3.0);
        QVERIFY(!hasValue(b.otherQueued));
        QVERIFY(toJson(a).value(QStringLiteral("gpu")).toObject().value(QStringLiteral("throttle_reasons")).isArray());
    }
};

QTEST_GUILESS_MAIN(TestLevelAnalysis)
#include "tst_levelanalysis.moc"
