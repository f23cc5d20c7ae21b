// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildenvironment.h"

namespace kf {

BuildEnvironment BuildEnvironment::of(const ServerFacts& facts)
{
    BuildEnvironment e;
    e.arch = facts.arch;
    e.glibc = facts.glibc;
    e.pythonSoabi = facts.pythonSoabi;
    e.torch = facts.torch;
    e.torchCxx11Abi = facts.torchCxx11Abi;
    e.cudaToolkit = facts.nvcc;
    return e;
}

QJsonObject BuildEnvironment::toJson() const
{
    return { { QStringLiteral("arch"), arch }, { QStringLiteral("glibc"), glibc },
        { QStringLiteral("python_soabi"), pythonSoabi }, { QStringLiteral("torch"), torch },
        { QStringLiteral("torch_cxx11_abi"), torchCxx11Abi ? QJsonValue(*torchCxx11Abi) : QJsonValue() },
        { QStringLiteral("cuda"), cudaToolkit } };
}

BuildEnvironment BuildEnvironment::fromJson(const QJsonObject& o)
{
    BuildEnvironment e;
    e.arch = o.value(QLatin1String("arch")).toString();
    e.glibc = o.value(QLatin1String("glibc")).toString();
    e.pythonSoabi = o.value(QLatin1String("python_soabi")).toString();
    e.torch = o.value(QLatin1String("torch")).toString();
    if (const QJsonValue abi = o.value(QLatin1String("torch_cxx11_abi")); abi.isBool())
        e.torchCxx11Abi = abi.toBool();
    e.cudaToolkit = o.value(QLatin1String("cuda")).toString();
    return e;
}

bool BuildEnvironment::isEmpty() const
{
    return *this == BuildEnvironment {};
}

QStringList environmentChanges(const BuildEnvironment& atBuild, const BuildEnvironment& now)
{
    QStringList out;
    const auto changed = [&](const char* what, const QString& then, const QString& today) {
        if (!then.isEmpty() && then != today)
            out.append(QStringLiteral("%1 %2 at the build, %3 now")
                           .arg(QLatin1String(what), then, today.isEmpty() ? QStringLiteral("unknown") : today));
    };
    changed("architecture", atBuild.arch, now.arch);
    changed("glibc", atBuild.glibc, now.glibc);
    changed("Python ABI", atBuild.pythonSoabi, now.pythonSoabi);
    changed("torch", atBuild.torch, now.torch);
    if (atBuild.torchCxx11Abi && now.torchCxx11Abi != atBuild.torchCxx11Abi)
        out.append(QStringLiteral("torch's C++ ABI %1 at the build, %2 now")
                       .arg(int(*atBuild.torchCxx11Abi))
                       .arg(now.torchCxx11Abi ? QString::number(int(*now.torchCxx11Abi)) : QStringLiteral("unknown")));
    changed("CUDA", atBuild.cudaToolkit, now.cudaToolkit);
    return out;
}

} // namespace kf
