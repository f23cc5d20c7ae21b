// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/benchstats.h"
#include "core/servebench/requestrecorder.h"
#include "core/servebench/serveapi.h"
#include "core/util/result.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QMetaType>
#include <QString>

// One serving-benchmark run: what was asked, what the server was, each concurrency level's
// requests and aggregates, and what the GPUs and the server's /metrics said meanwhile.
namespace kf {

struct BenchParams
{
    ServeApi api = ServeApi::Completions;
    quint16 serverPort = 30000; // on the host's loopback
    QList<int> concurrencies { 1, 4, 16, 64 };
    int requests = 0; // per level; 0: max(16, 4 x concurrency)
    int inputTokens = 1024;
    int outputTokens = 128;
    double requestRate = 0; // requests/s, Poisson; 0: all at once
    QString model;          // empty: what the server serves (/v1/models)
    QString precision;      // empty: from server_info / the model name
    quint32 seed = 1;
    int requestTimeoutS = 600;
    bool warmup = true; // one request first (not counted), calibrating prompt length
    int gpuIntervalMs = 1000;
    int metricsIntervalMs = 2000;

    int requestsFor(int concurrency) const { return requests > 0 ? requests : qMax(16, 4 * concurrency); }
};
QJsonObject toJson(const BenchParams& p);
BenchParams benchParamsFromJson(const QJsonObject& o);
// "1,4,16,64" -> {1, 4, 16, 64}: the concurrency levels as the CLI flag and the Server pane
// take them (each 1..100000, at least one; spaces around commas allowed).
Result<QList<int>> parseConcurrencies(const QString& text);

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
    int concurrency = 0;
    qint64 startedMs = 0; // ms since the epoch
    qint64 endedMs = 0;
    bool cancelled = false;
    int notSent = 0;
    LevelStats stats;
    QList<RequestSample> samples; // may be empty when loaded without them
};

struct GpuPoint
{
    qint64 timeMs = 0;
    int gpu = 0;
    double utilPercent = noValue();
    double powerW = noValue();
    double memUsedMiB = noValue();
};

struct MetricsPoint
{
    qint64 timeMs = 0;
    double running = noValue();
    double queued = noValue();
    double genThroughput = noValue();
    double kvUsage = noValue();
    double cacheHitRate = noValue();
    double promptTokensTotal = noValue();
    double generationTokensTotal = noValue();
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
    QString saveError;
};

// Means over the level's time span: GPU utilisation and power summed over GPUs (power) or
// averaged (utilisation), and the server's running requests; NaN without samples.
struct LevelSideData
{
    double gpuUtilPercent = noValue();
    double gpuPowerW = noValue(); // all GPUs together
    double serverRunning = noValue();
    double serverGenThroughput = noValue();
};
LevelSideData levelSideData(const BenchRun& run, const LevelResult& level);

// One line each, as the CLI prints them and the Server pane shows them:
// "Qwen/Qwen3-8B, server 0.5.6, FP8, 8 x NVIDIA H200"
QString serverSummary(const ServerIdentity& facts);
// "openai /v1/completions, input 1024 tokens (prompts of 980 words, calibrated on the
// server's count), output 128 tokens, all requests at once"
QString workloadSummary(const BenchRun& run);

} // namespace kf

Q_DECLARE_METATYPE(kf::LevelResult)
Q_DECLARE_METATYPE(kf::BenchRun)
