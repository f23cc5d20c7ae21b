// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/benchrun.h"

#include <QJsonArray>

#include <cmath>

namespace kf {

QJsonObject toJson(const BenchParams& p)
{
    QJsonArray conc;
    for (int c : p.concurrencies)
        conc.append(c);
    return QJsonObject { { QStringLiteral("api"), serveApiName(p.api) }, { QStringLiteral("port"), p.serverPort },
        { QStringLiteral("concurrency"), conc }, { QStringLiteral("requests"), p.requests },
        { QStringLiteral("input_len"), p.inputTokens }, { QStringLiteral("output_len"), p.outputTokens },
        { QStringLiteral("request_rate"), p.requestRate }, { QStringLiteral("model"), p.model },
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

BenchParams benchParamsFromJson(const QJsonObject& o)
{
    BenchParams p;
    p.api = serveApiFromName(o.value(QLatin1String("api")).toString()).value_or(ServeApi::Completions);
    p.serverPort = quint16(o.value(QLatin1String("port")).toInt(30000));
    p.concurrencies.clear();
    for (const QJsonValue& v : o.value(QLatin1String("concurrency")).toArray())
        p.concurrencies.append(v.toInt());
    p.requests = o.value(QLatin1String("requests")).toInt();
    p.inputTokens = o.value(QLatin1String("input_len")).toInt();
    p.outputTokens = o.value(QLatin1String("output_len")).toInt();
    p.requestRate = o.value(QLatin1String("request_rate")).toDouble();
    p.model = o.value(QLatin1String("model")).toString();
    p.precision = o.value(QLatin1String("precision")).toString();
    p.seed = quint32(o.value(QLatin1String("seed")).toInteger(1));
    p.requestTimeoutS = o.value(QLatin1String("request_timeout_s")).toInt(600);
    p.warmup = o.value(QLatin1String("warmup")).toBool(true);
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

} // namespace

LevelSideData levelSideData(const BenchRun& run, const LevelResult& level)
{
    LevelSideData d;
    Mean util;
    Mean power; // per sample time: summed over GPUs
    qint64 lastTime = -1;
    double powerAtTime = 0;
    bool anyPower = false;
    for (const GpuPoint& g : run.gpu) {
        if (g.timeMs < level.startedMs || g.timeMs > level.endedMs)
            continue;
        util.add(g.utilPercent);
        if (g.timeMs != lastTime) {
            if (anyPower)
                power.add(powerAtTime);
            lastTime = g.timeMs;
            powerAtTime = 0;
            anyPower = false;
        }
        if (std::isfinite(g.powerW)) {
            powerAtTime += g.powerW;
            anyPower = true;
        }
    }
    if (anyPower)
        power.add(powerAtTime);
    d.gpuUtilPercent = util.value();
    d.gpuPowerW = power.value();
    Mean running;
    Mean gen;
    for (const MetricsPoint& m : run.metrics) {
        if (m.timeMs < level.startedMs || m.timeMs > level.endedMs)
            continue;
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
    return QStringLiteral("%1 %2, input %3 tokens (prompts of %4 words%5), output %6 tokens, %7")
        .arg(serveApiName(p.api), QString::fromLatin1(serveApiPath(p.api)))
        .arg(p.inputTokens)
        .arg(run.promptWords)
        .arg(run.promptCalibrated ? QStringLiteral(", calibrated on the server's count") : QString())
        .arg(p.outputTokens)
        .arg(p.requestRate > 0 ? QStringLiteral("%1 requests/s (Poisson)").arg(p.requestRate)
                               : QStringLiteral("all requests at once"));
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
