// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Build benchmarks (run by hand; numbers go to docs/PERFORMANCE.md):
//  1. parser throughput: BuildLogAnalyzer over a synthetic sgl-kernel-like log vs `wc -l`
//     on the same file (generated once per run into a temp dir), the two in turn
//     KF_BENCH_REPEATS times (default 5): median ratio and its min-max;
//                                           bench_build parse [MB]      (default 1000, the 1 GB)
//  2. log view under a flood: LogView fed N lines/s for S seconds, KF_BENCH_REPEATS times (a
//     fresh view each); event-loop stall p50/p99/max against the 50 ms goal (median and spread of
//     the runs), RSS at start/end of the first run;
//                                           bench_build logview [lines/s] [seconds] (200000 10)
//     (10 s a run, was one run of 30 s: 5 runs take 50 s.)
#include "core/remotebuild/buildloganalyzer.h"
#include "tests/support/benchreport.h"
#include "ui/logview/logview.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QPlainTextEdit>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <ctime>
#include <vector>

namespace {

qint64 rssKb()
{
    QFile f(QStringLiteral("/proc/self/status"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& l : f.readAll().split('\n'))
        if (l.startsWith("VmRSS:"))
            return l.mid(6).trimmed().split(' ').value(0).toLongLong();
    return -1;
}

// CPU time of this thread: next to the wall clock it shows how much the shared machine took away.
double threadCpuS()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

QByteArray loadAverage()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    return f.open(QIODevice::ReadOnly) ? f.readAll().split(' ').mid(0, 3).join(' ') : QByteArray("?");
}

// A realistic mix: ninja status lines, long compile commands, nvcc warnings, ptxas info, blank lines.
QByteArray syntheticChunk(int first, int count)
{
    QByteArray out;
    for (int i = first; i < first + count; ++i) {
        const int step = i % 430 + 1;
        out += "  [kf " + QByteArray::number(step) + "/430 8 " + QByteArray::number(i / 10)
            + ".5] Building CUDA object CMakeFiles/common_ops_sm100_build.dir/csrc/gemm/nvfp4_scaled_mm_kernels_"
            + QByteArray::number(i) + ".cu.o\n";
        out += "  /usr/local/cuda/bin/nvcc -forward-unknown-to-host-compiler -DTORCH_EXTENSION_NAME=common_ops "
               "-DSGL_KERNEL_ENABLE_FA3=0 -I/home/alice/sglang/sgl-kernel/include -I/usr/local/cuda/include -isystem "
               "/opt/venv/lib/python3.12/site-packages/torch/include -O3 -std=c++17 --expt-relaxed-constexpr "
               "-gencode=arch=compute_120a,code=sm_120a --threads=1 -c csrc/gemm/x.cu -o x.cu.o\n";
        if (i % 7 == 0)
            out += "  /home/alice/sglang/sgl-kernel/csrc/gemm/nvfp4_scaled_mm_kernels.cu(212): warning #177-D: "
                   "variable \"lda\" was declared but never referenced\n";
        if (i % 5 == 0)
            out += "  ptxas info    : Used 128 registers, used 1 barriers, 384 bytes cmem[0]\n";
        if (i % 11 == 0)
            out += "\n";
    }
    return out;
}

int benchParse(qint64 megabytes)
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("build.log"));
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return 1;
    qint64 written = 0;
    for (int i = 0; written < megabytes * 1000000; i += 4000) {
        const QByteArray c = syntheticChunk(i, 4000);
        f.write(c);
        written += c.size();
    }
    f.close();

    // wc -l and ours in turn, KF_BENCH_REPEATS times, on the same file.
    qint64 wcLines = 0;
    auto runWc = [&] {
        QElapsedTimer t;
        t.start();
        QProcess wc;
        wc.start(QStringLiteral("wc"), { QStringLiteral("-l"), path });
        wc.waitForFinished(-1);
        const double wcS = double(t.nsecsElapsed()) / 1e9;
        wcLines = wc.readAllStandardOutput().trimmed().split(' ').value(0).toLongLong();
        return double(written) / 1e9 / wcS;
    };
    qint64 lines = 0;
    qint64 progress = 0;
    qint64 diags = 0;
    std::vector<double> cpuRates;
    auto runOurs = [&] {
        if (!f.open(QIODevice::ReadOnly))
            return 0.0;
        kf::BuildLogAnalyzer a;
        lines = progress = diags = 0;
        // One reused 1 MB buffer, as wc reads.
        QByteArray buf(1 << 20, Qt::Uninitialized);
        const double cpu0 = threadCpuS();
        QElapsedTimer t;
        t.start();
        while (true) {
            const qint64 got = f.read(buf.data(), buf.size());
            if (got <= 0)
                break;
            const auto ev = a.feed(QByteArrayView(buf.constData(), got));
            lines += ev.lines;
            progress += ev.progress.size();
            diags += ev.diagnostics.size();
        }
        const auto ev = a.finish();
        lines += ev.lines;
        diags += ev.diagnostics.size();
        const double ourS = double(t.nsecsElapsed()) / 1e9;
        cpuRates.push_back(double(written) / 1e9 / (threadCpuS() - cpu0));
        f.close();
        return double(written) / 1e9 / ourS;
    };
    const kf::bench::Interleaved runs = kf::bench::interleaved(runOurs, runWc);
    std::printf("parse: %.0f MB, %lld lines (wc -l: %lld), %lld progress, %lld diagnostics\n", double(written) / 1e6,
        lines, wcLines, progress, diags);
    for (size_t i = 0; i < runs.ours.size(); ++i)
        std::printf(
            "parse: run %zu: BuildLogAnalyzer %.3f GB/s (%.3f GB/s of CPU time); wc -l %.3f GB/s; ratio (ours/wc) "
            "%.3f\n",
            i + 1, runs.ours[i], cpuRates[i], runs.anchor[i], runs.ours[i] / runs.anchor[i]);
    std::printf("parse: load average %s\n", loadAverage().constData());
    kf::bench::report("build",
        qPrintable(QStringLiteral("build-log parser, %1 MB synthetic log").arg(double(written) / 1e6, 0, 'f', 0)), runs,
        "wc -l", "GB/s", true);
    return lines == wcLines ? 0 : 2;
}

struct LogViewRun
{
    bool ok = false;
    double worst = 0, p99 = 0, p50 = 0, busyMax = 0, rate = 0;
    qint64 rss0 = 0, rssEnd = 0;
    int lines = 0;
};

LogViewRun logViewOnce(int linesPerSecond, int seconds)
{
    kf::LogView view;
    QTemporaryDir dir;
    if (const kf::Result<void> opened = view.openStore(dir.filePath(QStringLiteral("flood.log"))); !opened) {
        std::fprintf(stderr, "cannot open the log store: %s\n", qPrintable(opened.error()));
        return {};
    }
    view.resize(1000, 700);
    // Knobs for experiments (defaults are the view's own): KF_LOGVIEW_BUDGET_MS, KF_LOGVIEW_MAX_LINES.
    if (qEnvironmentVariableIsSet("KF_LOGVIEW_BUDGET_MS"))
        view.setFlushBudget(qEnvironmentVariable("KF_LOGVIEW_BUDGET_MS").toDouble());
    if (qEnvironmentVariableIsSet("KF_LOGVIEW_MAX_LINES"))
        view.setMaxLines(qEnvironmentVariableIntValue("KF_LOGVIEW_MAX_LINES"));
    view.show();
    const qint64 rss0 = rssKb();
    qint64 rssMax = rss0;
    const int tickMs = 10;
    const int perTick = linesPerSecond * tickMs / 1000;
    int line = 0;
    QElapsedTimer clock;
    clock.start();
    // Feed on a timer in the GUI thread, as queued signals from the session would.
    QTimer feeder;
    feeder.setTimerType(Qt::PreciseTimer);
    QObject::connect(&feeder, &QTimer::timeout, &view, [&] {
        // Catch up to the target rate even when a tick was late.
        // ... but never more than two ticks' worth at once, so a slow tick cannot snowball.
        const qint64 due = std::min<qint64>(clock.elapsed() * linesPerSecond / 1000, line + 2LL * perTick);
        QByteArray chunk;
        while (line < due) {
            chunk += "[kf " + QByteArray::number(line)
                + "/2000000 8 12.5] Building CUDA object CMakeFiles/common_ops.dir/csrc/unit_"
                + QByteArray::number(line) + ".cu.o\n";
            ++line;
        }
        view.appendData(chunk);
    });
    // The stall probe: a 5 ms timer; each gap between its ticks minus 5 ms is a stall of the
    // event loop (everything else that ran in between, feeding included).
    QTimer probe;
    probe.setTimerType(Qt::PreciseTimer);
    qint64 lastNs = 0;
    double lastCpu = 0;
    std::vector<double> stalls; // wall clock: what a user of this machine would see
    std::vector<double> busy;   // CPU time of the GUI thread in the same gaps: our own share of it
    stalls.reserve(size_t(seconds) * 250);
    busy.reserve(size_t(seconds) * 250);
    int probes = 0;
    QObject::connect(&probe, &QTimer::timeout, &view, [&] {
        const qint64 now = clock.nsecsElapsed();
        const double cpu = threadCpuS();
        if (lastNs > 0) {
            stalls.push_back(std::max(0.0, double(now - lastNs) / 1e6 - 5));
            busy.push_back((cpu - lastCpu) * 1e3);
        }
        lastNs = now;
        lastCpu = cpu;
        if (++probes % 20 == 0) // every ~100 ms: reading /proc is not free either
            rssMax = std::max(rssMax, rssKb());
    });
    feeder.start(tickMs);
    probe.start(5);
    QTimer::singleShot(seconds * 1000, qApp, &QCoreApplication::quit);
    qApp->exec();
    const double s = double(clock.elapsed()) / 1000.0;
    const qint64 rssEnd = rssKb();
    rssMax = std::max(rssMax, rssEnd);
    std::sort(stalls.begin(), stalls.end());
    std::sort(busy.begin(), busy.end());
    const auto pctOf = [](const std::vector<double>& v, double p) {
        return v.empty() ? 0.0 : v[std::min(v.size() - 1, size_t(p * double(v.size())))];
    };
    const auto pct = [&](double p) { return pctOf(stalls, p); };
    const double worst = stalls.empty() ? 0.0 : stalls.back();
    std::printf("logview: %d lines in %.1f s (%.0f lines/s offered), live view %d blocks, %lld lines shown live, %lld "
                "skipped live, full log %lld lines\n",
        line, s, double(line) / s, view.liveView()->blockCount(), view.shownLines(), view.skippedLines(),
        view.store().lineCount());
    std::printf("logview: event-loop stall p50 %.1f ms, p99 %.1f ms, max %.1f ms (%zu probes); worst flush %lld ms; "
                "RSS %lld MB at start, %lld MB at end, %lld MB max\n",
        pct(0.5), pct(0.99), worst, stalls.size(), view.worstFlushMs(), rss0 / 1024, rssEnd / 1024, rssMax / 1024);
    std::printf("logview: GUI-thread CPU time per probe gap p50 %.1f ms, p99 %.1f ms, max %.1f ms (the wall-clock "
                "stall minus time other processes had the core)\n",
        pctOf(busy, 0.5), pctOf(busy, 0.99), busy.empty() ? 0.0 : busy.back());
    std::printf("logview: load average %s\n", loadAverage().constData());
    return { true, worst, pct(0.99), pct(0.5), busy.empty() ? 0.0 : busy.back(), double(line) / s, rss0, rssEnd, line };
}

// The flood KF_BENCH_REPEATS times (a fresh view each), every stall row against the 50 ms goal.
int benchLogView(int linesPerSecond, int seconds)
{
    std::vector<LogViewRun> runs;
    kf::bench::Interleaved worst, p99, p50, busy;
    for (int i = 0; i < kf::bench::repeats(); ++i) {
        const LogViewRun r = logViewOnce(linesPerSecond, seconds);
        if (!r.ok)
            return 1;
        runs.push_back(r);
        for (auto [rows, value] : { std::pair { &worst, r.worst }, std::pair { &p99, r.p99 }, std::pair { &p50, r.p50 },
                 std::pair { &busy, r.busyMax } }) {
            rows->ours.push_back(value);
            rows->anchor.push_back(50);
        }
    }
    std::vector<double> rates;
    for (const LogViewRun& r : runs)
        rates.push_back(r.rate);
    const QString rate = QString::number(kf::bench::medianOf(rates), 'f', 0);
    kf::bench::report("build",
        qPrintable(QStringLiteral("log view at %1 lines/s offered for %2 s: worst event-loop stall (goal 50 ms)")
                       .arg(rate)
                       .arg(seconds)),
        worst, "goal", "ms", false);
    kf::bench::report("build",
        qPrintable(QStringLiteral("log view at %1 lines/s offered: event-loop stall p99").arg(rate)), p99, "goal", "ms",
        false);
    kf::bench::report("build",
        qPrintable(QStringLiteral("log view at %1 lines/s offered: event-loop stall p50").arg(rate)), p50, "goal", "ms",
        false);
    kf::bench::report("build",
        qPrintable(
            QStringLiteral("log view at %1 lines/s offered: longest GUI-thread CPU stretch between probes").arg(rate)),
        busy, "goal", "ms", false);
    // Memory of the first run: the later ones start in a process that already held a view.
    kf::bench::report("build", qPrintable(QStringLiteral("log view RSS at start (no anchor)")),
        double(runs.front().rss0) / 1024, "-", 0, "MB", false);
    kf::bench::report("build",
        qPrintable(
            QStringLiteral("log view RSS after %1 s, %2 lines (no anchor)").arg(seconds).arg(runs.front().lines)),
        double(runs.front().rssEnd) / 1024, "-", 0, "MB", false);
    return 0;
}

} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    const QString what = args.value(0, QStringLiteral("all"));
    int rc = 0;
    if (what == QLatin1String("parse") || what == QLatin1String("all"))
        rc |= benchParse(what == QLatin1String("parse") ? args.value(1, QStringLiteral("1000")).toLongLong() : 1000);
    if (what == QLatin1String("logview") || what == QLatin1String("all"))
        rc |= benchLogView(what == QLatin1String("logview") ? args.value(1, QStringLiteral("200000")).toInt() : 200000,
            what == QLatin1String("logview") ? args.value(2, QStringLiteral("10")).toInt() : 10);
    return rc;
}
