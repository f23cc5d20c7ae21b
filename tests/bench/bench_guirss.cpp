// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// GUI memory over time: the real MainWindow (offscreen, in this process) composed as app/gui's
// main.cpp composes it (HostManager with SSH connections, one GpuMonitorHub at the default 1 s
// refresh, the Timeline's SeriesRecorder watching it and the HostSessions), 16 hosts connected to the
// demo's real sshd (tests/support/demofleet.h, as bench_monitor's pipeline), each streaming 8
// replayed GPUs at 1 Hz; the window shows the first host's GPUs tab. RSS (/proc/self/statm) once
// every host streams, every --interval seconds and at the end of --seconds. Rows: RSS growth and
// the end RSS. No external anchor ("none").
// Usage: bench_guirss [--seconds S (default 600)] [--interval S (default 60)] [--hosts N (16)]
#include "core/demo/demohost.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostmanager.h"
#include "core/sessions/hostsessions.h"
#include "core/ssh/sshhostconnection.h"
#include "core/timeline/seriesrecorder.h"
#include "tests/support/benchreport.h"
#include "tests/support/demofleet.h"
#include "tests/support/testsupport.h"
#include "ui/appcontext.h"
#include "ui/mainwindow.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <cstdio>
#include <unistd.h>

using namespace kf;

namespace {

double rssMiB()
{
    QFile f(QStringLiteral("/proc/self/statm"));
    if (!f.open(QIODevice::ReadOnly))
        return 0;
    return f.readAll().split(' ').value(1).toDouble() * double(sysconf(_SC_PAGESIZE)) / (1024.0 * 1024.0);
}

int argValue(const QStringList& args, const QString& name, int fallback)
{
    const qsizetype i = args.indexOf(name);
    return i >= 0 && i + 1 < args.size() ? args[i + 1].toInt() : fallback;
}

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    const QStringList args = QApplication::arguments();
    const int seconds = argValue(args, QStringLiteral("--seconds"), 600);
    const int interval = std::max(1, argValue(args, QStringLiteral("--interval"), 60));
    const int hostCount = argValue(args, QStringLiteral("--hosts"), 16);
    QTemporaryDir state;
    test::isolateAppState(QStringLiteral("bench_guirss"), state.path());

    DemoHost demo;
    if (const Result<void> s = demo.start(); !s) {
        fprintf(stderr, "bench_guirss: demo host did not start: %s\n", qPrintable(s.error()));
        return 1;
    }
    GpuMonitorHub monitors;
    timeline::SeriesRecorder series;
    series.watch(&monitors);
    HostManager hosts;
    HostSessions sessions;
    series.watch(&sessions);
    hosts.setFactory(SshHostConnection::factory(nullptr));
    AppContext ctx;
    ctx.hosts = &hosts;
    ctx.gpuMonitors = &monitors;
    ctx.timelineSeries = &series;
    ctx.sessions = &sessions;
    ctx.demo = &demo;
    const double rssBeforeWindow = rssMiB();
    auto window = std::make_unique<MainWindow>(ctx);
    window->resize(1440, 900);
    window->show();
    QElapsedTimer setup;
    setup.start();
    test::connectDemoHosts(hosts, monitors, demo, hostCount);
    if (!test::waitForStreams(monitors, hostCount, 2, 300000)) {
        fprintf(stderr, "bench_guirss: only %d of %d hosts streaming after %lld ms\n", int(monitors.monitors().size()),
            hostCount, setup.elapsed());
        return 1;
    }
    window->selectHost(hosts.hosts().constFirst()->profile().name);
    window->showTab(MainWindow::Tab::Gpus);
    QTest::qWait(2000); // the pane's first charts
    const double rss0 = rssMiB();
    const qint64 blocks0 = test::blocksSoFar(monitors);
    printf("%d hosts streaming after %lld ms; RSS before the window %.1f MiB, at start %.1f MiB\n", hostCount,
        setup.elapsed(), rssBeforeWindow, rss0);
    fflush(stdout);
    QElapsedTimer wall;
    wall.start();
    double rssMax = rss0;
    for (int t = interval; t - interval < seconds; t += interval) {
        const int until = std::min(t, seconds);
        QTest::qWait(int(std::max<qint64>(0, until * 1000LL - wall.elapsed())));
        const double rss = rssMiB();
        rssMax = std::max(rssMax, rss);
        printf("t=%4d s: RSS %.1f MiB (%+.1f), %lld sample blocks since start\n", until, rss, rss - rss0,
            qlonglong(test::blocksSoFar(monitors) - blocks0));
        fflush(stdout);
        if (until == seconds)
            break;
    }
    const double rss1 = rssMiB();
    const qint64 blocks = test::blocksSoFar(monitors) - blocks0;
    printf("end: RSS %.1f MiB (max %.1f), %lld blocks (%.1f per second, %d hosts at 1 Hz)\n", rss1, rssMax,
        qlonglong(blocks), double(blocks) / (double(wall.elapsed()) / 1000.0), hostCount);
    const QByteArray what = QStringLiteral("GUI RSS growth, %1 hosts x 8 GPUs streaming at 1 Hz for %2 s (window, "
                                           "GPUs tab)")
                                .arg(hostCount)
                                .arg(seconds)
                                .toUtf8();
    const QByteArray whatEnd = QStringLiteral("GUI RSS at the end, %1 hosts x 8 GPUs streaming at 1 Hz for %2 s")
                                   .arg(hostCount)
                                   .arg(seconds)
                                   .toUtf8();
    bench::report("gui", what.constData(), rss1 - rss0, "none", 0, "MiB", false);
    bench::report("gui", whatEnd.constData(), rss1, "none", 0, "MiB", false);
    window.reset();
    for (HostConnection* h : hosts.hosts())
        h->disconnectFromHost();
    return 0;
}
