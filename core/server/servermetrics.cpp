// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/servermetrics.h"

#include "core/server/metricnames.h"

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
double first(const PromText& text, ServerQuantity quantity, QString* found = nullptr)
{
    for (const QStringView name : serverMetricNames(quantity)) {
        if (const double v = aggregate(text, name); hasValue(v)) {
            if (found)
                *found = name.toString();
            return v;
        }
    }
    return noValue();
}

Histogram firstHistogram(const PromText& text, ServerQuantity quantity, QString* found)
{
    for (const QStringView n : serverMetricNames(quantity)) {
        Histogram h = histogramFrom(text, n);
        if (!h.isEmpty()) {
            *found = n.toString();
            return h;
        }
    }
    return {};
}

void quantiles(const PromText& now, const PromText* previous, ServerQuantity quantity, Quantile* p50, Quantile* p95)
{
    QString name;
    Histogram h = firstHistogram(now, quantity, &name);
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
    auto vocabularyOf = [](const QString& name) {
        const auto row = serverMetricName(name);
        return row ? QString::fromLatin1(row->vocabulary) : QString();
    };
    m.running = first(now, ServerQuantity::Running, &found);
    if (hasValue(m.running))
        m.vocabulary = vocabularyOf(found);
    m.queued = first(now, ServerQuantity::Queued);
    m.kvUsage = first(now, ServerQuantity::KvUsage);
    m.cacheHitRate = first(now, ServerQuantity::CacheHitRate);
    QString genName;
    m.generationTokensTotal = first(now, ServerQuantity::GenerationTokens, &genName);
    m.promptTokensTotal = first(now, ServerQuantity::PromptTokens);
    m.cachedTokensTotal = first(now, ServerQuantity::CachedTokens);
    if (m.vocabulary.isEmpty() && !genName.isEmpty())
        m.vocabulary = vocabularyOf(genName);

    m.genThroughput = first(now, ServerQuantity::GenThroughput);
    if (!hasValue(m.genThroughput) && previous && secondsBetween > 0 && !genName.isEmpty()) {
        const double before = aggregate(*previous, genName);
        if (hasValue(before) && m.generationTokensTotal >= before) {
            m.genThroughput = (m.generationTokensTotal - before) / secondsBetween;
            m.throughputFromRate = true;
        }
    }

    quantiles(now, previous, ServerQuantity::Ttft, &m.ttftP50, &m.ttftP95);
    quantiles(now, previous, ServerQuantity::Itl, &m.itlP50, &m.itlP95);

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
