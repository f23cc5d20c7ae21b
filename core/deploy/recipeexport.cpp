// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/recipeexport.h"

#include "core/remotebuild/buildhistory.h"
#include "core/server/serverevents.h"
#include "core/timeline/eventstore.h"

#include <QJsonArray>

namespace kf::deploy {
namespace {

QString underHome(const QString& path, const QString& home)
{
    if (home.isEmpty() || home == QLatin1String("/"))
        return path;
    if (path == home)
        return QStringLiteral("~");
    if (path.startsWith(home + QLatin1Char('/')))
        return QStringLiteral("~") + path.mid(home.size());
    return path;
}

QStringList strings(const QJsonValue& v)
{
    QStringList out;
    for (const QJsonValue& s : v.toArray())
        out.append(s.toString());
    return out;
}

QList<patch::DecisionRecord> decisionsFrom(const QJsonArray& array)
{
    QList<patch::DecisionRecord> out;
    for (const QJsonValue& v : array) {
        const QJsonObject o = v.toObject();
        patch::DecisionRecord d;
        d.patchId = o.value(QStringLiteral("patch")).toString();
        d.file = o.value(QStringLiteral("file")).toString();
        d.accepted = o.value(QStringLiteral("accepted")).toBool(true);
        for (const QJsonValue& h : o.value(QStringLiteral("rejected_hunks")).toArray())
            d.rejectedHunks.append({ h.toObject().value(QStringLiteral("hunk")).toInt(),
                h.toObject().value(QStringLiteral("id")).toString() });
        out.append(d);
    }
    return out;
}

BuildProfile profileFromSpec(const QJsonObject& spec)
{
    BuildProfile p;
    p.name = spec.value(QStringLiteral("name")).toString();
    p.workingDirectory = spec.value(QStringLiteral("working_dir")).toString();
    p.command = spec.value(QStringLiteral("command")).toString();
    p.cmakeArgs = strings(spec.value(QStringLiteral("cmake_args")));
    p.maxJobs = spec.value(QStringLiteral("max_jobs")).toInt();
    p.nvccThreads = spec.value(QStringLiteral("nvcc_threads")).toInt();
    p.nvccThreadsDefine = spec.value(QStringLiteral("nvcc_threads_define")).toString();
    p.buildDir = spec.value(QStringLiteral("build_dir")).toString();
    p.kernelTree = spec.value(QStringLiteral("kernel_tree")).toBool();
    p.ccache = spec.value(QStringLiteral("ccache")).toBool();
    p.memoryGate = spec.value(QStringLiteral("memory_gate")).toBool(true);
    return p;
}

} // namespace

Result<RecipeExport> exportRecipe(const QString& host, const QString& name)
{
    using R = Result<RecipeExport>;
    RecipeExport out;
    DeployRecipe& r = out.recipe;
    r.name = name.isEmpty() ? QStringLiteral("%1 bring-up").arg(host) : name;
    r.sourceHost = host;
    r.exported = QDateTime::currentDateTimeUtc();
    const auto all = timeline::events({ host, {}, {}, {}, 1000000 });
    if (!all)
        return R::failure(all.error());
    const QList<timeline::Event>& events = all.value();
    auto newest
        = [&](const QString& kind, const std::function<bool(const timeline::Event&)>& good) -> const timeline::Event* {
        for (auto it = events.crbegin(); it != events.crend(); ++it)
            if (it->kind == kind && good(*it))
                return &*it;
        return nullptr;
    };

    QString home;
    if (const timeline::Event* facts
        = newest(timeline::kind::FactsChanged, [](const timeline::Event&) { return true; })) {
        home = facts->details.value(QStringLiteral("home")).toString();
        const QJsonObject versions = facts->details.value(QStringLiteral("versions")).toObject();
        for (auto it = versions.begin(); it != versions.end(); ++it)
            r.facts.append({ it.key(), it.value().toString(), defaultRule(it.key()) });
    } else {
        out.notes.append(QStringLiteral("facts: none recorded for %1 (kernelforge-cli facts %1, or the Overview's "
                                        "facts card, records them): no version expectations")
                             .arg(host));
    }

    const timeline::Event* applied = newest(timeline::kind::PatchApplied, [](const timeline::Event& e) {
        const QJsonObject d = e.details;
        if (!d.value(QStringLiteral("ok")).toBool(true))
            return false;
        const QJsonArray files = d.value(QStringLiteral("files")).toArray();
        return std::any_of(files.begin(), files.end(),
            [](const QJsonValue& f) { return !f.toObject().value(QStringLiteral("rolled_back")).toBool(); });
    });
    if (applied) {
        PatchSection s;
        s.set = applied->details.value(QStringLiteral("set")).toString();
        s.root = underHome(applied->details.value(QStringLiteral("root")).toString(), home);
        s.decisions = decisionsFrom(applied->details.value(QStringLiteral("decisions")).toArray());
        r.patches = s;
    } else {
        out.notes.append(QStringLiteral("patches: no apply that went through and still stands: left out"));
    }

    // The host's libraries came from its newest build that succeeded, or from a promotion after it
    // (the promoted artifact is replayed as one; its install row holds the profile).
    const timeline::Event* built = newest(timeline::kind::BuildFinished, [](const timeline::Event& e) {
        return e.details.value(QStringLiteral("result")).toString() == QLatin1String("succeeded");
    });
    const timeline::Event* promoted = newest(timeline::kind::BuildPromoted, [](const timeline::Event& e) {
        return e.details.value(QStringLiteral("status")).toString() == QLatin1String("ok");
    });
    if (promoted && (!built || promoted > built)) {
        const QJsonObject d = promoted->details;
        const QString job = d.value(QStringLiteral("install_job")).toString();
        const auto row = buildhistory::find(host, job);
        if (!row)
            return R::failure(row.error());
        if (row->has_value() && !(*row)->spec.isEmpty()) {
            r.build = BuildSection { profileFromSpec((*row)->spec),
                strings((*row)->spec.value(QStringLiteral("env_names"))) };
            PromoteSection p;
            p.from = d.value(QStringLiteral("source_name")).toString();
            p.kind = d.value(QStringLiteral("kind")).toString();
            p.file = d.value(QStringLiteral("file")).toString();
            p.sha256 = d.value(QStringLiteral("sha256")).toString().toLatin1();
            p.size = qint64(d.value(QStringLiteral("size")).toDouble());
            const QJsonObject caches = d.value(QStringLiteral("caches")).toObject();
            if (caches.value(QStringLiteral("status")).toString() == QLatin1String("ok")) {
                p.cachesFile = caches.value(QStringLiteral("file")).toString();
                p.cachesSha256 = caches.value(QStringLiteral("sha256")).toString().toLatin1();
            }
            r.promote = p;
        } else {
            out.notes.append(QStringLiteral("build: promoted from %1, but the install (job %2) is not in this "
                                            "machine's history: left out")
                                 .arg(d.value(QStringLiteral("source_name")).toString(), job));
        }
    } else if (built) {
        const auto row = buildhistory::find(host, built->details.value(QStringLiteral("job")).toString());
        if (!row)
            return R::failure(row.error());
        BuildSection s;
        if (row->has_value() && !(*row)->spec.isEmpty()) {
            s.profile = profileFromSpec((*row)->spec);
            s.envNames = strings((*row)->spec.value(QStringLiteral("env_names")));
        } else {
            const QString profile = built->details.value(QStringLiteral("profile")).toString();
            const auto profiles = loadBuildProfiles();
            const auto found = profiles ? findBuildProfile(profiles.value(), profile) : std::nullopt;
            if (found) {
                s.profile = *found;
                s.envNames = found->env.keys();
                s.profile.env.clear();
                out.notes.append(QStringLiteral("build: the history does not say what job %1 ran; the local profile "
                                                "'%2' is used")
                                     .arg(built->details.value(QStringLiteral("job")).toString(), profile));
            } else {
                out.notes.append(QStringLiteral("build: job %1 succeeded, but neither the history nor a local profile "
                                                "says what it ran ('%2'): left out")
                                     .arg(built->details.value(QStringLiteral("job")).toString(), profile));
            }
        }
        if (!s.profile.command.isEmpty())
            r.build = s;
    } else {
        out.notes.append(QStringLiteral("build: no build succeeded on %1: left out").arg(host));
    }

    if (const timeline::Event* verified = newest(timeline::kind::VerifyResult,
            [](const timeline::Event& e) { return e.details.value(QStringLiteral("ok")).toBool(); }))
        r.verify = expectationFrom(timeline::VerificationResult::fromJson(verified->details));
    else
        out.notes.append(QStringLiteral("verify: no passing verification recorded: no expectation"));

    // A launch counts when a later poll found it healthy on its port.
    const timeline::Event* launched = nullptr;
    for (auto it = events.crbegin(); it != events.crend() && !launched; ++it) {
        if (it->kind != timeline::kind::ServerLaunched)
            continue;
        const int port = it->details.value(QStringLiteral("port")).toInt();
        for (auto later = it.base(); later != events.cend(); ++later) {
            if (later->kind == timeline::kind::ServerHealthy
                && later->details.value(QStringLiteral("port")).toInt() == port) {
                launched = &*it;
                break;
            }
        }
    }
    if (launched) {
        r.server = timeline::launchProfileFromDetails(launched->details);
    } else {
        out.notes.append(QStringLiteral("server: no launch that answered healthy: left out"));
    }
    return out;
}

} // namespace kf::deploy
