// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Soak driver: GPU monitoring of the demo host (real sshd, replaying nvidia-smi sped up by
// KF_DEMO_TIME_SCALE) for minutes x scale of sample time, reporting this process's RSS and open file
// descriptors at the start (after a warm-up) and at the end. Exit status 0 when both stay
// within the bounds, 1 when one grew beyond them, 2 when the run itself failed.
//
// RSS bound: end - start <= growth of GpuHistory (kept by design: the charts' history) +
// --rss-slack-kib. fd bound: end - start <= --fd-slack.
//
// Usage: kf_soak [--minutes 2.4] [--scale 50] [--gpus 8] [--interval-ms 1000]
//                [--rss-slack-kib 8192] [--fd-slack 2]
#include "core/demo/demohost.h"
#include "core/gpu/gpumonitor.h"
#include "core/ssh/sshtransport.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTimer>

#include <cstdio>

namespace {

qint64 rssKiB()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    const QList<QByteArray> lines = f.readAll().split('\n');
    for (const QByteArray& line : lines)
        if (line.startsWith("VmRSS:"))
            return line.mid(6).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

int openFds()
{
    return int(
        QDir(QStringLiteral("/proc/self/fd")).entryList(QDir::AllEntries | QDir::System | QDir::NoDotAndDotDot).size());
}

struct Snapshot
{
    double wallS = 0;
    qint64 rss = 0;
    int fds = 0;
    qint64 blocks = 0;
    qint64 historyKiB = 0;
};

void print(const char* what, const Snapshot& s)
{
    std::printf("%-6s t=%7.1fs  rss=%lld KiB  fds=%d  blocks=%lld  history=%lld KiB\n", what, s.wallS, s.rss, s.fds,
        s.blocks, s.historyKiB);
    std::fflush(stdout);
}

double argValue(const QStringList& args, const QString& name, double fallback)
{
    const int i = int(args.indexOf(name));
    return i >= 0 && i + 1 < args.size() ? args[i + 1].toDouble() : fallback;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments();
    const double minutes = argValue(args, QStringLiteral("--minutes"), 2.4);
    const double scale = argValue(args, QStringLiteral("--scale"), 50);
    const int gpus = int(argValue(args, QStringLiteral("--gpus"), 8));
    const int intervalMs = int(argValue(args, QStringLiteral("--interval-ms"), 1000));
    const qint64 rssSlack = qint64(argValue(args, QStringLiteral("--rss-slack-kib"), 8192));
    const int fdSlack = int(argValue(args, QStringLiteral("--fd-slack"), 2));
    qunsetenv("SSH_AUTH_SOCK");

    kf::DemoHost demo;
    if (auto s = demo.start(); !s) {
        std::fprintf(stderr, "kf_soak: demo host: %s\n", qPrintable(s.error()));
        return 2;
    }
    auto c = kf::SshTransport::connect(demo.profile());
    if (!c) {
        std::fprintf(stderr, "kf_soak: connect: %s\n", qPrintable(c.error()));
        return 2;
    }
    kf::GpuMonitor::Options o;
    o.intervalMs = intervalMs;
    o.processIntervalMs = 5000;
    o.env.insert(QStringLiteral("KF_DEMO_TIME_SCALE"), QString::number(scale));
    o.env.insert(QStringLiteral("KF_DEMO_GPUS"), QString::number(gpus));
    kf::GpuMonitor monitor(c.value(), QStringLiteral("demo"), o);
    std::printf("kf_soak: %.2f min wall, time scale %.0fx, %d GPUs every %d ms of sample time (%.2f h of samples)\n",
        minutes, scale, gpus, intervalMs, minutes * scale / 60.0);

    QElapsedTimer wall;
    wall.start();
    auto snap = [&] {
        return Snapshot { wall.elapsed() / 1000.0, rssKiB(), openFds(), monitor.blocks(),
            qint64(monitor.history().memoryBytes() / 1024) };
    };
    print("boot", snap());
    Snapshot start;
    bool started = false;
    // The run ends after the planned amount of sample time (minutes x scale), so a loaded
    // machine where the replay runs slower than nominal still covers all of it; a hard stop
    // at twice the wall time keeps a stalled stream from running forever.
    const qint64 targetBlocks = qint64(minutes * 60000.0 * scale / intervalMs);
    QObject::connect(&monitor, &kf::GpuMonitor::samplesUpdated, &app, [&](const QList<kf::GpuSample>& block) {
        if (block.size() != gpus)
            std::printf("block of %d GPUs (expected %d)\n", int(block.size()), gpus);
        if (monitor.blocks() >= targetBlocks)
            app.quit();
        // Warm-up: the first minute of sample time (thread pool, SSH channel, history rows).
        if (!started && monitor.blocks() >= 60000 / intervalMs) {
            started = true;
            start = snap();
            print("start", start);
        }
    });
    QTimer progress;
    QObject::connect(&progress, &QTimer::timeout, &app, [&] { print("..", snap()); });
    progress.start(15000);
    QTimer::singleShot(int(2 * minutes * 60000), &app, [&] { app.quit(); });
    monitor.start();
    app.exec();
    const Snapshot end = snap();
    print("end", end);
    monitor.stop();
    std::printf("restarts=%d resumes=%d\n", monitor.restarts(), monitor.resumes());
    if (!started || end.blocks < targetBlocks) {
        std::printf("FAIL: %lld of %lld planned blocks in %.1f s\n", end.blocks, targetBlocks, end.wallS);
        return 2;
    }
    const qint64 rssGrowth = end.rss - start.rss;
    const qint64 historyGrowth = end.historyKiB - start.historyKiB;
    const qint64 rssBound = historyGrowth + rssSlack;
    const int fdGrowth = end.fds - start.fds;
    std::printf("samples: %lld blocks = %.2f h of sample time\n", end.blocks, end.blocks * intervalMs / 3600000.0);
    std::printf(
        "rss: start %lld KiB, end %lld KiB, growth %lld KiB (bound: history growth %lld + slack %lld = %lld KiB)\n",
        start.rss, end.rss, rssGrowth, historyGrowth, rssSlack, rssBound);
    std::printf("fds: start %d, end %d, growth %d (bound %d)\n", start.fds, end.fds, fdGrowth, fdSlack);
    const bool ok = rssGrowth <= rssBound && fdGrowth <= fdSlack;
    std::printf("%s\n", ok ? "PASS" : "FAIL");
    return ok ? 0 : 1;
}
