// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/benchrun.h"

#include <QJsonArray>

#include <cmath>
#include <limits>

namespace kf {

QString levelLabel(const LevelPlan& level)
{
    if (!(level.rate > 0))
        return QStringLiteral("c=%1").arg(level.concurrency);
    const QString rate = QStringLiteral("%1 req/s").arg(level.rate, 0, 'g', 4);
    return level.concurrency > 0 ? QStringLiteral("%1, c≤%2").arg(rate).arg(level.concurrency) : rate;
}

QString searchKindName(SearchKind kind)
{
    switch (kind) {
    case SearchKind::Concurrency: return QStringLiteral("concurrency");
    case SearchKind::RequestRate: return QStringLiteral("rate");
    case SearchKind::None: break;
    }
    return QStringLiteral("none");
}

std::optional<SearchKind> searchKindFromName(const QString& name)
{
    for (SearchKind k : { SearchKind::None, SearchKind::Concurrency, SearchKind::RequestRate })
        if (name == searchKindName(k))
            return k;
    return std::nullopt;
}

QList<LevelPlan> BenchParams::plannedLevels() const
{
    QList<LevelPlan> out;
    if (search != SearchKind::None)
        return out;
    if (!rates.isEmpty()) {
        for (double r : rates)
            out.append({ maxConcurrency, r });
        return out;
    }
    for (int c : concurrencies)
        out.append({ c, requestRate });
    return out;
}

int BenchParams::requestsFor(const LevelPlan& level) const
{
    if (dataset == Dataset::SharedPrefix)
        return prefixGroups * prefixPerGroup;
    if (requests > 0)
        return requests;
    if (level.rate > 0 && (level.concurrency == 0 || !rates.isEmpty() || search == SearchKind::RequestRate))
        return std::max(32, int(std::ceil(10 * level.rate)));
    return std::max(16, 4 * level.concurrency);
}

ArrivalShape BenchParams::arrivalShape(const LevelPlan& level) const
{
    return { level.rate, burstiness, rampUp, rampStartRps, rampEndRps };
}

QString BenchParams::error() const
{
    if (search == SearchKind::None && rates.isEmpty() && concurrencies.isEmpty())
        return QStringLiteral("nothing to run: give concurrency levels or request rates");
    if (inputTokens <= 0 || outputTokens < 0 || (outputTokens == 0 && dataset != Dataset::ShareGpt))
        return QStringLiteral("nothing to run: give input and output lengths");
    if (const QString e = arrivalShapeError({ 1, burstiness, rampUp, rampStartRps, rampEndRps }); !e.isEmpty())
        return e;
    if (!std::isfinite(requestRate) || requestRate < 0)
        return QStringLiteral("the request rate must be a number >= 0 (0: all at once)");
    if (rangeRatio >= 0 && dataset == Dataset::Random)
        if (const QString e = rangeRatioError(rangeMeaning, rangeRatio); !e.isEmpty())
            return e;
    if (dataset == Dataset::ShareGpt && datasetPath.isEmpty())
        return QStringLiteral("the sharegpt dataset needs a ShareGPT-format JSON file");
    if (dataset == Dataset::SharedPrefix) {
        if (prefixGroups < 1 || prefixPerGroup < 1 || prefixTokens < 1 || questionTokens < 1)
            return QStringLiteral(
                "shared-prefix needs groups, prompts per group, prefix and question lengths of 1 or more");
        if (uniquePrefix)
            return QStringLiteral("shared-prefix shares prefixes on purpose: it cannot also have unique prefixes");
    }
    if (!(goodputTarget > 0 && goodputTarget <= 1))
        return QStringLiteral("the goodput target is a fraction of the requests, above 0 and at most 1");
    if (search != SearchKind::None) {
        if (!slo.any())
            return QStringLiteral("a goodput search needs SLOs (ttft, tpot, e2el)");
        if (searchMax < 1)
            return QStringLiteral("the search needs an upper end of 1 or more");
        if (search == SearchKind::RequestRate && rampUp != RampUp::None)
            return QStringLiteral("a rate search sets the rate: it cannot ramp");
    }
    return {};
}

QJsonObject toJson(const BenchParams& p)
{
    QJsonArray conc;
    for (int c : p.concurrencies)
        conc.append(c);
    QJsonArray rates;
    for (double r : p.rates)
        rates.append(r);
    return QJsonObject { { QStringLiteral("api"), serveApiName(p.api) }, { QStringLiteral("port"), p.serverPort },
        { QStringLiteral("concurrency"), conc }, { QStringLiteral("rates"), rates },
        { QStringLiteral("max_concurrency"), p.maxConcurrency }, { QStringLiteral("requests"), p.requests },
        { QStringLiteral("input_len"), p.inputTokens }, { QStringLiteral("output_len"), p.outputTokens },
        { QStringLiteral("request_rate"), p.requestRate },
        { QStringLiteral("burstiness"),
            std::isinf(p.burstiness) ? QJsonValue(QStringLiteral("inf")) : QJsonValue(p.burstiness) },
        { QStringLiteral("ramp_up"), rampUpName(p.rampUp) }, { QStringLiteral("ramp_start_rps"), p.rampStartRps },
        { QStringLiteral("ramp_end_rps"), p.rampEndRps }, { QStringLiteral("dataset"), datasetName(p.dataset) },
        { QStringLiteral("range_ratio"), p.rangeRatio >= 0 ? QJsonValue(p.rangeRatio) : QJsonValue() },
        { QStringLiteral("range_ratio_meaning"), rangeMeaningName(p.rangeMeaning) },
        { QStringLiteral("dataset_path"), p.datasetPath }, { QStringLiteral("dataset_sha256"), p.datasetSha256 },
        { QStringLiteral("prefix_groups"), p.prefixGroups }, { QStringLiteral("prefix_per_group"), p.prefixPerGroup },
        { QStringLiteral("prefix_len"), p.prefixTokens }, { QStringLiteral("question_len"), p.questionTokens },
        { QStringLiteral("unique_prefix"), p.uniquePrefix }, { QStringLiteral("slo"), toJson(p.slo) },
        { QStringLiteral("goodput_target"), p.goodputTarget }, { QStringLiteral("search"), searchKindName(p.search) },
        { QStringLiteral("search_max"), p.searchMax }, { QStringLiteral("stop_on_saturation"), p.stopOnSaturation },
        { QStringLiteral("replay_of"), p.replayOf }, { QStringLiteral("model"), p.model },
        { QStringLiteral("precision"), p.precision }, { QStringLiteral("seed"), qint64(p.seed) },
        { QStringLiteral("request_timeout_s"), p.requestTimeoutS }, { QStringLiteral("warmup"), p.warmup } };
}

Result<QList<int>> parseConcurrencies(const QString& text)
{
    QList<int> out;
    for (const QString& c : text.split(u',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const int n = c.trimmed().toInt(&ok);
        if (!ok || n < 1 || n > 100000)
            return Result<QList<int>>::failure(
                QStringLiteral("'%1' is not a concurrency: give a list like 1,4,16,64 (each 1 to 100000)")
                    .arg(c.trimmed()));
        out.append(n);
    }
    if (out.isEmpty())
        return Result<QList<int>>::failure(QStringLiteral("give a concurrency list like 1,4,16,64"));
    return out;
}

Result<QList<double>> parseRates(const QString& text)
{
    QList<double> out;
    for (const QString& c : text.split(u',', Qt::SkipEmptyParts)) {
        bool ok = false;
        const double r = c.trimmed().toDouble(&ok);
        if (!ok || !std::isfinite(r) || r <= 0 || r > 100000)
            return Result<QList<double>>::failure(
                QStringLiteral("'%1' is not a request rate: give a list like 1,2.5,8 (requests/s, above 0)")
                    .arg(c.trimmed()));
        out.append(r);
    }
    if (out.isEmpty())
        return Result<QList<double>>::failure(QStringLiteral("give request rates like 1,2.5,8 (requests/s)"));
    return out;
}

BenchParams benchParamsFromJson(const QJsonObject& o)
{
    BenchParams p;
    auto value = [&o](const char* key) { return o.value(QLatin1String(key)); };
    p.api = serveApiFromName(value("api").toString()).value_or(ServeApi::Completions);
    p.serverPort = quint16(value("port").toInt(30000));
    p.concurrencies.clear();
    for (const QJsonValue& v : value("concurrency").toArray())
        p.concurrencies.append(v.toInt());
    for (const QJsonValue& v : value("rates").toArray())
        p.rates.append(v.toDouble());
    p.maxConcurrency = value("max_concurrency").toInt();
    p.requests = value("requests").toInt();
    p.inputTokens = value("input_len").toInt();
    p.outputTokens = value("output_len").toInt();
    p.requestRate = value("request_rate").toDouble();
    p.burstiness
        = value("burstiness").isString() ? std::numeric_limits<double>::infinity() : value("burstiness").toDouble(1);
    p.rampUp = rampUpFromName(value("ramp_up").toString()).value_or(RampUp::None);
    p.rampStartRps = value("ramp_start_rps").toDouble();
    p.rampEndRps = value("ramp_end_rps").toDouble();
    p.dataset = datasetFromName(value("dataset").toString()).value_or(Dataset::Random);
    p.rangeRatio = value("range_ratio").toDouble(-1);
    p.rangeMeaning = rangeMeaningFromName(value("range_ratio_meaning").toString()).value_or(RangeMeaning::Vllm);
    p.datasetPath = value("dataset_path").toString();
    p.datasetSha256 = value("dataset_sha256").toString();
    p.prefixGroups = value("prefix_groups").toInt(p.prefixGroups);
    p.prefixPerGroup = value("prefix_per_group").toInt(p.prefixPerGroup);
    p.prefixTokens = value("prefix_len").toInt(p.prefixTokens);
    p.questionTokens = value("question_len").toInt(p.questionTokens);
    p.uniquePrefix = value("unique_prefix").toBool();
    p.slo = sloFromJson(value("slo").toObject());
    p.goodputTarget = value("goodput_target").toDouble(p.goodputTarget);
    p.search = searchKindFromName(value("search").toString()).value_or(SearchKind::None);
    p.searchMax = value("search_max").toInt(p.searchMax);
    p.stopOnSaturation = value("stop_on_saturation").toBool();
    p.replayOf = value("replay_of").toInteger();
    p.model = value("model").toString();
    p.precision = value("precision").toString();
    p.seed = quint32(value("seed").toInteger(1));
    p.requestTimeoutS = value("request_timeout_s").toInt(600);
    p.warmup = value("warmup").toBool(true);
    return p;
}

QJsonObject toJson(const ServerIdentity& f)
{
    return QJsonObject { { QStringLiteral("model"), f.model }, { QStringLiteral("model_path"), f.modelPath },
        { QStringLiteral("server_version"), f.serverVersion }, { QStringLiteral("precision"), f.precision },
        { QStringLiteral("gpu_name"), f.gpuName }, { QStringLiteral("gpu_count"), f.gpuCount },
        { QStringLiteral("tp_size"), f.tpSize }, { QStringLiteral("dp_size"), f.dpSize } };
}

ServerIdentity serverIdentityFromJson(const QJsonObject& o)
{
    ServerIdentity f;
    f.model = o.value(QLatin1String("model")).toString();
    f.modelPath = o.value(QLatin1String("model_path")).toString();
    f.serverVersion = o.value(QLatin1String("server_version")).toString();
    f.precision = o.value(QLatin1String("precision")).toString();
    f.gpuName = o.value(QLatin1String("gpu_name")).toString();
    f.gpuCount = o.value(QLatin1String("gpu_count")).toInt();
    f.tpSize = o.value(QLatin1String("tp_size")).toInt();
    f.dpSize = o.value(QLatin1String("dp_size")).toInt();
    return f;
}

QString normalizePrecision(const QString& text)
{
    const QString t = text.toLower();
    // Most specific first: "nvfp4" before "fp4", "fp8" anywhere in "fp8_e4m3" or a model name.
    static const std::pair<const char*, const char*> kinds[] = { { "nvfp4", "NVFP4" }, { "mxfp4", "MXFP4" },
        { "fp4", "FP4" }, { "fp8", "FP8" }, { "int8", "INT8" }, { "w8a8", "INT8" }, { "awq", "AWQ" },
        { "gptq", "GPTQ" }, { "bfloat16", "BF16" }, { "bf16", "BF16" }, { "float16", "FP16" }, { "fp16", "FP16" } };
    for (const auto& [needle, name] : kinds)
        if (t.contains(QLatin1String(needle)))
            return QString::fromLatin1(name);
    return {};
}

namespace {

struct Mean
{
    double sum = 0;
    int n = 0;
    void add(double v)
    {
        if (std::isfinite(v)) {
            sum += v;
            ++n;
        }
    }
    double value() const { return n > 0 ? sum / n : noValue(); }
};

QList<MetricsPoint> metricsDuring(const BenchRun& run, const LevelResult& level)
{
    QList<MetricsPoint> out;
    for (const MetricsPoint& m : run.metrics)
        if (m.timeMs >= level.startedMs && m.timeMs <= level.endedMs)
            out.append(m);
    return out;
}

} // namespace

LevelAnalysis analyzeLevel(const BenchRun& run, const LevelResult& level)
{
    const BenchParams& p = run.params;
    const bool ramp = p.rampUp != RampUp::None;
    LevelAnalysis a;
    a.goodput = computeGoodput(level.samples, level.stats.durationS, p.slo);
    a.steady = steadyWindow(level.samples, ramp);
    a.saturation = detectSaturation(level.samples, level.requestRate, ramp, metricsDuring(run, level));
    a.agreement = checkAgreement(level.samples, level.before, level.after, level.cancelled);
    a.energy = levelEnergy(run.gpu, level.startedMs, level.endedMs, level.stats.outputTokens);
    a.gpu = levelGpuState(run.gpu, level.startedMs, level.endedMs);
    a.otherRunning = level.before.running;
    a.otherQueued = level.before.queued;
    const double cached = level.after.cachedTokensTotal - level.before.cachedTokensTotal;
    const double prompt = level.after.promptTokensTotal - level.before.promptTokensTotal;
    if (cached >= 0 && prompt > 0)
        a.cacheHitRate = cached / prompt;
    return a;
}

LevelSideData levelSideData(const BenchRun& run, const LevelResult& level)
{
    LevelSideData d;
    Mean util;
    Mean sm;
    Mean tensor;
    Mean dram;
    for (const GpuPoint& g : run.gpu) {
        if (g.timeMs < level.startedMs || g.timeMs > level.endedMs)
            continue;
        util.add(g.utilPercent);
        sm.add(g.smActivePercent);
        tensor.add(g.tensorActivePercent);
        dram.add(g.dramActivePercent);
    }
    d.gpuUtilPercent = util.value();
    d.smActivePercent = sm.value();
    d.tensorActivePercent = tensor.value();
    d.dramActivePercent = dram.value();
    d.gpuPowerW = levelEnergy(run.gpu, level.startedMs, level.endedMs, 0).meanPowerW;
    Mean running;
    Mean gen;
    for (const MetricsPoint& m : metricsDuring(run, level)) {
        running.add(m.running);
        gen.add(m.genThroughput);
    }
    d.serverRunning = running.value();
    d.serverGenThroughput = gen.value();
    return d;
}

QString workloadSummary(const BenchRun& run)
{
    const BenchParams& p = run.params;
    QString dataset = datasetName(p.dataset);
    if (p.dataset == Dataset::Random && p.rangeRatio >= 0)
        dataset += QStringLiteral(" (range ratio %1 as %2 means it)")
                       .arg(p.rangeRatio, 0, 'g', 4)
                       .arg(p.rangeMeaning == RangeMeaning::Vllm ? QStringLiteral("vLLM") : QStringLiteral("SGLang"));
    else if (p.dataset == Dataset::ShareGpt)
        dataset += QStringLiteral(" (%1)").arg(p.datasetPath.section(u'/', -1));
    else if (p.dataset == Dataset::SharedPrefix)
        dataset += QStringLiteral(" (%1 groups x %2, prefix %3 + question %4 tokens)")
                       .arg(p.prefixGroups)
                       .arg(p.prefixPerGroup)
                       .arg(p.prefixTokens)
                       .arg(p.questionTokens);
    if (p.uniquePrefix)
        dataset += QStringLiteral(", unique prefixes");
    const QString input = p.dataset == Dataset::ShareGpt
        ? QStringLiteral("prompts from the file")
        : QStringLiteral("input %1 tokens (prompts of %2 words per %1 tokens%3)")
              .arg(p.dataset == Dataset::SharedPrefix ? p.prefixTokens + p.questionTokens : p.inputTokens)
              .arg(run.promptWords)
              .arg(run.promptCalibrated ? QStringLiteral(", calibrated on the server's count") : QString());
    const QString output = p.outputTokens > 0 ? QStringLiteral("output %1 tokens").arg(p.outputTokens)
                                              : QStringLiteral("output as each reply");
    QString load;
    if (p.search != SearchKind::None)
        load = QStringLiteral("goodput search over %1 up to %2 (target %3 %)")
                   .arg(searchKindName(p.search))
                   .arg(p.searchMax)
                   .arg(p.goodputTarget * 100, 0, 'g', 4);
    else if (!p.rates.isEmpty() && p.rampUp == RampUp::None) {
        QStringList rates;
        for (double r : p.rates)
            rates << QString::number(r, 'g', 4);
        load = QStringLiteral("%1 at %2 requests/s")
                   .arg(arrivalKind(p.arrivalShape({})), rates.join(QStringLiteral(", ")));
    } else {
        load = arrivalSummary(p.arrivalShape({ 1, p.requestRate }));
    }
    if (p.maxConcurrency > 0 && (!p.rates.isEmpty() || p.search == SearchKind::RequestRate))
        load += QStringLiteral(", at most %1 in flight").arg(p.maxConcurrency);
    QString s = QStringLiteral("%1 %2, %3, %4, %5, %6")
                    .arg(serveApiName(p.api), QString::fromLatin1(serveApiPath(p.api)), dataset, input, output, load);
    if (p.slo.any())
        s += QStringLiteral("; SLO %1").arg(sloText(p.slo));
    return s;
}

QString serverSummary(const ServerIdentity& f)
{
    QStringList parts;
    parts << (f.model.isEmpty() ? QStringLiteral("model ?") : f.model);
    if (!f.serverVersion.isEmpty())
        parts << QStringLiteral("server %1").arg(f.serverVersion);
    parts << (f.precision.isEmpty() ? QStringLiteral("precision unknown") : f.precision);
    if (f.gpuCount > 0)
        parts << QStringLiteral("%1 x %2").arg(f.gpuCount).arg(f.gpuName.isEmpty() ? QStringLiteral("GPU") : f.gpuName);
    return parts.join(QStringLiteral(", "));
}

} // namespace kf
