// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/prometheustext.h"
#include "core/server/servermetrics.h"
#include "tests/fuzz/fuzzinput.h"

#include <cmath>
#include <cstdlib>

namespace {

using kf::fuzz::FuzzInput;

void check(const kf::PromText& now, const kf::PromText& before)
{
    const kf::ServerMetrics first = kf::deriveServerMetrics(now);
    const kf::ServerMetrics later = kf::deriveServerMetrics(now, &before, 1.0);
    for (const kf::Quantile& q : { first.ttftP50, first.ttftP95, later.itlP50, later.itlP95 }) {
        // A lower bound is a finite bucket bound; its text never claims a value.
        if (q.above && !(q.known() && std::isfinite(q.value)))
            std::abort();
        (void)kf::quantileText(q, 1);
    }
}

QByteArray labelValue(FuzzInput& in)
{
    switch (in.below(6)) {
    case 0: return in.real();
    case 1: return "+Inf";
    case 2: return in.pick({ "a\\\"b", "a\\\\", "a\\nb", "\\", "" });
    case 3: return in.raw(6).replace('"', '\'').replace('\n', ' ');
    default: return QByteArray::number(in.below(4));
    }
}

// One sample line: name{labels} value [timestamp].
QByteArray sample(FuzzInput& in, const QByteArray& name, const QByteArray& le)
{
    QByteArray labels;
    if (!le.isNull())
        labels += "le=\"" + le + "\"";
    const int extra = in.below(4);
    for (int i = 0; i < extra; ++i) {
        if (!labels.isEmpty())
            labels += in.pick({ ",", ", ", " , " });
        labels += in.pick({ "tp_rank", "dp_rank", "model_name", "engine_type", "le" });
        labels += "=\"";
        labels += labelValue(in);
        labels += "\"";
    }
    if (in.chance(10))
        labels += ",";
    QByteArray line = name;
    if (!labels.isEmpty() || in.chance(10))
        line += "{" + labels + "}";
    line += in.pick({ " ", "\t", "  " });
    line += in.real();
    if (in.chance(15)) {
        line += " ";
        line += in.number();
    }
    return line + kf::fuzz::lineEnd(in);
}

// A page: histogram families (buckets with random, repeated, NaN and +Inf bounds, ranks),
// gauges and counters from the vocabularies servermetrics knows, HELP/TYPE lines, noise.
QByteArray page(FuzzInput& in)
{
    QByteArray out;
    const int families = in.below(8);
    for (int f = 0; f < families; ++f) {
        const QByteArray family = in.pick({ "sglang:time_to_first_token_seconds", "sglang:inter_token_latency_seconds",
            "sglang:time_per_output_token_seconds", "vllm:time_to_first_token_seconds",
            "vllm:inter_token_latency_seconds", "sglang_time_to_first_token_seconds", "h" });
        if (in.chance(50))
            out += "# TYPE " + family + " " + in.pick({ "histogram", "gauge", "summary", "" }) + "\n";
        if (in.chance(20))
            out += "# HELP " + family + " " + in.raw(10).replace('\n', ' ') + "\n";
        const int buckets = in.chance(3) ? 200 + in.below(800) : in.below(24);
        for (int b = 0; b < buckets; ++b) {
            QByteArray le;
            switch (in.below(6)) {
            case 0: le = "+Inf"; break;
            case 1: le = "NaN"; break;
            case 2: le = in.real(); break;
            default: le = QByteArray::number(double(b + in.below(3)) * 0.05, 'g', 6); break;
            }
            out += sample(in, family + "_bucket", le);
        }
        if (in.chance(80))
            out += sample(in, family + "_sum", {});
        if (in.chance(80))
            out += sample(in, family + "_count", {});
    }
    const int gauges = in.below(10);
    for (int g = 0; g < gauges; ++g) {
        const QByteArray name = in.pick({ "sglang:num_running_reqs", "sglang:num_queue_reqs", "sglang:token_usage",
            "sglang:gen_throughput", "sglang:cache_hit_rate", "sglang:generation_tokens_total",
            "sglang:prompt_tokens_total", "vllm:num_requests_running", "vllm:num_requests_waiting",
            "vllm:kv_cache_usage_perc", "vllm:generation_tokens_total", "vllm:gpu_prefix_cache_hit_rate" });
        out += sample(in, name, {});
    }
    if (in.chance(20))
        out += in.raw(40);
    return out;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const kf::PromText raw
        = kf::parsePrometheusText(QByteArrayView(reinterpret_cast<const char*>(data), qsizetype(size)));
    check(raw, raw);
    FuzzInput in(data, size);
    const QByteArray before = page(in);
    const QByteArray now = page(in);
    check(kf::parsePrometheusText(now), kf::parsePrometheusText(before));
    return 0;
}
