// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/jitcache.h"

#include "core/deploy/artifactfiles.h"
#include "core/events/eventlog.h"
#include "core/server/serverevents.h"
#include "core/util/bytelines.h"
#include "core/util/shellquote.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>

namespace kf::deploy {

const QList<JitCacheLocation>& jitCacheLocations()
{
    static const QList<JitCacheLocation> table {
        { QStringLiteral("flashinfer"), QStringLiteral("FLASHINFER_WORKSPACE_BASE"),
            QStringLiteral("/.cache/flashinfer"), QStringLiteral("$HOME/.cache/flashinfer") },
        { QStringLiteral("triton"), QStringLiteral("TRITON_CACHE_DIR"), {}, QStringLiteral("$HOME/.triton/cache") },
        { QStringLiteral("deep_gemm"), QStringLiteral("SGLANG_DG_CACHE_DIR"), {},
            QStringLiteral("$HOME/.cache/deep_gemm") },
        { QStringLiteral("inductor"), QStringLiteral("TORCHINDUCTOR_CACHE_DIR"), {},
            QStringLiteral("/tmp/torchinductor_$USER") },
    };
    return table;
}

QString jitCacheScript()
{
    // The names and variables are ours (the table above), never a host's bytes.
    QString s = QStringLiteral("USER=${USER:-$(id -un)}\n"
                               "kf_jit() {\n"
                               "  case $2 in *'\n"
                               "'*) return ;; esac\n"
                               "  if [ -d \"$2\" ]; then k=$(du -sk -- \"$2\" 2>/dev/null | cut -f1); else k=-; fi\n"
                               "  printf 'jit\\t%s\\t%s\\t%s\\n' \"$1\" \"$2\" \"${k:--}\"\n"
                               "}\n");
    for (const JitCacheLocation& l : jitCacheLocations())
        s += QStringLiteral("if [ -n \"${%1:-}\" ]; then kf_jit %2 \"${%1}%3\"; else kf_jit %2 \"%4\"; fi\n")
                 .arg(l.envVar, l.name, l.underEnv, l.defaultFolder);
    return s;
}

QList<JitCacheFolder> parseJitCacheFolders(QByteArrayView output)
{
    QList<JitCacheFolder> out;
    for (const QByteArray& line : output.first(qMin<qsizetype>(output.size(), 1 << 20)).toByteArray().split('\n')) {
        const QList<QByteArray> f = line.split('\t');
        if (f.size() != 4 || f.at(0) != "jit" || !f.at(2).startsWith('/'))
            continue;
        const QString name = QString::fromUtf8(f.at(1));
        if (std::none_of(jitCacheLocations().cbegin(), jitCacheLocations().cend(),
                [&](const JitCacheLocation& l) { return l.name == name; }))
            continue;
        bool ok = false;
        const qint64 kib = f.at(3).trimmed().toLongLong(&ok);
        out.append({ name, QString::fromUtf8(f.at(2)), ok ? kib : -1 });
    }
    return out;
}

Result<QList<JitCacheFolder>> findJitCacheFolders(Transport& t)
{
    CommandSpec spec;
    spec.command = jitCacheScript();
    spec.maxOutputBytes = 256 * 1024;
    const ExecResult r = t.exec(spec, 300000);
    if (!r.ok())
        return Result<QList<JitCacheFolder>>::failure(
            QStringLiteral("cannot find the JIT caches on %1: %2").arg(t.describe(), commandFailure(r)));
    return parseJitCacheFolders(r.stdOut);
}

QJsonObject JitCacheKey::toJson() const
{
    QJsonObject libs;
    for (auto it = libraries.cbegin(); it != libraries.cend(); ++it)
        libs.insert(it.key(), it.value());
    return { { QStringLiteral("arch"), arch }, { QStringLiteral("gpus"), QJsonArray::fromStringList(gpus) },
        { QStringLiteral("torch"), torch }, { QStringLiteral("cuda"), cuda },
        { QStringLiteral("python_soabi"), pythonSoabi }, { QStringLiteral("libraries"), libs },
        { QStringLiteral("server"), server } };
}

JitCacheKey JitCacheKey::fromJson(const QJsonObject& o)
{
    JitCacheKey k;
    k.arch = o.value(QLatin1String("arch")).toString();
    for (const QJsonValue& v : o.value(QLatin1String("gpus")).toArray())
        k.gpus << v.toString();
    k.torch = o.value(QLatin1String("torch")).toString();
    k.cuda = o.value(QLatin1String("cuda")).toString();
    k.pythonSoabi = o.value(QLatin1String("python_soabi")).toString();
    const QJsonObject libs = o.value(QLatin1String("libraries")).toObject();
    for (auto it = libs.begin(); it != libs.end(); ++it)
        k.libraries.insert(it.key(), it.value().toString());
    k.server = o.value(QLatin1String("server")).toString();
    return k;
}

JitCacheKey jitCacheKeyOf(const ServerFacts& f, const ServerLaunchProfile& server)
{
    JitCacheKey k;
    k.arch = f.arch;
    for (const GpuFact& g : f.gpus)
        if (!k.gpus.contains(g.computeCapability))
            k.gpus << g.computeCapability;
    k.gpus.sort();
    k.torch = f.torch;
    k.cuda = f.nvcc; // the toolkit the JIT compiles with (the same facts on every host: no project probe)
    k.pythonSoabi = f.pythonSoabi;
    k.libraries = f.jitLibraries;
    k.server = QStringLiteral("%1, TP %2%3")
                   .arg(server.modelPath)
                   .arg(server.tp)
                   .arg(server.extraArgs.isEmpty() ? QString() : QStringLiteral(", ") + shellJoin(server.extraArgs));
    return k;
}

QStringList jitCacheKeyDifferences(const JitCacheKey& cache, const JitCacheKey& target, const QString& name)
{
    QStringList out;
    auto differ = [&](const QString& what, const QString& mine, const QString& theirs) {
        if (mine != theirs)
            out << QStringLiteral("%1 %2 in the cache, %3 on %4")
                       .arg(what, mine.isEmpty() ? QStringLiteral("none") : mine,
                           theirs.isEmpty() ? QStringLiteral("none") : theirs, name);
    };
    differ(QStringLiteral("architecture"), cache.arch, target.arch);
    differ(QStringLiteral("GPU compute capability"), cache.gpus.join(QLatin1Char(' ')),
        target.gpus.join(QLatin1Char(' ')));
    differ(QStringLiteral("torch"), cache.torch, target.torch);
    differ(QStringLiteral("CUDA"), cache.cuda, target.cuda);
    differ(QStringLiteral("Python ABI"), cache.pythonSoabi, target.pythonSoabi);
    QStringList libs = cache.libraries.keys() + target.libraries.keys();
    libs.removeDuplicates();
    libs.sort();
    for (const QString& l : libs)
        differ(l, cache.libraries.value(l), target.libraries.value(l));
    differ(QStringLiteral("server"), cache.server, target.server);
    return out;
}

std::optional<HealthyLaunch> lastHealthyLaunch(const QString& host)
{
    timeline::Query q;
    q.host = host;
    q.kinds = { timeline::kind::ServerLaunched, timeline::kind::ServerHealthy };
    const auto events = timeline::recorded(q);
    if (!events)
        return std::nullopt;
    std::optional<HealthyLaunch> found;
    std::optional<HealthyLaunch> pending; // launched, not yet seen healthy
    for (const timeline::Event& e : events.value()) {
        const QJsonObject& d = e.details;
        if (e.kind == timeline::kind::ServerLaunched) {
            HealthyLaunch l;
            l.launched = e.time;
            l.profile = timeline::launchProfileFromDetails(d);
            pending = l;
        } else if (pending && d.value(QLatin1String("port")).toInt() == pending->profile.port) {
            pending->startSeconds = double(pending->launched.msecsTo(e.time)) / 1000.0;
            found = pending;
            pending.reset();
        }
    }
    return found;
}

QJsonObject JitCacheArtifact::toJson() const
{
    QJsonArray f;
    for (const JitCacheFolder& x : folders)
        f.append(QJsonObject { { QStringLiteral("name"), x.name }, { QStringLiteral("folder"), x.folder },
            { QStringLiteral("kib"), double(x.kib) } });
    return { { QStringLiteral("file"), fileName }, { QStringLiteral("sha256"), QString::fromLatin1(sha256) },
        { QStringLiteral("size"), double(size) }, { QStringLiteral("folders"), f },
        { QStringLiteral("key"), key.toJson() }, { QStringLiteral("source"), sourceHost },
        { QStringLiteral("source_name"), sourceName }, { QStringLiteral("server"), timeline::launchDetails(server) },
        { QStringLiteral("cold_start_s"), coldStartSeconds >= 0 ? QJsonValue(coldStartSeconds) : QJsonValue() } };
}

JitCacheArtifact JitCacheArtifact::fromJson(const QJsonObject& o)
{
    JitCacheArtifact a;
    a.fileName = o.value(QLatin1String("file")).toString();
    a.sha256 = o.value(QLatin1String("sha256")).toString().toLatin1();
    a.size = qint64(o.value(QLatin1String("size")).toDouble());
    for (const QJsonValue& v : o.value(QLatin1String("folders")).toArray()) {
        const QJsonObject f = v.toObject();
        a.folders.append({ f.value(QLatin1String("name")).toString(), f.value(QLatin1String("folder")).toString(),
            qint64(f.value(QLatin1String("kib")).toDouble()) });
    }
    a.key = JitCacheKey::fromJson(o.value(QLatin1String("key")).toObject());
    a.sourceHost = o.value(QLatin1String("source")).toString();
    a.sourceName = o.value(QLatin1String("source_name")).toString();
    a.server = timeline::launchProfileFromDetails(o.value(QLatin1String("server")).toObject());
    a.coldStartSeconds = o.value(QLatin1String("cold_start_s")).toDouble(-1);
    return a;
}

Result<JitCacheArtifact> captureJitCaches(Transport& source, const QString& sourceName, const QString& cacheDir,
    const std::function<void(const QString&)>& log, const std::atomic<bool>* stop)
{
    using R = Result<JitCacheArtifact>;
    const auto say = [&](const QString& line) {
        if (log)
            log(line);
    };
    JitCacheArtifact a;
    a.sourceHost = source.describe();
    a.sourceName = sourceName.isEmpty() ? a.sourceHost : sourceName;
    const auto launch = lastHealthyLaunch(a.sourceHost);
    if (!launch)
        return R::failure(
            QStringLiteral("no server KernelForge launched on %1 has reached healthy: launch it there once "
                           "(recipe, Server pane, server launch) to fill its JIT caches")
                .arg(a.sourceHost));
    a.server = launch->profile;
    a.coldStartSeconds = launch->startSeconds;
    const auto facts = collectServerFacts(source);
    if (!facts)
        return R::failure(QStringLiteral("facts of %1: %2").arg(a.sourceName, facts.error()));
    a.key = jitCacheKeyOf(facts.value(), a.server);
    const auto folders = findJitCacheFolders(source);
    if (!folders)
        return folders.withoutValue();
    QStringList args;
    for (const JitCacheFolder& f : folders.value())
        if (f.kib > 0) {
            a.folders << f;
            args << f.name << f.folder;
        }
    if (a.folders.isEmpty())
        return R::failure(QStringLiteral("no JIT cache folder on %1 has anything in it").arg(a.sourceName));
    if (stop && stop->load())
        return R::failure(QStringLiteral("interrupted: nothing was captured"));
    a.fileName = QStringLiteral("jit-caches-%1.tar").arg(launch->launched.toString(QStringLiteral("yyyyMMdd-HHmmss")));
    const QString remote = kRemotePromoteDir + QLatin1Char('/') + a.fileName;
    say(QStringLiteral("packing the JIT caches of %1 (%2)").arg(a.server.modelPath, args.join(QLatin1Char(' '))));
    CommandSpec pack;
    pack.command
        = QStringLiteral("o=$1; shift; d=\"$o.d\"; rm -rf -- \"$d\" && mkdir -p -- \"$d\" || exit 1\n"
                         "while [ $# -ge 2 ]; do tar -C \"$2\" -cf \"$d/$1.tar\" . || exit 1; shift 2; done\n"
                         "tar -C \"$d\" -cf \"$o.tmp\" . && mv -f -- \"$o.tmp\" \"$o\"; rc=$?; rm -rf -- \"$d\"; "
                         "exit $rc");
    pack.arguments = QStringList { remote } + args;
    if (const auto made = source.mkpath(kRemotePromoteDir, 0700); !made)
        return R::failure(made.error());
    const ExecResult packed = source.exec(pack, 3600000);
    if (!packed.ok())
        return R::failure(
            QStringLiteral("cannot pack the JIT caches on %1: %2").arg(a.sourceName, commandFailure(packed)));
    if (const auto fetched = fetchArtifactInto(a, source, remote, cacheDir); !fetched)
        return R::failure(fetched.error());
    say(QStringLiteral("JIT caches %1 (%2 bytes, SHA-256 %3) from %4; its start took %5 s")
            .arg(a.fileName)
            .arg(a.size)
            .arg(QString::fromLatin1(a.sha256.left(12)), a.sourceName)
            .arg(a.coldStartSeconds, 0, 'f', 1));
    return a;
}

SeedOutcome seedJitCaches(
    Transport& target, const ServerFacts& facts, const JitCacheArtifact& caches, const StepContext& ctx)
{
    const JitCacheKey here = jitCacheKeyOf(facts, caches.server);
    const QStringList differences = jitCacheKeyDifferences(caches.key, here, ctx.hostName);
    if (!differences.isEmpty())
        return { StepStatus::Refused,
            QStringLiteral("JIT caches not seeded, their key differs: %1").arg(differences.join(QStringLiteral("; "))),
            differences };
    const auto folders = findJitCacheFolders(target);
    if (!folders)
        return { StepStatus::Failed, folders.error(), {} };
    QStringList args;
    for (const JitCacheFolder& mine : caches.folders)
        for (const JitCacheFolder& theirs : folders.value())
            if (theirs.name == mine.name)
                args << mine.name << theirs.folder;
    ctx.say(QStringLiteral("sending the JIT caches (%1 bytes)").arg(caches.size));
    const auto sent = sendArtifact(target, caches.localPath, caches.sha256, caches.fileName, ctx.stop);
    if (!sent)
        return { StepStatus::Failed, QStringLiteral("JIT caches: %1").arg(sent.error()), {} };
    CommandSpec unpack;
    unpack.command = QStringLiteral(
        "a=$1; shift; t=$(mktemp -d \"${TMPDIR:-/tmp}/kf-jit.XXXXXX\") || exit 1\n"
        "rc=0; tar -C \"$t\" -xf \"$a\" || rc=1\n"
        "while [ $rc = 0 ] && [ $# -ge 2 ]; do\n"
        "  if [ -f \"$t/$1.tar\" ]; then mkdir -p -- \"$2\" && tar -C \"$2\" -xf \"$t/$1.tar\" || rc=1; fi\n"
        "  shift 2\n"
        "done\n"
        "rm -rf -- \"$t\"; exit $rc");
    unpack.arguments = QStringList { sent->remotePath } + args;
    const ExecResult r = target.exec(unpack, 3600000);
    if (!r.ok())
        return { StepStatus::Failed, QStringLiteral("JIT caches: cannot unpack: %1").arg(commandFailure(r)), {} };
    QStringList names;
    for (int i = 0; i + 1 < args.size(); i += 2)
        names << args.at(i);
    return { StepStatus::Ok,
        QStringLiteral("JIT caches seeded (%1; the start on %2 took %3 s with them cold)")
            .arg(names.join(QStringLiteral(", ")), caches.sourceName)
            .arg(caches.coldStartSeconds, 0, 'f', 1),
        {} };
}

} // namespace kf::deploy
