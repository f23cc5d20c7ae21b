// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/benchseries.h"
#include "core/servebench/benchstats.h"
#include "core/servebench/goodput.h"
#include "core/servebench/requestrecorder.h"

#include <QJsonObject>
#include <QList>
#include <QString>

// What KernelForge adds to a level's bench_serving figures (README, "What the serving
// benchmark's numbers mean", defines each for people). Times of requests are seconds on the
// level's clock (0 = the level started, as RequestSample); GPU and /metrics points are ms
// since the epoch, the level's start being startedMs.
namespace kf {

// The level without its ramp and drain: from the first request that finished (until then the
// first wave is still being admitted) to the last request sent (after it the load only
// drains). Requests sent inside it give its latencies; tokens and completions that arrived
// inside it its throughput (a request's tokens at its event times, each event weighted so the
// request adds up to its output count). None when the first request finished only after the
// last was sent, when fewer than kSteadyMinRequests were sent inside it (too short to say
// anything), or with a ramp-up (the rate changes over the whole level, as vLLM ramps it).
inline constexpr int kSteadyMinRequests = 5;
struct SteadyWindow
{
    double startS = noValue();
    double endS = noValue();
    int requests = 0; // sent inside
    double requestThroughput = noValue();
    double outputThroughput = noValue();
    Distribution ttft;
    Distribution tpot;
    QString note; // why there is no window
    bool valid() const { return hasValue(startS) && hasValue(endS) && endS > startS; }
    double lengthS() const { return valid() ? endS - startS : noValue(); }
};
SteadyWindow steadyWindow(const QList<RequestSample>& samples, bool rampUp);

// Three signs that the server could not keep up, each a check that may not be available:
//   rate   (an offered rate without a ramp) the rate requests completed at, from the first
//          completion to the last, below 90 % of the offered rate, by more than 3 standard
//          deviations of a Poisson count over that span (3 x sqrt(offered x seconds));
//   queue  (two or more /metrics polls during the level) the server's waiting requests
//          (num_queue_reqs, num_requests_waiting) averaged 1 or more, or grew by 2 or more;
//   ttft   (9 or more successful requests) the median TTFT of the last third of the requests
//          sent is at least 1.5 x that of the first third, and 5 ms more.
struct SaturationCheck
{
    QString key; // "rate", "queue", "ttft"
    bool available = false;
    bool fired = false;
    QString detail; // what was seen, or why the check could not run
};
struct Saturation
{
    QList<SaturationCheck> checks;
    bool saturated() const;
    // "completed 12.10 requests/s of the 40 offered (over 9.3 s); the server's queue: 0 -> 37
    // waiting requests (mean 18.2 over 20 polls)" (the checks that fired).
    QString summary() const;
};
// offeredRate: requests/s (0: none, as with everything at once); levelMetrics: the polls that
// fell inside the level.
Saturation detectSaturation(
    const QList<RequestSample>& samples, double offeredRate, bool rampUp, const QList<MetricsPoint>& levelMetrics);

// The client's count of output tokens against the server's own generation_tokens_total over
// the same window (the polls just before and just after the level): they agree when they
// differ by at most kAgreementTolerance of the client's count (and 2 tokens). Not checked for
// a cancelled level, one with failed requests (a request cut off is counted differently on
// each side), or when either poll lacks the counter.
inline constexpr double kAgreementTolerance = 0.02;
struct ServerAgreement
{
    bool checked = false;
    bool agrees = true;
    qint64 clientTokens = 0;
    double serverTokens = noValue(); // the counter's growth
    double windowS = noValue();      // between the two polls
    QString detail;
};
ServerAgreement checkAgreement(
    const QList<RequestSample>& samples, const MetricsPoint& before, const MetricsPoint& after, bool cancelled);

// GPU energy of a level from the power stream: P(t) is the sum of every GPU's power.draw at a
// sample time, linear between samples; the mean power is its integral over the part of the
// level the samples cover, divided by that part's length; energy = mean power x the level's
// duration; J per output token = energy / the level's output tokens (successful requests).
struct LevelEnergy
{
    double joules = noValue();
    double meanPowerW = noValue(); // all GPUs together
    double joulesPerOutputToken = noValue();
    int gpus = 0;    // GPUs with a power value
    int samples = 0; // sample times used
};
LevelEnergy levelEnergy(const QList<GpuPoint>& gpu, qint64 startMs, qint64 endMs, qint64 outputTokens);

// Clocks and throttle reasons seen during a level (every GPU, every sample inside it).
struct LevelGpuState
{
    double smClockMeanMhz = noValue();
    double smClockMinMhz = noValue();
    double memClockMeanMhz = noValue();
    quint64 reasons = 0; // every reason seen, OR-ed
    bool hasReasons = false;
};
LevelGpuState levelGpuState(const QList<GpuPoint>& gpu, qint64 startMs, qint64 endMs);

struct LevelAnalysis
{
    Goodput goodput;
    SteadyWindow steady;
    Saturation saturation;
    ServerAgreement agreement;
    LevelEnergy energy;
    LevelGpuState gpu;
    double otherRunning = noValue(); // the server's running / waiting requests just before the level:
    double otherQueued = noValue();  // none of them ours
    double cacheHitRate = noValue(); // cached prompt tokens / prompt tokens over the level (/metrics)
};
QJsonObject toJson(const LevelAnalysis& a);
LevelAnalysis levelAnalysisFromJson(const QJsonObject& o);

// Per GPU and per user. tok/s per GPU = the server's tok/s / its GPUs (NaN without a count);
// per user = 1 / the level's median TPOT (InferenceX's "interactivity", tokens per second a
// user sees while decoding).
double perGpu(double tokensPerS, int gpus);
double perUserOutput(const LevelStats& stats);

} // namespace kf
