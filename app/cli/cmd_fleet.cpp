// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli fleet status|import|rollout, hosts list|export: the fleet from Prometheus,
// host selection, and actions on many hosts in batches over SSH (core/fleet).
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/interrupttrap.h"
#include "app/cli/sshoptions.h"

#include "core/deploy/promotestep.h"
#include "core/deploy/recipestep.h"
#include "core/fleet/buildstartstep.h"
#include "core/fleet/fleetsource.h"
#include "core/fleet/gpuexport.h"
#include "core/fleet/metricshttpserver.h"
#include "core/fleet/patchstep.h"
#include "core/fleet/preflightstep.h"
#include "core/fleet/reviewplan.h"
#include "core/fleet/rollout.h"
#include "core/gpu/gpumonitor.h"
#include "core/hosts/hostprofilestore.h"
#include "core/hosts/secretstore.h"
#include "core/transport/localtransport.h"
#include "core/util/envfile.h"
#include "core/util/novalue.h"
#include "core/util/secretregistry.h"
#include "core/util/terminaltext.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QHostAddress>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>
#include <mutex>

namespace kf::cli {
int hostsResolve(QStringList args); // cmd_hosts.cpp: a destination as ssh -G prints it
} // namespace kf::cli

namespace {

using namespace kf;
using namespace kf::fleet;

void usage(QTextStream& s)
{
    s << "Usage: kernelforge-cli fleet status --prometheus URL [SOURCE OPTIONS] [--match LABEL=VALUE]...\n"
      << "                                    [--filter F] [--sort S] [--json]\n"
      << "       kernelforge-cli fleet import --prometheus URL [SOURCE OPTIONS] [--match LABEL=VALUE]... [--user U]\n"
      << "       kernelforge-cli fleet rollout ACTION SELECTION [--batch N] [--continue-on-error] [--skip-unhealthy]\n"
      << "                                      [--json]\n"
      << "\n"
      << "status   every host Prometheus knows: GPUs (util, memory, temperature, power), stale flag, server\n"
      << "         tokens/s. A fixed number of PromQL queries per refresh, whatever the fleet's size.\n"
      << "import   add a host profile for every selected host that has none (name and address; add the login).\n"
      << "rollout  run ACTION on the selected hosts in batches of N (each host over its own SSH connection);\n"
      << "         after a batch with a failure the rest is skipped unless --continue-on-error.\n"
      << "         --skip-unhealthy checks each host's GPUs first (as `gpu health`) and skips a host where\n"
      << "         one fails (Xid, pending remaps, uncorrected ECC...); a skipped host stops nothing.\n"
      << "\n"
      << "SOURCE OPTIONS\n"
      << "  --prometheus URL        http[s]://host[:port][/prefix] (http: port 9090, https: 443)\n"
      << "  --ca-file F             https: a PEM CA certificate that signed the server's, besides the system's\n"
      << "  --bearer-token-file F   the token's first line (never on the command line)\n"
      << "  --keychain              the token stored in the system keychain for URL (the app's dialog stores it)\n"
      << "  --tunnel [USER@]HOST    reach URL from that SSH host (with -p, -i, -J, --known-hosts, --accept-new)\n"
      << "  --match LABEL=VALUE     only hosts whose target label (job, instance, ...), tag, name or profile\n"
      << "                          matches; VALUE may end in '*'; repeatable (all must match)\n"
      << "  --filter F              all, alerts, throttling, xid, memory-full, stale, unhealthy\n"
      << "  --sort S                name, hottest, busiest, memory, stale\n"
      << "\n"
      << "ACTION: patch-plan|patch-apply --set SET --root PATH, preflight|build --profile NAME,\n"
      << "        recipe --recipe FILE [--dry-run] [--env-file FILE] [--env-from-profile NAME]: a deployment recipe\n"
      << "        replayed on each host\n"
      << "        as `recipe apply` does (facts, plan, apply, build, verify, launch; stops at the first failing step)\n"
      << "        promote --from HOST --profile NAME: the build of NAME on HOST, verified there now, sent to each\n"
      << "        host whose fingerprint fits (arch, glibc, Python ABI, torch and its C++ ABI, the driver for its\n"
      << "        CUDA, the GPUs for its kernels), installed and verified there; a host that differs is refused\n"
      << "        with the differences named and nothing is sent to it (--build-if-refused: it builds NAME itself,\n"
      << "        its folder as it stands, and verifies). --caches: also the JIT caches (flashinfer,\n"
      << "        Triton, DeepGEMM, inductor) of the server that last reached healthy on HOST, seeded on each host\n"
      << "        whose cache key (GPUs, torch, CUDA, Python ABI, JIT library versions, model/TP/args) matches\n"
      << "SELECTION: --tag T (repeatable), --host NAME (repeatable), or --prometheus URL with --match/--filter\n"
      << "           (hosts mapped to profiles); profiles come from hosts.yaml (--hosts-file FILE).\n"
      << "patch-apply plans the first selected host (or --review-host NAME) as the reviewed plan and prints its\n"
      << "fingerprint; --expect-plan HASH refuses unless it is the one you reviewed. A host whose plan differs\n"
      << "from the reviewed one is refused (nothing written) unless --yes-different.\n"
      << "Prometheus hosts map to profiles by address; one that matches a profile by name only (an exporter\n"
      << "elsewhere can claim any name) is shown as such and left out of a rollout unless --yes-name-only.\n"
      << "import adds only names and addresses that are host names (no control characters, no leading '-').\n"
      << "Exit status: 0 all hosts fine; 1 some host failed, was refused or skipped (status: some host stale);\n"
      << "2 bad usage or Prometheus unreachable.\n";
}

void printJson(const QJsonObject& o)
{
    cli::out() << QJsonDocument(o).toJson(QJsonDocument::Compact) << '\n';
    cli::out().flush();
}

struct SourceOptions
{
    QString url;
    QString caFile;
    QString tokenFile;
    bool keychain = false;
    QString tunnel;
    QStringList sshArgs; // -p/-i/-J/... for the tunnel
    QList<std::pair<QString, QString>> matches;
    FleetFilter filter = FleetFilter::All;
    FleetSort sort = FleetSort::Name;
};

// Takes the source options and then the command's own flags out of args; nothing may be left.
Result<void> takeSourceAndFlags(QStringList& args, SourceOptions* o, const cli::FlagTable& commandFlags)
{
    bool acceptNew = false;
    auto sshOption = [o](const char* name) {
        return [o, name](const QString& v) {
            o->sshArgs << QString::fromUtf8(name) << v;
            return Result<void>();
        };
    };
    cli::FlagTable flags;
    flags.add("--prometheus", &o->url)
        .add("--ca-file", &o->caFile)
        .add("--bearer-token-file", &o->tokenFile)
        .add("--keychain", &o->keychain)
        .add("--tunnel", &o->tunnel)
        .add("--match",
            [o](const QString& v) {
                if (!v.contains(u'=') || v.startsWith(u'='))
                    return Result<void>::failure(QStringLiteral("--match needs LABEL=VALUE"));
                o->matches.append({ v.section(u'=', 0, 0), v.section(u'=', 1) });
                return Result<void>();
            })
        .add(
            "--filter", &o->filter, &fleetFilterFromName, "all, alerts, throttling, xid, memory-full, stale, unhealthy")
        .add("--sort", &o->sort, &fleetSortFromName, "name, hottest, busiest, memory, stale")
        .add("-p", sshOption("-p"))
        .add("-i", sshOption("-i"))
        .add("-J", sshOption("-J"))
        .add("--known-hosts", sshOption("--known-hosts"))
        .add("--accept-new", &acceptNew);
    if (const auto taken = flags.take(args); !taken)
        return taken;
    if (acceptNew)
        o->sshArgs << QStringLiteral("--accept-new");
    if (!o->sshArgs.isEmpty() && o->tunnel.isEmpty())
        return Result<void>::failure(QStringLiteral("SSH options without --tunnel"));
    return commandFlags.takeAll(args);
}

Result<std::shared_ptr<PromClient>> openClient(const SourceOptions& o)
{
    auto endpoint = PromEndpoint::parse(o.url);
    if (!endpoint)
        return endpoint.withoutValue();
    if (!o.caFile.isEmpty()) {
        if (!endpoint->tls)
            return Result<std::shared_ptr<PromClient>>::failure(
                QStringLiteral("--ca-file is for an https URL, not %1").arg(endpoint->url()));
        if (!QFileInfo(o.caFile).isReadable())
            return Result<std::shared_ptr<PromClient>>::failure(
                QStringLiteral("cannot read the CA file %1").arg(o.caFile));
        endpoint.value().caFile = o.caFile;
    }
    if (!o.tokenFile.isEmpty()) {
        QFile f(o.tokenFile);
        if (!f.open(QIODevice::ReadOnly))
            return Result<std::shared_ptr<PromClient>>::failure(
                QStringLiteral("cannot read the token file %1: %2").arg(o.tokenFile, f.errorString()));
        QByteArray token = f.read(64 * 1024).trimmed();
        token = token.left(token.indexOf('\n') < 0 ? token.size() : token.indexOf('\n')).trimmed();
        endpoint.value().bearerToken = token;
        wipe(token);
    } else if (o.keychain) {
        const auto store = SecretStore::createSystem(10000);
        if (!store)
            return Result<std::shared_ptr<PromClient>>::failure(QStringLiteral("this build has no keychain support"));
        const auto token = store->read(QStringLiteral("prometheus-token:") + endpoint->url());
        if (!token)
            return token.withoutValue();
        if (!token.value())
            return Result<std::shared_ptr<PromClient>>::failure(
                QStringLiteral("no token stored in the keychain for %1").arg(endpoint->url()));
        endpoint.value().bearerToken = *token.value();
    }
    std::shared_ptr<Transport> via;
    if (o.tunnel.isEmpty()) {
        via = std::make_shared<LocalTransport>();
    } else {
        QStringList ssh = o.sshArgs;
        ssh << o.tunnel;
        auto taken = cli::takeSshOptions(ssh);
        if (!taken)
            return Result<std::shared_ptr<PromClient>>::failure(QStringLiteral("--tunnel: ") + taken.error());
        SshCliOptions so = *taken;
        so.reconnect = false;
        auto t = cli::connectForCli(so);
        if (!t)
            return t.withoutValue();
        via = t.value();
    }
    return std::make_shared<PromClient>(via, endpoint.value());
}

bool selected(const FleetHost& h, const SourceOptions& o)
{
    for (const auto& [k, v] : o.matches)
        if (!matchesSelector(h, k, v))
            return false;
    return true;
}

Result<QList<HostProfile>> loadProfiles(const QString& file)
{
    const auto loaded = HostProfileStore(file).load();
    if (!loaded)
        return loaded.withoutValue();
    return loaded->profiles;
}

// One Prometheus refresh, mapped to the profiles and narrowed by --match / --filter.
Result<QList<FleetHost>> fleetFrom(const SourceOptions& o, const QList<HostProfile>& profiles)
{
    auto client = openClient(o);
    if (!client)
        return client.withoutValue();
    RefreshState state;
    const auto snap = refreshFleet(*client.value(), state, QDateTime::currentMSecsSinceEpoch());
    if (!snap)
        return snap.withoutValue();
    for (const QString& p : snap->problems)
        cli::err() << "fleet: " << p << '\n';
    QList<FleetHost> hosts = snap->hosts;
    mapProfiles(hosts, profiles);
    QList<FleetHost> out;
    for (const FleetGroup& g : arrangeFleet(hosts, {}, o.sort, o.filter, AlertRules()))
        for (int i : g.hosts)
            if (selected(hosts.at(i), o))
                out.append(hosts.at(i));
    return out;
}

QJsonObject hostJson(const FleetHost& h)
{
    QJsonObject o;
    o.insert(QStringLiteral("name"), h.name);
    o.insert(QStringLiteral("address"), h.key);
    o.insert(QStringLiteral("instances"), QJsonArray::fromStringList(h.instances));
    o.insert(
        QStringLiteral("profile"), h.profileName.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(h.profileName));
    o.insert(QStringLiteral("profile_match"),
        h.profileMatch == ProfileMatch::Address        ? QJsonValue(QStringLiteral("address"))
            : h.profileMatch == ProfileMatch::NameOnly ? QJsonValue(QStringLiteral("name_only"))
                                                       : QJsonValue(QJsonValue::Null));
    o.insert(QStringLiteral("stale"), h.stale);
    if (h.stale)
        o.insert(QStringLiteral("stale_reason"), h.staleReason);
    if (h.lastSampleMs)
        o.insert(QStringLiteral("last_sample"),
            QDateTime::fromMSecsSinceEpoch(h.lastSampleMs, Qt::UTC).toString(Qt::ISODateWithMs));
    QJsonArray gpus;
    for (qsizetype i = 0; i < h.gpus.size(); ++i) {
        const GpuSample& g = h.gpus.at(i);
        QJsonObject j;
        j.insert(QStringLiteral("index"), g.index);
        j.insert(QStringLiteral("uuid"), g.text(GpuField::Uuid));
        j.insert(QStringLiteral("name"), g.text(GpuField::Name));
        j.insert(QStringLiteral("util"), jsonValue(g.value(GpuField::UtilGpu)));
        j.insert(QStringLiteral("mem_used_mib"), jsonValue(g.value(GpuField::MemUsed)));
        j.insert(QStringLiteral("mem_total_mib"), jsonValue(g.value(GpuField::MemTotal)));
        j.insert(QStringLiteral("temp_c"), jsonValue(g.value(GpuField::TempGpu)));
        j.insert(QStringLiteral("power_w"), jsonValue(g.value(GpuField::PowerDraw)));
        j.insert(QStringLiteral("sm_clock_mhz"), jsonValue(g.value(GpuField::ClockSm)));
        j.insert(QStringLiteral("xid"), jsonValue(h.xid.value(i, noValue())));
        j.insert(QStringLiteral("reasons"),
            g.hasReasons ? QJsonArray::fromStringList(reasonWords(g.reasons)) : QJsonArray());
        // GPM (DCGM's profiling fields), under gpu watch's keys.
        for (const GpuField f : gpmGpuFields())
            j.insert(QLatin1String(gpuFieldInfo(f).json), jsonValue(g.value(f)));
        if (i < h.health.size())
            j.insert(QStringLiteral("health"),
                QJsonObject { { QStringLiteral("verdict"), healthLevelName(h.health.at(i).verdict) },
                    { QStringLiteral("summary"), h.health.at(i).summary() } });
        gpus.append(j);
    }
    o.insert(QStringLiteral("gpus"), gpus);
    o.insert(QStringLiteral("unhealthy"), h.unhealthy());
    if (!h.serverKind.isEmpty()) {
        QJsonObject s;
        s.insert(QStringLiteral("kind"), h.serverKind);
        s.insert(QStringLiteral("tokens_per_s"), jsonValue(h.serverTokensPerS));
        s.insert(QStringLiteral("running"), jsonValue(h.serverRunning));
        s.insert(QStringLiteral("queued"), jsonValue(h.serverQueued));
        o.insert(QStringLiteral("server"), s);
    }
    if (hasValue(h.load1))
        o.insert(QStringLiteral("load1"), h.load1);
    QJsonArray alerts;
    for (const Alert& a : h.alerts) {
        QJsonObject j;
        j.insert(QStringLiteral("kind"), alertKindName(a.kind));
        j.insert(QStringLiteral("gpu"), a.gpu);
        j.insert(QStringLiteral("critical"), a.critical);
        j.insert(QStringLiteral("message"), a.message);
        alerts.append(j);
    }
    o.insert(QStringLiteral("alerts"), alerts);
    return o;
}

QString cell(double v, int precision = 0)
{
    return hasValue(v) ? QString::number(v, 'f', precision) : QStringLiteral("-");
}

int status(QStringList args)
{
    const QString me = QStringLiteral("fleet status");
    SourceOptions o;
    bool json = false;
    QString hostsFile;
    cli::FlagTable flags;
    flags.add("--json", &json).addPath("--hosts-file", &hostsFile);
    if (const auto taken = takeSourceAndFlags(args, &o, flags); !taken)
        return cli::usageError(me, taken.error());
    if (o.url.isEmpty())
        return cli::usageError(me, QStringLiteral("--prometheus URL is required"));
    const auto profiles = loadProfiles(hostsFile);
    if (!profiles)
        cli::err() << "fleet status: " << profiles.error() << " (hosts are not mapped to profiles)\n";
    const auto hosts = fleetFrom(o, profiles ? profiles.value() : QList<HostProfile>());
    if (!hosts) {
        cli::err() << "fleet status: " << hosts.error() << '\n';
        return cli::kExitUsage;
    }
    bool anyStale = false;
    for (const FleetHost& h : hosts.value()) {
        anyStale |= h.stale;
        if (json) {
            printJson(hostJson(h));
            continue;
        }
        QString mem;
        double used = 0, total = 0;
        for (const GpuSample& g : h.gpus)
            if (hasValue(g.value(GpuField::MemUsed)) && hasValue(g.value(GpuField::MemTotal)))
                used += g.value(GpuField::MemUsed), total += g.value(GpuField::MemTotal);
        cli::out() << terminalSafe(h.name).leftJustified(20) << ' ' << QString::number(h.gpus.size()).rightJustified(2)
                   << " GPU  util " << cell(h.meanUtil()).rightJustified(3) << "%  mem " << cell(used / 1024) << '/'
                   << cell(total / 1024) << " GiB  hottest " << cell(h.hottestC()) << " C";
        if (hasValue(h.serverTokensPerS))
            cli::out() << "  " << h.serverKind << ' ' << cell(h.serverTokensPerS, 1) << " tok/s";
        if (h.stale)
            cli::out() << "  STALE (" << terminalSafe(h.staleReason) << ')';
        if (const QString claim = nameOnlyMatchText(h); !claim.isEmpty())
            cli::out() << "  (" << terminalSafe(claim) << ')';
        for (const Alert& a : h.alerts)
            cli::out() << "\n    alert: " << a.message;
        cli::out() << '\n';
    }
    if (!json)
        cli::out() << hosts->size() << " host(s)\n";
    cli::out().flush();
    return anyStale ? 1 : 0;
}

int import(QStringList args)
{
    const QString me = QStringLiteral("fleet import");
    SourceOptions o;
    QString hostsFile, user;
    cli::FlagTable flags;
    flags.addPath("--hosts-file", &hostsFile).add("--user", &user);
    if (const auto taken = takeSourceAndFlags(args, &o, flags); !taken)
        return cli::usageError(me, taken.error());
    const auto loaded = loadProfiles(hostsFile);
    if (!loaded) {
        cli::err() << "fleet import: " << loaded.error() << '\n';
        return 1;
    }
    QList<HostProfile> profiles = loaded.value();
    const auto hosts = fleetFrom(o, profiles);
    if (!hosts) {
        cli::err() << "fleet import: " << hosts.error() << '\n';
        return cli::kExitUsage;
    }
    int added = 0;
    for (const FleetHost& h : hosts.value()) {
        if (h.profileMatch == ProfileMatch::NameOnly)
            cli::err() << "fleet import: not imported: " << terminalSafe(h.key) << ' '
                       << terminalSafe(nameOnlyMatchText(h)) << '\n';
        if (!h.profileName.isEmpty())
            continue;
        auto made = profileFor(h);
        if (!made) {
            cli::err() << "fleet import: not imported: the host at " << terminalSafe(h.key) << ": " << made.error()
                       << '\n';
            continue;
        }
        HostProfile p = made.value();
        p.user = user;
        profiles.append(p);
        cli::out() << "added " << p.name << " (" << p.host << ")\n";
        ++added;
    }
    if (added) {
        if (const auto saved = HostProfileStore(hostsFile).save(profiles); !saved) {
            cli::err() << "fleet import: " << saved.error() << '\n';
            return 1;
        }
    }
    cli::out() << added << " profile(s) added\n";
    return 0;
}

QJsonObject runJson(const HostRun& r)
{
    QJsonObject o;
    o.insert(QStringLiteral("host"), r.profile.name);
    o.insert(QStringLiteral("batch"), r.batch);
    o.insert(QStringLiteral("state"), hostRunStateName(r.state));
    o.insert(QStringLiteral("summary"), r.summary);
    return o;
}

// The flags of `fleet rollout ACTION`.
struct RolloutArgs
{
    QString action;
    SourceOptions src;
    QStringList tags, names;
    QString hostsFile, setSpec, root, profileName, reviewHost, expectPlan, recipeFile, fromHost;
    RolloutOptions options;
    deploy::RecipeOptions recipeOptions;
    bool yesDifferent = false, yesNameOnly = false, json = false, caches = false;
    deploy::PromoteOptions promote;
};

Result<RolloutArgs> parseRolloutArgs(QStringList args)
{
    RolloutArgs a;
    a.action = args.takeFirst();
    cli::FlagTable flags;
    flags.add("--tag", &a.tags)
        .add("--host", &a.names)
        .addPath("--hosts-file", &a.hostsFile)
        .add("--set", &a.setSpec)
        .addPath("--root", &a.root)
        .add("--profile", &a.profileName)
        .add("--review-host", &a.reviewHost)
        .add("--from", &a.fromHost)
        .add("--caches", &a.caches)
        .add("--build-if-refused", &a.promote.buildWhenRefused)
        .add("--expect-plan", &a.expectPlan)
        .add("--batch", &a.options.batchSize, 1, "a number of hosts > 0")
        .add("--continue-on-error", &a.options.continueOnError)
        .add("--skip-unhealthy", &a.options.skipUnhealthy)
        .add("--yes-different", &a.yesDifferent)
        .add("--yes-name-only", &a.yesNameOnly)
        .addPath("--recipe", &a.recipeFile)
        .add("--dry-run", &a.recipeOptions.dryRun)
        .add("--env-file",
            [&](const QString& v) {
                const auto file = readEnvFile(cli::cleanPath(v));
                if (!file)
                    return file.withoutValue();
                a.recipeOptions.env.insert(file.value());
                return Result<void>();
            })
        .add("--env-from-profile", &a.recipeOptions.envFromProfile)
        .add("--json", &a.json);
    if (const auto taken = takeSourceAndFlags(args, &a.src, flags); !taken)
        return Result<RolloutArgs>::failure(taken.error());
    return a;
}

// The hosts a rollout acts on: tags and names from hosts.yaml, or the Prometheus-backed
// filter (a host without a profile, or matched by name only, is left out with the reason).
Result<QList<HostProfile>> rolloutHosts(const RolloutArgs& a, const QList<HostProfile>& profiles)
{
    using R = Result<QList<HostProfile>>;
    QList<HostProfile> hosts;
    if (!a.src.url.isEmpty()) {
        const auto fleet = fleetFrom(a.src, profiles);
        if (!fleet)
            return R::failure(fleet.error());
        for (const FleetHost& h : fleet.value()) {
            if (h.profileName.isEmpty()) {
                cli::err() << "fleet rollout: " << terminalSafe(h.name)
                           << " has no profile (fleet import adds one); left out\n";
                continue;
            }
            // An exporter elsewhere can claim a saved host's name: only its address selects it.
            if (h.profileMatch == ProfileMatch::NameOnly && !a.yesNameOnly) {
                cli::err() << "fleet rollout: the host at " << terminalSafe(h.key) << ' '
                           << terminalSafe(nameOnlyMatchText(h)) << ": left out (--yes-name-only acts on such hosts)\n";
                continue;
            }
            for (const HostProfile& p : profiles)
                if (p.name == h.profileName)
                    hosts << p;
        }
    } else {
        for (const QString& n : a.names)
            if (std::none_of(profiles.cbegin(), profiles.cend(), [&](const HostProfile& p) { return p.name == n; }))
                return R::failure(QStringLiteral("no host profile named %1").arg(n));
        for (const HostProfile& p : profiles) {
            const bool byTag
                = std::any_of(a.tags.cbegin(), a.tags.cend(), [&](const QString& t) { return p.tags.contains(t); });
            if (byTag || a.names.contains(p.name))
                hosts << p;
        }
    }
    if (hosts.isEmpty())
        return R::failure(QStringLiteral("no hosts selected (--tag, --host or --prometheus with --match)"));
    return hosts;
}

// promote: the verified build on --from, fetched here once with its fingerprint, for every host.
Result<std::unique_ptr<deploy::Step>> promoteStep(const RolloutArgs& a, const QList<HostProfile>& profiles)
{
    using R = Result<std::unique_ptr<deploy::Step>>;
    const auto all = loadBuildProfiles();
    const auto bp = all ? findBuildProfile(all.value(), a.profileName) : std::nullopt;
    if (a.fromHost.isEmpty() || !bp)
        return R::failure(QStringLiteral("promote needs --from HOST (where the build passed verification) and "
                                         "--profile NAME (see 'build profiles')")
            + (all ? QString() : QStringLiteral(": ") + all.error()));
    const auto transport = connectByName(profiles, a.fromHost);
    if (!transport)
        return R::failure(QStringLiteral("%1: %2").arg(a.fromHost, transport.error()));
    deploy::PromotionSource from;
    from.hostName = a.fromHost;
    from.profile = *bp;
    from.withCaches = a.caches;
    from.log = [&a](const QString& line) { cli::err() << a.fromHost << "| " << line << '\n'; };
    auto artifact = deploy::preparePromotion(*transport.value(), from);
    if (!artifact)
        return R::failure(artifact.error());
    return R(std::make_unique<deploy::PromoteStep>(std::move(artifact.value()), a.promote));
}

// The one step the action runs on every host.
Result<std::unique_ptr<deploy::Step>> rolloutStep(const RolloutArgs& a, const QList<HostProfile>& profiles)
{
    using R = Result<std::unique_ptr<deploy::Step>>;
    if (a.action == u"promote")
        return promoteStep(a, profiles);
    if (a.action == u"patch-plan" || a.action == u"patch-apply") {
        if (a.setSpec.isEmpty() || a.root.isEmpty())
            return R::failure(a.action + QStringLiteral(" needs --set and --root"));
        const auto set = patch::loadPatchSet(a.setSpec);
        if (!set)
            return R::failure(set.error());
        return R(std::make_unique<PatchStep>(set.value(), a.root, a.action == u"patch-apply"));
    }
    if (a.action == u"preflight" || a.action == u"build") {
        const auto all = loadBuildProfiles();
        const auto bp = all ? findBuildProfile(all.value(), a.profileName) : std::nullopt;
        if (!bp)
            return R::failure(a.action + QStringLiteral(" needs --profile NAME (see 'build profiles')")
                + (all ? QString() : QStringLiteral(": ") + all.error()));
        if (a.action == u"preflight")
            return R(std::make_unique<PreflightStep>(*bp));
        return R(std::make_unique<BuildStartStep>(*bp));
    }
    if (a.action == u"recipe") {
        if (a.recipeFile.isEmpty())
            return R::failure(QStringLiteral("recipe needs --recipe FILE (see 'recipe export')"));
        const auto recipe = deploy::readDeployRecipe(a.recipeFile);
        if (!recipe)
            return R::failure(recipe.error());
        deploy::RecipeOptions options = a.recipeOptions;
        options.buildWhenRefused = a.promote.buildWhenRefused;
        options.connectSource = [profiles](const QString& name) { return connectByName(profiles, name); };
        return R(std::make_unique<deploy::RecipeStep>(recipe.value(), options));
    }
    return R::failure(
        QStringLiteral("unknown action %1 (patch-plan, patch-apply, preflight, build, recipe, promote)").arg(a.action));
}

// patch-apply's review: the plan made on the review host now, pinned by --expect-plan; the
// step applies only that plan. 0 when it may go on, else the exit status.
int reviewPatchPlan(const RolloutArgs& a, const QList<HostProfile>& profiles, const HostProfile& first, PatchStep& step)
{
    HostProfile review = first;
    if (!a.reviewHost.isEmpty()) {
        const auto it = std::find_if(
            profiles.cbegin(), profiles.cend(), [&](const HostProfile& p) { return p.name == a.reviewHost; });
        if (it == profiles.cend()) {
            cli::err() << "fleet rollout: no host profile named " << a.reviewHost << '\n';
            return cli::kExitUsage;
        }
        review = *it;
    }
    RolloutCallbacks quiet;
    quiet.log = [&](int, const QString& line) { cli::err() << review.name << "| " << line << '\n'; };
    const ReviewedPlan planned = planForReview(review, step.patchSet(), a.root, a.options, quiet);
    const std::optional<PlanFingerprint>& reviewed = planned.fingerprint;
    if (!reviewed) {
        cli::err() << "fleet rollout: the review plan on " << review.name << " failed: " << planned.run.summary << '\n';
        return 1;
    }
    (a.json ? cli::err() : cli::out()) << "reviewed plan " << reviewed->hash() << " (" << review.name << ", "
                                       << reviewed->files.size() << " file(s) to change)\n";
    if (!a.expectPlan.isEmpty() && a.expectPlan != reviewed->hash()) {
        cli::err() << "fleet rollout: the plan on " << review.name << " is " << reviewed->hash()
                   << ", not the reviewed " << a.expectPlan << ": nothing applied\n";
        return 1;
    }
    step.setReviewed(*reviewed);
    return 0;
}

int rollout(QStringList args)
{
    if (args.isEmpty()) {
        usage(cli::err());
        return cli::kExitUsage;
    }
    const auto parsed = parseRolloutArgs(args);
    if (!parsed)
        return cli::usageError(QStringLiteral("fleet rollout"), parsed.error());
    const RolloutArgs& a = parsed.value();
    const auto profiles = loadProfiles(a.hostsFile);
    auto hosts = profiles ? rolloutHosts(a, profiles.value()) : Result<QList<HostProfile>>::failure(profiles.error());
    if (hosts && a.action == u"promote") { // the source is where the build comes from, not a target
        hosts.value().removeIf([&](const HostProfile& p) { return p.name == a.fromHost; });
        if (hosts.value().isEmpty())
            hosts = Result<QList<HostProfile>>::failure(QStringLiteral("no hosts selected besides the source"));
    }
    auto step
        = hosts ? rolloutStep(a, profiles.value()) : Result<std::unique_ptr<deploy::Step>>::failure(hosts.error());
    if (!step) {
        cli::err() << "fleet rollout: " << step.error() << '\n';
        return a.action == u"promote" && hosts ? 1 : cli::kExitUsage;
    }
    if (a.action == u"patch-apply")
        if (const int refused
            = reviewPatchPlan(a, profiles.value(), hosts.value().first(), static_cast<PatchStep&>(*step.value())))
            return refused;

    std::mutex printing;
    RolloutCallbacks cb;
    cb.log = [&](int i, const QString& line) {
        std::lock_guard lock(printing);
        for (const QString& l : line.split(u'\n'))
            cli::err() << hosts.value().at(i).name << "| " << l << '\n';
        cli::err().flush();
    };
    cb.changed = [&](int, const HostRun& r) {
        if (a.json || r.state == HostRunState::Waiting)
            return;
        std::lock_guard lock(printing);
        cli::out() << "[batch " << r.batch << "] " << r.profile.name.leftJustified(16) << ' '
                   << hostRunStateName(r.state).leftJustified(10) << ' ' << r.summary << '\n';
        cli::out().flush();
    };
    cb.confirmDifferent = [&a](int, const QString&) { return a.yesDifferent; };
    // Ctrl-C: each running host finishes the file in flight, no new host starts (stop).
    const cli::InterruptTrap trap;
    const QList<HostRun> runs = runRollout(hosts.value(), *step.value(), a.options, cb, trap.stopFlag());
    int bad = 0;
    for (const HostRun& r : runs) {
        bad += r.state != HostRunState::Succeeded;
        if (a.json)
            printJson(runJson(r));
    }
    if (!a.json)
        cli::out() << runs.size() - bad << " of " << runs.size() << " host(s) succeeded\n";
    cli::out().flush();
    if (trap.interrupted()) {
        cli::err() << "fleet rollout: interrupted by " << trap.signalName()
                   << ": the running hosts finished their file in flight, no other host was started\n";
        return cli::kExitInterrupted;
    }
    return bad ? 1 : 0;
}

int runFleet(const QStringList& argsIn)
{
    QStringList args = argsIn;
    if (args.isEmpty() || args.first() == u"--help" || args.first() == u"-h") {
        usage(args.isEmpty() ? cli::err() : cli::out());
        return args.isEmpty() ? cli::kExitUsage : 0;
    }
    const QString sub = args.takeFirst();
    if (args.contains(QStringLiteral("--help"))) {
        usage(cli::out());
        return 0;
    }
    if (sub == u"status")
        return status(args);
    if (sub == u"import")
        return import(args);
    if (sub == u"rollout")
        return rollout(args);
    cli::err() << "fleet: unknown subcommand " << sub << '\n';
    usage(cli::err());
    return cli::kExitUsage;
}

int runHosts(const QStringList& argsIn)
{
    QStringList args = argsIn;
    const QString sub = args.isEmpty() ? QString() : args.takeFirst();
    if (sub == u"resolve")
        return cli::hostsResolve(args);
    bool ansible = false, json = false;
    QString hostsFile, output;
    QStringList tags;
    auto usage = [](QTextStream& s) {
        s << "Usage: kernelforge-cli hosts list [--json] [--tag T]... [--hosts-file FILE]\n"
          << "       kernelforge-cli hosts resolve [-F FILE] [--explain | --json] [USER@]DEST  (as ssh -G)\n"
          << "       kernelforge-cli hosts export --ansible [--tag T]... [-o FILE] [--hosts-file FILE]\n"
          << "export writes an Ansible INI inventory: one group per tag, ansible_host/port/user, the key and\n"
          << "ProxyJump as ansible_ssh_common_args. Passwords are never in hosts.yaml, so never in the inventory.\n";
    };
    if (sub == u"--help" || sub == u"-h") {
        usage(cli::out());
        return 0;
    }
    const QString me = QStringLiteral("kernelforge-cli hosts");
    cli::FlagTable flags;
    flags.add("--ansible", &ansible)
        .add("--json", &json)
        .addPath("--hosts-file", &hostsFile)
        .add("--tag", &tags)
        .addPath("-o", &output)
        .addPath("--output", &output);
    if (const auto taken = flags.takeAll(args); !taken)
        return cli::usageError(me, taken.error(), usage);
    if (sub != u"list" && !(sub == u"export" && ansible))
        return cli::usageError(me,
            sub == u"export" ? QStringLiteral("export needs --ansible")
                             : QStringLiteral("which subcommand? (list or export)"),
            usage);
    const auto loaded = loadProfiles(hostsFile);
    if (!loaded) {
        cli::err() << "hosts: " << loaded.error() << '\n';
        return 1;
    }
    QList<HostProfile> profiles = loaded.value();
    if (!tags.isEmpty())
        profiles.removeIf([&](const HostProfile& p) {
            return std::none_of(tags.cbegin(), tags.cend(), [&](const QString& t) { return p.tags.contains(t); });
        });
    if (sub == u"export") {
        const auto inventory = ansibleInventory(profiles);
        if (!inventory) {
            cli::err() << "hosts export: " << inventory.error() << '\n';
            return 1;
        }
        const QByteArray text = inventory->toUtf8();
        if (output.isEmpty()) {
            cli::out() << QString::fromUtf8(text);
            return 0;
        }
        QFile f(output);
        if (!f.open(QIODevice::WriteOnly | QIODevice::Truncate) || f.write(text) != text.size()) {
            cli::err() << "hosts export: cannot write " << output << ": " << f.errorString() << '\n';
            return 1;
        }
        return 0;
    }
    for (const HostProfile& p : profiles) {
        if (json) {
            QJsonObject o;
            o.insert(QStringLiteral("name"), p.name);
            o.insert(QStringLiteral("destination"), p.destination());
            o.insert(QStringLiteral("tags"), QJsonArray::fromStringList(p.tags));
            printJson(o);
        } else {
            cli::out() << p.name.leftJustified(20) << ' ' << p.destination() << "  " << p.tags.join(u',') << '\n';
        }
    }
    return 0;
}

const cli::Registration fleetReg { "fleet", "The fleet from Prometheus; actions on many hosts in batches", &runFleet };
const cli::Registration hostsReg { "hosts",
    "List saved host profiles; resolve a destination as ssh does; export an Ansible inventory", &runHosts };

} // namespace

namespace kf::cli {

// gpu export: GpuMonitor's stream served as dcgm-exporter text. A sample older than three
// intervals (the link is down, nvidia-smi hangs) is not served: the scrape fails with 503
// and Prometheus marks the target down, so the host shows stale, never old values as new.
int gpuExport(QStringList args)
{
    const QString me = QStringLiteral("gpu export");
    QString listen, hostname;
    int interval = 1000;
    bool allowRemote = false;
    // Our own flags first, so that no value of theirs is taken for the destination.
    FlagTable flags;
    flags.add("--listen", &listen)
        .add("--allow-remote", &allowRemote)
        .add("--hostname", &hostname)
        .add("--interval", &interval, 100, "milliseconds >= 100");
    if (const auto taken = flags.take(args); !taken)
        return usageError(me, taken.error());
    const auto targetOptions = takeTargetOptions(args);
    if (!targetOptions)
        return usageError(me, targetOptions.error());
    if (!args.isEmpty())
        return usageError(me, QStringLiteral("unexpected argument ") + args.first());
    const TargetOptions target = *targetOptions;
    if (listen.isEmpty()) {
        err() << "gpu export: --listen ADDRESS:PORT is required (e.g. 127.0.0.1:9400)\n";
        return cli::kExitUsage;
    }
    // Anyone who reaches a non-loopback address reads the host's GPU metrics, and the page has
    // no login: only when asked for by name.
    QString listenHost = listen.left(listen.lastIndexOf(u':'));
    if (listenHost.startsWith(u'[') && listenHost.endsWith(u']'))
        listenHost = listenHost.mid(1, listenHost.size() - 2);
    const QHostAddress listenAddress(listenHost);
    if (!listenAddress.isNull() && !listenAddress.isLoopback() && !allowRemote)
        return usageError(me,
            QStringLiteral("%1 is not a loopback address: anyone who can reach it would read the GPU metrics "
                           "(no login); add --allow-remote to serve them there anyway")
                .arg(listenHost));
    const auto opened = openTarget(target);
    if (!opened)
        return connectionError(me, opened.error());
    if (hostname.isEmpty())
        hostname = opened->label;
    GpuMonitor::Options options;
    options.intervalMs = interval;
    options.processIntervalMs = 0;
    GpuMonitor monitor(opened->transport, opened->label, options);
    // Freshness by this machine's clock: when the last sample arrived, not its timestamp
    // (the server's local time).
    qint64 lastArrival = 0;
    QObject::connect(&monitor, &GpuMonitor::samplesUpdated, &monitor,
        [&](const QList<GpuSample>&) { lastArrival = QDateTime::currentMSecsSinceEpoch(); });
    QObject::connect(&monitor, &GpuMonitor::alertRaised, &monitor, [](const Alert& a) {
        if (a.kind == AlertKind::SmiFailure)
            err() << "gpu export: " << a.message << '\n' << Qt::flush;
    });
    MetricsHttpServer server([&]() -> QByteArray {
        if (monitor.latest().isEmpty()
            || QDateTime::currentMSecsSinceEpoch() - lastArrival > 3 * qint64(interval) + 2000)
            return {};
        return dcgmExposition(monitor.latest(), hostname);
    });
    if (const auto listening = server.listen(listen); !listening) {
        err() << "gpu export: " << listening.error() << '\n';
        return cli::kExitUsage;
    }
    const QString shown = listen.left(listen.lastIndexOf(u':'));
    err() << "gpu export: serving http://" << shown << ':' << server.port() << "/metrics for " << opened->label
          << " (dcgm-exporter names)\n";
    if (!server.isLoopback())
        err() << "gpu export: warning: " << shown << " is reachable from other machines, without a login\n";
    err() << Qt::flush;
    monitor.start();
    const int rc = QCoreApplication::exec();
    monitor.stop();
    return connectionGivenUp() ? kExitConnection : rc;
}

} // namespace kf::cli
