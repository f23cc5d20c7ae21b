// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/buildfingerprint.h"

#include "core/util/versioncompare.h"

#include <QJsonArray>

namespace kf::deploy {
namespace {

// CUDA's minor-version compatibility (the toolkit release notes' table of minimum drivers).
struct DriverFloor
{
    int cudaMajor;
    const char* driver;
};
constexpr DriverFloor kDriverFloors[] = { { 11, "450.80.02" }, { 12, "525.60.13" }, { 13, "580" } };

QString orUnknown(const QString& v)
{
    return v.isEmpty() ? QStringLiteral("unknown") : v;
}

} // namespace

QJsonObject BuildFingerprint::toJson() const
{
    QJsonArray t;
    for (const CudaTarget& c : targets)
        t.append(c.name());
    QJsonObject o = environment.toJson();
    o.insert(QStringLiteral("targets"), t);
    o.insert(QStringLiteral("patch_plan"), patchPlan);
    o.insert(QStringLiteral("profile"), profile);
    return o;
}

BuildFingerprint BuildFingerprint::fromJson(const QJsonObject& o)
{
    BuildFingerprint f;
    f.environment = BuildEnvironment::fromJson(o);
    for (const QJsonValue& v : o.value(QLatin1String("targets")).toArray())
        if (const auto t = parseCudaTarget(v.toString()))
            f.targets.append(*t);
    f.patchPlan = o.value(QLatin1String("patch_plan")).toString();
    f.profile = o.value(QLatin1String("profile")).toString();
    return f;
}

BuildFingerprint fingerprintOf(
    const BuildEnvironment& source, const QList<CudaTarget>& targets, const QString& patchPlan, const QString& profile)
{
    BuildFingerprint f;
    f.environment = source;
    f.targets = uniqueTargets(targets);
    f.patchPlan = patchPlan;
    f.profile = profile;
    return f;
}

QString minimumDriverFor(const QString& cudaToolkit)
{
    const int major = cudaToolkit.section(QLatin1Char('.'), 0, 0).toInt();
    for (const DriverFloor& d : kDriverFloors)
        if (d.cudaMajor == major)
            return QString::fromLatin1(d.driver);
    return {};
}

QStringList promotionRefusals(const BuildFingerprint& fingerprint, const ServerFacts& target, const QString& targetName)
{
    const BuildEnvironment& built = fingerprint.environment;
    QStringList out;
    auto differ = [&](const QString& what, const QString& mine, const QString& theirs) {
        if (mine != theirs || mine.isEmpty())
            out.append(
                QStringLiteral("%1 %2 here, %3 on %4").arg(what, orUnknown(mine), orUnknown(theirs), targetName));
    };
    differ(QStringLiteral("architecture"), built.arch, target.arch);
    if (built.glibc.isEmpty() || target.glibc.isEmpty() || compareVersions(target.glibc, built.glibc) < 0)
        out.append(QStringLiteral("glibc %1 here, %2 on %3 (a library needs the glibc it was linked against or newer)")
                       .arg(orUnknown(built.glibc), orUnknown(target.glibc), targetName));
    differ(QStringLiteral("Python ABI"), built.pythonSoabi, target.pythonSoabi);
    differ(QStringLiteral("torch"), built.torch, target.torch);
    if (built.torchCxx11Abi && target.torchCxx11Abi && *built.torchCxx11Abi != *target.torchCxx11Abi)
        out.append(QStringLiteral("torch's C++ ABI (_GLIBCXX_USE_CXX11_ABI) %1 here, %2 on %3")
                       .arg(int(*built.torchCxx11Abi))
                       .arg(int(*target.torchCxx11Abi))
                       .arg(targetName));
    if (fingerprint.targets.isEmpty()) // no device code: nothing asks the driver or the GPUs
        return out;
    const QString floor = minimumDriverFor(built.cudaToolkit);
    if (floor.isEmpty())
        out.append(QStringLiteral("CUDA %1 here: no known minimum driver for it").arg(orUnknown(built.cudaToolkit)));
    else if (target.driverVersion.isEmpty() || compareVersions(target.driverVersion, floor) < 0)
        out.append(QStringLiteral("CUDA %1 here needs a driver >= %2; %3 has %4")
                       .arg(built.cudaToolkit, floor, targetName, orUnknown(target.driverVersion)));
    if (target.gpus.isEmpty())
        out.append(QStringLiteral("%1 reports no GPUs to check the library's targets (%2) against")
                       .arg(targetName, joinTargetNames(fingerprint.targets)));
    for (const GpuFact& g : target.gpus) {
        const auto cc = parseComputeCapability(g.computeCapability);
        const KernelImageChoice choice
            = cc ? chooseKernelImage(fingerprint.targets, *cc) : KernelImageChoice { std::nullopt, false, {} };
        if (!cc)
            out.append(QStringLiteral("GPU %1 of %2: compute capability unknown").arg(g.index).arg(targetName));
        else if (!choice.runs())
            out.append(QStringLiteral("GPU %1 of %2 (%3): %4").arg(g.index).arg(targetName, g.name, choice.reason));
    }
    return out;
}

} // namespace kf::deploy
