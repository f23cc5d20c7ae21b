// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/fleethost.h"

#include "core/gpu/exporterfields.h"
#include "core/hosts/destination.h"
#include "core/server/metricnames.h"

#include <QDateTime>
#include <QMap>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace kf::fleet {

namespace {

constexpr int kStaleIntervals = 3;

const QString kNone = QStringLiteral("(none)");

// One GPU while a host is assembled: keyed by gpu index (dcgm) or uuid (nvidia_smi).
struct GpuAcc
{
    GpuSample s;
    double xid = noValue();
    double pcieReplays = noValue();
    double nvlinkErrors = noValue(); // the sum of the NVLink error totals exported
};

struct HostAcc
{
    FleetHost host;
    QMap<QString, GpuAcc> gpus; // "0", "1" (dcgm gpu label) or uuid
    QString dcgmName;           // Hostname label
    QString nodeName;           // node_uname_info nodename
    bool down = false;
    QStringList downInstances;
    bool sawGpuSeries = false;
};

QString gpuKey(const Labels& m)
{
    const QString gpu = m.value(QStringLiteral("gpu"));
    if (!gpu.isEmpty())
        return gpu.rightJustified(4, u'0'); // sorts "2" before "10"
    return m.value(QStringLiteral("uuid"), m.value(QStringLiteral("UUID")));
}

// An exporter's series into the GPU's rows, as core/gpu/exporterfields.h says.
void setGpuValue(GpuAcc& g, const QString& name, double v)
{
    const ExporterField* row = exporterField(name);
    if (!row)
        return;
    switch (row->value) {
    case ExporterValue::Number: g.s.setValue(row->field, exporterNumber(*row, v)); break;
    case ExporterValue::Flag:
        if (v == 0 || v == 1)
            g.s.setText(row->field, v == 1 ? QStringLiteral("Yes") : QStringLiteral("No"));
        break;
    case ExporterValue::Reasons:
        if (hasValue(v) && v >= 0 && v < 1e18) {
            g.s.reasons = quint64(v);
            g.s.hasReasons = true;
        }
        break;
    case ExporterValue::Xid: g.xid = v; break;
    case ExporterValue::PcieReplays: g.pcieReplays = exporterNumber(*row, v); break;
    case ExporterValue::NvlinkError:
        if (const double n = exporterNumber(*row, v); hasValue(n))
            g.nvlinkErrors = (hasValue(g.nvlinkErrors) ? g.nvlinkErrors : 0) + n;
        break;
    case ExporterValue::Info: break;
    }
}

// A PromQL string literal of any text: "..." with \\ and \" and the control characters escaped
// (PromQL reads Go's escapes; a raw line break would end the query's string).
QString promqlString(const QString& text)
{
    QString out = QStringLiteral("\"");
    for (const QChar c : text) {
        if (c == u'\\' || c == u'"')
            out += u'\\';
        if (c.unicode() < 0x20 || c.unicode() == 0x7f)
            out += QStringLiteral("\\x%1").arg(uint(c.unicode()), 2, 16, QLatin1Char('0'));
        else
            out += c;
    }
    return out + u'"';
}

QString ageText(double s)
{
    return s < 120 ? QStringLiteral("%1 s").arg(s, 0, 'f', 0) : QStringLiteral("%1 min").arg(s / 60, 0, 'f', 0);
}

} // namespace

double FleetHost::meanUtil() const
{
    double sum = 0;
    int n = 0;
    for (const GpuSample& g : gpus)
        if (hasValue(g.value(GpuField::UtilGpu)))
            sum += g.value(GpuField::UtilGpu), ++n;
    return n ? sum / n : noValue();
}

double FleetHost::hottestC() const
{
    double t = noValue();
    for (const GpuSample& g : gpus)
        if (hasValue(g.value(GpuField::TempGpu)) && (!hasValue(t) || g.value(GpuField::TempGpu) > t))
            t = g.value(GpuField::TempGpu);
    return t;
}

double FleetHost::maxMemFraction() const
{
    double f = noValue();
    for (const GpuSample& g : gpus) {
        const double x = g.memFraction();
        if (hasValue(x) && (!hasValue(f) || x > f))
            f = x;
    }
    return f;
}

bool FleetHost::throttling() const
{
    constexpr quint64 mask
        = kReasonHwSlowdown | kReasonHwPowerBrake | kReasonSwThermal | kReasonHwThermal | kReasonSwPowerCap;
    return std::any_of(
        gpus.cbegin(), gpus.cend(), [](const GpuSample& g) { return g.hasReasons && (g.reasons & mask); });
}

bool FleetHost::hasXid() const
{
    return std::any_of(xid.cbegin(), xid.cend(), [](double x) { return hasValue(x) && x > 0; });
}

bool FleetHost::unhealthy() const
{
    return worstHealth(health) == HealthLevel::Fail;
}

QString instanceAddress(const QString& instance)
{
    if (instance.startsWith(u'[')) {
        const qsizetype close = instance.indexOf(u']');
        return close > 0 ? instance.mid(1, close - 1) : instance;
    }
    const qsizetype colon = instance.lastIndexOf(u':');
    if (colon > 0 && instance.indexOf(u':') == colon)
        return instance.left(colon);
    return instance;
}

namespace {

// One row per query family: its name, its PromQL and how its series are read into a host. The
// names come from core/gpu/exporterfields.h and core/server/metricnames.h; assembleFleet reads
// the families in this order (the targets first: a host's labels are its first series'; a GPU's values before its
// names).
struct Family
{
    const char* name;
    QString (*query)();
    void (*read)(HostAcc& host, const PromSeries& series);
};

QString utilNames()
{
    return QStringLiteral("%1|%2").arg(QLatin1String(exporterFieldFor(GpuExporter::Dcgm, GpuField::UtilGpu)->name),
        QLatin1String(exporterFieldFor(GpuExporter::NvidiaSmi, GpuField::UtilGpu)->name));
}

const Family kFamilies[] = {
    // The targets first: a host's labels (job, instance, ...) are its first series', which are these.
    { "up", [] { return QStringLiteral("up"); },
        [](HostAcc& h, const PromSeries& s) {
            if (s.value == 0) {
                h.down = true;
                h.downInstances.append(s.metric.value(QStringLiteral("instance")));
            }
        } },
    // max by: one value per GPU even when two Prometheus jobs scrape the same exporter. Every
    // value name of the exporters' table (the info series go with gpu_info).
    { "gpu",
        [] {
            return QStringLiteral("max by (__name__, instance, gpu, uuid) ({__name__=~\"%1\"})")
                .arg(exporterNameRegex({ ExporterValue::Number, ExporterValue::Flag, ExporterValue::Reasons,
                    ExporterValue::Xid, ExporterValue::PcieReplays, ExporterValue::NvlinkError }));
        },
        [](HostAcc& h, const PromSeries& s) {
            h.sawGpuSeries = true;
            GpuAcc& g = h.gpus[gpuKey(s.metric)];
            setGpuValue(g, s.metric.value(QStringLiteral("__name__")), s.value);
            if (g.s.text(GpuField::Uuid).isEmpty())
                g.s.setText(GpuField::Uuid, s.metric.value(QStringLiteral("uuid")));
            if (const QString idx = s.metric.value(QStringLiteral("gpu")); !idx.isEmpty())
                g.s.index = idx.toInt();
        } },
    // Names and models once per GPU, not on every value.
    { "gpu_info",
        [] {
            return QStringLiteral(
                "count by (instance, gpu, UUID, modelName, Hostname, uuid, name) ({__name__=~\"%1|%2\"})")
                .arg(QLatin1String(exporterFieldFor(GpuExporter::Dcgm, GpuField::UtilGpu)->name),
                    exporterNameRegex({ ExporterValue::Info }));
        },
        [](HostAcc& h, const PromSeries& s) {
            const QString key = gpuKey(s.metric);
            if (!h.gpus.contains(key))
                return; // no values: a GPU that stopped reporting is not invented
            GpuAcc& g = h.gpus[key];
            g.s.setText(
                GpuField::Name, s.metric.value(QStringLiteral("modelName"), s.metric.value(QStringLiteral("name"))));
            if (const QString u = s.metric.value(QStringLiteral("UUID")); !u.isEmpty())
                g.s.setText(GpuField::Uuid, u);
            if (const QString n = s.metric.value(QStringLiteral("Hostname")); !n.isEmpty())
                h.dcgmName = n;
        } },
    { "host",
        [] {
            return QStringLiteral(
                "max by (__name__, instance, nodename) ({__name__=~\"node_load1|node_memory_MemAvailable_"
                "bytes|node_memory_MemTotal_bytes|node_uname_info\"})");
        },
        [](HostAcc& h, const PromSeries& s) {
            const QString name = s.metric.value(QStringLiteral("__name__"));
            if (name == u"node_load1")
                h.host.load1 = s.value;
            else if (name == u"node_memory_MemAvailable_bytes")
                h.host.memAvailableBytes = s.value;
            else if (name == u"node_memory_MemTotal_bytes")
                h.host.memTotalBytes = s.value;
            else if (name == u"node_uname_info")
                h.nodeName = s.metric.value(QStringLiteral("nodename"));
        } },
    // SGLang's gauges repeat on every TP rank of one batch: rank 0 (or no rank label).
    { "server",
        [] {
            return QStringLiteral("sum by (__name__, instance) ({__name__=~\"%1\", tp_rank=~\"0|\"})")
                .arg(serverMetricRegex(
                    { ServerQuantity::GenThroughput, ServerQuantity::Running, ServerQuantity::Queued }));
        },
        [](HostAcc& h, const PromSeries& s) {
            const auto row = serverMetricName(s.metric.value(QStringLiteral("__name__")));
            if (!row)
                return;
            h.host.serverKind = QString::fromLatin1(row->vocabulary);
            if (row->quantity == ServerQuantity::GenThroughput)
                h.host.serverTokensPerS = s.value;
            else if (row->quantity == ServerQuantity::Running)
                h.host.serverRunning = s.value;
            else if (row->quantity == ServerQuantity::Queued)
                h.host.serverQueued = s.value;
        } },
    // vLLM has no throughput gauge: its generated tokens' rate.
    { "vllm_rate",
        [] {
            return QStringLiteral("sum by (instance) (rate({__name__=~\"%1\"}[1m]))")
                .arg(serverMetricRegex({ ServerQuantity::GenerationTokens }, u"vllm"));
        },
        [](HostAcc& h, const PromSeries& s) {
            h.host.serverKind = QStringLiteral("vllm");
            h.host.serverTokensPerS = s.value;
        } },
    { "last_sample",
        [] { return QStringLiteral("max by (instance) (timestamp({__name__=~\"%1\"}))").arg(utilNames()); },
        [](HostAcc& h, const PromSeries& s) {
            if (s.value > 0 && s.value < 1e11) // seconds since the epoch; NaN and nonsense are no time
                h.host.lastSampleMs = qMax(h.host.lastSampleMs, qint64(std::llround(s.value * 1000)));
        } },
};

// Every answer's series into its host, keyed by address.
QHash<QString, HostAcc> readAnswers(const QHash<QString, PromQueryResult>& answers)
{
    QHash<QString, HostAcc> acc; // by address
    auto hostFor = [&](const Labels& m) -> HostAcc& {
        const QString instance = m.value(QStringLiteral("instance"));
        const QString address = instanceAddress(instance);
        HostAcc& h = acc[address];
        if (h.host.key.isEmpty()) {
            h.host.key = address;
            h.host.labels = m;
            h.host.labels.remove(QStringLiteral("__name__"));
        }
        if (!instance.isEmpty() && !h.host.instances.contains(instance))
            h.host.instances.append(instance);
        return h;
    };
    for (const Family& f : kFamilies) {
        const auto it = answers.constFind(QLatin1String(f.name));
        if (it == answers.cend())
            continue;
        for (const PromSeries& s : it->series)
            if (s.metric.contains(QStringLiteral("instance")))
                f.read(hostFor(s.metric), s);
    }
    return acc;
}

} // namespace

QList<FleetQuery> fleetQueries()
{
    QList<FleetQuery> out;
    for (const Family& f : kFamilies)
        out.append({ QLatin1String(f.name), f.query() });
    return out;
}

namespace {

// Hosts that are one machine under two addresses (an exporter in a pod) become one, under the
// name their exporters give (dcgm's Hostname, node's nodename), else the address.
void mergeByName(QHash<QString, HostAcc>& acc, const QHash<QString, const FleetHost*>& previous)
{
    // Merge hosts that are one machine under two addresses (an exporter in a pod).
    QHash<QString, QString> byName; // name -> address that holds it
    QList<QString> order = acc.keys();
    std::sort(order.begin(), order.end());
    for (const QString& address : std::as_const(order)) {
        HostAcc& h = acc[address];
        h.host.name = !h.dcgmName.isEmpty() ? h.dcgmName : !h.nodeName.isEmpty() ? h.nodeName : address;
        // A host whose exporters are all down has no name label now: it keeps the one it had.
        if (const FleetHost* before = previous.value(address); before && h.host.name == address)
            h.host.name = before->name;
    }
    for (const QString& address : std::as_const(order)) {
        HostAcc& h = acc[address];
        const auto into = byName.constFind(h.host.name);
        if (into == byName.cend() || h.host.name == address) {
            byName.insert(h.host.name, address);
            continue;
        }
        HostAcc& target = acc[*into];
        for (const QString& i : std::as_const(h.host.instances))
            if (!target.host.instances.contains(i))
                target.host.instances.append(i);
        for (auto it = h.gpus.cbegin(); it != h.gpus.cend(); ++it)
            target.gpus.insert(it.key(), it.value());
        target.sawGpuSeries |= h.sawGpuSeries;
        target.down |= h.down;
        target.downInstances += h.downInstances;
        auto take = [](double& to, double from) {
            if (!hasValue(to))
                to = from;
        };
        take(target.host.load1, h.host.load1);
        take(target.host.memAvailableBytes, h.host.memAvailableBytes);
        take(target.host.memTotalBytes, h.host.memTotalBytes);
        take(target.host.serverTokensPerS, h.host.serverTokensPerS);
        take(target.host.serverRunning, h.host.serverRunning);
        take(target.host.serverQueued, h.host.serverQueued);
        if (target.host.serverKind.isEmpty())
            target.host.serverKind = h.host.serverKind;
        target.host.lastSampleMs = qMax(target.host.lastSampleMs, h.host.lastSampleMs);
        acc.remove(address);
    }
}

// A host's GPUs, health and staleness from what its answers held.
FleetHost finishHost(HostAcc& h, const AssembleOptions& o, const FleetHost* before)
{
    FleetHost& host = h.host;
    const double staleAfterS = kStaleIntervals * o.scrapeIntervalS;
    for (auto g = h.gpus.begin(); g != h.gpus.end(); ++g) {
        GpuSample& s = g->s;
        // dcgm-exporter has used and free; the total is their sum (as nvidia-smi's).
        if (!hasValue(s.value(GpuField::MemTotal)) && hasValue(s.value(GpuField::MemUsed))
            && hasValue(s.value(GpuField::MemFree)))
            s.setValue(GpuField::MemTotal, s.value(GpuField::MemUsed) + s.value(GpuField::MemFree));
        if (!hasValue(s.value(GpuField::MemFree)) && hasValue(s.value(GpuField::MemUsed))
            && hasValue(s.value(GpuField::MemTotal)))
            s.setValue(GpuField::MemFree, s.value(GpuField::MemTotal) - s.value(GpuField::MemUsed));
        s.timeMs = host.lastSampleMs;
    }
    int unindexed = 0;
    for (auto g = h.gpus.begin(); g != h.gpus.end(); ++g)
        if (g->s.index < 0)
            g->s.index = unindexed++; // nvidia_smi exporter: uuid order
    for (auto g = h.gpus.cbegin(); g != h.gpus.cend(); ++g) {
        host.gpus.append(g->s);
        host.xid.append(g->xid);
        GpuHealthInput in;
        in.sample = g->s;
        in.pcieReplays = g->pcieReplays;
        in.nvlinkErrors = g->nvlinkErrors;
        in.xidKnown = hasValue(g->xid);
        if (in.xidKnown && g->xid > 0)
            in.xids.append({ int(g->xid), QString(), QStringLiteral("the last Xid dcgm-exporter reports") });
        host.health.append(judgeGpuHealth(in));
    }
    // Staleness: a down target, or GPU samples older than 3 scrape intervals.
    if (h.down) {
        host.stale = true;
        QStringList why;
        for (const QString& i : std::as_const(h.downInstances)) {
            const QString e = o.targetErrors.value(i);
            why << (e.isEmpty() ? QStringLiteral("target %1 is down").arg(i)
                                : QStringLiteral("target %1 is down: %2").arg(i, e));
        }
        host.staleReason = why.join(QStringLiteral("; "));
    } else if (host.lastSampleMs > 0 && o.nowMs - host.lastSampleMs > staleAfterS * 1000) {
        host.stale = true;
        host.staleReason = QStringLiteral("no GPU sample for %1 (more than %2 scrape intervals of %3)")
                               .arg(ageText((o.nowMs - host.lastSampleMs) / 1000.0))
                               .arg(kStaleIntervals)
                               .arg(ageText(o.scrapeIntervalS));
    }
    if (host.gpus.isEmpty() && before && !before->gpus.isEmpty()) {
        // The exporter answers (or not) without GPU series: keep the last values, marked.
        host.stale = true;
        if (host.staleReason.isEmpty())
            host.staleReason = QStringLiteral("its GPU series are gone from Prometheus");
        host.gpus = before->gpus;
        host.xid = before->xid;
        host.health = before->health;
        host.lastSampleMs = before->lastSampleMs;
    }
    if (!host.stale) {
        host.alerts = evaluateAlerts(host.gpus, o.rules, o.nowMs);
        host.alerts += evaluateXidAlerts(host.gpus, host.xid, o.rules, o.nowMs);
    }
    return std::move(host);
}

} // namespace

FleetSnapshot assembleFleet(const QHash<QString, PromQueryResult>& answers, const AssembleOptions& o)
{
    FleetSnapshot snap;
    snap.timeMs = o.nowMs;
    snap.scrapeIntervalS = o.scrapeIntervalS;
    QHash<QString, HostAcc> acc = readAnswers(answers);
    QHash<QString, const FleetHost*> previous;
    if (o.previous)
        for (const FleetHost& p : *o.previous)
            previous.insert(p.key, &p);
    mergeByName(acc, previous);
    for (auto it = acc.begin(); it != acc.end(); ++it)
        snap.hosts.append(finishHost(it.value(), o, previous.value(it.value().host.key)));
    // Hosts of the last snapshot that vanished from every answer (removed from the config, or
    // Prometheus forgot them): shown stale with their last values, never as zero.
    QSet<QString> now;
    for (const FleetHost& h : std::as_const(snap.hosts))
        now.insert(h.key);
    if (o.previous)
        for (const FleetHost& p : *o.previous)
            if (!now.contains(p.key) && !p.gpus.isEmpty()) {
                FleetHost h = p;
                h.stale = true;
                h.alerts.clear();
                if (h.staleReason.isEmpty())
                    h.staleReason = QStringLiteral("no longer in Prometheus");
                snap.hosts.append(std::move(h));
            }
    std::sort(snap.hosts.begin(), snap.hosts.end(),
        [](const FleetHost& a, const FleetHost& b) { return a.name != b.name ? a.name < b.name : a.key < b.key; });
    return snap;
}

int mapProfiles(QList<FleetHost>& hosts, const QList<HostProfile>& profiles)
{
    QHash<QString, const HostProfile*> byAddress, byName;
    for (const HostProfile& p : profiles) {
        if (!byName.contains(p.name.toLower()))
            byName.insert(p.name.toLower(), &p);
        if (!p.host.isEmpty() && !byAddress.contains(p.host.toLower()))
            byAddress.insert(p.host.toLower(), &p);
    }
    int mapped = 0;
    for (FleetHost& h : hosts) {
        const HostProfile* p = byAddress.value(h.key.toLower());
        for (qsizetype i = 0; !p && i < h.instances.size(); ++i)
            p = byAddress.value(instanceAddress(h.instances.at(i)).toLower());
        ProfileMatch how = ProfileMatch::Address;
        if (!p) {
            how = ProfileMatch::NameOnly;
            p = byName.value(h.name.toLower());
            if (!p && h.name.contains(u'.')) // "gpu1.lab.example" against a profile "gpu1"
                p = byName.value(h.name.section(u'.', 0, 0).toLower());
        }
        h.profileName = p ? p->name : QString();
        h.profileMatch = p ? how : ProfileMatch::None;
        h.profileHost = p ? p->host : QString();
        h.tags = p ? p->tags : QStringList();
        mapped += p ? 1 : 0;
    }
    return mapped;
}

QString nameOnlyMatchText(const FleetHost& host)
{
    if (host.profileMatch != ProfileMatch::NameOnly)
        return {};
    return QStringLiteral("matches the saved host %1 by name only (saved address %2, this one %3)")
        .arg(host.profileName, host.profileHost.isEmpty() ? QStringLiteral("none") : host.profileHost, host.key);
}

Result<HostProfile> profileFor(const FleetHost& host)
{
    if (const auto address = checkHostName(host.key); !address)
        return Result<HostProfile>::failure(QStringLiteral("its address: %1").arg(address.error()));
    if (const auto name = checkHostName(host.name); !name)
        return Result<HostProfile>::failure(QStringLiteral("its name: %1").arg(name.error()));
    HostProfile p;
    p.name = host.name;
    p.host = host.key;
    p.tags << QStringLiteral("prometheus");
    // The job is Prometheus' own label, unless honor_labels let a target set it: a tag only
    // when it is a plain word.
    if (const QString job = host.labels.value(QStringLiteral("job")); !job.isEmpty() && checkHostName(job))
        p.tags << job;
    return p;
}

bool matchesSelector(const FleetHost& host, const QString& key, const QString& value)
{
    auto match = [&](const QString& v) { return value.endsWith(u'*') ? v.startsWith(value.chopped(1)) : v == value; };
    if (key == u"tag")
        return std::any_of(host.tags.cbegin(), host.tags.cend(), match);
    if (key == u"name")
        return match(host.name);
    if (key == u"profile")
        return match(host.profileName);
    if (key == u"instance")
        return std::any_of(host.instances.cbegin(), host.instances.cend(), match);
    return host.labels.contains(key) && match(host.labels.value(key));
}

QString fleetSortName(FleetSort s)
{
    switch (s) {
    case FleetSort::Name: return QStringLiteral("name");
    case FleetSort::Hottest: return QStringLiteral("hottest");
    case FleetSort::Busiest: return QStringLiteral("busiest");
    case FleetSort::MemoryUsed: return QStringLiteral("memory");
    case FleetSort::Stale: return QStringLiteral("stale");
    }
    return {};
}

QString fleetFilterName(FleetFilter f)
{
    switch (f) {
    case FleetFilter::All: return QStringLiteral("all");
    case FleetFilter::Alerts: return QStringLiteral("alerts");
    case FleetFilter::Throttling: return QStringLiteral("throttling");
    case FleetFilter::Xid: return QStringLiteral("xid");
    case FleetFilter::MemoryFull: return QStringLiteral("memory-full");
    case FleetFilter::Stale: return QStringLiteral("stale");
    case FleetFilter::Unhealthy: return QStringLiteral("unhealthy");
    }
    return {};
}

QList<FleetFilter> fleetFilters()
{
    return { FleetFilter::All, FleetFilter::Alerts, FleetFilter::Throttling, FleetFilter::Xid, FleetFilter::MemoryFull,
        FleetFilter::Stale, FleetFilter::Unhealthy };
}

std::optional<FleetSort> fleetSortFromName(const QString& name)
{
    for (FleetSort s :
        { FleetSort::Name, FleetSort::Hottest, FleetSort::Busiest, FleetSort::MemoryUsed, FleetSort::Stale })
        if (fleetSortName(s) == name)
            return s;
    return std::nullopt;
}

std::optional<FleetFilter> fleetFilterFromName(const QString& name)
{
    for (FleetFilter f : fleetFilters())
        if (fleetFilterName(f) == name)
            return f;
    return std::nullopt;
}

bool passesFilter(const FleetHost& h, FleetFilter filter, const AlertRules& rules)
{
    switch (filter) {
    case FleetFilter::All: return true;
    case FleetFilter::Alerts: return !h.alerts.isEmpty();
    case FleetFilter::Throttling: return h.throttling();
    case FleetFilter::Xid: return h.hasXid();
    case FleetFilter::MemoryFull: {
        const double f = h.maxMemFraction();
        return hasValue(f) && f >= rules.memoryFullFraction;
    }
    case FleetFilter::Stale: return h.stale;
    case FleetFilter::Unhealthy: return h.unhealthy();
    }
    return true;
}

QList<FleetGroup> arrangeFleet(const QList<FleetHost>& hosts, const QString& groupBy, FleetSort sort,
    FleetFilter filter, const AlertRules& rules, const QString& nameFilter)
{
    // Sort keys computed once per host (n log n comparisons must not walk GPUs).
    struct Row
    {
        int index;
        QString group;
        double key; // larger first; NaN last
    };
    QList<Row> rows;
    rows.reserve(hosts.size());
    for (int i = 0; i < hosts.size(); ++i) {
        const FleetHost& h = hosts.at(i);
        if (!passesFilter(h, filter, rules))
            continue;
        if (!nameFilter.isEmpty() && !h.name.contains(nameFilter, Qt::CaseInsensitive)
            && !h.profileName.contains(nameFilter, Qt::CaseInsensitive))
            continue;
        QString group;
        if (groupBy == u"tag")
            group = h.tags.isEmpty() ? kNone : h.tags.first();
        else if (!groupBy.isEmpty())
            group = h.labels.value(groupBy, kNone);
        double key = noValue();
        switch (sort) {
        case FleetSort::Name: key = 0; break;
        case FleetSort::Hottest: key = h.hottestC(); break;
        case FleetSort::Busiest: key = h.meanUtil(); break;
        case FleetSort::MemoryUsed: key = h.maxMemFraction(); break;
        case FleetSort::Stale: key = h.stale ? 1 : 0; break;
        }
        rows.append({ i, group, key });
    }
    std::sort(rows.begin(), rows.end(), [&](const Row& a, const Row& b) {
        if (a.group != b.group) {
            if (a.group == kNone || b.group == kNone)
                return b.group == kNone;
            return a.group < b.group;
        }
        const bool an = std::isnan(a.key), bn = std::isnan(b.key);
        if (an != bn)
            return bn;
        if (!an && a.key != b.key)
            return a.key > b.key;
        return hosts.at(a.index).name < hosts.at(b.index).name;
    });
    QList<FleetGroup> groups;
    for (const Row& r : std::as_const(rows)) {
        if (groups.isEmpty() || groups.last().name != r.group)
            groups.append({ r.group, {} });
        groups.last().hosts.append(r.index);
    }
    return groups;
}

QList<ChartQuery> hostChartQueries(const FleetHost& host)
{
    // The instances are an exporter's text: each a literal alternative of the regex, and the
    // regex a PromQL string that nothing in them can end.
    QStringList alternatives;
    for (const QString& i : host.instances)
        alternatives << QRegularExpression::escape(i);
    const QString sel = QStringLiteral("instance=~%1").arg(promqlString(alternatives.join(u'|')));
    // dcgm-exporter's series by gpu index, the nvidia-smi exporter's by uuid, each in the row's
    // unit (core/gpu/exporterfields.h) times `chart` (the chart's unit of the row's).
    auto factor = [](double f) {
        if (f == 1)
            return QString();
        return f > 1 ? QStringLiteral(" * %1").arg(f, 0, 'g', 15) : QStringLiteral(" / %1").arg(1 / f, 0, 'g', 15);
    };
    auto per = [&](GpuField field, double chart = 1) {
        const ExporterField* dcgm = exporterFieldFor(GpuExporter::Dcgm, field);
        const ExporterField* smi = exporterFieldFor(GpuExporter::NvidiaSmi, field);
        return QStringLiteral("max by (gpu) (%1{%5}%2) or max by (uuid) (%3{%5}%4)")
            .arg(QLatin1String(dcgm->name), factor(dcgm->scale * chart), QLatin1String(smi->name),
                factor(smi->scale * chart), sel);
    };
    return {
        { QStringLiteral("GPU utilization"), QStringLiteral("%"), per(GpuField::UtilGpu) },
        { QStringLiteral("Temperature"), QStringLiteral("°C"), per(GpuField::TempGpu) },
        { QStringLiteral("Power"), QStringLiteral("W"), per(GpuField::PowerDraw) },
        { QStringLiteral("Memory used"), QStringLiteral("GiB"), per(GpuField::MemUsed, 1.0 / 1024) },
        { QStringLiteral("Server tokens/s"), QStringLiteral("tok/s"),
            QStringLiteral("sum({__name__=~\"%2\", %1, tp_rank=~\"0|\"}) or sum(rate({__name__=~\"%3\", %1}[1m]))")
                .arg(sel, serverMetricRegex({ ServerQuantity::GenThroughput }),
                    serverMetricRegex({ ServerQuantity::GenerationTokens }, u"vllm")) },
    };
}

double rangeStepSeconds(double windowS, double scrapeIntervalS)
{
    return qMax(qMax(scrapeIntervalS, 1.0), std::ceil(windowS / 11000.0));
}

} // namespace kf::fleet
