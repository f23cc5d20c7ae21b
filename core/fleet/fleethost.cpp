// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/fleethost.h"

#include "core/hosts/destination.h"

#include <QDateTime>
#include <QMap>
#include <QRegularExpression>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace kf::fleet {

namespace {

constexpr double kMiB = 1024.0 * 1024.0;
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

// dcgm-exporter's GPM (DCGM_FI_PROF_*) and health fields into the field table's rows; false
// when `name` is not one of them.
bool setProfOrHealthValue(GpuAcc& g, const QString& name, double v)
{
    static const struct
    {
        const char* name;
        GpuField field;
        double scale; // DCGM's unit into the row's
    } kNumbers[] = {
        { "DCGM_FI_PROF_SM_ACTIVE", GpuField::SmActive, 100 },
        { "DCGM_FI_PROF_SM_OCCUPANCY", GpuField::SmOccupancy, 100 },
        { "DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", GpuField::TensorActive, 100 },
        { "DCGM_FI_PROF_DRAM_ACTIVE", GpuField::DramActive, 100 },
        { "DCGM_FI_PROF_PCIE_TX_BYTES", GpuField::PcieTx, 1.0 / kMiB },
        { "DCGM_FI_PROF_PCIE_RX_BYTES", GpuField::PcieRx, 1.0 / kMiB },
        { "DCGM_FI_PROF_NVLINK_TX_BYTES", GpuField::NvlinkTx, 1.0 / kMiB },
        { "DCGM_FI_PROF_NVLINK_RX_BYTES", GpuField::NvlinkRx, 1.0 / kMiB },
        { "DCGM_FI_DEV_ECC_DBE_AGG_TOTAL", GpuField::EccUncorrectedAll, 1 },
        { "DCGM_FI_DEV_ECC_SBE_AGG_TOTAL", GpuField::EccCorrectedAll, 1 },
        { "DCGM_FI_DEV_RETIRED_SBE", GpuField::RetiredSbe, 1 },
        { "DCGM_FI_DEV_RETIRED_DBE", GpuField::RetiredDbe, 1 },
        { "DCGM_FI_DEV_CORRECTABLE_REMAPPED_ROWS", GpuField::RemapCorrectable, 1 },
        { "DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", GpuField::RemapUncorrectable, 1 },
        { "DCGM_FI_DEV_PCIE_LINK_GEN", GpuField::PcieGen, 1 },
        { "DCGM_FI_DEV_PCIE_MAX_LINK_GEN", GpuField::PcieGenMax, 1 },
        { "DCGM_FI_DEV_PCIE_LINK_WIDTH", GpuField::PcieWidth, 1 },
        { "DCGM_FI_DEV_PCIE_MAX_LINK_WIDTH", GpuField::PcieWidthMax, 1 },
    };
    for (const auto& n : kNumbers)
        if (name == QLatin1String(n.name)) {
            // DCGM's blank sentinels (9223372036854775794 and friends) are not values.
            g.s.setValue(n.field, hasValue(v) && v >= 0 && v < 1e15 ? v * n.scale : noValue());
            return true;
        }
    static const struct
    {
        const char* name;
        GpuField field;
    } kFlags[] = {
        { "DCGM_FI_DEV_RETIRED_PENDING", GpuField::RetiredPending },
        { "DCGM_FI_DEV_ROW_REMAP_PENDING", GpuField::RemapPending },
        { "DCGM_FI_DEV_ROW_REMAP_FAILURE", GpuField::RemapFailure },
    };
    for (const auto& f : kFlags)
        if (name == QLatin1String(f.name)) {
            if (hasValue(v) && (v == 0 || v == 1))
                g.s.setText(f.field, v == 1 ? QStringLiteral("Yes") : QStringLiteral("No"));
            return true;
        }
    if (name == u"DCGM_FI_DEV_PCIE_REPLAY_COUNTER") {
        g.pcieReplays = hasValue(v) && v >= 0 && v < 1e15 ? v : noValue();
        return true;
    }
    if (name.startsWith(u"DCGM_FI_DEV_NVLINK_") && name.endsWith(u"_ERROR_COUNT_TOTAL")) {
        if (hasValue(v) && v >= 0 && v < 1e15)
            g.nvlinkErrors = (hasValue(g.nvlinkErrors) ? g.nvlinkErrors : 0) + v;
        return true;
    }
    return false;
}

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

void setGpuValue(GpuAcc& g, const QString& name, double v)
{
    GpuSample& s = g.s;
    if (name == u"DCGM_FI_DEV_GPU_UTIL")
        s.setValue(GpuField::UtilGpu, v);
    else if (name == u"DCGM_FI_DEV_FB_USED")
        s.setValue(GpuField::MemUsed, v);
    else if (name == u"DCGM_FI_DEV_FB_FREE")
        s.setValue(GpuField::MemFree, v);
    else if (name == u"DCGM_FI_DEV_GPU_TEMP")
        s.setValue(GpuField::TempGpu, v);
    else if (name == u"DCGM_FI_DEV_MEMORY_TEMP")
        // dcgm-exporter prints DCGM's "blank" sentinels (9223372036854775794) where the GPU
        // has no memory sensor: not a temperature.
        s.setValue(GpuField::TempMemory, v < 1000 ? v : noValue());
    else if (name == u"DCGM_FI_DEV_POWER_USAGE")
        s.setValue(GpuField::PowerDraw, v);
    else if (name == u"DCGM_FI_DEV_SM_CLOCK")
        s.setValue(GpuField::ClockSm, v);
    else if (name == u"DCGM_FI_DEV_XID_ERRORS")
        g.xid = v;
    else if (setProfOrHealthValue(g, name, v))
        return;
    else if (name == u"DCGM_FI_DEV_ECC_DBE_VOL_TOTAL")
        s.setValue(GpuField::EccUncorrected, v);
    else if (name == u"DCGM_FI_DEV_ECC_SBE_VOL_TOTAL")
        s.setValue(GpuField::EccCorrected, v);
    else if (name == u"DCGM_FI_DEV_CLOCK_THROTTLE_REASONS" || name == u"DCGM_FI_DEV_CLOCKS_EVENT_REASONS") {
        if (hasValue(v) && v >= 0 && v < 1e18) {
            s.reasons = quint64(v);
            s.hasReasons = true;
        }
    } else if (name == u"nvidia_smi_utilization_gpu_ratio")
        s.setValue(GpuField::UtilGpu, hasValue(v) ? v * 100 : v);
    else if (name == u"nvidia_smi_memory_used_bytes")
        s.setValue(GpuField::MemUsed, v / kMiB);
    else if (name == u"nvidia_smi_memory_total_bytes")
        s.setValue(GpuField::MemTotal, v / kMiB);
    else if (name == u"nvidia_smi_memory_free_bytes")
        s.setValue(GpuField::MemFree, v / kMiB);
    else if (name == u"nvidia_smi_temperature_gpu")
        s.setValue(GpuField::TempGpu, v);
    else if (name == u"nvidia_smi_power_draw_watts")
        s.setValue(GpuField::PowerDraw, v);
    else if (name == u"nvidia_smi_power_limit_watts")
        s.setValue(GpuField::PowerLimit, v);
    else if (name == u"nvidia_smi_clocks_current_sm_clock_hz")
        s.setValue(GpuField::ClockSm, v / 1e6);
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

QList<FleetQuery> fleetQueries()
{
    const QString gpuNames = QStringLiteral(
        "DCGM_FI_DEV_(GPU_UTIL|FB_USED|FB_FREE|GPU_TEMP|MEMORY_TEMP|POWER_USAGE|SM_CLOCK|XID_ERRORS|"
        "ECC_SBE_VOL_TOTAL|ECC_DBE_VOL_TOTAL|CLOCK_THROTTLE_REASONS|CLOCKS_EVENT_REASONS|"
        "ECC_SBE_AGG_TOTAL|ECC_DBE_AGG_TOTAL|RETIRED_SBE|RETIRED_DBE|RETIRED_PENDING|ROW_REMAP_PENDING|"
        "ROW_REMAP_FAILURE|CORRECTABLE_REMAPPED_ROWS|UNCORRECTABLE_REMAPPED_ROWS|PCIE_REPLAY_COUNTER|"
        "PCIE_LINK_GEN|PCIE_LINK_WIDTH|PCIE_MAX_LINK_GEN|PCIE_MAX_LINK_WIDTH|"
        "NVLINK_(CRC_FLIT|CRC_DATA|REPLAY|RECOVERY)_ERROR_COUNT_TOTAL)|"
        "DCGM_FI_PROF_(SM_ACTIVE|SM_OCCUPANCY|PIPE_TENSOR_ACTIVE|DRAM_ACTIVE|PCIE_TX_BYTES|PCIE_RX_BYTES|"
        "NVLINK_TX_BYTES|NVLINK_RX_BYTES)|"
        "nvidia_smi_(utilization_gpu_ratio|memory_used_bytes|memory_total_bytes|memory_free_bytes|temperature_gpu|"
        "power_draw_watts|power_limit_watts|clocks_current_sm_clock_hz)");
    return {
        // max by: one value per GPU even when two Prometheus jobs scrape the same exporter.
        { QStringLiteral("gpu"),
            QStringLiteral("max by (__name__, instance, gpu, uuid) ({__name__=~\"%1\"})").arg(gpuNames) },
        // Names and models once per GPU, not on every value.
        { QStringLiteral("gpu_info"),
            QStringLiteral("count by (instance, gpu, UUID, modelName, Hostname, uuid, name) "
                           "({__name__=~\"DCGM_FI_DEV_GPU_UTIL|nvidia_smi_gpu_info\"})") },
        { QStringLiteral("host"),
            QStringLiteral("max by (__name__, instance, nodename) ({__name__=~\"node_load1|node_memory_MemAvailable_"
                           "bytes|node_memory_MemTotal_bytes|node_uname_info\"})") },
        // SGLang's gauges repeat on every TP rank of one batch: rank 0 (or no rank label).
        { QStringLiteral("server"),
            QStringLiteral("sum by (__name__, instance) ({__name__=~\"sglang:(gen_throughput|num_running_reqs|num_"
                           "queue_reqs)|vllm:(num_requests_running|num_requests_waiting)\", tp_rank=~\"0|\"})") },
        { QStringLiteral("vllm_rate"), QStringLiteral("sum by (instance) (rate(vllm:generation_tokens_total[1m]))") },
        { QStringLiteral("up"), QStringLiteral("up") },
        { QStringLiteral("last_sample"),
            QStringLiteral("max by (instance) (timestamp({__name__=~\"DCGM_FI_DEV_GPU_UTIL|nvidia_smi_utilization_gpu_"
                           "ratio\"}))") },
    };
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

FleetSnapshot assembleFleet(const QHash<QString, PromQueryResult>& answers, const AssembleOptions& o)
{
    FleetSnapshot snap;
    snap.timeMs = o.nowMs;
    snap.scrapeIntervalS = o.scrapeIntervalS;
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
    const auto each = [&](const QString& family, auto&& f) {
        const auto it = answers.constFind(family);
        if (it == answers.cend())
            return;
        for (const PromSeries& s : it->series)
            if (s.metric.contains(QStringLiteral("instance")))
                f(s);
    };
    each(QStringLiteral("up"), [&](const PromSeries& s) {
        HostAcc& h = hostFor(s.metric);
        if (s.value == 0) {
            h.down = true;
            h.downInstances.append(s.metric.value(QStringLiteral("instance")));
        }
    });
    each(QStringLiteral("gpu"), [&](const PromSeries& s) {
        HostAcc& h = hostFor(s.metric);
        h.sawGpuSeries = true;
        GpuAcc& g = h.gpus[gpuKey(s.metric)];
        setGpuValue(g, s.metric.value(QStringLiteral("__name__")), s.value);
        if (g.s.text(GpuField::Uuid).isEmpty())
            g.s.setText(GpuField::Uuid, s.metric.value(QStringLiteral("uuid")));
        if (const QString idx = s.metric.value(QStringLiteral("gpu")); !idx.isEmpty())
            g.s.index = idx.toInt();
    });
    each(QStringLiteral("gpu_info"), [&](const PromSeries& s) {
        HostAcc& h = hostFor(s.metric);
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
    });
    each(QStringLiteral("host"), [&](const PromSeries& s) {
        HostAcc& h = hostFor(s.metric);
        const QString name = s.metric.value(QStringLiteral("__name__"));
        if (name == u"node_load1")
            h.host.load1 = s.value;
        else if (name == u"node_memory_MemAvailable_bytes")
            h.host.memAvailableBytes = s.value;
        else if (name == u"node_memory_MemTotal_bytes")
            h.host.memTotalBytes = s.value;
        else if (name == u"node_uname_info")
            h.nodeName = s.metric.value(QStringLiteral("nodename"));
    });
    each(QStringLiteral("server"), [&](const PromSeries& s) {
        HostAcc& h = hostFor(s.metric);
        const QString name = s.metric.value(QStringLiteral("__name__"));
        h.host.serverKind = name.startsWith(u"sglang:") ? QStringLiteral("sglang") : QStringLiteral("vllm");
        if (name == u"sglang:gen_throughput")
            h.host.serverTokensPerS = s.value;
        else if (name == u"sglang:num_running_reqs" || name == u"vllm:num_requests_running")
            h.host.serverRunning = s.value;
        else if (name == u"sglang:num_queue_reqs" || name == u"vllm:num_requests_waiting")
            h.host.serverQueued = s.value;
    });
    each(QStringLiteral("vllm_rate"), [&](const PromSeries& s) {
        HostAcc& h = hostFor(s.metric);
        h.host.serverKind = QStringLiteral("vllm");
        h.host.serverTokensPerS = s.value;
    });
    each(QStringLiteral("last_sample"), [&](const PromSeries& s) {
        HostAcc& h = hostFor(s.metric);
        if (s.value > 0 && s.value < 1e11) // seconds since the epoch; NaN and nonsense are no time
            h.host.lastSampleMs = qMax(h.host.lastSampleMs, qint64(std::llround(s.value * 1000)));
    });

    QHash<QString, const FleetHost*> previous;
    if (o.previous)
        for (const FleetHost& p : *o.previous)
            previous.insert(p.key, &p);

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

    const double staleAfterS = kStaleIntervals * o.scrapeIntervalS;
    for (auto it = acc.begin(); it != acc.end(); ++it) {
        HostAcc& h = it.value();
        FleetHost& host = h.host;
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
        const FleetHost* before = previous.value(host.key);
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
        snap.hosts.append(std::move(host));
    }
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
    // dcgm-exporter's series by gpu index, the nvidia-smi exporter's by uuid; suffixes convert units.
    auto per = [&](const char* dcgm, const char* dcgmSuffix, const char* smi, const char* smiSuffix) {
        return QStringLiteral("max by (gpu) (%1{%5}%2) or max by (uuid) (%3{%5}%4)")
            .arg(QLatin1String(dcgm), QLatin1String(dcgmSuffix), QLatin1String(smi), QLatin1String(smiSuffix), sel);
    };
    return {
        { QStringLiteral("GPU utilization"), QStringLiteral("%"),
            per("DCGM_FI_DEV_GPU_UTIL", "", "nvidia_smi_utilization_gpu_ratio", " * 100") },
        { QStringLiteral("Temperature"), QStringLiteral("°C"),
            per("DCGM_FI_DEV_GPU_TEMP", "", "nvidia_smi_temperature_gpu", "") },
        { QStringLiteral("Power"), QStringLiteral("W"),
            per("DCGM_FI_DEV_POWER_USAGE", "", "nvidia_smi_power_draw_watts", "") },
        { QStringLiteral("Memory used"), QStringLiteral("GiB"),
            per("DCGM_FI_DEV_FB_USED", " / 1024", "nvidia_smi_memory_used_bytes", " / 2^30") },
        { QStringLiteral("Server tokens/s"), QStringLiteral("tok/s"),
            QStringLiteral(
                "sum(sglang:gen_throughput{%1, tp_rank=~\"0|\"}) or sum(rate(vllm:generation_tokens_total{%1}[1m]))")
                .arg(sel) },
    };
}

double rangeStepSeconds(double windowS, double scrapeIntervalS)
{
    return qMax(qMax(scrapeIntervalS, 1.0), std::ceil(windowS / 11000.0));
}

} // namespace kf::fleet
