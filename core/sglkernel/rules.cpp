// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/sglkernel/rules.h"

#include "core/util/cmakescript.h"
#include "core/util/versioncompare.h"

#include <QRegularExpression>
#include <QSet>

#include <algorithm>

namespace kf::sglkernel {

namespace {

CMakeScript readCMake(const QStringList& lines)
{
    return parseCMakeScript(lines.join(QLatin1Char('\n')));
}

// "2.13.0" from "2.13.0+cu130" or "2.13.0a0": what a requirement compares.
QString releaseOf(const QString& version)
{
    static const QRegularExpression re(QStringLiteral("^\\d+(\\.\\d+)*"));
    return re.match(version.trimmed()).captured(0);
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

QString archSwitch(const QString& computeCapability)
{
    bool ok = false;
    const int major = computeCapability.section(QLatin1Char('.'), 0, 0).toInt(&ok);
    if (!ok)
        return {};
    if (major < 9)
        return QStringLiteral("-DENABLE_BELOW_SM90=ON");
    if (major == 9)
        return QStringLiteral("-DSGL_KERNEL_ENABLE_SM90A=ON");
    if (major == 10 || major == 12)
        return QStringLiteral("-DSGL_KERNEL_ENABLE_SM100A=ON (CUDA >= 12.8)");
    return {};
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
    static const QRegularExpression cccl(QStringLiteral("/cccl\\b"));
    for (const CMakeCommand& c : readCMake(cmakeListsLines).commands)
        for (const CMakeArgument& a : c.arguments)
            if (cccl.match(a.value).hasMatch())
                return true;
    return false;
}

QString ccclOnIncludePath(const QString& cplusIncludePath)
{
    for (const QString& entry : cplusIncludePath.split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
        QString e = entry.trimmed();
        while (e.size() > 1 && e.endsWith(QLatin1Char('/')))
            e.chop(1);
        if (e.endsWith(QLatin1String("/cccl")))
            return e;
    }
    return {};
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
    PolicyNeeds needs;
    QStringList guards; // per open block: the policy its if(POLICY X) guards, or ""
    for (const CMakeCommand& c : readCMake(cmakeListsLines).commands) {
        const QStringList args = c.values();
        if (c.is(QLatin1String("if"))) {
            guards.append(args.size() == 2 && args[0] == QLatin1String("POLICY") ? args[1] : QString());
        } else if (c.is(QLatin1String("elseif")) || c.is(QLatin1String("else"))) {
            if (!guards.isEmpty())
                guards.last().clear();
        } else if (c.is(QLatin1String("foreach")) || c.is(QLatin1String("while")) || c.is(QLatin1String("function"))
            || c.is(QLatin1String("macro")) || c.is(QLatin1String("block"))) {
            guards.append(QString());
        } else if (c.name.startsWith(QLatin1String("end"), Qt::CaseInsensitive)) {
            if (!guards.isEmpty())
                guards.removeLast();
        } else if (c.is(QLatin1String("cmake_policy")) && args.size() >= 2
            && args[0].compare(QLatin1String("SET"), Qt::CaseInsensitive) == 0) {
            const QString& p = args[1];
            const QString v = cmakeVersionForPolicy(p);
            if (!v.isEmpty() && !guards.contains(p)) {
                needs.unguarded << p;
                if (needs.cmake.isEmpty() || compareVersions(v, needs.cmake) > 0)
                    needs.cmake = v;
            }
        }
    }
    return needs;
}

QString cmakeMinimumRequired(const QStringList& cmakeListsLines)
{
    for (const CMakeCommand& c : readCMake(cmakeListsLines).commands) {
        const QStringList args = c.values();
        if (c.is(QLatin1String("cmake_minimum_required")) && args.size() >= 2 && args[0] == QLatin1String("VERSION"))
            return args[1].section(QStringLiteral("..."), 0, 0);
    }
    return {};
}

QString TreeRequirement::text() const
{
    return QStringLiteral("%1 %2 %3 (%4)").arg(tool, op, version, file);
}

bool TreeRequirement::satisfiedBy(const QString& installed) const
{
    const QString have = releaseOf(installed);
    if (have.isEmpty())
        return false;
    const int cmp = compareVersions(have, version);
    return op == QLatin1String("==") ? cmp == 0 : cmp >= 0;
}

std::optional<TreeRequirement> torchRequirement(const QList<QPair<QString, QString>>& treeLines)
{
    // Highest first: sglang's pin, the README's "Requires torch == X", the build requirement.
    static const QRegularExpression pin(QStringLiteral("[\"']torch\\s*==\\s*([0-9][0-9.]*)"));
    static const QRegularExpression readme(
        QStringLiteral("requires\\s+torch\\s*==\\s*([0-9][0-9.]*)"), QRegularExpression::CaseInsensitiveOption);
    static const QRegularExpression atLeast(QStringLiteral("[\"']torch\\s*>=\\s*([0-9][0-9.]*)"));
    std::optional<TreeRequirement> best;
    int bestRank = 0;
    for (const auto& [file, line] : treeLines) {
        const bool sglang = file == QLatin1String(kSglangPyproject);
        struct Try
        {
            const QRegularExpression& re;
            int rank;
            const char* op;
        };
        for (const Try& t : { Try { pin, sglang ? 3 : 2, "==" }, Try { readme, 2, "==" }, Try { atLeast, 1, ">=" } }) {
            const auto m = t.re.match(line);
            if (!m.hasMatch() || t.rank <= bestRank)
                continue;
            best
                = TreeRequirement { QStringLiteral("torch"), QLatin1String(t.op), m.captured(1), file, line.trimmed() };
            bestRank = t.rank;
        }
    }
    return best;
}

std::optional<TreeRequirement> cmakeRequirement(const QList<QPair<QString, QString>>& treeLines)
{
    static const QRegularExpression re(
        QStringLiteral("cmake\\s*(?:>=|\u2265)\\s*([0-9][0-9.]*)"), QRegularExpression::CaseInsensitiveOption);
    for (const auto& [file, line] : treeLines)
        if (const auto m = re.match(line); m.hasMatch())
            return TreeRequirement { QStringLiteral("cmake"), QStringLiteral(">="), m.captured(1), file,
                line.trimmed() };
    return std::nullopt;
}

QString kernelWheelPackage(const QString& fileName)
{
    if (!fileName.endsWith(QLatin1String(".whl")))
        return {};
    for (const char* name : kKernelPackages)
        if (fileName.startsWith(
                QString::fromLatin1(name).replace(QLatin1Char('-'), QLatin1Char('_')) + QLatin1Char('-')))
            return QLatin1String(name);
    return {};
}

std::optional<bool> fa3Requested(const QStringList& cmakeArgs, const QMap<QString, QString>& env)
{
    auto parse = [](QString v) -> std::optional<bool> {
        v = v.trimmed().toUpper();
        if (v == QLatin1String("ON") || v == QLatin1String("1") || v == QLatin1String("TRUE")
            || v == QLatin1String("YES"))
            return true;
        if (v == QLatin1String("OFF") || v == QLatin1String("0") || v == QLatin1String("FALSE")
            || v == QLatin1String("NO"))
            return false;
        return std::nullopt;
    };
    std::optional<bool> out;
    for (const QString& a : cmakeArgs) {
        static const QString prefix = QStringLiteral("-D") + QLatin1String(kFa3Option);
        if (!a.startsWith(prefix))
            continue;
        const qsizetype eq = a.indexOf(QLatin1Char('='));
        if (eq > 0 && (a.mid(prefix.size(), eq - prefix.size()).isEmpty() || a.mid(prefix.size(), 1) == u":"))
            out = parse(a.mid(eq + 1)); // the last one wins, as on a cmake command line
    }
    if (!out && env.contains(QLatin1String(kFa3Option)))
        out = parse(env.value(QLatin1String(kFa3Option)));
    return out;
}

QString fa3Argument(bool on)
{
    return QStringLiteral("-D%1=%2").arg(QLatin1String(kFa3Option), on ? u"ON" : u"OFF");
}

QStringList withFa3Argument(QStringList cmakeArgs, bool on)
{
    const QString prefix = QStringLiteral("-D") + QLatin1String(kFa3Option);
    cmakeArgs.removeIf([&](const QString& a) { return a.startsWith(prefix); });
    cmakeArgs << fa3Argument(on);
    return cmakeArgs;
}

bool isCMakeOnlyVariable(const QString& name)
{
    static const QStringList known { QStringLiteral("SGL_KERNEL_COMPILE_THREADS"), QStringLiteral("ENABLE_BELOW_SM90"),
        QStringLiteral("CMAKE_BUILD_TYPE"), QStringLiteral("CMAKE_CUDA_ARCHITECTURES") };
    return known.contains(name) || name.startsWith(QLatin1String("SGL_KERNEL_ENABLE_"));
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
