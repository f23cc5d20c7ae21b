// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/fleethost.h"

#include <QRegularExpression>
#include <QTest>

#include <cmath>
#include <limits>

using namespace kf;
using namespace kf::fleet;

namespace {

PromSeries s(const Labels& m, double v)
{
    PromSeries p;
    p.metric = m;
    p.value = v;
    return p;
}

// One dcgm-exporter host with two GPUs, a node_exporter and an SGLang server on it.
QHash<QString, PromQueryResult> answers(const QString& address, double nowS, bool up = true, double gpu1Temp = 60)
{
    const QString dcgm = address + ":9400", node = address + ":9100", srv = address + ":30000";
    QHash<QString, PromQueryResult> a;
    auto gpu = [&](const char* name, const char* idx, double v) {
        return s({ { "__name__", name }, { "instance", dcgm }, { "gpu", idx } }, v);
    };
    a["gpu"].series = { gpu("DCGM_FI_DEV_GPU_UTIL", "0", 90), gpu("DCGM_FI_DEV_GPU_UTIL", "1", 10),
        gpu("DCGM_FI_DEV_FB_USED", "0", 70000), gpu("DCGM_FI_DEV_FB_FREE", "0", 11059),
        gpu("DCGM_FI_DEV_FB_USED", "1", 1000), gpu("DCGM_FI_DEV_FB_FREE", "1", 80059),
        gpu("DCGM_FI_DEV_GPU_TEMP", "0", 50), gpu("DCGM_FI_DEV_GPU_TEMP", "1", gpu1Temp),
        gpu("DCGM_FI_DEV_MEMORY_TEMP", "1", 9223372036854775794.0), gpu("DCGM_FI_DEV_XID_ERRORS", "1", 79),
        gpu("DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "0", 8), gpu("DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "0", 0),
        gpu("DCGM_FI_DEV_POWER_USAGE", "10", 300) };
    a["gpu_info"].series = { s({ { "instance", dcgm }, { "gpu", "0" }, { "UUID", "GPU-a" },
                                   { "modelName", "NVIDIA H200" }, { "Hostname", "gpu1" } },
                                 1),
        s({ { "instance", dcgm }, { "gpu", "1" }, { "UUID", "GPU-b" }, { "modelName", "NVIDIA H200" },
              { "Hostname", "gpu1" } },
            1) };
    a["host"].series = { s({ { "__name__", "node_load1" }, { "instance", node } }, 3.5),
        s({ { "__name__", "node_uname_info" }, { "instance", node }, { "nodename", "gpu1" } }, 1) };
    a["server"].series = { s({ { "__name__", "sglang:gen_throughput" }, { "instance", srv } }, 1234.5),
        s({ { "__name__", "sglang:num_running_reqs" }, { "instance", srv } }, 7) };
    a["up"].series = { s({ { "__name__", "up" }, { "instance", dcgm }, { "job", "dcgm" } }, up ? 1 : 0),
        s({ { "__name__", "up" }, { "instance", node }, { "job", "node" } }, 1) };
    if (up)
        a["last_sample"].series = { s({ { "instance", dcgm } }, nowS - 1) };
    return a;
}

} // namespace

class TestFleetHost : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void assemblesOneHostFromEveryFamily()
    {
        AssembleOptions o;
        o.nowMs = 1700000000000;
        const FleetSnapshot snap = assembleFleet(answers("10.0.0.11", 1700000000), o);
        QCOMPARE(snap.hosts.size(), 1);
        const FleetHost& h = snap.hosts.first();
        QCOMPARE(h.name, "gpu1");
        QCOMPARE(h.key, "10.0.0.11");
        QCOMPARE(h.instances.size(), 3);
        QCOMPARE(h.gpus.size(), 3); // gpu 10 has only power: still a GPU, sorted after 1
        QCOMPARE(h.gpus.at(0).index, 0);
        QCOMPARE(h.gpus.at(2).index, 10);
        QCOMPARE(h.gpus.at(0).value(GpuField::MemTotal), 81059.0);
        QCOMPARE(h.gpus.at(0).text(GpuField::Name), "NVIDIA H200");
        QCOMPARE(h.gpus.at(1).text(GpuField::Uuid), "GPU-b");
        QVERIFY(std::isnan(h.gpus.at(1).value(GpuField::TempMemory))); // DCGM's blank sentinel is no temperature
        QCOMPARE(h.xid.at(1), 79.0);
        QCOMPARE(h.load1, 3.5);
        QCOMPARE(h.serverKind, "sglang");
        QCOMPARE(h.serverTokensPerS, 1234.5);
        QCOMPARE(h.serverRunning, 7.0);
        QVERIFY(!h.stale);
        QVERIFY(h.throttling());
        QVERIFY(h.hasXid());
        QCOMPARE(h.meanUtil(), 50.0);
    }
    void gpmAndHealthFromDcgmExporter()
    {
        // dcgm-exporter's profiling and health fields: ratios and bytes/s into the GPM rows,
        // the health fields judged by the same rules as the SSH health check.
        QHash<QString, PromQueryResult> a;
        auto gpu = [&](const char* name, const char* idx, double v) {
            return s({ { "__name__", name }, { "instance", "10.0.0.12:9400" }, { "gpu", idx } }, v);
        };
        a["gpu"].series = { gpu("DCGM_FI_DEV_GPU_UTIL", "0", 97), gpu("DCGM_FI_DEV_GPU_UTIL", "1", 0),
            gpu("DCGM_FI_DEV_GPU_UTIL", "2", 50), gpu("DCGM_FI_PROF_SM_ACTIVE", "0", 0.93),
            gpu("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE", "0", 0.71), gpu("DCGM_FI_PROF_DRAM_ACTIVE", "0", 0.42),
            gpu("DCGM_FI_PROF_NVLINK_RX_BYTES", "0", 2097152), gpu("DCGM_FI_DEV_XID_ERRORS", "0", 0),
            gpu("DCGM_FI_DEV_ROW_REMAP_PENDING", "1", 1), gpu("DCGM_FI_DEV_UNCORRECTABLE_REMAPPED_ROWS", "1", 2),
            gpu("DCGM_FI_DEV_PCIE_REPLAY_COUNTER", "2", 9),
            gpu("DCGM_FI_DEV_NVLINK_CRC_FLIT_ERROR_COUNT_TOTAL", "2", 3),
            gpu("DCGM_FI_DEV_NVLINK_REPLAY_ERROR_COUNT_TOTAL", "2", 1), gpu("DCGM_FI_DEV_PCIE_LINK_WIDTH", "2", 8),
            gpu("DCGM_FI_DEV_PCIE_MAX_LINK_WIDTH", "2", 16),
            gpu("DCGM_FI_DEV_RETIRED_PENDING", "2", 9223372036854775794.0) };
        AssembleOptions o;
        o.nowMs = 1700000000000;
        const FleetHost h = assembleFleet(a, o).hosts.first();
        QCOMPARE(h.gpus.size(), 3);
        QCOMPARE(h.gpus[0].value(GpuField::SmActive), 93.0);
        QCOMPARE(h.gpus[0].value(GpuField::TensorActive), 71.0);
        QCOMPARE(h.gpus[0].value(GpuField::DramActive), 42.0);
        QCOMPARE(h.gpus[0].value(GpuField::NvlinkRx), 2.0);
        QVERIFY(!hasValue(h.gpus[1].value(GpuField::SmActive)));
        QCOMPARE(h.health.size(), 3);
        QCOMPARE(h.health[0].verdict, HealthLevel::Pass);
        QCOMPARE(h.health[1].verdict, HealthLevel::Fail);              // rows pending remapping
        QCOMPARE(h.health[2].verdict, HealthLevel::Warn);              // replays, NVLink errors, x8 of x16
        QCOMPARE(h.gpus[2].text(GpuField::RetiredPending), QString()); // DCGM's blank sentinel is no answer
        QVERIFY(h.health[2].summary().contains(QStringLiteral("4 NVLink error(s)")));
        QVERIFY(h.unhealthy());
        // The fleet filter and the CLI's name for it.
        QList<FleetHost> hosts { h };
        FleetHost fine = h;
        fine.name = QStringLiteral("fine");
        fine.health = { h.health[0] };
        hosts << fine;
        const auto shown = arrangeFleet(hosts, {}, FleetSort::Name, FleetFilter::Unhealthy, o.rules);
        QCOMPARE(shown.size(), 1);
        QCOMPARE(shown.first().hosts, QList<int> { 0 });
        QCOMPARE(fleetFilterFromName(QStringLiteral("unhealthy")), FleetFilter::Unhealthy);
        QCOMPARE(fleetFilters().size(), 7);
        // An Xid from dcgm-exporter fails the GPU too (the answers above: Xid 79 on GPU 1).
        const FleetHost x = assembleFleet(answers("10.0.0.11", 1700000000), o).hosts.first();
        QCOMPARE(x.health[1].verdict, HealthLevel::Fail);
        QVERIFY(x.health[1].summary().contains(QStringLiteral("Xid 79")));
    }

    void alertsAreTheSshStreamRules()
    {
        AssembleOptions o;
        o.nowMs = 1700000000000;
        const FleetHost h = assembleFleet(answers("10.0.0.11", 1700000000, true, 92), o).hosts.first();
        // The same rule function the nvidia-smi stream uses, on the same samples.
        QList<Alert> expected = evaluateAlerts(h.gpus, o.rules, o.nowMs);
        expected += evaluateXidAlerts(h.gpus, h.xid, o.rules, o.nowMs);
        QCOMPARE(h.alerts.size(), expected.size());
        QStringList kinds;
        for (const Alert& a : h.alerts)
            kinds << alertKindName(a.kind);
        kinds.sort();
        QCOMPARE(kinds, QStringList({ "hw_slowdown", "temperature", "xid" }));
        AlertRules off;
        off.xidErrors = false;
        QVERIFY(evaluateXidAlerts(h.gpus, h.xid, off).isEmpty());
    }
    void downTargetIsStaleWithLastValuesNeverZero()
    {
        AssembleOptions o;
        o.nowMs = 1700000000000;
        const FleetSnapshot before = assembleFleet(answers("10.0.0.11", 1700000000), o);
        // The target goes down: Prometheus drops its series (staleness markers), up == 0.
        auto a = answers("10.0.0.11", 1700000010, false);
        a["gpu"].series.clear();
        a["gpu_info"].series.clear();
        a["host"].series.clear(); // node_exporter down too: no name label is left
        o.nowMs += 10000;
        o.previous = &before.hosts;
        o.targetErrors.insert("10.0.0.11:9400", "connection refused");
        const FleetHost h = assembleFleet(a, o).hosts.first();
        QVERIFY(h.stale);
        QCOMPARE(h.name, "gpu1");
        QVERIFY2(h.staleReason.contains("10.0.0.11:9400 is down: connection refused"), qPrintable(h.staleReason));
        QCOMPARE(h.gpus.size(), 3);
        QCOMPARE(h.gpus.at(0).value(GpuField::UtilGpu), 90.0);
        QVERIFY(h.alerts.isEmpty()); // nothing new is raised from old values
    }
    void oldSampleIsStaleAfterThreeIntervals()
    {
        AssembleOptions o;
        o.scrapeIntervalS = 15;
        o.nowMs = 1700000000000;
        auto a = answers("10.0.0.11", 1700000000);
        a["last_sample"].series = { s({ { "instance", "10.0.0.11:9400" } }, 1700000000 - 44) };
        QVERIFY(!assembleFleet(a, o).hosts.first().stale); // 44 s < 45 s
        a["last_sample"].series = { s({ { "instance", "10.0.0.11:9400" } }, 1700000000 - 47) };
        const FleetHost h = assembleFleet(a, o).hosts.first();
        QVERIFY(h.stale);
        QVERIFY2(h.staleReason.contains("no GPU sample for 47 s"), qPrintable(h.staleReason));
    }
    void vanishedHostStaysAsStale()
    {
        AssembleOptions o;
        o.nowMs = 1700000000000;
        const FleetSnapshot before = assembleFleet(answers("10.0.0.11", 1700000000), o);
        o.previous = &before.hosts;
        const FleetSnapshot after = assembleFleet(answers("10.0.0.12", 1700000000), o);
        QCOMPARE(after.hosts.size(), 2);
        int stale = 0;
        for (const FleetHost& h : after.hosts)
            stale += h.stale && h.key == "10.0.0.11" && h.staleReason == "no longer in Prometheus";
        QCOMPARE(stale, 1);
    }
    void nvidiaSmiExporterNames()
    {
        QHash<QString, PromQueryResult> a;
        const Labels base { { "instance", "10.0.0.5:9835" }, { "uuid", "GPU-x" } };
        auto m = [&](const char* name, double v) {
            Labels l = base;
            l.insert("__name__", name);
            return s(l, v);
        };
        a["gpu"].series
            = { m("nvidia_smi_utilization_gpu_ratio", 0.5), m("nvidia_smi_memory_used_bytes", 1024.0 * 1024 * 1024),
                  m("nvidia_smi_memory_total_bytes", 4.0 * 1024 * 1024 * 1024),
                  m("nvidia_smi_clocks_current_sm_clock_hz", 1.98e9) };
        a["gpu_info"].series
            = { s({ { "instance", "10.0.0.5:9835" }, { "uuid", "GPU-x" }, { "name", "NVIDIA L4" } }, 1) };
        const FleetHost h = assembleFleet(a, {}).hosts.first();
        QCOMPARE(h.gpus.size(), 1);
        QCOMPARE(h.gpus.at(0).value(GpuField::UtilGpu), 50.0);
        QCOMPARE(h.gpus.at(0).value(GpuField::MemUsed), 1024.0);
        QCOMPARE(h.gpus.at(0).value(GpuField::MemFree), 3072.0);
        QCOMPARE(h.gpus.at(0).value(GpuField::ClockSm), 1980.0);
        QCOMPARE(h.gpus.at(0).text(GpuField::Name), "NVIDIA L4");
        QCOMPARE(h.gpus.at(0).index, 0);
        QCOMPARE(h.name, "10.0.0.5");
    }
    void hostsMergeByNameAcrossAddresses()
    {
        // dcgm-exporter in a pod (its own address) and node_exporter on the node: one host.
        QHash<QString, PromQueryResult> a;
        a["gpu"].series
            = { s({ { "__name__", "DCGM_FI_DEV_GPU_UTIL" }, { "instance", "10.244.1.7:9400" }, { "gpu", "0" } }, 5) };
        a["gpu_info"].series
            = { s({ { "instance", "10.244.1.7:9400" }, { "gpu", "0" }, { "Hostname", "node-a" } }, 1) };
        a["host"].series
            = { s({ { "__name__", "node_uname_info" }, { "instance", "10.0.0.1:9100" }, { "nodename", "node-a" } }, 1),
                  s({ { "__name__", "node_load1" }, { "instance", "10.0.0.1:9100" } }, 2) };
        const auto hosts = assembleFleet(a, {}).hosts;
        QCOMPARE(hosts.size(), 1);
        QCOMPARE(hosts.first().gpus.size(), 1);
        QCOMPARE(hosts.first().load1, 2.0);
    }
    void instanceAddresses()
    {
        QCOMPARE(instanceAddress("10.0.0.1:9400"), "10.0.0.1");
        QCOMPARE(instanceAddress("[fe80::1]:9100"), "fe80::1");
        QCOMPARE(instanceAddress("gpu1"), "gpu1");
        QCOMPARE(instanceAddress("fe80::1"), "fe80::1");
    }
    void profilesMapAndImport()
    {
        AssembleOptions o;
        QList<FleetHost> hosts = assembleFleet(answers("10.0.0.11", 0), o).hosts;
        hosts += assembleFleet(answers("10.0.0.12", 0), o).hosts;
        hosts[1].name = "gpu2.lab.example";
        HostProfile byAddress;
        byAddress.name = "first";
        byAddress.host = "10.0.0.11";
        byAddress.tags = { "lab" };
        HostProfile byShortName;
        byShortName.name = "gpu2";
        byShortName.host = "gpu2.internal";
        QCOMPARE(mapProfiles(hosts, { byAddress, byShortName }), 2);
        QCOMPARE(hosts.at(0).profileName, "first");
        QCOMPARE(hosts.at(0).profileMatch, ProfileMatch::Address);
        QCOMPARE(hosts.at(0).tags, QStringList { "lab" });
        QVERIFY(nameOnlyMatchText(hosts.at(0)).isEmpty());
        // The name is an exporter's label: a match by it alone is marked, with both addresses.
        QCOMPARE(hosts.at(1).profileName, "gpu2");
        QCOMPARE(hosts.at(1).profileMatch, ProfileMatch::NameOnly);
        QCOMPARE(nameOnlyMatchText(hosts.at(1)),
            "matches the saved host gpu2 by name only (saved address gpu2.internal, this one 10.0.0.12)");
        const auto p = profileFor(hosts.at(0));
        QVERIFY2(p, qPrintable(p.error()));
        QCOMPARE(p->host, "10.0.0.11");
        QCOMPARE(p->name, "gpu1");
        QCOMPARE(p->tags, QStringList({ "prometheus", "dcgm" }));
        QVERIFY(matchesSelector(hosts.at(0), "job", "dcgm"));
        QVERIFY(matchesSelector(hosts.at(0), "tag", "lab"));
        QVERIFY(matchesSelector(hosts.at(0), "name", "gpu*"));
        QVERIFY(!matchesSelector(hosts.at(0), "job", "node"));
        QVERIFY(!matchesSelector(hosts.at(0), "rack", "a"));
    }
    // What a hostile exporter's labels would make of a profile: nothing.
    void exporterLabelsAreCheckedBeforeImport_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("address");
        QTest::addColumn<QString>("why");
        QTest::newRow("ansible line") << "n1\nh2\tansible_ssh_common_args=-oProxyCommand=touch${IFS}pwned"
                                      << "10.0.0.9"
                                      << "control character \\n";
        QTest::newRow("tab") << "gpu\tx"
                             << "10.0.0.9"
                             << "control character \\t";
        QTest::newRow("equals") << "a=b"
                                << "10.0.0.9"
                                << "'=' is not a letter";
        QTest::newRow("option") << "-oProxyCommand=x"
                                << "10.0.0.9"
                                << "starts with '-'";
        QTest::newRow("escape") << "gpu\x1b[2K"
                                << "10.0.0.9"
                                << "control character \\x1b";
        QTest::newRow("address option") << "gpu9"
                                        << "-oProxyCommand=x"
                                        << "starts with '-'";
        QTest::newRow("address space") << "gpu9"
                                       << "10.0.0.9 -J x"
                                       << "' ' is not a letter";
        QTest::newRow("bad ipv6") << "gpu9"
                                  << "fe80::1;x"
                                  << "in an IPv6 address";
    }
    void exporterLabelsAreCheckedBeforeImport()
    {
        QFETCH(QString, name);
        QFETCH(QString, address);
        QFETCH(QString, why);
        FleetHost h;
        h.name = name;
        h.key = address;
        const auto p = profileFor(h);
        QVERIFY(!p);
        QVERIFY2(p.error().contains(why), qPrintable(p.error()));
        QVERIFY2(!p.error().contains(u'\n') && !p.error().contains(u'\x1b'), qPrintable(p.error()));
        for (const char* fine : { "gpu-node-001", "gpu1.lab.example", "10.0.0.9", "fe80::1%eth0", "node_7" }) {
            h.name = h.key = QString::fromLatin1(fine);
            QVERIFY2(profileFor(h), fine);
        }
        // A job label that is no plain word is left out of the tags, the host is not.
        h.labels.insert("job", "a\nb");
        QCOMPARE(profileFor(h)->tags, QStringList { "prometheus" });
    }

    // +Inf, -Inf and NaN samples are no value: never a temperature, never an alert.
    void nonFiniteSamplesAreNoValue()
    {
        for (const double v : { std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity() }) {
            AssembleOptions o;
            o.nowMs = 1700000000000;
            auto a = answers("10.0.0.11", 1700000000, true, 60);
            for (PromSeries& sample : a["gpu"].series)
                if (sample.metric.value("__name__") == "DCGM_FI_DEV_GPU_TEMP")
                    sample.value = parseSampleValue(v > 0 ? u"+Inf" : u"-Inf");
            a["gpu"].series.removeIf(
                [](const PromSeries& x) { return x.metric.value("__name__") == "DCGM_FI_DEV_XID_ERRORS"; });
            const FleetSnapshot snap = assembleFleet(a, o);
            const FleetHost& h = snap.hosts.first();
            QVERIFY(!hasValue(h.hottestC()));
            for (const GpuSample& g : h.gpus)
                QVERIFY(!hasValue(g.value(GpuField::TempGpu)));
            for (const Alert& alert : h.alerts)
                QVERIFY2(alert.kind != AlertKind::GpuTemperature, qPrintable(alert.message));
        }
    }

    void arrangeSortsFiltersGroups()
    {
        QList<FleetHost> hosts;
        for (int i = 0; i < 6; ++i) {
            FleetHost h;
            h.name = QStringLiteral("h%1").arg(i);
            h.key = h.name;
            GpuSample g;
            g.index = 0;
            g.setValue(GpuField::TempGpu, 40 + i * 10 % 35);
            g.setValue(GpuField::UtilGpu, 100 - i * 10);
            g.setValue(GpuField::MemUsed, i == 2 ? 99 : 10);
            g.setValue(GpuField::MemTotal, 100);
            h.gpus = { g };
            h.xid = { i == 4 ? 79.0 : 0.0 };
            h.stale = i == 5;
            h.labels.insert("rack", i % 2 ? "b" : "a");
            if (i == 0)
                h.labels.remove("rack");
            hosts << h;
        }
        const AlertRules rules;
        auto names = [&](const QList<FleetGroup>& g, int group = 0) {
            QStringList n;
            for (int i : g.at(group).hosts)
                n << hosts.at(i).name;
            return n;
        };
        QCOMPARE(names(arrangeFleet(hosts, {}, FleetSort::Hottest, FleetFilter::All, rules)),
            QStringList({ "h3", "h2", "h5", "h1", "h4", "h0" }));
        QCOMPARE(names(arrangeFleet(hosts, {}, FleetSort::Busiest, FleetFilter::All, rules)).first(), "h0");
        QCOMPARE(names(arrangeFleet(hosts, {}, FleetSort::Name, FleetFilter::Stale, rules)), QStringList { "h5" });
        QCOMPARE(names(arrangeFleet(hosts, {}, FleetSort::Name, FleetFilter::Xid, rules)), QStringList { "h4" });
        QCOMPARE(names(arrangeFleet(hosts, {}, FleetSort::Name, FleetFilter::MemoryFull, rules)), QStringList { "h2" });
        const auto groups = arrangeFleet(hosts, "rack", FleetSort::Name, FleetFilter::All, rules);
        QCOMPARE(groups.size(), 3);
        QCOMPARE(groups.at(0).name, "a");
        QCOMPARE(groups.at(2).name, "(none)"); // hosts without the label last
        QCOMPARE(names(groups, 2), QStringList { "h0" });
        QCOMPARE(names(arrangeFleet(hosts, {}, FleetSort::Name, FleetFilter::All, rules, "H3")), QStringList { "h3" });
    }
    void queriesAreAFixedSetAndRangeStepsBounded()
    {
        const auto q = fleetQueries();
        QCOMPARE(q.size(), 7);
        for (const FleetQuery& f : q)
            QVERIFY2(!f.promql.contains("instance=\""), qPrintable(f.promql)); // never one query per host
        QCOMPARE(rangeStepSeconds(86400, 15), 15.0);
        QCOMPARE(rangeStepSeconds(86400, 1), 8.0); // 10800 points, under Prometheus' 11000
        FleetHost h;
        h.instances = { "10.0.0.1:9400" };
        const QString q0 = hostChartQueries(h).first().promql;
        const QString escaped
            = QStringLiteral("instance=~\"10\\\\.0\\\\.0\\\\.1"); // PromQL string of the regex 10\.0\.0\.1
        QVERIFY2(q0.contains(escaped), qPrintable(q0));
        // An instance with a '"' stays inside the string: the regex's \" is PromQL's \\\", and a
        // line break is \x0a (the real Prometheus reads it: tst_cli_fleettrust).
        h.instances = { "x\"} or up{job=~\".+\nz" };
        const QString q1 = hostChartQueries(h).first().promql;
        QVERIFY2(q1.contains(QStringLiteral("instance=~\"x\\\\\\\"\\\\}\\\\ or\\\\ up")), qPrintable(q1));
        QVERIFY2(!q1.contains(u'\n'), qPrintable(q1));
    }
    void everySpellingOfTheServerMetricsIsRead_data()
    {
        QTest::addColumn<QString>("prefix");
        QTest::addColumn<QString>("kind");
        QTest::newRow("sglang:") << "sglang:"
                                 << "sglang";
        QTest::newRow("sglang_") << "sglang_"
                                 << "sglang";
    }
    void everySpellingOfTheServerMetricsIsRead()
    {
        // The "server" query asks for every spelling of core/server/metricnames.h, and the
        // reader maps each back to its quantity: an SGLang that writes sglang_* shows its tok/s.
        QFETCH(QString, prefix);
        QFETCH(QString, kind);
        QString serverQuery;
        for (const FleetQuery& f : fleetQueries())
            if (f.family == u"server")
                serverQuery = f.promql;
        const QRegularExpression names(QStringLiteral("__name__=~\"([^\"]+)\""));
        const auto m = names.match(serverQuery);
        QVERIFY2(m.hasMatch(), qPrintable(serverQuery));
        const QRegularExpression asked(QRegularExpression::anchoredPattern(m.captured(1)));
        for (const char* n : { "gen_throughput", "num_running_reqs", "num_queue_reqs" })
            QVERIFY2(asked.match(prefix + QLatin1String(n)).hasMatch(), qPrintable(prefix + QLatin1String(n)));

        auto a = answers("10.0.0.11", 1700000000);
        const QString srv = QStringLiteral("10.0.0.11:30000");
        a["server"].series = { s({ { "__name__", prefix + "gen_throughput" }, { "instance", srv } }, 99.5),
            s({ { "__name__", prefix + "num_running_reqs" }, { "instance", srv } }, 3),
            s({ { "__name__", prefix + "num_queue_reqs" }, { "instance", srv } }, 2) };
        AssembleOptions o;
        o.nowMs = 1700000000000;
        const FleetHost& h = assembleFleet(a, o).hosts.first();
        QCOMPARE(h.serverKind, kind);
        QCOMPARE(h.serverTokensPerS, 99.5);
        QCOMPARE(h.serverRunning, 3.0);
        QCOMPARE(h.serverQueued, 2.0);
    }
};

QTEST_GUILESS_MAIN(TestFleetHost)
#include "tst_fleethost.moc"
