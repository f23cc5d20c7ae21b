// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/servermetrics.h"

#include <QMap>
#include <QSet>

namespace kf {

namespace {

// Sum over series that differ in anything but tp_rank; within one such group rank 0 wins.
// noValue() when no series has a value.
double aggregate(const PromText& text, QStringView name)
{
    struct Pick
    {
        double value = 0;
        bool rankZero = false;
    };
    QMap<QString, Pick> groups;
    bool any = false;
    for (const auto& s : text.samples) {
        if (s.name != name || !std::isfinite(s.value)) // NaN and ±Inf are no value: never shown or charted
            continue;
        any = true;
        QString key;
        QString rank;
        for (const auto& [k, v] : s.labels) {
            if (k == u"tp_rank")
                rank = v;
            else
                key += k + u'=' + v + u'\x1f';
        }
        const bool zero = rank.isEmpty() || rank == u"0";
        auto it = groups.find(key);
        if (it == groups.end())
            groups.insert(key, { s.value, zero });
        else if (!it->rankZero && (zero || s.value > it->value))
            *it = { s.value, zero };
    }
    if (!any)
        return noValue();
    double total = 0;
    for (const auto& p : groups)
        total += p.value;
    return total;
}

// The first of `names` the text has a value for; noValue() when it has none.
double first(const PromText& text, std::initializer_list<const char16_t*> names, QString* found = nullptr)
{
    for (const char16_t* n : names) {
        const QStringView name(n);
        if (const double v = aggregate(text, name); hasValue(v)) {
            if (found)
                *found = name.toString();
            return v;
        }
    }
    return noValue();
}

Histogram firstHistogram(const PromText& text, std::initializer_list<const char16_t*> names, QString* found)
{
    for (const char16_t* n : names) {
        Histogram h = histogramFrom(text, QStringView(n));
        if (!h.isEmpty()) {
            *found = QStringView(n).toString();
            return h;
        }
    }
    return {};
}

void quantiles(const PromText& now, const PromText* previous, std::initializer_list<const char16_t*> names,
    Quantile* p50, Quantile* p95)
{
    QString name;
    Histogram h = firstHistogram(now, names, &name);
    if (h.isEmpty())
        return;
    if (previous) {
        const Histogram d = histogramDelta(h, histogramFrom(*previous, name));
        // No new observations between scrapes: keep the lifetime view rather than nothing.
        if (d.count > 0)
            h = d;
    }
    *p50 = histogramQuantile(h, 0.5);
    *p95 = histogramQuantile(h, 0.95);
}

} // namespace

ServerMetrics deriveServerMetrics(const PromText& now, const PromText* previous, double secondsBetween)
{
    ServerMetrics m;
    QString found;
    m.running
        = first(now, { u"sglang:num_running_reqs", u"sglang_num_running_reqs", u"vllm:num_requests_running" }, &found);
    if (hasValue(m.running))
        m.vocabulary = found.startsWith(u"vllm") ? QStringLiteral("vllm") : QStringLiteral("sglang");
    m.queued = first(now, { u"sglang:num_queue_reqs", u"sglang_num_queue_reqs", u"vllm:num_requests_waiting" });
    m.kvUsage = first(now,
        { u"sglang:token_usage", u"sglang_token_usage", u"vllm:kv_cache_usage_perc", u"vllm:gpu_cache_usage_perc" });
    m.cacheHitRate
        = first(now, { u"sglang:cache_hit_rate", u"sglang_cache_hit_rate", u"vllm:gpu_prefix_cache_hit_rate" });
    QString genName;
    m.generationTokensTotal = first(now,
        { u"sglang:generation_tokens_total", u"sglang_generation_tokens_total", u"vllm:generation_tokens_total" },
        &genName);
    m.promptTokensTotal
        = first(now, { u"sglang:prompt_tokens_total", u"sglang_prompt_tokens_total", u"vllm:prompt_tokens_total" });
    if (m.vocabulary.isEmpty() && !genName.isEmpty())
        m.vocabulary = genName.startsWith(u"vllm") ? QStringLiteral("vllm") : QStringLiteral("sglang");

    m.genThroughput = first(now, { u"sglang:gen_throughput", u"sglang_gen_throughput" });
    if (!hasValue(m.genThroughput) && previous && secondsBetween > 0 && !genName.isEmpty()) {
        const double before = aggregate(*previous, genName);
        if (hasValue(before) && m.generationTokensTotal >= before) {
            m.genThroughput = (m.generationTokensTotal - before) / secondsBetween;
            m.throughputFromRate = true;
        }
    }

    quantiles(now, previous,
        { u"sglang:time_to_first_token_seconds", u"sglang_time_to_first_token_seconds",
            u"vllm:time_to_first_token_seconds" },
        &m.ttftP50, &m.ttftP95);
    quantiles(now, previous,
        { u"sglang:inter_token_latency_seconds", u"sglang:time_per_output_token_seconds",
            u"sglang_inter_token_latency_seconds", u"sglang_time_per_output_token_seconds",
            u"vllm:inter_token_latency_seconds", u"vllm:time_per_output_token_seconds" },
        &m.itlP50, &m.itlP95);

    QSet<QString> ranks;
    for (const auto& s : now.samples) {
        const QString r = s.label(u"tp_rank");
        if (!r.isEmpty())
            ranks.insert(r);
    }
    m.tpRanksReporting = int(ranks.size());
    if (ranks.size() == 1 && ranks.contains(QStringLiteral("0")))
        m.note = QStringLiteral(
            "Only TP rank 0 reports metrics (SGLang's default); per-rank numbers of the other ranks are not visible.");
    if (m.vocabulary.isEmpty())
        m.note = QStringLiteral("No SGLang or vLLM metrics found (was the server started with --enable-metrics?).");
    return m;
}

QString quantileText(const Quantile& seconds, int msPrecision, const QString& none)
{
    if (!seconds.known())
        return none;
    if (seconds.above) {
        // The bound as the server's bucket names it: "> 30 s", "> 250 ms".
        const double v = seconds.value;
        return v >= 1 ? QStringLiteral("> %1 s").arg(QString::number(v, 'g', 6))
                      : QStringLiteral("> %1 ms").arg(QString::number(v * 1000, 'g', 6));
    }
    return QString::number(seconds.value * 1000, 'f', msPrecision) + QStringLiteral(" ms");
}

} // namespace kf
