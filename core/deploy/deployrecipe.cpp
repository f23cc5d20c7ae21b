// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/deployrecipe.h"

#include "core/util/shellquote.h"
#include "core/util/versioncompare.h"
#include "core/util/yamlkeys.h"

#include <QFile>

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace kf::deploy {
namespace {

std::string u8(const QString& s)
{
    return s.toStdString();
}

// A recipe error: the message names the key; thrown inside the parser, caught once.
struct RecipeError
{
    QString message;
};

[[noreturn]] void fail(const QString& key, const QString& why)
{
    throw RecipeError { key + QStringLiteral(": ") + why };
}

QString scalar(const YAML::Node& n, const char* key, const QString& where)
{
    const YAML::Node v = n[key];
    if (!v || v.IsNull())
        return {};
    if (!v.IsScalar())
        fail(where + QLatin1Char('.') + QLatin1String(key), QStringLiteral("must be a single value"));
    return QString::fromStdString(v.as<std::string>());
}

int integer(const YAML::Node& n, const char* key, const QString& where, int fallback)
{
    const QString s = scalar(n, key, where);
    if (s.isEmpty())
        return fallback;
    bool ok = false;
    const int v = s.toInt(&ok);
    if (!ok || v < 0)
        fail(where + QLatin1Char('.') + QLatin1String(key),
            QStringLiteral("must be a whole number >= 0, not '%1'").arg(s));
    return v;
}

bool boolean(const YAML::Node& n, const char* key, const QString& where, bool fallback)
{
    const QString s = scalar(n, key, where).toLower();
    if (s.isEmpty())
        return fallback;
    if (s == QLatin1String("true") || s == QLatin1String("yes"))
        return true;
    if (s == QLatin1String("false") || s == QLatin1String("no"))
        return false;
    fail(where + QLatin1Char('.') + QLatin1String(key), QStringLiteral("must be true or false, not '%1'").arg(s));
}

QStringList list(const YAML::Node& n, const char* key, const QString& where)
{
    const YAML::Node v = n[key];
    if (!v || v.IsNull())
        return {};
    if (!v.IsSequence())
        fail(where + QLatin1Char('.') + QLatin1String(key), QStringLiteral("must be a list"));
    QStringList out;
    for (const YAML::Node& item : v) {
        if (!item.IsScalar())
            fail(where + QLatin1Char('.') + QLatin1String(key), QStringLiteral("must be a list of single values"));
        out.append(QString::fromStdString(item.as<std::string>()));
    }
    return out;
}

// The mapping under key; nullopt when the key is missing or empty.
std::optional<YAML::Node> section(const YAML::Node& root, const char* key)
{
    const YAML::Node v = root[key];
    if (!v || v.IsNull())
        return std::nullopt;
    if (!v.IsMap())
        fail(QLatin1String(key), QStringLiteral("must be a mapping"));
    return v;
}

void emitList(YAML::Emitter& e, const char* key, const QStringList& values)
{
    e << YAML::Key << key << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (const QString& v : values)
        e << u8(v);
    e << YAML::EndSeq;
}

} // namespace

QString toString(VersionRule rule)
{
    switch (rule) {
    case VersionRule::Exact: return QStringLiteral("==");
    case VersionRule::AtLeast: return QStringLiteral(">=");
    case VersionRule::Compatible: return QStringLiteral("~=");
    case VersionRule::Any: return QStringLiteral("any");
    }
    return {};
}

std::optional<VersionRule> parseVersionRule(const QString& text)
{
    for (VersionRule r : { VersionRule::Exact, VersionRule::AtLeast, VersionRule::Compatible, VersionRule::Any })
        if (toString(r) == text.trimmed())
            return r;
    return std::nullopt;
}

VersionRule defaultRule(const QString& name)
{
    static const QStringList atLeast { QStringLiteral("driver"), QStringLiteral("cmake"), QStringLiteral("ninja") };
    static const QStringList compatible { QStringLiteral("nvcc"), QStringLiteral("gcc"), QStringLiteral("python") };
    static const QStringList exact { QStringLiteral("torch"), QStringLiteral("sglang"), QStringLiteral("gpu"),
        QStringLiteral("compute_capability") };
    if (atLeast.contains(name))
        return VersionRule::AtLeast;
    if (compatible.contains(name))
        return VersionRule::Compatible;
    if (exact.contains(name))
        return VersionRule::Exact;
    return VersionRule::Any;
}

bool satisfies(const QString& actual, const QString& expected, VersionRule rule)
{
    switch (rule) {
    case VersionRule::Any: return true;
    case VersionRule::Exact: return actual == expected;
    case VersionRule::AtLeast: return !actual.isEmpty() && compareVersions(actual, expected) >= 0;
    case VersionRule::Compatible: {
        if (actual.isEmpty() || compareVersions(actual, expected) < 0)
            return false;
        const QStringList a = actual.split(QLatin1Char('.')), e = expected.split(QLatin1Char('.'));
        return compareVersions(a.mid(0, 2).join(QLatin1Char('.')), e.mid(0, 2).join(QLatin1Char('.'))) == 0;
    }
    }
    return false;
}

QList<FactComparison> compareFacts(const QList<FactExpectation>& expected, const QJsonObject& actualVersions)
{
    QList<FactComparison> out;
    for (const FactExpectation& x : expected) {
        FactComparison c;
        c.expected = x;
        c.actual = actualVersions.value(x.name).toString();
        c.differs = c.actual != x.version;
        c.ok = x.rule == VersionRule::Any || (!c.actual.isEmpty() && satisfies(c.actual, x.version, x.rule));
        const QString rule = QStringLiteral("recipe %1 %2").arg(toString(x.rule), x.version);
        if (c.actual.isEmpty())
            c.text = QStringLiteral("%1: missing on the target (%2)%3")
                         .arg(x.name, rule, c.ok ? QStringLiteral(", allowed") : QStringLiteral(": not satisfied"));
        else if (!c.differs)
            c.text = QStringLiteral("%1 %2: as in the recipe").arg(x.name, c.actual);
        else
            c.text
                = QStringLiteral("%1 %2 on the target, %3: %4")
                      .arg(x.name, c.actual, rule, c.ok ? QStringLiteral("allowed") : QStringLiteral("not satisfied"));
        out.append(c);
    }
    // Failures, then allowed differences, then the same; otherwise in recipe order.
    std::stable_sort(out.begin(), out.end(), [](const FactComparison& a, const FactComparison& b) {
        auto rank = [](const FactComparison& c) { return !c.ok ? 0 : (c.differs ? 1 : 2); };
        return rank(a) < rank(b);
    });
    return out;
}

QStringList compareVerification(const VerifyExpectation& x, const timeline::VerificationResult& actual)
{
    QStringList problems;
    if (x.importOk && actual.importOk != x.importOk)
        problems.append(QStringLiteral("import sgl_kernel %1 on the target, %2 in the recipe")
                            .arg(!actual.importOk      ? QStringLiteral("was not tried")
                                    : *actual.importOk ? QStringLiteral("works")
                                                       : QStringLiteral("fails"),
                                *x.importOk ? QStringLiteral("works") : QStringLiteral("fails")));
    if (x.fa3 && actual.fa3 != x.fa3)
        problems.append(QStringLiteral("FA3 (flash_ops) %1 on the target, %2 in the recipe")
                            .arg(!actual.fa3      ? QStringLiteral("was not tried")
                                    : *actual.fa3 ? QStringLiteral("present")
                                                  : QStringLiteral("absent"),
                                *x.fa3 ? QStringLiteral("present") : QStringLiteral("absent")));
    for (const timeline::VerifiedLibrary& want : x.libraries) {
        const auto have = std::find_if(actual.libraries.cbegin(), actual.libraries.cend(),
            [&](const timeline::VerifiedLibrary& l) { return timeline::libraryStem(l.name) == want.name; });
        if (have == actual.libraries.cend()) {
            problems.append(QStringLiteral("library %1 is missing on the target").arg(want.name));
            continue;
        }
        QStringList missing;
        for (const QString& t : want.targets)
            if (!have->targets.contains(t))
                missing.append(t);
        if (!missing.isEmpty())
            problems.append(QStringLiteral("library %1 lacks %2 on the target (it has %3)")
                                .arg(want.name, missing.join(QLatin1Char(' ')),
                                    have->targets.isEmpty() ? QStringLiteral("no CUDA code")
                                                            : have->targets.join(QLatin1Char(' '))));
    }
    return problems;
}

VerifyExpectation expectationFrom(const timeline::VerificationResult& r)
{
    VerifyExpectation x;
    x.importOk = r.importOk;
    x.fa3 = r.fa3;
    for (const timeline::VerifiedLibrary& l : r.libraries)
        if (!l.targets.isEmpty())
            x.libraries.append({ timeline::libraryStem(l.name), QString(), l.targets });
    return x;
}

Result<DeployRecipe> parseDeployRecipe(const QByteArray& yaml, const QString& sourceName)
{
    DeployRecipe r;
    try {
        const YAML::Node root = YAML::Load(yaml.toStdString());
        if (const auto duplicate = findDuplicateYamlKey(root))
            fail(QStringLiteral("line %1").arg(duplicate->line), duplicate->message());
        if (!root.IsMap() || !root["kernelforge_recipe"])
            fail(QStringLiteral("kernelforge_recipe"),
                QStringLiteral("missing: not a KernelForge deployment recipe (a patch set goes to `patch --set`)"));
        const int version = integer(root, "kernelforge_recipe", QString(), 0);
        if (version < 1 || version > kRecipeSchemaVersion)
            fail(QStringLiteral("kernelforge_recipe"),
                QStringLiteral("schema version %1; this KernelForge reads version %2")
                    .arg(version)
                    .arg(kRecipeSchemaVersion));
        r.name = scalar(root, "name", QString());
        if (const auto s = section(root, "source")) {
            r.sourceHost = scalar(*s, "host", QStringLiteral("source"));
            r.exported = QDateTime::fromString(scalar(*s, "exported", QStringLiteral("source")), Qt::ISODateWithMs);
        }
        if (const YAML::Node f = root["facts"]; f && !f.IsNull()) {
            if (!f.IsSequence())
                fail(QStringLiteral("facts"), QStringLiteral("must be a list"));
            int i = 0;
            for (const YAML::Node& n : f) {
                const QString where = QStringLiteral("facts[%1]").arg(i++);
                if (!n.IsMap())
                    fail(where, QStringLiteral("must be {name, version, rule}"));
                FactExpectation x;
                x.name = scalar(n, "name", where);
                x.version = scalar(n, "version", where);
                const QString rule = scalar(n, "rule", where);
                const auto parsed
                    = rule.isEmpty() ? std::optional<VersionRule>(defaultRule(x.name)) : parseVersionRule(rule);
                if (x.name.isEmpty() || x.version.isEmpty())
                    fail(where, QStringLiteral("needs a name and a version"));
                if (!parsed)
                    fail(where + QStringLiteral(".rule"),
                        QStringLiteral("'%1' is not one of ==, >=, ~=, any").arg(rule));
                x.rule = *parsed;
                r.facts.append(x);
            }
        }
        if (const auto ps = section(root, "patches")) {
            const YAML::Node& p = *ps;
            PatchSection s;
            s.set = scalar(p, "set", QStringLiteral("patches"));
            s.root = scalar(p, "root", QStringLiteral("patches"));
            if (s.set.isEmpty() || s.root.isEmpty())
                fail(QStringLiteral("patches"), QStringLiteral("needs a set and a root"));
            if (const YAML::Node d = p["decisions"]; d && !d.IsNull()) {
                if (!d.IsSequence())
                    fail(QStringLiteral("patches.decisions"), QStringLiteral("must be a list"));
                int i = 0;
                for (const YAML::Node& n : d) {
                    const QString where = QStringLiteral("patches.decisions[%1]").arg(i++);
                    patch::DecisionRecord rec;
                    rec.patchId = scalar(n, "patch", where);
                    rec.file = scalar(n, "file", where);
                    rec.accepted = boolean(n, "accepted", where, true);
                    if (rec.patchId.isEmpty())
                        fail(where, QStringLiteral("needs the patch id"));
                    if (const YAML::Node h = n["rejected_hunks"]; h && h.IsSequence()) {
                        for (const YAML::Node& hn : h) {
                            patch::RejectedHunk hunk { integer(hn, "hunk", where, 0), scalar(hn, "id", where) };
                            if (hunk.id.isEmpty())
                                fail(where + QStringLiteral(".rejected_hunks"), QStringLiteral("each needs its id"));
                            rec.rejectedHunks.append(hunk);
                        }
                    }
                    s.decisions.append(rec);
                }
            }
            r.patches = s;
        }
        if (const auto bs = section(root, "build")) {
            const YAML::Node& b = *bs;
            const QString where = QStringLiteral("build");
            if (const YAML::Node env = b["env"]; env && env.IsMap())
                fail(QStringLiteral("build.env"),
                    QStringLiteral("names only (env: [NAME, ...]); a recipe never holds environment values"));
            BuildSection s;
            s.profile.name = scalar(b, "name", where);
            s.profile.workingDirectory = scalar(b, "working_dir", where);
            s.profile.command = scalar(b, "command", where);
            s.profile.cmakeArgs = list(b, "cmake_args", where);
            s.profile.maxJobs = integer(b, "max_jobs", where, 0);
            s.profile.nvccThreads = integer(b, "nvcc_threads", where, 0);
            s.profile.nvccThreadsDefine = scalar(b, "nvcc_threads_define", where);
            s.profile.buildDir = scalar(b, "build_dir", where);
            s.profile.kernelTree = boolean(b, "kernel_tree", where, false);
            s.profile.ccache = boolean(b, "ccache", where, false);
            s.profile.memoryGate = boolean(b, "memory_gate", where, true);
            s.envNames = list(b, "env", where);
            for (const QString& name : std::as_const(s.envNames))
                if (!isShellName(name))
                    fail(QStringLiteral("build.env"),
                        QStringLiteral("'%1' is not an environment variable name").arg(name));
            if (s.profile.command.trimmed().isEmpty())
                fail(where, QStringLiteral("needs a command"));
            // The checks of build-profiles.yaml: a recipe's build is a profile someone else wrote.
            if (const auto problem = checkBuildProfile(s.profile))
                fail(where + QLatin1Char('.') + problem->key, problem->message);
            r.build = s;
        }
        if (const auto vs = section(root, "verify")) {
            const YAML::Node& v = *vs;
            VerifyExpectation x;
            const QString import = scalar(v, "import", QStringLiteral("verify"));
            if (!import.isEmpty()) {
                if (import != QLatin1String("ok") && import != QLatin1String("fails"))
                    fail(QStringLiteral("verify.import"), QStringLiteral("ok or fails, not '%1'").arg(import));
                x.importOk = import == QLatin1String("ok");
            }
            const QString fa3 = scalar(v, "fa3", QStringLiteral("verify"));
            if (!fa3.isEmpty()) {
                if (fa3 != QLatin1String("present") && fa3 != QLatin1String("absent"))
                    fail(QStringLiteral("verify.fa3"), QStringLiteral("present or absent, not '%1'").arg(fa3));
                x.fa3 = fa3 == QLatin1String("present");
            }
            if (const YAML::Node libs = v["libraries"]; libs && libs.IsSequence())
                for (const YAML::Node& l : libs)
                    x.libraries.append({ scalar(l, "name", QStringLiteral("verify.libraries")), QString(),
                        list(l, "targets", QStringLiteral("verify.libraries")) });
            r.verify = x;
        }
        if (const auto ss = section(root, "server")) {
            const YAML::Node& s = *ss;
            const QString where = QStringLiteral("server");
            ServerLaunchProfile p;
            p.name = scalar(s, "name", where).isEmpty() ? p.name : scalar(s, "name", where);
            p.python = scalar(s, "python", where).isEmpty() ? p.python : scalar(s, "python", where);
            p.modelPath = scalar(s, "model_path", where);
            p.tp = integer(s, "tp", where, 1);
            const int port = integer(s, "port", where, 30000);
            if (port < 1 || port > 65535)
                fail(QStringLiteral("server.port"), QStringLiteral("%1 is not a port").arg(port));
            p.port = quint16(port);
            p.enableMetrics = boolean(s, "enable_metrics", where, true);
            p.extraArgs = list(s, "extra_args", where);
            p.demo = boolean(s, "demo", where, false);
            if (p.modelPath.isEmpty())
                fail(where, QStringLiteral("needs a model_path"));
            r.server = p;
        }
    } catch (const RecipeError& e) {
        return Result<DeployRecipe>::failure(sourceName + QStringLiteral(": ") + e.message);
    } catch (const YAML::Exception& e) {
        return Result<DeployRecipe>::failure(
            sourceName + QStringLiteral(": invalid YAML: ") + QString::fromStdString(e.what()));
    }
    return r;
}

Result<DeployRecipe> readDeployRecipe(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Result<DeployRecipe>::failure(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    const QByteArray yaml = file.read(kMaxRecipeBytes + 1);
    if (yaml.size() > kMaxRecipeBytes)
        return Result<DeployRecipe>::failure(
            QStringLiteral("%1: not a recipe: larger than %2 bytes").arg(path).arg(kMaxRecipeBytes));
    return parseDeployRecipe(yaml, path);
}

QByteArray serializeDeployRecipe(const DeployRecipe& r)
{
    YAML::Emitter e;
    e << YAML::Comment("KernelForge deployment recipe: kernelforge-cli recipe apply FILE user@host, or "
                       "Timeline > Apply recipe to host");
    e << YAML::BeginMap;
    e << YAML::Key << "kernelforge_recipe" << YAML::Value << kRecipeSchemaVersion;
    if (!r.name.isEmpty())
        e << YAML::Key << "name" << YAML::Value << u8(r.name);
    if (!r.sourceHost.isEmpty() || r.exported.isValid()) {
        e << YAML::Key << "source" << YAML::Value << YAML::BeginMap;
        e << YAML::Key << "host" << YAML::Value << u8(r.sourceHost);
        e << YAML::Key << "exported" << YAML::Value << u8(r.exported.toUTC().toString(Qt::ISODate));
        e << YAML::EndMap;
    }
    if (!r.facts.isEmpty()) {
        e << YAML::Key << "facts" << YAML::Value << YAML::BeginSeq;
        for (const FactExpectation& f : r.facts)
            e << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << u8(f.name) << YAML::Key
              << "version" << YAML::Value << u8(f.version) << YAML::Key << "rule" << YAML::Value << YAML::DoubleQuoted
              << u8(toString(f.rule)) << YAML::EndMap;
        e << YAML::EndSeq;
    }
    if (r.patches) {
        e << YAML::Key << "patches" << YAML::Value << YAML::BeginMap;
        e << YAML::Key << "set" << YAML::Value << u8(r.patches->set);
        e << YAML::Key << "root" << YAML::Value << u8(r.patches->root);
        e << YAML::Key << "decisions" << YAML::Value << YAML::BeginSeq;
        for (const patch::DecisionRecord& d : r.patches->decisions) {
            e << YAML::BeginMap << YAML::Key << "patch" << YAML::Value << u8(d.patchId) << YAML::Key << "file"
              << YAML::Value << u8(d.file) << YAML::Key << "accepted" << YAML::Value << d.accepted;
            if (!d.rejectedHunks.isEmpty()) {
                e << YAML::Key << "rejected_hunks" << YAML::Value << YAML::BeginSeq;
                for (const patch::RejectedHunk& h : d.rejectedHunks)
                    e << YAML::Flow << YAML::BeginMap << YAML::Key << "hunk" << YAML::Value << h.index << YAML::Key
                      << "id" << YAML::Value << u8(h.id) << YAML::EndMap;
                e << YAML::EndSeq;
            }
            e << YAML::EndMap;
        }
        e << YAML::EndSeq << YAML::EndMap;
    }
    if (r.build) {
        const BuildProfile& p = r.build->profile;
        e << YAML::Key << "build" << YAML::Value << YAML::BeginMap;
        e << YAML::Key << "name" << YAML::Value << u8(p.name);
        e << YAML::Key << "working_dir" << YAML::Value << u8(p.workingDirectory);
        e << YAML::Key << "command" << YAML::Value << u8(p.command);
        emitList(e, "cmake_args", p.cmakeArgs);
        e << YAML::Key << "max_jobs" << YAML::Value << p.maxJobs;
        e << YAML::Key << "nvcc_threads" << YAML::Value << p.nvccThreads;
        e << YAML::Key << "nvcc_threads_define" << YAML::Value << u8(p.nvccThreadsDefine);
        e << YAML::Key << "build_dir" << YAML::Value << u8(p.buildDir);
        if (p.kernelTree)
            e << YAML::Key << "kernel_tree" << YAML::Value << true;
        if (p.ccache)
            e << YAML::Key << "ccache" << YAML::Value << true;
        if (!p.memoryGate)
            e << YAML::Key << "memory_gate" << YAML::Value << false;
        emitList(e, "env", r.build->envNames);
        e << YAML::EndMap;
    }
    if (r.verify) {
        e << YAML::Key << "verify" << YAML::Value << YAML::BeginMap;
        if (r.verify->importOk)
            e << YAML::Key << "import" << YAML::Value << (*r.verify->importOk ? "ok" : "fails");
        if (r.verify->fa3)
            e << YAML::Key << "fa3" << YAML::Value << (*r.verify->fa3 ? "present" : "absent");
        e << YAML::Key << "libraries" << YAML::Value << YAML::BeginSeq;
        for (const timeline::VerifiedLibrary& l : r.verify->libraries) {
            e << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << u8(l.name);
            emitList(e, "targets", l.targets);
            e << YAML::EndMap;
        }
        e << YAML::EndSeq << YAML::EndMap;
    }
    if (r.server) {
        const ServerLaunchProfile& s = *r.server;
        e << YAML::Key << "server" << YAML::Value << YAML::BeginMap;
        e << YAML::Key << "name" << YAML::Value << u8(s.name);
        e << YAML::Key << "python" << YAML::Value << u8(s.python);
        e << YAML::Key << "model_path" << YAML::Value << u8(s.modelPath);
        e << YAML::Key << "tp" << YAML::Value << s.tp;
        e << YAML::Key << "port" << YAML::Value << int(s.port);
        e << YAML::Key << "enable_metrics" << YAML::Value << s.enableMetrics;
        emitList(e, "extra_args", s.extraArgs);
        e << YAML::Key << "demo" << YAML::Value << s.demo;
        e << YAML::EndMap;
    }
    e << YAML::EndMap;
    return QByteArray(e.c_str()) + '\n';
}

} // namespace kf::deploy
