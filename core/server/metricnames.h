// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QString>
#include <QStringView>

#include <initializer_list>
#include <optional>

// The inference servers' metric names, once: every reader of a server's numbers (the Server
// pane's /metrics scrape, core/server/servermetrics.h; the fleet's Prometheus queries and their
// reader, core/fleet/fleethost.cpp) asks this table. Names drift between versions; within a
// quantity the first name found wins.
//   SGLang: sglang:gen_throughput, num_running_reqs, num_queue_reqs, token_usage,
//           cache_hit_rate, generation_tokens_total, prompt_tokens_total,
//           time_to_first_token_seconds, inter_token_latency_seconds (older:
//           time_per_output_token_seconds), cached_tokens_total; some builds use "sglang_"
//           instead of "sglang:".
//   vLLM:   vllm:num_requests_running, num_requests_waiting, kv_cache_usage_perc (older
//           gpu_cache_usage_perc), generation_tokens_total (no throughput gauge: rate it),
//           time_to_first_token_seconds, inter_token_latency_seconds /
//           time_per_output_token_seconds, gpu_prefix_cache_hit_rate (older),
//           prefix_cache_hits_total (older: prefix_cache_hits).
namespace kf {

enum class ServerQuantity {
    GenThroughput,    // tokens/s, a gauge (SGLang only)
    Running,          // requests being served
    Queued,           // requests waiting
    KvUsage,          // 0..1
    CacheHitRate,     // 0..1
    GenerationTokens, // counter
    PromptTokens,     // counter
    Ttft,             // histogram, seconds
    Itl,              // histogram, seconds
    CachedTokens,     // counter: prompt tokens served from the prefix cache
};

struct ServerMetricName
{
    ServerQuantity quantity;
    const char16_t* name;
    const char* vocabulary; // "sglang", "vllm"
};

// In preference order within each quantity.
inline constexpr ServerMetricName kServerMetricNames[] = {
    { ServerQuantity::GenThroughput, u"sglang:gen_throughput", "sglang" },
    { ServerQuantity::GenThroughput, u"sglang_gen_throughput", "sglang" },
    { ServerQuantity::Running, u"sglang:num_running_reqs", "sglang" },
    { ServerQuantity::Running, u"sglang_num_running_reqs", "sglang" },
    { ServerQuantity::Running, u"vllm:num_requests_running", "vllm" },
    { ServerQuantity::Queued, u"sglang:num_queue_reqs", "sglang" },
    { ServerQuantity::Queued, u"sglang_num_queue_reqs", "sglang" },
    { ServerQuantity::Queued, u"vllm:num_requests_waiting", "vllm" },
    { ServerQuantity::KvUsage, u"sglang:token_usage", "sglang" },
    { ServerQuantity::KvUsage, u"sglang_token_usage", "sglang" },
    { ServerQuantity::KvUsage, u"vllm:kv_cache_usage_perc", "vllm" },
    { ServerQuantity::KvUsage, u"vllm:gpu_cache_usage_perc", "vllm" },
    { ServerQuantity::CacheHitRate, u"sglang:cache_hit_rate", "sglang" },
    { ServerQuantity::CacheHitRate, u"sglang_cache_hit_rate", "sglang" },
    { ServerQuantity::CacheHitRate, u"vllm:gpu_prefix_cache_hit_rate", "vllm" },
    { ServerQuantity::GenerationTokens, u"sglang:generation_tokens_total", "sglang" },
    { ServerQuantity::GenerationTokens, u"sglang_generation_tokens_total", "sglang" },
    { ServerQuantity::GenerationTokens, u"vllm:generation_tokens_total", "vllm" },
    { ServerQuantity::PromptTokens, u"sglang:prompt_tokens_total", "sglang" },
    { ServerQuantity::PromptTokens, u"sglang_prompt_tokens_total", "sglang" },
    { ServerQuantity::PromptTokens, u"vllm:prompt_tokens_total", "vllm" },
    { ServerQuantity::Ttft, u"sglang:time_to_first_token_seconds", "sglang" },
    { ServerQuantity::Ttft, u"sglang_time_to_first_token_seconds", "sglang" },
    { ServerQuantity::Ttft, u"vllm:time_to_first_token_seconds", "vllm" },
    { ServerQuantity::Itl, u"sglang:inter_token_latency_seconds", "sglang" },
    { ServerQuantity::Itl, u"sglang:time_per_output_token_seconds", "sglang" },
    { ServerQuantity::Itl, u"sglang_inter_token_latency_seconds", "sglang" },
    { ServerQuantity::Itl, u"sglang_time_per_output_token_seconds", "sglang" },
    { ServerQuantity::Itl, u"vllm:inter_token_latency_seconds", "vllm" },
    { ServerQuantity::Itl, u"vllm:time_per_output_token_seconds", "vllm" },
    { ServerQuantity::CachedTokens, u"sglang:cached_tokens_total", "sglang" },
    { ServerQuantity::CachedTokens, u"sglang_cached_tokens_total", "sglang" },
    { ServerQuantity::CachedTokens, u"vllm:prefix_cache_hits_total", "vllm" },
    { ServerQuantity::CachedTokens, u"vllm:prefix_cache_hits", "vllm" },
};

// The quantity's names in preference order; with a vocabulary, only that server's.
QList<QStringView> serverMetricNames(ServerQuantity quantity, QStringView vocabulary = {});
// The row of a metric name; empty for a name the table does not know.
std::optional<ServerMetricName> serverMetricName(QStringView name);
// The names of these quantities (of one vocabulary, if given) as a Prometheus regex
// alternation, "sglang:gen_throughput|sglang_gen_throughput|..." (the names need no escaping:
// [a-z_:] only, checked by the test).
QString serverMetricRegex(std::initializer_list<ServerQuantity> quantities, QStringView vocabulary = {});

} // namespace kf
