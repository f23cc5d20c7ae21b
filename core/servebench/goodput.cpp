// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/goodput.h"

#include "core/servebench/benchstats.h"

#include <QRegularExpression>
#include <QStringList>

namespace kf {

Result<Slo> parseSlo(const QString& text)
{
    Slo slo;
    static const QRegularExpression separators(QStringLiteral("[\\s,]+"));
    const QStringList pairs = text.split(separators, Qt::SkipEmptyParts);
    if (pairs.isEmpty())
        return Result<Slo>::failure(QStringLiteral("give SLOs as ttft:MS tpot:MS e2el:MS (any of them)"));
    for (const QString& pair : pairs) {
        const qsizetype colon = pair.indexOf(u':');
        const QString key = pair.left(colon).toLower();
        bool ok = false;
        const double ms = colon > 0 ? pair.mid(colon + 1).toDouble(&ok) : 0;
        double* slot = key == QLatin1String("ttft") ? &slo.ttftMs
            : key == QLatin1String("tpot")          ? &slo.tpotMs
            : key == QLatin1String("e2el")          ? &slo.e2eMs
                                                    : nullptr;
        if (!slot)
            return Result<Slo>::failure(
                QStringLiteral("'%1': the SLO keys are ttft, tpot and e2el (vLLM's --goodput)").arg(pair));
        if (!ok || !std::isfinite(ms) || ms < 0)
            return Result<Slo>::failure(QStringLiteral("'%1': give milliseconds >= 0").arg(pair));
        if (hasValue(*slot))
            return Result<Slo>::failure(QStringLiteral("'%1': %2 is given twice").arg(pair, key));
        *slot = ms;
    }
    return slo;
}

QString sloText(const Slo& slo)
{
    QStringList parts;
    auto add = [&](const char* key, double ms) {
        if (hasValue(ms))
            parts << QStringLiteral("%1:%2").arg(QLatin1String(key), QString::number(ms, 'g', 10));
    };
    add("ttft", slo.ttftMs);
    add("tpot", slo.tpotMs);
    add("e2el", slo.e2eMs);
    return parts.join(u' ');
}

QJsonObject toJson(const Slo& slo)
{
    return { { QStringLiteral("ttft_ms"), jsonValue(slo.ttftMs) }, { QStringLiteral("tpot_ms"), jsonValue(slo.tpotMs) },
        { QStringLiteral("e2el_ms"), jsonValue(slo.e2eMs) } };
}

Slo sloFromJson(const QJsonObject& o)
{
    return { numberFromJson(o.value(QLatin1String("ttft_ms"))), numberFromJson(o.value(QLatin1String("tpot_ms"))),
        numberFromJson(o.value(QLatin1String("e2el_ms"))) };
}

bool meetsSlo(const RequestSample& r, const Slo& slo)
{
    if (!r.ok)
        return false;
    // vLLM: SLO (ms) / 1000 >= the request's value (s); TPOT is 0 for a single output token.
    const double tpot = r.outputTokens > 1 ? r.tpot() : 0.0;
    if (hasValue(slo.ttftMs) && !(slo.ttftMs / 1000.0 >= r.ttft))
        return false;
    if (hasValue(slo.tpotMs) && !(slo.tpotMs / 1000.0 >= tpot))
        return false;
    if (hasValue(slo.e2eMs) && !(slo.e2eMs / 1000.0 >= r.latency))
        return false;
    return true;
}

Goodput computeGoodput(const QList<RequestSample>& samples, double durationS, const Slo& slo)
{
    Goodput g;
    g.requests = int(samples.size());
    if (!slo.any())
        return g;
    qint64 output = 0;
    qint64 total = 0;
    for (const RequestSample& r : samples) {
        if (!meetsSlo(r, slo))
            continue;
        ++g.good;
        output += r.outputTokens;
        total += r.outputTokens + r.promptTokens;
    }
    if (g.requests > 0)
        g.fraction = double(g.good) / g.requests;
    if (durationS > 0) {
        g.requestGoodput = g.good / durationS;
        g.outputGoodput = double(output) / durationS;
        g.totalGoodput = double(total) / durationS;
    }
    return g;
}

QJsonObject toJson(const Goodput& g)
{
    return { { QStringLiteral("good"), g.good }, { QStringLiteral("requests"), g.requests },
        { QStringLiteral("request_goodput"), jsonValue(g.requestGoodput) },
        { QStringLiteral("output_goodput"), jsonValue(g.outputGoodput) },
        { QStringLiteral("total_goodput"), jsonValue(g.totalGoodput) },
        { QStringLiteral("good_fraction"), jsonValue(g.fraction) } };
}

Goodput goodputFromJson(const QJsonObject& o)
{
    Goodput g;
    g.good = o.value(QLatin1String("good")).toInt();
    g.requests = o.value(QLatin1String("requests")).toInt();
    g.requestGoodput = numberFromJson(o.value(QLatin1String("request_goodput")));
    g.outputGoodput = numberFromJson(o.value(QLatin1String("output_goodput")));
    g.totalGoodput = numberFromJson(o.value(QLatin1String("total_goodput")));
    g.fraction = numberFromJson(o.value(QLatin1String("good_fraction")));
    return g;
}

} // namespace kf
