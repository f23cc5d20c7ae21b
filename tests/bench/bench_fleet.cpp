// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The Fleet view at 256 hosts x 8 GPUs refreshed every 5 s, measured three ways in one run:
//  1. Prometheus source: a real Prometheus (tests/support/promfixture) scraping 256 replayed
//     dcgm-exporter + node_exporter hosts every 5 s; the real FleetView (FleetSource, the
//     fixed set of queries, assembly, one model update, painted tiles) refreshing every 5 s.
//     Client CPU (getrusage of this process: every thread) and RSS over the window.
//  2. Anchor: Prometheus' own time for the same queries (stats=all: execTotalTime), and the
//     Prometheus process's CPU over the same window.
//  3. Anchor: the same view over SSH streams, one nvidia-smi stream per host at a 5 s interval,
//     for as many hosts as this machine carries (--ssh-hosts, default 32, all to the demo's
//     sshd), scaled linearly to 256 (an estimate, said so in the output).
// The Prometheus source and the SSH streams run in turn, KF_BENCH_REPEATS rounds (default 5), each
// set up afresh: the rounds share --seconds (5 x 120 s of Prometheus by default, was one 600 s
// window) and the SSH streams' 120 s (5 x 24 s); the rows with an anchor report the median ratio of
// the rounds and its min-max, the others (no anchor) the median of the rounds.
// Usage: bench_fleet [--seconds S (default 600)] [--hosts N (256)] [--ssh-hosts N (32)]
#include "core/demo/demohost.h"
#include "core/fleet/fleetsource.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostmanager.h"
#include "core/ssh/sshhostconnection.h"
#include "core/transport/localtransport.h"
#include "tests/support/benchreport.h"
#include "tests/support/promfixture.h"
#include "tests/support/testsupport.h"
#include "ui/fleet/fleettiles.h"
#include "ui/fleet/fleetview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <cstdio>
#include <sys/resource.h>
#include <unistd.h>

using namespace kf;
using namespace kf::fleet;

namespace {

double selfCpuS()
{
    rusage u {};
    getrusage(RUSAGE_SELF, &u);
    return double(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + double(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

double rssMiB()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return f.readAll().split(' ').value(1).toDouble() * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

double processCpuS(qint64 pid)
{
    QFile f(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray s = f.readAll();
    const QList<QByteArray> fields = s.mid(s.lastIndexOf(')') + 2).split(' ');
    return (fields.value(11).toDouble() + fields.value(12).toDouble()) / double(sysconf(_SC_CLK_TCK));
}

QString loadavg()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    return f.open(QIODevice::ReadOnly) ? QString::fromLatin1(f.readAll().left(14)) : QString();
}

// The work of one refresh without the network: the seven answers of a 256 x 8 fleet (the
// JSON Prometheus returns for them, built here in its exact shape) parsed and assembled.
void parseAndAssemble(int hosts)
{
    QHash<QString, QByteArray> bodies;
    const char* gpuNames[]
        = { "DCGM_FI_DEV_GPU_UTIL", "DCGM_FI_DEV_FB_USED", "DCGM_FI_DEV_FB_FREE", "DCGM_FI_DEV_GPU_TEMP",
              "DCGM_FI_DEV_MEMORY_TEMP", "DCGM_FI_DEV_POWER_USAGE", "DCGM_FI_DEV_SM_CLOCK", "DCGM_FI_DEV_XID_ERRORS",
              "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "DCGM_FI_DEV_CLOCK_THROTTLE_REASONS" };
    auto series = [](const QByteArray& metric, double v) -> QByteArray {
        return "{\"metric\":{" + metric + "},\"value\":[1796181625.761,\"" + QByteArray::number(v) + "\"]}";
    };
    auto body = [](const QList<QByteArray>& s) -> QByteArray {
        return "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[" + s.join(',') + "]}}";
    };
    QList<QByteArray> gpu, info, host, up, last;
    for (int i = 0; i < hosts; ++i) {
        const QByteArray addr = "127.77." + QByteArray::number(i / 200) + '.' + QByteArray::number(i % 200 + 10);
        const QByteArray inst = "\"instance\":\"" + addr + ":41723\"";
        for (int g = 0; g < 8; ++g) {
            for (const char* n : gpuNames)
                gpu << series(
                    "\"__name__\":\"" + QByteArray(n) + "\",\"gpu\":\"" + QByteArray::number(g) + "\"," + inst, 40 + g);
            info << series("\"Hostname\":\"gpu-node-" + QByteArray::number(i)
                    + "\",\"UUID\":\"GPU-4c1f5a2e-1b7d-4e3a-9f0c-2d8b6a1e5c0" + QByteArray::number(g) + "\",\"gpu\":\""
                    + QByteArray::number(g) + "\"," + inst + ",\"modelName\":\"NVIDIA H100 80GB HBM3\"",
                1);
        }
        host << series("\"__name__\":\"node_load1\",\"instance\":\"" + addr + ":41724\"", 3);
        up << series("\"__name__\":\"up\"," + inst + ",\"job\":\"dcgm\"", 1);
        last << series(inst, 1796181625.0);
    }
    bodies.insert(QStringLiteral("gpu"), body(gpu));
    bodies.insert(QStringLiteral("gpu_info"), body(info));
    bodies.insert(QStringLiteral("host"), body(host));
    bodies.insert(QStringLiteral("up"), body(up));
    bodies.insert(QStringLiteral("last_sample"), body(last));
    qsizetype bytes = 0;
    for (const QByteArray& b : std::as_const(bodies))
        bytes += b.size();
    constexpr int kRounds = 10;
    double parseS = 0, assembleS = 0;
    QList<FleetHost> previous;
    for (int r = 0; r < kRounds; ++r) {
        const double t0 = selfCpuS();
        QHash<QString, PromQueryResult> answers;
        for (auto it = bodies.cbegin(); it != bodies.cend(); ++it)
            answers.insert(it.key(), parseQueryResponse(it.value()).value());
        const double t1 = selfCpuS();
        AssembleOptions o;
        o.nowMs = 1796181626000;
        o.previous = &previous;
        previous = assembleFleet(answers, o).hosts;
        assembleS += selfCpuS() - t1;
        parseS += t1 - t0;
    }
    std::printf(
        "one refresh's answers without the network (%d hosts, %.1f MB of JSON): parse %.1f ms, assemble %.1f ms CPU "
        "(mean of %d); %d hosts\n",
        hosts, double(bytes) / 1e6, 1000 * parseS / kRounds, 1000 * assembleS / kRounds, kRounds, int(previous.size()));
    bench::report("fleet", "one refresh's answers parsed + assembled (no network), CPU",
        1000 * (parseS + assembleS) / kRounds, "none", 0, "ms", false);
}

struct PromResult
{
    double cpuPct = 0;
    double promCpuPct = 0;
    double clientWallMs = 0; // per refresh, all queries
    double serverExecMs = 0; // per refresh, Prometheus' own execTotalTime of the same queries
    double paintMs = 0;
    double rssStart = 0, rssEnd = 0, rssMax = 0;
    int refreshes = 0;
};

PromResult prometheusSource(int hosts, int seconds)
{
    PromResult r;
    test::PrometheusFixture::Options o;
    o.hosts = hosts;
    o.scrapeIntervalS = 5;
    o.racks = 4;
    test::PrometheusFixture prom(o);
    if (const auto s = prom.start(); !s) {
        std::printf("prometheus: %s\n%s\n", qPrintable(s.error()), qPrintable(prom.prometheusLog()));
        return r;
    }
    auto client
        = std::make_shared<PromClient>(std::make_shared<LocalTransport>(), PromEndpoint::parse(prom.url()).value());
    AppContext ctx;
    FleetView view(ctx);
    view.resize(1500, 950);
    view.show();
    view.showPrometheus(client, 5000);
    QSignalSpy ready(view.prometheusSource(), &FleetSource::snapshotReady);
    if (!ready.wait(120000)) {
        std::printf("prometheus: no first refresh\n");
        return r;
    }
    view.setArrangement(QStringLiteral("rack"), FleetSort::Hottest, FleetFilter::All);
    ready.clear();
    r.rssStart = rssMiB();
    const double cpu0 = selfCpuS(), prom0 = processCpuS(prom.prometheusPid());
    QElapsedTimer wall;
    wall.start();
    double wallSum = 0, paintSum = 0;
    int paints = 0;
    while (wall.elapsed() < seconds * 1000LL) {
        if (ready.wait(15000)) {
            // The spy keeps a copy of every snapshot it saw: count and drop them, or the
            // benchmark measures its own spy (about 1.5 MiB a refresh at 256 x 8).
            r.refreshes += int(ready.size());
            ready.clear();
            wallSum += double(view.prometheusSource()->snapshot().queryWallMs);
            // What a person sees: the visible tiles repainted after the update.
            view.tiles()->repaint();
            paintSum += view.tiles()->lastPaintMs();
            ++paints;
            r.rssMax = qMax(r.rssMax, rssMiB());
        }
    }
    const double wallS = double(wall.nsecsElapsed()) / 1e9;
    r.cpuPct = 100.0 * (selfCpuS() - cpu0) / wallS;
    r.promCpuPct = 100.0 * (processCpuS(prom.prometheusPid()) - prom0) / wallS;
    r.refreshes += int(ready.size());
    r.clientWallMs = r.refreshes ? wallSum / r.refreshes : 0;
    r.paintMs = paints ? paintSum / paints : 0;
    r.rssEnd = rssMiB();
    // Prometheus' own time for the same queries (its query engine, no HTTP or JSON on our side).
    view.prometheusSource()->stop();
    for (int round = 0; round < 3; ++round)
        for (const FleetQuery& q : fleetQueries()) {
            const auto body = client->get(QStringLiteral("/api/v1/query?")
                + encodeQuery(
                    { { QStringLiteral("query"), q.promql }, { QStringLiteral("stats"), QStringLiteral("all") } }));
            if (body) {
                const QJsonObject timings = QJsonDocument::fromJson(body.value())
                                                .object()
                                                .value(QStringLiteral("data"))
                                                .toObject()
                                                .value(QStringLiteral("stats"))
                                                .toObject()
                                                .value(QStringLiteral("timings"))
                                                .toObject();
                r.serverExecMs += timings.value(QStringLiteral("execTotalTime")).toDouble() * 1000 / 3;
            }
        }
    return r;
}

// The same view over SSH: n connections to the demo sshd, one GpuMonitor each at 5 s.
double sshStreams(int n, int seconds)
{
    DemoHost demo;
    if (const Result<void> s = demo.start(); !s) {
        std::printf("ssh: demo host did not start: %s\n", qPrintable(s.error()));
        return 0;
    }
    HostManager manager;
    manager.setFactory([](const HostProfile& p, QObject* parent) -> HostConnection* {
        return new SshHostConnection(p, nullptr, parent);
    });
    GpuMonitorHub hub;
    GpuMonitor::Options options;
    options.intervalMs = 5000;
    options.processIntervalMs = 0;
    hub.setOptions(options);
    AppContext ctx;
    ctx.hosts = &manager;
    ctx.gpuMonitors = &hub;
    FleetView view(ctx);
    view.resize(1500, 950);
    view.show();
    for (int i = 0; i < n; ++i)
        manager.add(demo.profile(QStringLiteral("host%1").arg(i, 3, 10, QLatin1Char('0'))))->connectToHost();
    QElapsedTimer setup;
    setup.start();
    auto streaming = [&] {
        const auto m = hub.monitors();
        return m.size() == n && std::all_of(m.cbegin(), m.cend(), [](const GpuMonitor* g) { return g->blocks() >= 1; });
    };
    while (!streaming() && setup.elapsed() < 300000)
        QTest::qWait(200);
    if (!streaming()) {
        std::printf("ssh: only %d of %d streams after %lld ms\n", int(hub.monitors().size()), n, setup.elapsed());
        return 0;
    }
    const double cpu0 = selfCpuS();
    QElapsedTimer wall;
    wall.start();
    QTest::qWait(seconds * 1000);
    const double pct = 100.0 * (selfCpuS() - cpu0) / (double(wall.nsecsElapsed()) / 1e9);
    for (HostConnection* h : manager.hosts())
        h->disconnectFromHost();
    return pct;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    int seconds = 600, hosts = 256, sshHosts = 32;
    const QStringList args = app.arguments();
    for (int i = 1; i + 1 < args.size(); ++i) {
        if (args.at(i) == u"--seconds")
            seconds = args.at(i + 1).toInt();
        else if (args.at(i) == u"--hosts")
            hosts = args.at(i + 1).toInt();
        else if (args.at(i) == u"--ssh-hosts")
            sshHosts = args.at(i + 1).toInt();
    }
    std::printf("load average at start: %s\n", qPrintable(loadavg()));
    parseAndAssemble(hosts);
    if (args.contains(QStringLiteral("--parse-only")))
        return 0;
    // KF_BENCH_REPEATS rounds share the measuring time: each round the Prometheus source for
    // seconds/n, then the SSH streams for min(seconds, 120)/n (at least 10 s), each set up afresh.
    const int rounds = bench::repeats();
    const int promS = std::max(10, seconds / rounds);
    const int sshS = std::max(10, std::min(seconds, 120) / rounds);
    const double scale = double(hosts) / double(qMax(1, sshHosts));
    bench::Interleaved cpu, wall, paint, rss;
    for (int round = 0; round < rounds; ++round) {
        const PromResult p = prometheusSource(hosts, promS);
        std::printf("round %d: prometheus source: %d hosts x 8 GPUs, refresh 5 s, %d refreshes in %d s: client CPU "
                    "%.2f %% of a core, Prometheus process %.2f %%; %.0f ms client wall per refresh (7 queries), "
                    "Prometheus execTotalTime %.1f ms; tile repaint %.2f ms; RSS %.1f -> %.1f MiB (max %.1f); load "
                    "average now %s\n",
            round + 1, hosts, p.refreshes, promS, p.cpuPct, p.promCpuPct, p.clientWallMs, p.serverExecMs, p.paintMs,
            p.rssStart, p.rssEnd, p.rssMax, qPrintable(loadavg()));
        const double ssh = sshStreams(sshHosts, sshS);
        std::printf("round %d: ssh streams: %d hosts at 5 s for %d s: client CPU %.2f %% of a core; scaled linearly to "
                    "%d hosts (estimate): %.2f %%; load average now %s\n",
            round + 1, sshHosts, sshS, ssh, hosts, ssh * scale, qPrintable(loadavg()));
        cpu.ours.push_back(p.cpuPct);
        cpu.anchor.push_back(ssh * scale);
        wall.ours.push_back(p.clientWallMs);
        wall.anchor.push_back(p.serverExecMs);
        paint.ours.push_back(p.paintMs);
        rss.ours.push_back(p.rssEnd - p.rssStart);
    }
    const QByteArray what
        = QStringLiteral("%1 hosts x 8 GPUs every 5 s from Prometheus: client CPU (goal < 5)").arg(hosts).toUtf8();
    const QByteArray anchor = QStringLiteral("same view over SSH streams (%1 measured, x%2)")
                                  .arg(sshHosts)
                                  .arg(hosts / qMax(1, sshHosts))
                                  .toUtf8();
    bench::report("fleet", what.constData(), cpu, anchor.constData(), "% of one core", false);
    bench::report("fleet", "one refresh: client wall of the 7 queries (HTTP + JSON + assembly)", wall,
        "Prometheus' own execTotalTime of the same queries", "ms", false);
    const QByteArray spread = QStringLiteral("median of %1 rounds").arg(rounds).toUtf8();
    bench::reportLine("fleet", "repaint of the visible tiles (256-host fleet)", bench::medianOf(paint.ours), "none", 0,
        "ms", false, spread.constData());
    const QByteArray rssWhat = QStringLiteral("client RSS growth over a %1 s window").arg(promS).toUtf8();
    bench::reportLine(
        "fleet", rssWhat.constData(), bench::medianOf(rss.ours), "none", 0, "MiB", false, spread.constData());
    return 0;
}
