// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/server/prometheustext.h"
#include "core/util/novalue.h"

#include <QMetaType>
#include <QString>

// What a person wants from an inference server's /metrics, derived from Prometheus text.
// A metric the server does not export is noValue() (core/util/novalue.h).
// The names it reads are core/server/metricnames.h's, the first one found winning.
// Ranks: with --tp N every TP rank of one DP group runs the same batch, so their gauges
// repeat the same numbers; series that differ only in tp_rank are NOT added (rank 0's, else
// the largest, is used) while distinct dp ranks / models are summed. SGLang reports from
// TP rank 0 only unless told otherwise; `note` says so.
namespace kf {

struct ServerMetrics
{
    QString vocabulary;               // "sglang", "vllm"; empty when no known metric was found
    double genThroughput = noValue(); // tokens/s
    bool throughputFromRate = false;  // computed from generation_tokens_total between scrapes
    double running = noValue();
    double queued = noValue();
    double kvUsage = noValue();      // 0..1
    double cacheHitRate = noValue(); // 0..1
    // Seconds. A quantile in the histogram's +Inf bucket is only a lower bound (`above`):
    // show it with quantileText() ("> 30 s"), never as a value.
    Quantile ttftP50;
    Quantile ttftP95;
    Quantile itlP50;
    Quantile itlP95;
    double generationTokensTotal = noValue();
    double promptTokensTotal = noValue();
    double cachedTokensTotal = noValue(); // prompt tokens served from the prefix cache (a counter)
    int tpRanksReporting = 0;             // distinct tp_rank label values seen
    QString note;
};

// previous: the scrape `secondsBetween` earlier (for counter rates and per-interval latency
// quantiles); null for the first scrape (quantiles then cover the server's lifetime).
ServerMetrics deriveServerMetrics(const PromText& now, const PromText* previous = nullptr, double secondsBetween = 0);

// A latency quantile for people: "12.3 ms" (msPrecision decimals), "> 30 s" when it lies
// above the largest finite bucket, `none` when unknown. The one formatter of the CLI and GUI.
QString quantileText(const Quantile& seconds, int msPrecision, const QString& none = QStringLiteral("-"));

} // namespace kf

Q_DECLARE_METATYPE(kf::ServerMetrics)
