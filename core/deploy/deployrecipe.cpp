// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/deployrecipe.h"

#include "core/util/shellquote.h"
#include "core/util/versioncompare.h"
#include "core/util/yamlnode.h"

#include <QFile>
#include <QRegularExpression>

#include <yaml-cpp/yaml.h>

#include <algorithm>

namespace kf::deploy {
namespace {

std::string u8(const QString& s)
{
    return s.toStdString();
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
    return readYamlAs<DeployRecipe>(yaml, sourceName, [](const YamlNode& root) {
        DeployRecipe r;
        if (!root.isMap() || !root.has("kernelforge_recipe"))
            root.fail("kernelforge_recipe",
                QStringLiteral("missing: not a KernelForge deployment recipe (a patch set goes to `patch --set`)"));
        const int version = root.integer("kernelforge_recipe", 0, 0, 1 << 20);
        if (version < 1 || version > kRecipeSchemaVersion)
            root.fail("kernelforge_recipe",
                QStringLiteral("schema version %1; this KernelForge reads version %2")
                    .arg(version)
                    .arg(kRecipeSchemaVersion));
        r.name = root.text("name");
        if (const auto s = root.map("source")) {
            r.sourceHost = s->text("host");
            r.exported = QDateTime::fromString(s->text("exported"), Qt::ISODateWithMs);
        }
        for (const YamlNode& n : root.list("facts")) {
            if (!n.isMap())
                n.fail(QStringLiteral("must be {name, version, rule}"));
            FactExpectation x;
            x.name = n.text("name");
            x.version = n.text("version");
            const QString rule = n.text("rule");
            const auto parsed
                = rule.isEmpty() ? std::optional<VersionRule>(defaultRule(x.name)) : parseVersionRule(rule);
            if (x.name.isEmpty() || x.version.isEmpty())
                n.fail(QStringLiteral("needs a name and a version"));
            if (!parsed)
                n.fail("rule", QStringLiteral("'%1' is not one of ==, >=, ~=, any").arg(rule));
            x.rule = *parsed;
            r.facts.append(x);
        }
        if (const auto p = root.map("patches")) {
            PatchSection s;
            s.set = p->text("set");
            s.root = p->text("root");
            if (s.set.isEmpty() || s.root.isEmpty())
                p->fail(QStringLiteral("needs a set and a root"));
            for (const YamlNode& n : p->list("decisions")) {
                patch::DecisionRecord rec;
                rec.patchId = n.text("patch");
                rec.file = n.text("file");
                rec.accepted = n.boolean("accepted", true);
                if (rec.patchId.isEmpty())
                    n.fail(QStringLiteral("needs the patch id"));
                for (const YamlNode& hn : n.list("rejected_hunks")) {
                    patch::RejectedHunk hunk { hn.integer("hunk", 0, 0, 1 << 20), hn.text("id") };
                    if (hunk.id.isEmpty())
                        hn.fail(QStringLiteral("needs its id"));
                    rec.rejectedHunks.append(hunk);
                }
                s.decisions.append(rec);
            }
            r.patches = s;
        }
        if (const auto b = root.map("build")) {
            if (b->field("env").isMap())
                b->fail(
                    "env", QStringLiteral("names only (env: [NAME, ...]); a recipe never holds environment values"));
            BuildSection s;
            s.profile.name = b->text("name");
            s.profile.workingDirectory = b->text("working_dir");
            s.profile.command = b->text("command");
            s.profile.cmakeArgs = b->texts("cmake_args");
            s.profile.maxJobs = b->integer("max_jobs", 0, 0, 1 << 20);
            s.profile.nvccThreads = b->integer("nvcc_threads", 0, 0, 1 << 20);
            s.profile.nvccThreadsDefine = b->text("nvcc_threads_define");
            s.profile.buildDir = b->text("build_dir");
            s.profile.kernelTree = b->boolean("kernel_tree", false);
            s.profile.ccache = b->boolean("ccache", false);
            s.profile.memoryGate = b->boolean("memory_gate", true);
            s.envNames = b->texts("env");
            for (const QString& name : std::as_const(s.envNames))
                if (!isShellName(name))
                    b->fail("env", QStringLiteral("'%1' is not an environment variable name").arg(name));
            if (s.profile.command.trimmed().isEmpty())
                b->fail(QStringLiteral("needs a command"));
            // The checks of build-profiles.yaml: a recipe's build is a profile someone else wrote.
            if (const auto problem = checkBuildProfile(s.profile))
                b->fail(problem->key.toUtf8().constData(), problem->message);
            r.build = s;
        }
        if (const auto p = root.map("promote")) {
            static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{64}$"));
            static const QRegularExpression plainName(QStringLiteral("^[A-Za-z0-9_+][A-Za-z0-9._+-]{0,199}$"));
            PromoteSection s;
            s.from = p->text("from");
            s.kind = p->text("kind");
            s.file = p->text("file");
            s.sha256 = p->text("sha256").toLatin1();
            s.size = qMax(0LL, p->text("size").toLongLong()); // for people: the hash decides
            // A name looked up in hosts.yaml, never an address; shown in logs and the window.
            static const QRegularExpression hostName(QStringLiteral("^[^\\x00-\\x1f\\x7f]{1,200}$"));
            if (!hostName.match(s.from).hasMatch())
                p->fail("from", QStringLiteral("needs the source host's name (printable, at most 200 characters)"));
            if (s.kind != QLatin1String("files") && s.kind != QLatin1String("wheel"))
                p->fail("kind", QStringLiteral("files or wheel, not '%1'").arg(s.kind.left(40)));
            if (!plainName.match(s.file).hasMatch())
                p->fail("file", QStringLiteral("must be a plain file name"));
            if (!hex.match(QString::fromLatin1(s.sha256)).hasMatch())
                p->fail("sha256", QStringLiteral("must be 64 lowercase hex digits"));
            if (const auto c = p->map("caches")) {
                s.cachesFile = c->text("file");
                s.cachesSha256 = c->text("sha256").toLatin1();
                if (!plainName.match(s.cachesFile).hasMatch())
                    c->fail("file", QStringLiteral("must be a plain file name"));
                if (!hex.match(QString::fromLatin1(s.cachesSha256)).hasMatch())
                    c->fail("sha256", QStringLiteral("must be 64 lowercase hex digits"));
            }
            if (!r.build)
                p->fail(QStringLiteral("needs the build section: the profile that installs it"));
            r.promote = s;
        }
        if (const auto v = root.map("verify")) {
            VerifyExpectation x;
            const QString import = v->text("import");
            if (!import.isEmpty()) {
                if (import != QLatin1String("ok") && import != QLatin1String("fails"))
                    v->fail("import", QStringLiteral("ok or fails, not '%1'").arg(import));
                x.importOk = import == QLatin1String("ok");
            }
            const QString fa3 = v->text("fa3");
            if (!fa3.isEmpty()) {
                if (fa3 != QLatin1String("present") && fa3 != QLatin1String("absent"))
                    v->fail("fa3", QStringLiteral("present or absent, not '%1'").arg(fa3));
                x.fa3 = fa3 == QLatin1String("present");
            }
            for (const YamlNode& l : v->list("libraries"))
                x.libraries.append({ l.text("name"), QString(), l.texts("targets") });
            r.verify = x;
        }
        if (const auto s = root.map("server")) {
            ServerLaunchProfile p;
            p.name = s->text("name", p.name);
            p.python = s->text("python", p.python);
            p.modelPath = s->text("model_path");
            p.tp = s->integer("tp", 1, 0, 1 << 20);
            const int port = s->integer("port", 30000, 0, 1 << 20);
            if (port < 1 || port > 65535)
                s->fail("port", QStringLiteral("%1 is not a port").arg(port));
            p.port = quint16(port);
            p.enableMetrics = s->boolean("enable_metrics", true);
            p.extraArgs = s->texts("extra_args");
            p.demo = s->boolean("demo", false);
            if (p.modelPath.isEmpty())
                s->fail(QStringLiteral("needs a model_path"));
            r.server = p;
        }
        return r;
    });
}

Result<DeployRecipe> readDeployRecipe(const QString& path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Result<DeployRecipe>::failure(QStringLiteral("cannot read %1: %2").arg(path, file.errorString()));
    // One byte over the bound is enough to refuse it (readYaml says so).
    return parseDeployRecipe(file.read(kMaxRecipeBytes + 1), path);
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
    if (r.promote) {
        const PromoteSection& p = *r.promote;
        e << YAML::Key << "promote" << YAML::Value << YAML::BeginMap;
        e << YAML::Key << "from" << YAML::Value << u8(p.from);
        e << YAML::Key << "kind" << YAML::Value << u8(p.kind);
        e << YAML::Key << "file" << YAML::Value << u8(p.file);
        e << YAML::Key << "sha256" << YAML::Value << p.sha256.toStdString();
        e << YAML::Key << "size" << YAML::Value << p.size;
        if (!p.cachesSha256.isEmpty())
            e << YAML::Key << "caches" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "file"
              << YAML::Value << u8(p.cachesFile) << YAML::Key << "sha256" << YAML::Value << p.cachesSha256.toStdString()
              << YAML::EndMap;
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
