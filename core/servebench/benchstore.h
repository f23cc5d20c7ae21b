// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/benchrun.h"
#include "core/util/result.h"

#include <QList>
#include <QString>

// Serving-benchmark runs in the history database (core/store/database.h), schema component
// "servebench" (store::migrate), version 1:
//   bench_runs(id, host, started ms, ended ms, status, error, api, input_len, output_len,
//              model, params JSON, facts JSON, prompt_words, prompt_calibrated, gpu_note)
//   bench_levels(run_id, idx, concurrency, started ms, ended ms, cancelled, not_sent,
//                stats JSON (LevelStats, core/servebench/benchstats.h), samples BLOB)
//   bench_gpu_samples(run_id, t ms, gpu, util %, power W, mem_used MiB)
//   bench_metrics(run_id, t ms, running, queued, gen_throughput, kv_usage, cache_hit_rate,
//                 prompt_tokens_total, generation_tokens_total)
// version 2 adds: bench_runs.context JSON (BenchContext), bench_runs.note;
//   bench_levels.request_rate, .before_poll / .after_poll JSON (MetricsPoint), .analysis JSON
//   (LevelAnalysis); bench_gpu_samples.sm_clock, .mem_clock MHz, .reasons (mask, NULL: none);
//   bench_metrics.cached_tokens_total. Rows of version 1 read with those empty.
// Levels, GPU samples and metrics go with their run (ON DELETE CASCADE). samples holds every
// request of the level: qCompress of a QDataStream ("KFS2", count, then per request ok,
// error, start, scheduled, ttft, latency, token counts and flags, and the ITL list as float
// seconds); "KFS1" blobs (no scheduled time: it reads as the start) are still read.
namespace kf::benchstore {

Result<void> ensureSchema();
// Inserts the run with everything in it; returns its id.
Result<qint64> save(const BenchRun& run);
// Newest first; runs with their levels' aggregates only (no samples, GPU or metrics series).
// Empty host: every host.
Result<QList<BenchRun>> list(const QString& host = {}, int limit = 100);
// One run; withSeries: also the per-request samples, GPU samples and metrics.
Result<BenchRun> load(qint64 id, bool withSeries = true);
Result<void> remove(qint64 id);

// The samples BLOB format above (exposed for tests).
QByteArray encodeSamples(const QList<RequestSample>& samples);
Result<QList<RequestSample>> decodeSamples(const QByteArray& blob);

} // namespace kf::benchstore
