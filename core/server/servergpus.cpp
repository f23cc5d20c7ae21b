// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/servergpus.h"

#include "core/util/shellquote.h"

#include <algorithm>

namespace kf {
namespace {

struct Flag
{
    const char* const* names;
    int* value;
    int min;
    int max;
};

const char* const kTp[] = { "--tp", "--tp-size", "--tensor-parallel-size", nullptr };
const char* const kDp[] = { "--dp", "--dp-size", "--data-parallel-size", nullptr };
const char* const kPp[] = { "--pp", "--pp-size", "--pipeline-parallel-size", nullptr };
const char* const kNodes[] = { "--nnodes", nullptr };
const char* const kBase[] = { "--base-gpu-id", nullptr };
const char* const kStep[] = { "--gpu-id-step", nullptr };

bool named(const char* const* names, const QString& word)
{
    for (; *names; ++names)
        if (word == QLatin1String(*names))
            return true;
    return false;
}

} // namespace

Result<QList<int>> serverGpus(const QStringList& words)
{
    int tp = 1, dp = 1, pp = 1, nodes = 1, base = 0, step = 1;
    bool dpAttention = false;
    const Flag flags[] = {
        { kTp, &tp, 1, kMaxServerGpus },
        { kDp, &dp, 1, kMaxServerGpus },
        { kPp, &pp, 1, kMaxServerGpus },
        { kNodes, &nodes, 1, kMaxServerGpus },
        { kBase, &base, 0, kMaxServerGpus - 1 },
        { kStep, &step, 1, kMaxServerGpus },
    };
    for (qsizetype i = 0; i < words.size(); ++i) {
        QString word = words[i];
        QString value;
        bool inlineValue = false;
        if (const qsizetype eq = word.indexOf(u'='); word.startsWith(QLatin1String("--")) && eq > 0) {
            value = word.mid(eq + 1);
            word.truncate(eq);
            inlineValue = true;
        }
        if (word == QLatin1String("--enable-dp-attention")) {
            dpAttention = true;
            continue;
        }
        for (const Flag& f : flags) {
            if (!named(f.names, word))
                continue;
            if (!inlineValue) {
                if (i + 1 >= words.size())
                    return Result<QList<int>>::failure(QStringLiteral("%1 has no value").arg(word));
                value = words[++i];
            }
            bool ok = false;
            const int v = value.toInt(&ok);
            if (!ok || v < f.min || v > f.max)
                return Result<QList<int>>::failure(QStringLiteral("%1 %2: not a whole number from %3 to %4")
                                                       .arg(word, value.left(40))
                                                       .arg(f.min)
                                                       .arg(f.max));
            *f.value = v;
            break;
        }
    }
    const int nodesPerTpGroup = std::max(nodes / pp, 1);
    const int tpPerNode = std::max(tp / nodesPerTpGroup, 1);
    const int ppPerNode = std::max(pp / nodes, 1);
    const int groups = dpAttention ? 1 : dp;
    // Bounded before it is walked: every factor is at most kMaxServerGpus, so the product fits in 64 bits.
    if (qint64(groups) * ppPerNode * tpPerNode > kMaxServerGpus)
        return Result<QList<int>>::failure(
            QStringLiteral("the server would use %1 GPUs on one host").arg(qint64(groups) * ppPerNode * tpPerNode));
    QList<int> gpus;
    for (int g = 0; g < groups; ++g) {
        const qint64 groupBase = base + qint64(g) * tp * pp * step;
        for (int p = 0; p < ppPerNode; ++p)
            for (int t = 0; t < tpPerNode; ++t) {
                const qint64 gpu = groupBase + qint64(p % ppPerNode) * tpPerNode + qint64(t % tpPerNode) * step;
                if (gpu >= kMaxServerGpus)
                    return Result<QList<int>>::failure(
                        QStringLiteral("the server would use GPU %1, past the last a host can have").arg(gpu));
                gpus.append(int(gpu));
            }
    }
    std::sort(gpus.begin(), gpus.end());
    gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
    return gpus;
}

Result<QList<int>> serverGpus(const ServerLaunchProfile& profile)
{
    return serverGpus(shellSplit(profile.command()));
}

QString gpuRangeText(const QList<int>& gpus)
{
    if (gpus.isEmpty())
        return QStringLiteral("none");
    QStringList parts;
    for (qsizetype i = 0; i < gpus.size();) {
        qsizetype j = i;
        while (j + 1 < gpus.size() && gpus[j + 1] == gpus[j] + 1)
            ++j;
        parts << (j == i ? QString::number(gpus[i]) : QStringLiteral("%1-%2").arg(gpus[i]).arg(gpus[j]));
        i = j + 1;
    }
    return parts.join(QStringLiteral(", "));
}

} // namespace kf
