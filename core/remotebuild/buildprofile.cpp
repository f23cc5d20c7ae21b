// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildprofile.h"

#include "core/remotebuild/memorygate.h"
#include "core/remotebuild/progressparser.h"
#include "core/sglkernel/rules.h"
#include "core/store/paths.h"
#include "core/util/shellquote.h"
#include "core/util/yamlnode.h"

#include <QFile>
#include <QRegularExpression>
#include <QSaveFile>

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace kf {
namespace {

constexpr int kMaxCount = 4096;

QString countRule(const char* key, const QString& value)
{
    return QStringLiteral("%1 must be a whole number from 1 to %2 (or left out), not '%3'")
        .arg(QLatin1String(key))
        .arg(kMaxCount)
        .arg(value);
}

QString envNameRule(const QString& name)
{
    return QStringLiteral("env: '%1' is not a variable name").arg(name);
}

bool isIdentifier(const QString& s)
{
    static const QRegularExpression re(QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*")));
    return re.match(s).hasMatch();
}

BuildProfile parseProfile(const YamlNode& n)
{
    if (!n.isMap())
        n.fail(QStringLiteral("a profile must be a map of fields"));
    n.onlyKeys({ QStringLiteral("name"), QStringLiteral("description"), QStringLiteral("working_dir"),
        QStringLiteral("command"), QStringLiteral("env"), QStringLiteral("cmake_args"), QStringLiteral("max_jobs"),
        QStringLiteral("nvcc_threads"), QStringLiteral("nvcc_threads_define"), QStringLiteral("build_dir"),
        QStringLiteral("kernel_tree"), QStringLiteral("ccache"), QStringLiteral("memory_gate"),
        QStringLiteral("demo") });
    BuildProfile p;
    p.name = n.text("name").trimmed();
    p.description = n.text("description");
    p.workingDirectory = n.text("working_dir");
    p.command = n.text("command");
    p.maxJobs = n.integer("max_jobs", 0, 1, kMaxCount);
    p.nvccThreads = n.integer("nvcc_threads", 0, 1, kMaxCount);
    p.nvccThreadsDefine = n.text("nvcc_threads_define").trimmed();
    p.buildDir = n.text("build_dir");
    p.kernelTree = n.boolean("kernel_tree", false);
    p.ccache = n.boolean("ccache", false);
    p.memoryGate = n.boolean("memory_gate", true);
    p.demo = n.boolean("demo", false);
    if (const auto env = n.map("env")) {
        for (const YamlNode::Entry& e : env->entries()) {
            if (!isShellName(e.key)) // here, for its line
                e.keyNode.fail(QStringLiteral("is not a variable name"));
            p.env.insert(e.key, e.value.scalar());
        }
    } else if (n.has("env")) {
        n.fail("env", QStringLiteral("must be a map of NAME: value"));
    }
    p.cmakeArgs = n.texts("cmake_args");
    if (const auto problem = checkBuildProfile(p))
        n.fail(problem->key.toUtf8().constData(), problem->message);
    return p;
}

std::string u8(const QString& s)
{
    return s.toStdString();
}

} // namespace

std::optional<BuildProfileProblem> checkBuildProfile(const BuildProfile& p)
{
    if (p.name.trimmed().isEmpty())
        return BuildProfileProblem { QStringLiteral("name"), QStringLiteral("'name' is required") };
    if (p.command.trimmed().isEmpty())
        return BuildProfileProblem { QStringLiteral("command"), QStringLiteral("'command' is required") };
    for (const auto& [key, value] : { std::pair("max_jobs", p.maxJobs), std::pair("nvcc_threads", p.nvccThreads) })
        if (value < 0 || value > kMaxCount)
            return BuildProfileProblem { QLatin1String(key), countRule(key, QString::number(value)) };
    if (!p.nvccThreadsDefine.isEmpty() && !isIdentifier(p.nvccThreadsDefine))
        return BuildProfileProblem { QStringLiteral("nvcc_threads_define"),
            QStringLiteral("nvcc_threads_define must be a CMake variable name, not '%1'").arg(p.nvccThreadsDefine) };
    for (auto it = p.env.cbegin(); it != p.env.cend(); ++it)
        if (!isShellName(it.key()))
            return BuildProfileProblem { QStringLiteral("env"), envNameRule(it.key()) };
    return std::nullopt;
}

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

JobSpec BuildProfile::toJobSpec(const QList<UnitPeak>& learnedPeaks) const
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
    if (nvccThreads > 0 && !nvccThreadsDefine.isEmpty() && !env.contains(QLatin1String(sglkernel::kNvccThreadsEnv)))
        spec.env.insert(QLatin1String(sglkernel::kNvccThreadsEnv), QString::number(nvccThreads));
    if (ccache) {
        for (const auto& [name, value] : sglkernel::kCcacheEnv)
            if (!env.contains(QLatin1String(name)))
                spec.env.insert(QLatin1String(name), QLatin1String(value));
        if (!env.contains(QStringLiteral("CCACHE_BASEDIR")) && workingDirectory.startsWith(QLatin1Char('/')))
            spec.env.insert(QStringLiteral("CCACHE_BASEDIR"), workingDirectory);
    }
    spec.env.insert(QStringLiteral("NINJA_STATUS"), QString::fromLatin1(kNinjaStatusFormat));
    if (!buildDir.isEmpty())
        spec.env.insert(QStringLiteral("KF_BUILD_DIR"), buildDir);
    if (memoryGate)
        memorygate::install(spec, learnedPeaks);
    return spec;
}

QStringList moveCMakeOnlyEnv(BuildProfile& profile)
{
    QStringList moved;
    for (auto it = profile.env.begin(); it != profile.env.end();) {
        if (sglkernel::isCMakeOnlyVariable(it.key())) {
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

BuildProfileList parseBuildProfiles(const QByteArray& yaml, const QString& fileName)
{
    BuildProfileList out;
    const auto error = readYaml(yaml, fileName, [&](const YamlNode& root) {
        for (const YamlNode& n : root.list("profiles")) {
            BuildProfile p = parseProfile(n);
            if (std::any_of(out.profiles.cbegin(), out.profiles.cend(),
                    [&](const BuildProfile& q) { return q.name.compare(p.name, Qt::CaseInsensitive) == 0; }))
                n.fail("name", QStringLiteral("a second profile named '%1'").arg(p.name));
            out.profiles << p;
        }
    });
    if (error) {
        out.profiles.clear();
        out.error = error->message();
        out.errorLine = error->line;
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
        if (p.kernelTree)
            e << YAML::Key << "kernel_tree" << YAML::Value << true;
        if (p.ccache)
            e << YAML::Key << "ccache" << YAML::Value << true;
        if (!p.memoryGate)
            e << YAML::Key << "memory_gate" << YAML::Value << false;
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
        const auto user = parseBuildProfiles(f.readAll(), f.fileName());
        if (!user)
            return Result<QList<BuildProfile>>::failure(user.error);
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
    // Before the first byte: the temp file is what gets renamed over the original (QSaveFile
    // would otherwise keep the old file's mode, or the umask's 0644 for a new one).
    f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
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
