// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/sglkernel/rules.h"

#include "core/util/versioncompare.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace kf::sglkernel {

namespace {

bool isComment(const QString& line)
{
    return line.trimmed().startsWith(QLatin1Char('#'));
}

} // namespace

const ArchRule* archRuleFor(const QString& computeCapability)
{
    if (computeCapability.isEmpty())
        return nullptr;
    for (const ArchRule& r : kArchRules)
        if (compareVersions(computeCapability, QLatin1String(r.computeCapability)) == 0)
            return &r;
    const ArchRule& newest = kArchRules[std::size(kArchRules) - 1];
    if (compareVersions(computeCapability, QLatin1String(newest.computeCapability)) > 0)
        return &newest;
    return nullptr;
}

bool cudaCanBuild(const QString& nvccVersion, const ArchRule& rule)
{
    return compareVersions(nvccVersion, QLatin1String(rule.minimumCuda)) >= 0;
}

const ArchRule& preflightArch()
{
    return *archRuleFor(QStringLiteral("12.0"));
}

QString cudaRelease(const QString& nvccVersion)
{
    return nvccVersion.section(QLatin1Char('.'), 0, 1);
}

bool cudaMovedCccl(const QString& nvccVersion)
{
    return !nvccVersion.isEmpty() && compareVersions(nvccVersion, QLatin1String(kCcclMovedInCuda)) >= 0;
}

bool addsCcclInclude(const QStringList& cmakeListsLines)
{
    return std::any_of(cmakeListsLines.begin(), cmakeListsLines.end(),
        [](const QString& l) { return l.contains(QLatin1String("cccl"), Qt::CaseInsensitive) && !isComment(l); });
}

QString cmakeVersionForPolicy(const QString& policy)
{
    for (const PolicyRule& r : kPolicyRules)
        if (policy == QLatin1String(r.policy))
            return QLatin1String(r.cmake);
    return {};
}

QString cmakeForSglKernel()
{
    return cmakeVersionForPolicy(QStringLiteral("CMP0177"));
}

PolicyNeeds unguardedPolicies(const QStringList& cmakeListsLines)
{
    static const QRegularExpression setPolicy(
        QStringLiteral(R"(cmake_policy\s*\(\s*SET\s+(CMP\d{4}))"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression ifPolicy(
        QStringLiteral(R"(if\s*\(\s*POLICY\s+(CMP\d{4}))"), QRegularExpression::CaseInsensitiveOption);
    PolicyNeeds needs;
    QSet<QString> guarded;
    for (const QString& l : cmakeListsLines) {
        if (isComment(l))
            continue;
        if (const auto m = ifPolicy.match(l); m.hasMatch())
            guarded.insert(m.captured(1));
        if (const auto m = setPolicy.match(l); m.hasMatch()) {
            const QString p = m.captured(1);
            const QString v = cmakeVersionForPolicy(p);
            if (!v.isEmpty() && !guarded.contains(p)) {
                needs.unguarded << p;
                if (needs.cmake.isEmpty() || compareVersions(v, needs.cmake) > 0)
                    needs.cmake = v;
            }
        }
    }
    return needs;
}

bool fa3ShouldBeOff(const QString& computeCapability)
{
    return compareVersions(computeCapability, QLatin1String(kFa3OffFromComputeCapability)) >= 0;
}

qint64 nvccThreadsThatFit(qint64 availableBytes)
{
    return std::max<qint64>(1, availableBytes / kBytesPerNvccThread);
}

qint64 bytesNeeded(int maxJobs, int threads)
{
    return qint64(maxJobs) * threads * kBytesPerNvccThread;
}

JobBudget fittingBudget(qint64 availableBytes, int wantedJobs, int wantedThreads)
{
    JobBudget b;
    const qint64 slotCount = nvccThreadsThatFit(availableBytes);
    b.threads = int(std::clamp<qint64>(std::min<qint64>(wantedThreads, slotCount), 1, std::max(1, wantedThreads)));
    b.maxJobs = int(std::clamp<qint64>(slotCount / b.threads, 1, std::max(1, wantedJobs)));
    return b;
}

QString oomAdvice(qint64 availableBytes, int maxJobs, int threads)
{
    const JobBudget b = fittingBudget(availableBytes, maxJobs, threads);
    const double gb = double(availableBytes) / double(1LL << 30);
    return QStringLiteral("%1 x %2 nvcc threads need about %3 GB but %4 GB are available: use MAX_JOBS=%5 with "
                          "CMAKE_ARGS=-DSGL_KERNEL_COMPILE_THREADS=%6 (about %7 GB).")
        .arg(maxJobs)
        .arg(threads)
        .arg(bytesNeeded(maxJobs, threads) >> 30)
        .arg(gb, 0, 'f', 1)
        .arg(b.maxJobs)
        .arg(b.threads)
        .arg(bytesNeeded(b.maxJobs, b.threads) >> 30);
}

} // namespace kf::sglkernel
