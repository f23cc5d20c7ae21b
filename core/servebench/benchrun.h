// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/arrivals.h"
#include "core/servebench/benchcontext.h"
#include "core/servebench/benchseries.h"
#include "core/servebench/benchstats.h"
#include "core/servebench/goodput.h"
#include "core/servebench/levelanalysis.h"
#include "core/servebench/requestrecorder.h"
#include "core/servebench/serveapi.h"
#include "core/servebench/workload.h"
#include "core/util/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

// One serving-benchmark run: what was asked, what the server was, each level's requests,
// aggregates and analysis, what the GPUs and the server's /metrics said meanwhile, and the
// context it ran in.
namespace kf {

// What a level varies: the requests in flight at most (0: no cap) and the arrival rate
// (requests/s; 0: all at once, a closed loop up to the cap).
struct LevelPlan
{
    int concurrency = 0;
    double rate = 0;
    bool operator==(const LevelPlan&) const = default;
};
// "c=8", "4 req/s", "4 req/s, c<=16": how a level is named in tables, charts and the CLI.
QString levelLabel(const LevelPlan& level);

// The search for the highest load that keeps goodput at the target (goodputsearch.h).
enum class SearchKind { None, Concurrency, RequestRate };
QString searchKindName(SearchKind kind); // "none", "concurrency", "rate"
std::optional<SearchKind> searchKindFromName(const QString& name);

struct BenchParams
{
    ServeApi api = ServeApi::Completions;
    quint16 serverPort = 30000; // on the host's loopback
    // Levels: one per concurrency at requestRate, or (rates not empty) one per rate with at
    // most maxConcurrency in flight, or (search) the ones the goodput search picks.
    QList<int> concurrencies { 1, 4, 16, 64 };
    QList<double> rates;
    int maxConcurrency = 0; // rate levels and a rate search: 0 = no cap
    int requests = 0;       // per level; 0: requestsFor()
    int inputTokens = 1024;
    int outputTokens = 128; // sharegpt: 0 = each conversation's reply length
    double requestRate = 0; // concurrency levels: requests/s (arrivals.h); 0: all at once
    double burstiness = 1;  // gamma shape of the gaps (vLLM's --burstiness); 1: Poisson
    RampUp rampUp = RampUp::None;
    double rampStartRps = 0;
    double rampEndRps = 0;
    Dataset dataset = Dataset::Random;
    double rangeRatio = -1; // < 0: fixed lengths
    RangeMeaning rangeMeaning = RangeMeaning::Vllm;
    QString datasetPath; // sharegpt: the JSON file on this machine
    QString datasetSha256;
    int prefixGroups = 4;
    int prefixPerGroup = 8;
    int prefixTokens = 512;
    int questionTokens = 64;
    bool uniquePrefix = false; // no request shares a prefix with another (a 0 % cache-hit baseline)
    Slo slo;
    double goodputTarget = 0.9; // the good fraction the search holds
    SearchKind search = SearchKind::None;
    int searchMax = 256;
    bool stopOnSaturation = false; // end the sweep after the first saturated level
    qint64 replayOf = 0;           // the stored run whose workload this one repeats
    QString model;                 // empty: what the server serves (/v1/models)
    QString precision;             // empty: from server_info / the model name
    quint32 seed = 1;
    int requestTimeoutS = 600;
    bool warmup = true; // one request first (not counted), calibrating prompt length
    int gpuIntervalMs = 1000;
    int metricsIntervalMs = 2000;

    // The levels known before the run (none for a search).
    QList<LevelPlan> plannedLevels() const;
    // Requests of a level: `requests`, or groups x per group (shared-prefix), or max(16, 4 x
    // concurrency) for a concurrency level, max(32, 10 s of arrivals) for a rate level.
    int requestsFor(const LevelPlan& level) const;
    ArrivalShape arrivalShape(const LevelPlan& level) const;
    // The prompt length the warm-up calibrates words per token on.
    int calibrationTokens() const
    {
        return dataset == Dataset::SharedPrefix ? prefixTokens + questionTokens : inputTokens;
    }
    // Empty when the parameters make a run, else what is wrong (the CLI and the tab say it).
    QString error() const;
};
QJsonObject toJson(const BenchParams& p);
BenchParams benchParamsFromJson(const QJsonObject& o);
// "1,4,16,64" -> {1, 4, 16, 64}: the concurrency levels as the CLI flag and the Server pane
// take them (each 1..100000, at least one; spaces around commas allowed).
Result<QList<int>> parseConcurrencies(const QString& text);
// "1,2.5,8" -> request rates (each > 0 and at most 100000).
Result<QList<double>> parseRates(const QString& text);

// What the server and the host said about themselves before the run.
struct ServerIdentity
{
    QString model; // the id requests name (served model name)
    QString modelPath;
    QString serverVersion; // server_info "version", e.g. "0.5.6"
    QString precision;     // "FP8", "FP4", "BF16"...; empty: unknown
    QString gpuName;       // nvidia-smi's name of GPU 0, e.g. "NVIDIA H200"
    int gpuCount = 0;      // GPUs the server uses: tp x dp from server_info, else GPUs seen
    int tpSize = 0;
    int dpSize = 0;
};
QJsonObject toJson(const ServerIdentity& f);
ServerIdentity serverIdentityFromJson(const QJsonObject& o);
// "FP8" for "fp8_e4m3", "modelopt_fp4" -> "FP4", "bfloat16" -> "BF16"...; empty if unknown.
QString normalizePrecision(const QString& text);

struct LevelResult
{
    int concurrency = 0;    // the cap; 0: none
    double requestRate = 0; // offered; 0: all at once
    qint64 startedMs = 0;   // ms since the epoch
    qint64 endedMs = 0;
    bool cancelled = false;
    int notSent = 0;
    LevelStats stats;
    QList<RequestSample> samples; // may be empty when loaded without them
    MetricsPoint before;          // the /metrics polls just before and just after the level
    MetricsPoint after;
    LevelAnalysis analysis;

    LevelPlan plan() const { return { concurrency, requestRate }; }
};

struct BenchRun
{
    qint64 id = 0; // the history database's row id; 0: not stored
    QString host;  // Transport::describe() label, "local" for --local
    QDateTime started;
    QDateTime ended;
    QString status = QStringLiteral("running"); // running | completed | cancelled | failed
    QString error;
    BenchParams params;
    ServerIdentity facts;
    int promptWords = 0;           // words per prompt after calibration
    bool promptCalibrated = false; // from the warm-up's reported prompt_tokens
    QList<LevelResult> levels;
    QList<GpuPoint> gpu;
    QList<MetricsPoint> metrics;
    QString gpuNote; // why there are no GPU samples, if there are none
    QString gpmNote; // why the samples have no GPM (an older GPU, a driver without it, ...), if they have none
    BenchContext context;
    QString note; // how the sweep ended when not by running every level: a search's result, a stop
    QString saveError;
};

// A level's analysis from the run's samples and series (what ServeBench stores with it).
LevelAnalysis analyzeLevel(const BenchRun& run, const LevelResult& level);

// Means over the level's time span: GPU utilisation and GPM activity averaged over GPUs and samples, power of
// all GPUs together (levelEnergy()'s mean), the server's running requests; NaN without samples.
struct LevelSideData
{
    double gpuUtilPercent = noValue();
    double gpuPowerW = noValue(); // all GPUs together
    // GPM means over GPUs and samples (percent); no value without GPM.
    double smActivePercent = noValue();
    double tensorActivePercent = noValue();
    double dramActivePercent = noValue();
    double serverRunning = noValue();
    double serverGenThroughput = noValue();
};
LevelSideData levelSideData(const BenchRun& run, const LevelResult& level);

// One line each, as the CLI prints them and the Server pane shows them:
// "Qwen/Qwen3-8B, server 0.5.6, FP8, 8 x NVIDIA H200"
QString serverSummary(const ServerIdentity& facts);
// "openai /v1/completions, random, input 1024 tokens (prompts of 980 words, calibrated on the
// server's count), output 128 tokens, all requests at once"; with a range ratio, the dataset,
// burstiness, ramp-up and SLOs when given.
QString workloadSummary(const BenchRun& run);

} // namespace kf

Q_DECLARE_METATYPE(kf::LevelPlan)
Q_DECLARE_METATYPE(kf::LevelResult)
Q_DECLARE_METATYPE(kf::BenchRun)
