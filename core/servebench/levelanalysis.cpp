// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/levelanalysis.h"

#include "core/gpu/throttlereasons.h"

#include <QJsonArray>
#include <QMap>

#include <algorithm>
#include <cmath>

namespace kf {

namespace {

double median(QList<double> v)
{
    std::sort(v.begin(), v.end());
    return percentileSorted(v, 50);
}

QString ms(double seconds)
{
    return QString::number(seconds * 1000.0, 'f', seconds < 0.1 ? 1 : 0);
}

} // namespace

SteadyWindow steadyWindow(const QList<RequestSample>& samples, bool rampUp)
{
    SteadyWindow w;
    if (rampUp) {
        w.note = QStringLiteral("a ramp-up changes the rate over the whole level: no steady state");
        return w;
    }
    double firstFinish = noValue();
    double lastSend = noValue();
    for (const RequestSample& r : samples) {
        lastSend = hasValue(lastSend) ? std::max(lastSend, r.start) : r.start;
        if (r.ok)
            firstFinish = hasValue(firstFinish) ? std::min(firstFinish, r.start + r.latency) : r.start + r.latency;
    }
    if (!hasValue(firstFinish) || !(lastSend > firstFinish)) {
        w.note = QStringLiteral("no steady state: the first request finished only after the last one was sent");
        return w;
    }
    w.startS = firstFinish;
    w.endS = lastSend;
    QList<double> ttft;
    QList<double> tpot;
    int completions = 0;
    double tokens = 0;
    for (const RequestSample& r : samples) {
        const bool sentInside = r.start >= w.startS && r.start <= w.endS;
        w.requests += sentInside ? 1 : 0;
        if (!r.ok)
            continue;
        if (sentInside) {
            ttft.append(r.ttft);
            if (const double t = r.tpot(); t >= 0)
                tpot.append(t);
        }
        const double finish = r.start + r.latency;
        completions += finish >= w.startS && finish <= w.endS ? 1 : 0;
        const double weight = double(r.outputTokens) / double(1 + r.itl.size());
        double t = r.start + r.ttft;
        tokens += t >= w.startS && t <= w.endS ? weight : 0;
        for (double gap : r.itl) {
            t += gap;
            tokens += t >= w.startS && t <= w.endS ? weight : 0;
        }
    }
    if (w.requests < kSteadyMinRequests) {
        const double from = w.startS;
        const double to = w.endS;
        const int sent = w.requests;
        w = SteadyWindow {};
        w.note = QStringLiteral("no steady state: only %1 request%2 sent between the first completion (%3 s) and the "
                                "last send (%4 s); fewer than %5")
                     .arg(sent)
                     .arg(sent == 1 ? QString() : QStringLiteral("s"))
                     .arg(from, 0, 'f', 2)
                     .arg(to, 0, 'f', 2)
                     .arg(kSteadyMinRequests);
        return w;
    }
    w.requestThroughput = completions / w.lengthS();
    w.outputThroughput = tokens / w.lengthS();
    w.ttft = summarize(std::move(ttft));
    w.tpot = summarize(std::move(tpot));
    return w;
}

bool Saturation::saturated() const
{
    return std::any_of(checks.cbegin(), checks.cend(), [](const SaturationCheck& c) { return c.fired; });
}

QString Saturation::summary() const
{
    QStringList fired;
    for (const SaturationCheck& c : checks)
        if (c.fired)
            fired << c.detail;
    return fired.join(QStringLiteral("; "));
}

Saturation detectSaturation(
    const QList<RequestSample>& samples, double offeredRate, bool rampUp, const QList<MetricsPoint>& levelMetrics)
{
    Saturation s;

    SaturationCheck rate { QStringLiteral("rate"), false, false, {} };
    if (rampUp) {
        rate.detail = QStringLiteral("a ramp-up offers no one rate");
    } else if (!(offeredRate > 0)) {
        rate.detail = QStringLiteral("closed loop (all at once): no offered rate");
    } else {
        // The rate requests completed at: from the first completion to the last. Below capacity
        // it follows the arrivals (shifted by one E2E); past it, it is what the server manages.
        double first = noValue();
        double last = noValue();
        int completions = 0;
        int late = 0;
        double latest = 0;
        for (const RequestSample& r : samples) {
            if (r.start - r.scheduled > 0.05) {
                ++late;
                latest = std::max(latest, r.start - r.scheduled);
            }
            if (!r.ok)
                continue;
            const double finish = r.start + r.latency;
            first = hasValue(first) ? std::min(first, finish) : finish;
            last = hasValue(last) ? std::max(last, finish) : finish;
            ++completions;
        }
        const double span = completions >= 2 ? last - first : 0;
        if (span > 0) {
            rate.available = true;
            const double achieved = (completions - 1) / span;
            const double expected = offeredRate * span;
            rate.fired = achieved < 0.9 * offeredRate && expected - (completions - 1) > 3 * std::sqrt(expected);
            rate.detail = QStringLiteral("completed %1 requests/s of the %2 offered (over %3 s)")
                              .arg(achieved, 0, 'f', 2)
                              .arg(offeredRate, 0, 'g', 4)
                              .arg(span, 0, 'f', 1);
            if (late > 0)
                rate.detail
                    += QStringLiteral("; %1 request%2 waited for a free slot under the concurrency cap (up to %3 s)")
                           .arg(late)
                           .arg(late == 1 ? QString() : QStringLiteral("s"))
                           .arg(latest, 0, 'f', 2);
        } else {
            rate.detail = QStringLiteral("fewer than 2 requests completed: no rate to measure");
        }
    }
    s.checks.append(rate);

    SaturationCheck queue { QStringLiteral("queue"), false, false, {} };
    QList<double> queued;
    for (const MetricsPoint& m : levelMetrics)
        if (hasValue(m.queued))
            queued.append(m.queued);
    if (queued.size() < 2) {
        queue.detail = QStringLiteral("fewer than 2 /metrics polls with a queue length during the level");
    } else {
        queue.available = true;
        double sum = 0;
        for (double q : queued)
            sum += q;
        const double mean = sum / double(queued.size());
        const double grew = queued.last() - queued.first();
        queue.fired = mean >= 1 || grew >= 2;
        queue.detail = QStringLiteral("the server's queue: %1 -> %2 waiting requests (mean %3 over %4 polls)")
                           .arg(queued.first(), 0, 'f', 0)
                           .arg(queued.last(), 0, 'f', 0)
                           .arg(mean, 0, 'f', 1)
                           .arg(queued.size());
    }
    s.checks.append(queue);

    SaturationCheck ttft { QStringLiteral("ttft"), false, false, {} };
    QList<const RequestSample*> ok;
    for (const RequestSample& r : samples)
        if (r.ok)
            ok.append(&r);
    std::stable_sort(
        ok.begin(), ok.end(), [](const RequestSample* a, const RequestSample* b) { return a->start < b->start; });
    if (ok.size() < 9) {
        ttft.detail = QStringLiteral("fewer than 9 successful requests");
    } else {
        const qsizetype third = ok.size() / 3;
        QList<double> first;
        QList<double> last;
        for (qsizetype i = 0; i < third; ++i) {
            first.append(ok.at(i)->ttft);
            last.append(ok.at(ok.size() - 1 - i)->ttft);
        }
        const double a = median(first);
        const double b = median(last);
        ttft.available = true;
        ttft.fired = b >= 1.5 * a && b - a >= 0.005;
        ttft.detail = QStringLiteral("TTFT median %1 ms in the first third of the requests, %2 ms in the last")
                          .arg(ms(a), ms(b));
    }
    s.checks.append(ttft);
    return s;
}

ServerAgreement checkAgreement(
    const QList<RequestSample>& samples, const MetricsPoint& before, const MetricsPoint& after, bool cancelled)
{
    ServerAgreement a;
    int failed = 0;
    for (const RequestSample& r : samples) {
        if (r.ok)
            a.clientTokens += r.outputTokens;
        else
            ++failed;
    }
    if (cancelled) {
        a.detail = QStringLiteral("not checked: the level was cancelled");
        return a;
    }
    if (failed > 0) {
        a.detail = QStringLiteral("not checked: %1 request%2 failed")
                       .arg(failed)
                       .arg(failed == 1 ? QString() : QStringLiteral("s"));
        return a;
    }
    if (!hasValue(before.generationTokensTotal) || !hasValue(after.generationTokensTotal)) {
        a.detail = QStringLiteral("not checked: /metrics has no generation_tokens_total before and after the level");
        return a;
    }
    a.serverTokens = after.generationTokensTotal - before.generationTokensTotal;
    a.windowS = double(after.timeMs - before.timeMs) / 1000.0;
    if (a.serverTokens < 0) {
        a.detail = QStringLiteral("not checked: generation_tokens_total went down (the server restarted?)");
        a.serverTokens = noValue();
        return a;
    }
    a.checked = true;
    const double tolerance = std::max(kAgreementTolerance * double(a.clientTokens), 2.0);
    a.agrees = std::abs(a.serverTokens - double(a.clientTokens)) <= tolerance;
    const QString rates = a.windowS > 0 ? QStringLiteral(" (%1 vs %2 tok/s over the %3 s between the polls)")
                                              .arg(double(a.clientTokens) / a.windowS, 0, 'f', 1)
                                              .arg(a.serverTokens / a.windowS, 0, 'f', 1)
                                              .arg(a.windowS, 0, 'f', 1)
                                        : QString();
    if (a.agrees)
        a.detail = QStringLiteral("the server counted %1 output tokens, the client received %2: within %3 %")
                       .arg(a.serverTokens, 0, 'f', 0)
                       .arg(a.clientTokens)
                       .arg(kAgreementTolerance * 100, 0, 'g', 3)
            + rates;
    else if (a.serverTokens < double(a.clientTokens))
        a.detail = QStringLiteral("MISMATCH: the server's generation_tokens_total grew by %1 while the client received "
                                  "%2 output tokens: its /metrics counts fewer tokens than it streams")
                       .arg(a.serverTokens, 0, 'f', 0)
                       .arg(a.clientTokens)
            + rates;
    else
        a.detail
            = QStringLiteral("MISMATCH: the server's generation_tokens_total grew by %1 while the client received "
                             "%2 output tokens: other traffic ran on the server, or it counts more than it streams")
                  .arg(a.serverTokens, 0, 'f', 0)
                  .arg(a.clientTokens)
            + rates;
    return a;
}

LevelEnergy levelEnergy(const QList<GpuPoint>& gpu, qint64 startMs, qint64 endMs, qint64 outputTokens)
{
    LevelEnergy e;
    // Total power per sample time (a block's GPUs share one time).
    QMap<qint64, double> total;
    QList<int> gpus;
    for (const GpuPoint& g : gpu) {
        if (!std::isfinite(g.powerW))
            continue;
        total[g.timeMs] += g.powerW;
        if (!gpus.contains(g.gpu))
            gpus.append(g.gpu);
    }
    e.gpus = int(gpus.size());
    if (total.isEmpty() || endMs <= startMs)
        return e;
    const QList<qint64> times = total.keys();
    const qint64 from = std::max(startMs, times.first());
    const qint64 to = std::min(endMs, times.last());
    if (from > to)
        return e; // no sample within the level's span
    auto power = [&](qint64 t) {
        auto hi = std::lower_bound(times.cbegin(), times.cend(), t);
        if (hi == times.cend())
            return total.value(times.last());
        if (*hi == t || hi == times.cbegin())
            return total.value(*hi);
        const qint64 t1 = *hi;
        const qint64 t0 = *(hi - 1);
        const double p0 = total.value(t0);
        const double p1 = total.value(t1);
        return p0 + (p1 - p0) * double(t - t0) / double(t1 - t0);
    };
    for (qint64 t : times)
        e.samples += t >= startMs && t <= endMs ? 1 : 0;
    if (from == to) {
        e.meanPowerW = power(from);
    } else {
        // Trapezoids between the window's edges and every sample time inside it.
        double integral = 0; // W x ms
        qint64 previous = from;
        double previousPower = power(from);
        for (qint64 t : times) {
            if (t <= from || t >= to)
                continue;
            const double p = total.value(t);
            integral += 0.5 * (previousPower + p) * double(t - previous);
            previous = t;
            previousPower = p;
        }
        integral += 0.5 * (previousPower + power(to)) * double(to - previous);
        e.meanPowerW = integral / double(to - from);
    }
    e.joules = e.meanPowerW * double(endMs - startMs) / 1000.0;
    if (outputTokens > 0)
        e.joulesPerOutputToken = e.joules / double(outputTokens);
    return e;
}

LevelGpuState levelGpuState(const QList<GpuPoint>& gpu, qint64 startMs, qint64 endMs)
{
    LevelGpuState s;
    double sm = 0;
    int smN = 0;
    double mem = 0;
    int memN = 0;
    for (const GpuPoint& g : gpu) {
        if (g.timeMs < startMs || g.timeMs > endMs)
            continue;
        if (std::isfinite(g.smClockMhz)) {
            sm += g.smClockMhz;
            ++smN;
            s.smClockMinMhz = hasValue(s.smClockMinMhz) ? std::min(s.smClockMinMhz, g.smClockMhz) : g.smClockMhz;
        }
        if (std::isfinite(g.memClockMhz)) {
            mem += g.memClockMhz;
            ++memN;
        }
        if (g.hasReasons) {
            s.reasons |= g.reasons;
            s.hasReasons = true;
        }
    }
    if (smN > 0)
        s.smClockMeanMhz = sm / smN;
    if (memN > 0)
        s.memClockMeanMhz = mem / memN;
    return s;
}

double perGpu(double tokensPerS, int gpus)
{
    return gpus > 0 ? tokensPerS / double(gpus) : noValue();
}

double perUserOutput(const LevelStats& stats)
{
    return stats.tpot.p50 > 0 ? 1.0 / stats.tpot.p50 : noValue();
}

QJsonObject toJson(const LevelAnalysis& a)
{
    QJsonArray checks;
    for (const SaturationCheck& c : a.saturation.checks)
        checks.append(QJsonObject { { QStringLiteral("check"), c.key }, { QStringLiteral("available"), c.available },
            { QStringLiteral("fired"), c.fired }, { QStringLiteral("detail"), c.detail } });
    const SteadyWindow& w = a.steady;
    return QJsonObject {
        { QStringLiteral("goodput"), toJson(a.goodput) },
        { QStringLiteral("steady"),
            QJsonObject { { QStringLiteral("start_s"), jsonValue(w.startS) },
                { QStringLiteral("end_s"), jsonValue(w.endS) }, { QStringLiteral("requests"), w.requests },
                { QStringLiteral("request_throughput"), jsonValue(w.requestThroughput) },
                { QStringLiteral("output_throughput"), jsonValue(w.outputThroughput) },
                { QStringLiteral("ttft_s"), toJson(w.ttft) }, { QStringLiteral("tpot_s"), toJson(w.tpot) },
                { QStringLiteral("note"), w.note } } },
        { QStringLiteral("saturated"), a.saturation.saturated() },
        { QStringLiteral("saturation"), checks },
        { QStringLiteral("server_agreement"),
            QJsonObject { { QStringLiteral("checked"), a.agreement.checked },
                { QStringLiteral("agrees"), a.agreement.agrees },
                { QStringLiteral("client_output_tokens"), a.agreement.clientTokens },
                { QStringLiteral("server_output_tokens"), jsonValue(a.agreement.serverTokens) },
                { QStringLiteral("window_s"), jsonValue(a.agreement.windowS) },
                { QStringLiteral("tolerance"), kAgreementTolerance },
                { QStringLiteral("detail"), a.agreement.detail } } },
        { QStringLiteral("energy"),
            QJsonObject { { QStringLiteral("joules"), jsonValue(a.energy.joules) },
                { QStringLiteral("mean_power_w"), jsonValue(a.energy.meanPowerW) },
                { QStringLiteral("joules_per_output_token"), jsonValue(a.energy.joulesPerOutputToken) },
                { QStringLiteral("gpus"), a.energy.gpus }, { QStringLiteral("samples"), a.energy.samples } } },
        { QStringLiteral("gpu"),
            QJsonObject { { QStringLiteral("sm_clock_mean_mhz"), jsonValue(a.gpu.smClockMeanMhz) },
                { QStringLiteral("sm_clock_min_mhz"), jsonValue(a.gpu.smClockMinMhz) },
                { QStringLiteral("mem_clock_mean_mhz"), jsonValue(a.gpu.memClockMeanMhz) },
                { QStringLiteral("throttle_reasons"),
                    a.gpu.hasReasons ? QJsonValue(QJsonArray::fromStringList(reasonWords(a.gpu.reasons)))
                                     : QJsonValue() },
                { QStringLiteral("throttle_mask"),
                    a.gpu.hasReasons ? QJsonValue(qint64(a.gpu.reasons)) : QJsonValue() } } },
        { QStringLiteral("other_running_before"), jsonValue(a.otherRunning) },
        { QStringLiteral("other_queued_before"), jsonValue(a.otherQueued) },
        { QStringLiteral("cache_hit_rate"), jsonValue(a.cacheHitRate) },
    };
}

LevelAnalysis levelAnalysisFromJson(const QJsonObject& o)
{
    LevelAnalysis a;
    a.goodput = goodputFromJson(o.value(QLatin1String("goodput")).toObject());
    const QJsonObject w = o.value(QLatin1String("steady")).toObject();
    a.steady.startS = numberFromJson(w.value(QLatin1String("start_s")));
    a.steady.endS = numberFromJson(w.value(QLatin1String("end_s")));
    a.steady.requests = w.value(QLatin1String("requests")).toInt();
    a.steady.requestThroughput = numberFromJson(w.value(QLatin1String("request_throughput")));
    a.steady.outputThroughput = numberFromJson(w.value(QLatin1String("output_throughput")));
    a.steady.ttft = distributionFromJson(w.value(QLatin1String("ttft_s")).toObject());
    a.steady.tpot = distributionFromJson(w.value(QLatin1String("tpot_s")).toObject());
    a.steady.note = w.value(QLatin1String("note")).toString();
    for (const QJsonValue& v : o.value(QLatin1String("saturation")).toArray()) {
        const QJsonObject c = v.toObject();
        a.saturation.checks.append(
            { c.value(QLatin1String("check")).toString(), c.value(QLatin1String("available")).toBool(),
                c.value(QLatin1String("fired")).toBool(), c.value(QLatin1String("detail")).toString() });
    }
    const QJsonObject g = o.value(QLatin1String("server_agreement")).toObject();
    a.agreement.checked = g.value(QLatin1String("checked")).toBool();
    a.agreement.agrees = g.value(QLatin1String("agrees")).toBool(true);
    a.agreement.clientTokens = g.value(QLatin1String("client_output_tokens")).toInteger();
    a.agreement.serverTokens = numberFromJson(g.value(QLatin1String("server_output_tokens")));
    a.agreement.windowS = numberFromJson(g.value(QLatin1String("window_s")));
    a.agreement.detail = g.value(QLatin1String("detail")).toString();
    const QJsonObject e = o.value(QLatin1String("energy")).toObject();
    a.energy.joules = numberFromJson(e.value(QLatin1String("joules")));
    a.energy.meanPowerW = numberFromJson(e.value(QLatin1String("mean_power_w")));
    a.energy.joulesPerOutputToken = numberFromJson(e.value(QLatin1String("joules_per_output_token")));
    a.energy.gpus = e.value(QLatin1String("gpus")).toInt();
    a.energy.samples = e.value(QLatin1String("samples")).toInt();
    const QJsonObject s = o.value(QLatin1String("gpu")).toObject();
    a.gpu.smClockMeanMhz = numberFromJson(s.value(QLatin1String("sm_clock_mean_mhz")));
    a.gpu.smClockMinMhz = numberFromJson(s.value(QLatin1String("sm_clock_min_mhz")));
    a.gpu.memClockMeanMhz = numberFromJson(s.value(QLatin1String("mem_clock_mean_mhz")));
    a.gpu.hasReasons = s.value(QLatin1String("throttle_mask")).isDouble();
    a.gpu.reasons = quint64(s.value(QLatin1String("throttle_mask")).toInteger());
    a.otherRunning = numberFromJson(o.value(QLatin1String("other_running_before")));
    a.otherQueued = numberFromJson(o.value(QLatin1String("other_queued_before")));
    a.cacheHitRate = numberFromJson(o.value(QLatin1String("cache_hit_rate")));
    return a;
}

} // namespace kf
