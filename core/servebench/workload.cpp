// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/workload.h"

#include "core/servebench/promptgenerator.h"

#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

namespace kf {

QString datasetName(Dataset d)
{
    switch (d) {
    case Dataset::ShareGpt: return QStringLiteral("sharegpt");
    case Dataset::SharedPrefix: return QStringLiteral("shared-prefix");
    case Dataset::Random: break;
    }
    return QStringLiteral("random");
}

std::optional<Dataset> datasetFromName(const QString& name)
{
    for (Dataset d : { Dataset::Random, Dataset::ShareGpt, Dataset::SharedPrefix })
        if (name == datasetName(d))
            return d;
    return std::nullopt;
}

QString rangeMeaningName(RangeMeaning m)
{
    return m == RangeMeaning::Sglang ? QStringLiteral("sglang") : QStringLiteral("vllm");
}

std::optional<RangeMeaning> rangeMeaningFromName(const QString& name)
{
    for (RangeMeaning m : { RangeMeaning::Sglang, RangeMeaning::Vllm })
        if (name == rangeMeaningName(m))
            return m;
    return std::nullopt;
}

QString rangeRatioError(RangeMeaning meaning, double ratio)
{
    if (meaning == RangeMeaning::Vllm && !(ratio >= 0 && ratio < 1))
        return QStringLiteral("vLLM's range ratio lies in [0, 1): lengths from L x (1 - r) to L x (1 + r)");
    if (meaning == RangeMeaning::Sglang && !(ratio >= 0 && ratio <= 1))
        return QStringLiteral("SGLang's range ratio lies in [0, 1]: lengths from L x r to L");
    return {};
}

LengthRange lengthRange(RangeMeaning meaning, int length, double ratio, bool output)
{
    if (!rangeRatioError(meaning, ratio).isEmpty())
        return { 1, 0 };
    // The operations in the tools' order: the same doubles, the same rounding.
    if (meaning == RangeMeaning::Sglang)
        return { std::max(int(double(length) * ratio), 1), length };
    LengthRange r { int(std::floor(double(length) * (1 - ratio))), int(std::ceil(double(length) * (1 + ratio))) };
    if (output) {
        r.low = std::max(r.low, 1);
        r.high = std::max(r.high, 1);
    }
    return r;
}

namespace {

constexpr qsizetype kMaxPromptBytes = qsizetype(1) << 20;

int wordCount(const QString& text)
{
    int n = 0;
    bool inWord = false;
    for (const QChar c : text) {
        const bool space = c.isSpace();
        n += (!space && !inWord) ? 1 : 0;
        inWord = !space;
    }
    return n;
}

int wordsFor(int tokens, double wordsPerToken)
{
    return std::max(1, int(std::lround(double(tokens) * wordsPerToken)));
}

int tokensFor(int words, double wordsPerToken)
{
    return std::max(0, int(std::lround(double(words) / wordsPerToken)));
}

// A first word no other prompt starts with: letters from a hash of the run's salt and the
// request, so neither this run nor another one shares it.
QByteArray uniqueWord(const QByteArray& salt, int index)
{
    const QByteArray h
        = QCryptographicHash::hash(QByteArray(salt + '/' + QByteArray::number(index)), QCryptographicHash::Sha256);
    QByteArray word;
    for (int i = 0; i < 12; ++i)
        word.append(char('a' + quint8(h.at(i)) % 26));
    return word;
}

} // namespace

Result<QList<SharePair>> parseShareGpt(QByteArrayView json, int maxPairs)
{
    using R = Result<QList<SharePair>>;
    QJsonParseError error {};
    const QJsonDocument doc = QJsonDocument::fromJson(json.toByteArray(), &error);
    if (error.error != QJsonParseError::NoError)
        return R::failure(QStringLiteral("not JSON: %1 at byte %2").arg(error.errorString()).arg(error.offset));
    if (!doc.isArray())
        return R::failure(QStringLiteral("not a ShareGPT file: the top level is not a list of conversations"));
    QList<SharePair> pairs;
    for (const QJsonValue& entry : doc.array()) {
        if (pairs.size() >= maxPairs)
            break;
        const QJsonArray turns = entry.toObject().value(QLatin1String("conversations")).toArray();
        if (turns.size() < 2)
            continue;
        const QString prompt = turns.at(0).toObject().value(QLatin1String("value")).toString();
        const QString completion = turns.at(1).toObject().value(QLatin1String("value")).toString();
        QByteArray utf8 = prompt.toUtf8();
        if (utf8.isEmpty() || utf8.size() > kMaxPromptBytes)
            continue;
        pairs.append({ std::move(utf8), wordCount(prompt), wordCount(completion) });
    }
    return pairs;
}

Result<QList<WorkloadRequest>> makeWorkload(const WorkloadSpec& spec, int count, quint32 seed)
{
    using R = Result<QList<WorkloadRequest>>;
    std::mt19937 rng(seed);
    QList<WorkloadRequest> out;
    const double wpt = spec.wordsPerToken > 0 ? spec.wordsPerToken : 1.0;
    auto prefixed = [&](QByteArray prompt, int index) {
        return spec.uniquePrefix ? uniqueWord(spec.salt, index) + ' ' + prompt : prompt;
    };

    if (spec.dataset == Dataset::SharedPrefix) {
        QList<int> groups(std::max(0, spec.prefixGroups));
        std::iota(groups.begin(), groups.end(), 0);
        QList<QByteArray> system;
        for (int g = 0; g < groups.size(); ++g)
            system.append(randomWords(rng, wordsFor(spec.prefixTokens, wpt)));
        std::shuffle(groups.begin(), groups.end(), rng);
        for (int g : std::as_const(groups))
            for (int q = 0; q < spec.prefixPerGroup; ++q)
                out.append({ system.at(g) + "\n\n" + randomWords(rng, wordsFor(spec.questionTokens, wpt)),
                    spec.prefixTokens + spec.questionTokens, spec.outputTokens, g });
        return out;
    }

    if (spec.dataset == Dataset::ShareGpt) {
        QList<int> order(spec.shareGpt.size());
        std::iota(order.begin(), order.end(), 0);
        std::shuffle(order.begin(), order.end(), rng);
        for (int i : std::as_const(order)) {
            if (out.size() >= count)
                break;
            const SharePair& pair = spec.shareGpt.at(i);
            const int promptTokens = tokensFor(pair.promptWords, wpt);
            const int completionTokens = tokensFor(pair.completionWords, wpt);
            const int outputTokens = spec.outputTokens > 0 ? spec.outputTokens : completionTokens;
            // vLLM's is_valid_sequence with its defaults (min 4, prompt <= 1024, total <= 2048).
            if (promptTokens < 4 || outputTokens < 4 || promptTokens > 1024 || promptTokens + outputTokens > 2048)
                continue;
            out.append({ prefixed(pair.prompt, int(out.size())), promptTokens, outputTokens, -1 });
        }
        if (out.size() < count)
            return R::failure(QStringLiteral("the ShareGPT file has %1 usable conversations, %2 are needed (a prompt "
                                             "and reply of 4 to 1024 tokens each, 2048 together)")
                                  .arg(out.size())
                                  .arg(count));
        return out;
    }

    const bool ranged = spec.rangeRatio >= 0;
    const LengthRange in = ranged ? lengthRange(spec.rangeMeaning, spec.inputTokens, spec.rangeRatio, false)
                                  : LengthRange { spec.inputTokens, spec.inputTokens };
    const LengthRange outLen = ranged ? lengthRange(spec.rangeMeaning, spec.outputTokens, spec.rangeRatio, true)
                                      : LengthRange { spec.outputTokens, spec.outputTokens };
    if (in.low > in.high || outLen.low > outLen.high)
        return R::failure(rangeRatioError(spec.rangeMeaning, spec.rangeRatio));
    // Both lengths drawn first, as the tools do (all inputs, then all outputs).
    std::uniform_int_distribution<int> drawIn(in.low, in.high);
    std::uniform_int_distribution<int> drawOut(outLen.low, outLen.high);
    QList<int> inputs;
    QList<int> outputs;
    for (int i = 0; i < count; ++i)
        inputs.append(drawIn(rng));
    for (int i = 0; i < count; ++i)
        outputs.append(drawOut(rng));
    for (int i = 0; i < count; ++i)
        out.append({ prefixed(randomWords(rng, wordsFor(inputs.at(i), wpt)), i), inputs.at(i), outputs.at(i), -1 });
    return out;
}

} // namespace kf
