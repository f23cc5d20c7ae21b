// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildprofile.h"

#include "core/remotebuild/progressparser.h"
#include "core/store/paths.h"

#include <QFile>
#include <QSaveFile>

#include <yaml-cpp/yaml.h>

namespace kf {
namespace {

QString str(const YAML::Node& n, const char* key)
{
    const YAML::Node v = n[key];
    return v && v.IsScalar() ? QString::fromStdString(v.as<std::string>()) : QString();
}

int num(const YAML::Node& n, const char* key)
{
    const YAML::Node v = n[key];
    if (!v || !v.IsScalar())
        return 0;
    bool ok = false;
    const int i = QString::fromStdString(v.as<std::string>()).toInt(&ok);
    return ok ? i : 0;
}

std::string u8(const QString& s)
{
    return s.toStdString();
}

} // namespace

QString BuildProfile::buildPath() const
{
    if (buildDir.isEmpty())
        return workingDirectory;
    if (buildDir.startsWith(QLatin1Char('/')) || buildDir.startsWith(QLatin1String("~/")))
        return buildDir;
    QString wd = workingDirectory.isEmpty() ? QStringLiteral("~") : workingDirectory;
    while (wd.endsWith(QLatin1Char('/')) && wd.size() > 1)
        wd.chop(1);
    return wd + QLatin1Char('/') + buildDir;
}

QString BuildProfile::cmakeArgsValue() const
{
    QStringList args = cmakeArgs;
    if (nvccThreads > 0 && !nvccThreadsDefine.isEmpty())
        args << QStringLiteral("-D%1=%2").arg(nvccThreadsDefine).arg(nvccThreads);
    return args.join(QLatin1Char(' '));
}

JobSpec BuildProfile::toJobSpec() const
{
    JobSpec spec;
    spec.name = name;
    spec.command = command;
    spec.workingDirectory = workingDirectory;
    spec.env = env;
    const QString cmake = cmakeArgsValue();
    if (!cmake.isEmpty())
        spec.env.insert(QStringLiteral("CMAKE_ARGS"), cmake);
    if (maxJobs > 0) {
        spec.env.insert(QStringLiteral("MAX_JOBS"), QString::number(maxJobs));
        spec.env.insert(QStringLiteral("CMAKE_BUILD_PARALLEL_LEVEL"), QString::number(maxJobs));
    }
    if (nvccThreads > 0 && nvccThreadsDefine.isEmpty())
        spec.env.insert(QStringLiteral("NVCC_APPEND_FLAGS"), QStringLiteral("--threads %1").arg(nvccThreads));
    spec.env.insert(QStringLiteral("NINJA_STATUS"), QString::fromLatin1(kNinjaStatusFormat));
    if (!buildDir.isEmpty())
        spec.env.insert(QStringLiteral("KF_BUILD_DIR"), buildDir);
    return spec;
}

bool isCMakeOnlyVariable(const QString& name)
{
    static const QStringList known { QStringLiteral("SGL_KERNEL_ENABLE_FA3"), QStringLiteral("SGL_KERNEL_ENABLE_SM90A"),
        QStringLiteral("SGL_KERNEL_ENABLE_SM100A"), QStringLiteral("SGL_KERNEL_ENABLE_BF16"),
        QStringLiteral("SGL_KERNEL_ENABLE_FP8"), QStringLiteral("SGL_KERNEL_ENABLE_FP4"),
        QStringLiteral("SGL_KERNEL_COMPILE_THREADS"), QStringLiteral("ENABLE_BELOW_SM90"),
        QStringLiteral("CMAKE_BUILD_TYPE"), QStringLiteral("CMAKE_CUDA_ARCHITECTURES") };
    return known.contains(name) || name.startsWith(QLatin1String("SGL_KERNEL_ENABLE_"));
}

QStringList moveCMakeOnlyEnv(BuildProfile& profile)
{
    QStringList moved;
    for (auto it = profile.env.begin(); it != profile.env.end();) {
        if (isCMakeOnlyVariable(it.key())) {
            const QString def = QStringLiteral("-D%1=").arg(it.key());
            profile.cmakeArgs.erase(std::remove_if(profile.cmakeArgs.begin(), profile.cmakeArgs.end(),
                                        [&](const QString& a) { return a.startsWith(def); }),
                profile.cmakeArgs.end());
            profile.cmakeArgs << def + it.value();
            moved << it.key();
            it = profile.env.erase(it);
        } else {
            ++it;
        }
    }
    return moved;
}

BuildProfileList parseBuildProfiles(const QByteArray& yaml)
{
    BuildProfileList out;
    try {
        const YAML::Node root = YAML::Load(yaml.toStdString());
        const YAML::Node list = root["profiles"];
        if (!list)
            return out;
        if (!list.IsSequence()) {
            out.error = QStringLiteral("'profiles' must be a list");
            return out;
        }
        int index = 0;
        for (const YAML::Node& n : list) {
            ++index;
            BuildProfile p;
            p.name = str(n, "name").trimmed();
            p.description = str(n, "description");
            p.workingDirectory = str(n, "working_dir");
            p.command = str(n, "command");
            p.maxJobs = num(n, "max_jobs");
            p.nvccThreads = num(n, "nvcc_threads");
            p.nvccThreadsDefine = str(n, "nvcc_threads_define");
            p.buildDir = str(n, "build_dir");
            p.demo = str(n, "demo") == QLatin1String("true");
            if (const YAML::Node e = n["env"]; e && e.IsMap())
                for (const auto& kv : e)
                    p.env.insert(QString::fromStdString(kv.first.as<std::string>()),
                        QString::fromStdString(kv.second.as<std::string>()));
            if (const YAML::Node a = n["cmake_args"]; a && a.IsSequence())
                for (const auto& v : a)
                    p.cmakeArgs << QString::fromStdString(v.as<std::string>());
            if (p.name.isEmpty() || p.command.trimmed().isEmpty()) {
                out.error = QStringLiteral("profile %1: 'name' and 'command' are required").arg(index);
                return out;
            }
            out.profiles << p;
        }
    } catch (const YAML::Exception& e) {
        out.error = QStringLiteral("invalid YAML: %1").arg(QString::fromStdString(e.what()));
    }
    return out;
}

QByteArray serializeBuildProfiles(const QList<BuildProfile>& profiles)
{
    YAML::Emitter e;
    e << YAML::BeginMap << YAML::Key << "profiles" << YAML::Value << YAML::BeginSeq;
    for (const auto& p : profiles) {
        e << YAML::BeginMap;
        e << YAML::Key << "name" << YAML::Value << u8(p.name);
        if (!p.description.isEmpty())
            e << YAML::Key << "description" << YAML::Value << u8(p.description);
        e << YAML::Key << "working_dir" << YAML::Value << u8(p.workingDirectory);
        e << YAML::Key << "command" << YAML::Value << u8(p.command);
        if (!p.env.isEmpty()) {
            e << YAML::Key << "env" << YAML::Value << YAML::BeginMap;
            for (auto it = p.env.cbegin(); it != p.env.cend(); ++it)
                e << YAML::Key << u8(it.key()) << YAML::Value << u8(it.value());
            e << YAML::EndMap;
        }
        if (!p.cmakeArgs.isEmpty()) {
            e << YAML::Key << "cmake_args" << YAML::Value << YAML::Flow << YAML::BeginSeq;
            for (const auto& a : p.cmakeArgs)
                e << u8(a);
            e << YAML::EndSeq;
        }
        if (p.maxJobs > 0)
            e << YAML::Key << "max_jobs" << YAML::Value << p.maxJobs;
        if (p.nvccThreads > 0)
            e << YAML::Key << "nvcc_threads" << YAML::Value << p.nvccThreads;
        if (!p.nvccThreadsDefine.isEmpty())
            e << YAML::Key << "nvcc_threads_define" << YAML::Value << u8(p.nvccThreadsDefine);
        if (!p.buildDir.isEmpty())
            e << YAML::Key << "build_dir" << YAML::Value << u8(p.buildDir);
        if (p.demo)
            e << YAML::Key << "demo" << YAML::Value << true;
        e << YAML::EndMap;
    }
    e << YAML::EndSeq << YAML::EndMap;
    return QByteArray(e.c_str()) + '\n';
}

QList<BuildProfile> builtInBuildProfiles()
{
    QFile f(QStringLiteral(":/profiles/builtin.yaml"));
    if (!f.open(QIODevice::ReadOnly))
        return {};
    auto parsed = parseBuildProfiles(f.readAll());
    for (auto& p : parsed.profiles)
        p.builtIn = true;
    return parsed.profiles;
}

QString userBuildProfilesPath()
{
    return paths::configDir() + QStringLiteral("/build-profiles.yaml");
}

Result<QList<BuildProfile>> loadBuildProfiles(const QString& userPath)
{
    QList<BuildProfile> all = builtInBuildProfiles();
    QFile f(userPath.isEmpty() ? userBuildProfilesPath() : userPath);
    if (f.exists()) {
        if (!f.open(QIODevice::ReadOnly))
            return Result<QList<BuildProfile>>::failure(
                QStringLiteral("cannot read %1: %2").arg(f.fileName(), f.errorString()));
        const auto user = parseBuildProfiles(f.readAll());
        if (!user)
            return Result<QList<BuildProfile>>::failure(f.fileName() + QStringLiteral(": ") + user.error);
        for (const auto& p : user.profiles) {
            auto it = std::find_if(all.begin(), all.end(), [&](const BuildProfile& b) { return b.name == p.name; });
            if (it != all.end())
                *it = p;
            else
                all << p;
        }
    }
    return all;
}

Result<void> saveUserBuildProfiles(const QList<BuildProfile>& profiles, const QString& userPath)
{
    QList<BuildProfile> user;
    const auto builtIns = builtInBuildProfiles();
    for (auto p : profiles) {
        // Only what differs from a built-in is the user's.
        auto same = std::find_if(builtIns.begin(), builtIns.end(), [&](const BuildProfile& b) {
            BuildProfile q = p;
            q.builtIn = true;
            return b == q;
        });
        if (same == builtIns.end()) {
            p.builtIn = false;
            user << p;
        }
    }
    QSaveFile f(userPath.isEmpty() ? userBuildProfilesPath() : userPath);
    if (!f.open(QIODevice::WriteOnly))
        return Result<void>::failure(QStringLiteral("cannot write %1: %2").arg(f.fileName(), f.errorString()));
    f.write(serializeBuildProfiles(user));
    if (!f.commit())
        return Result<void>::failure(QStringLiteral("cannot write %1: %2").arg(f.fileName(), f.errorString()));
    return {};
}

std::optional<BuildProfile> findBuildProfile(const QList<BuildProfile>& profiles, const QString& name)
{
    for (const auto& p : profiles)
        if (p.name.compare(name, Qt::CaseInsensitive) == 0)
            return p;
    return std::nullopt;
}

} // namespace kf
