// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/fleet/promclient.h"
#include "core/gpu/alerts.h"
#include "core/gpu/gpuhealth.h"
#include "core/gpu/nvidiasmi.h"
#include "core/hosts/hostprofile.h"

#include <QList>
#include <QString>
#include <QStringList>

// The fleet as one list of hosts, whichever source fed it: Prometheus (dcgm-exporter or the
// nvidia-smi exporter, node_exporter, SGLang's and vLLM's /metrics) or the SSH streams of the
// session. The Fleet view, `fleet status` and host selection for rollouts read only this.
//
// Prometheus metric names read (one PromQL query per family for ALL hosts, fleetQueries()):
//   GPU: dcgm-exporter's (labels Hostname, gpu, UUID, modelName) and the nvidia_gpu_exporter's
//     (label uuid; nvidia_smi_gpu_info has name) names of core/gpu/exporterfields.h, read into
//     the field table's rows; the health fields judged by core/gpu/gpuhealth.h with the Xid.
//   host (node_exporter): node_load1, node_memory_MemAvailable_bytes / MemTotal_bytes,
//     node_uname_info{nodename}.
//   server: core/server/metricnames.h's running, queued and generation-throughput names in
//     every spelling (tp rank 0: the ranks of one batch report the same gauge), and for vLLM
//     the rate of its generated tokens.
//   up (per target) and timestamp() of the GPU utilization series (the age of the newest sample).
// Hosts are keyed by the address in `instance` (without the port), so a host's
// dcgm-exporter (:9400), node_exporter (:9100) and server (:30000) meet in one host; hosts
// whose names (Hostname / nodename) agree are merged too (an exporter in a pod).
namespace kf::fleet {

// How a Prometheus host was mapped to a saved profile (mapProfiles).
enum class ProfileMatch : quint8 {
    None,
    Address,  // the profile's host is an address in `instances`: this is that machine
    NameOnly, // only the name matches: an exporter elsewhere may claim it; never acted on unasked
};

// One server of a host as its ServerSession knows it (the SSH source).
struct FleetServer
{
    quint16 port = 0;
    qint64 polledMs = 0;    // the last poll; 0: not polled yet
    bool reachable = false; // something answered HTTP on the port
    int healthStatus = 0;   // /health's HTTP status (200: healthy)
    double tokensPerS = noValue();
    double running = noValue();
    bool jobRunning = false; // a server job of ours runs on the port
};

struct FleetHost
{
    QString key;           // the instance address ("10.0.0.11"), or the profile name (SSH source)
    QString name;          // Hostname / nodename label, else the address
    QStringList instances; // every target that fed this host ("10.0.0.11:9400", ...)
    Labels labels;         // target labels of the first target (job, and relabelled ones: rack, ...)
    QStringList tags;      // the matched profile's tags
    QString profileName;   // the KernelForge profile mapped to it; empty: only in Prometheus
    ProfileMatch profileMatch = ProfileMatch::None;
    QString profileHost; // that profile's host (shown when only the name matched)
    bool viaSsh = false; // fed by the session's SSH streams, not by Prometheus

    QList<GpuSample> gpus;   // sorted by index
    QString gpuNote;         // why there are no GPU samples, when it is known ("No NVIDIA driver found on this host")
    QList<double> xid;       // parallel to gpus: the last Xid (0: none; NaN: not exported)
    QList<GpuHealth> health; // parallel to gpus when known (Prometheus: from the exported fields;
                             // SSH: the monitor's last health check)

    bool stale = false;
    QString staleReason; // "target 10.0.0.11:9400 is down: <error>", "no sample for 47 s"
    qint64 lastSampleMs = 0;

    double load1 = noValue();
    double memAvailableBytes = noValue();
    double memTotalBytes = noValue();

    QString serverKind; // "sglang", "vllm", empty: none
    double serverTokensPerS = noValue();
    double serverRunning = noValue();
    double serverQueued = noValue();
    // The SSH source's view of the host's servers (its ServerSession): every server of ours
    // running there and the port the Server pane watches, each by its port. Prometheus sees a
    // server only through its metrics (serverKind).
    QList<FleetServer> servers;

    // The build the host's Build pane follows while it runs (its BuildSession): buildJob empty = none known to run.
    QString buildJob;
    int buildDone = -1; // -1: not known yet
    int buildTotal = -1;
    double buildEtaS = noValue();

    QList<Alert> alerts; // evaluated on fresh data only (a stale host raises nothing new)

    double meanUtil() const;
    double hottestC() const;
    double maxMemFraction() const;
    bool throttling() const; // HW slowdown, power brake, thermal or SW power cap on some GPU
    bool hasXid() const;
    bool unhealthy() const; // some GPU's health verdict is Fail
};

// The PromQL of one fleet refresh: a fixed number of queries whatever the fleet's size.
struct FleetQuery
{
    QString family; // "gpu", "gpu_info", "host", "server", "vllm_rate", "up", "last_sample"
    QString promql;
};
QList<FleetQuery> fleetQueries();

struct FleetSnapshot
{
    QList<FleetHost> hosts; // sorted by name
    qint64 timeMs = 0;
    double scrapeIntervalS = 15;
    qint64 queryWallMs = 0; // all queries of this refresh, as the client saw them
    QStringList problems;   // a family that failed ("server: Prometheus error ...")
};

// What the assembly needs besides the answers.
struct AssembleOptions
{
    qint64 nowMs = 0;
    double scrapeIntervalS = 15; // from /api/v1/targets; staleness is 3 intervals without a sample
    AlertRules rules;
    QHash<QString, QString> targetErrors;       // instance -> lastError (from /api/v1/targets)
    const QList<FleetHost>* previous = nullptr; // the last snapshot: stale hosts keep their values
};

// Pure: the family -> answer map of one refresh into hosts. Families missing from the map
// contribute nothing (their query failed: see FleetSnapshot::problems).
FleetSnapshot assembleFleet(const QHash<QString, PromQueryResult>& answers, const AssembleOptions& options);

// "10.0.0.11:9400" -> "10.0.0.11"; "[fe80::1]:9100" -> "fe80::1"; "gpu1" -> "gpu1".
QString instanceAddress(const QString& instance);

// Profiles: a host maps to the profile whose host equals one of the host's addresses
// (ProfileMatch::Address), else to the profile whose name equals the host's name or its first
// DNS label (ProfileMatch::NameOnly: the name is an exporter's label, any exporter can claim
// it). Sets profileName, profileMatch, profileHost and tags; returns how many were mapped.
int mapProfiles(QList<FleetHost>& hosts, const QList<HostProfile>& profiles);
// "matches the saved host NAME by name only (saved address A, this one B)"; empty unless NameOnly.
QString nameOnlyMatchText(const FleetHost& host);
// A profile for a host that is only in Prometheus (name and address; the user adds the login).
// Both come from an exporter's labels: refused unless they pass checkHostName() (no control
// character, no leading '-', a host name's or address's characters).
Result<HostProfile> profileFor(const FleetHost& host);

// LABEL=VALUE (also "tag=T" for profile tags, "name=N", "profile=P"); VALUE may end in '*'.
bool matchesSelector(const FleetHost& host, const QString& key, const QString& value);

enum class FleetSort : quint8 { Name, Hottest, Busiest, MemoryUsed, Stale };
enum class FleetFilter : quint8 { All, Alerts, Throttling, Xid, MemoryFull, Stale, Unhealthy };
QString fleetSortName(FleetSort s);     // "name", "hottest", ...
QString fleetFilterName(FleetFilter f); // "all", "alerts", "throttling", "xid", "memory-full", "stale", "unhealthy"
// Every filter, in menu order.
QList<FleetFilter> fleetFilters();
std::optional<FleetSort> fleetSortFromName(const QString& name);
std::optional<FleetFilter> fleetFilterFromName(const QString& name);
bool passesFilter(const FleetHost& host, FleetFilter filter, const AlertRules& rules);

struct FleetGroup
{
    QString name;     // the label's / tag's value; "(none)" for hosts without it
    QList<int> hosts; // indexes into the host list, in display order
};
// Filters, groups (groupBy: "" for one group, "tag" for profile tags (first tag), or a label
// name such as "job") and sorts, in O(n log n). Ties sort by name.
QList<FleetGroup> arrangeFleet(const QList<FleetHost>& hosts, const QString& groupBy, FleetSort sort,
    FleetFilter filter, const AlertRules& rules, const QString& nameFilter = {});

// Drill-down charts of one host from /api/v1/query_range: one series per GPU (label "gpu"
// or "uuid") for each chart, selected by the host's instances.
struct ChartQuery
{
    QString title; // "GPU utilization"
    QString unit;  // "%"
    QString promql;
};
QList<ChartQuery> hostChartQueries(const FleetHost& host);
// The step for a window: the scrape interval, or coarser so a series stays under Prometheus'
// 11000 points per query.
double rangeStepSeconds(double windowS, double scrapeIntervalS);

} // namespace kf::fleet
