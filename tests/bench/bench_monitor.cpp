// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Monitoring hot paths: nvidia-smi CSV rows/s (goal >= 1M), Prometheus parsing, SeriesBuffer
// appends and decimation, and the chart repaint for 8 GPUs x 24 h (goal < 10 ms).
// Run: QT_QPA_PLATFORM=offscreen ./build/tests/bench/bench_monitor
#include "core/monitor/nvidiasmi.h"
#include "core/monitor/prometheustext.h"
#include "core/monitor/seriesbuffer.h"
#include "core/monitor/servermetrics.h"
#include "tests/support/testsupport.h"
#include "ui/chart/timechart.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QPixmap>

#include <cstdio>

#ifdef KF_HAVE_GOOGLE_BENCHMARK
#include <benchmark/benchmark.h>
#endif

using namespace kf;

namespace {

// 8 GPUs x N blocks of the default monitor field list, as `--format=csv,noheader,nounits`.
QByteArray smiStream(int blocks)
{
    QByteArray out;
    for (int b = 0; b < blocks; ++b) {
        for (int i = 0; i < 8; ++i) {
            out += QByteArray::number(i) + ", GPU-3b439167-c6d1-b01d-3fb1-c3ce7921e9c" + QByteArray::number(i)
                + ", NVIDIA H200, P0, " + QByteArray::number(60 + (b + i) % 9) + ", 51, " + QByteArray::number((b * 7 + i) % 101)
                + ", 24, 143771, 58361, " + QByteArray::number(600 + (b % 90)) + ".25, 700.00, 1470, 3201, [N/A], 0, 0x0000000000000004, Disabled\n";
        }
    }
    return out;
}

std::vector<SeriesBuffer> dayOfEightGpus(qint64* end)
{
    std::vector<SeriesBuffer> series(8);
    const qint64 t0 = 1'700'000'000'000LL;
    const qint64 n = 24LL * 3600;
    for (int g = 0; g < 8; ++g) {
        for (qint64 i = 0; i <= n; ++i)
            series[size_t(g)].append(t0 + i * 1000, 50 + 45 * std::sin(double(i) / (600.0 + g * 50)) + (i % 17));
    }
    *end = t0 + n * 1000;
    return series;
}

// KF-RESULT lines for scripts/bench (docs/PERFORMANCE.md): plain wall-clock timings of
// the two goals, next to the goal as the anchor.
void printResults()
{
    const QByteArray data = smiStream(2000);
    const QList<GpuField> fields = defaultGpuFields();
    QElapsedTimer t;
    t.start();
    qint64 rows = 0;
    for (int i = 0; i < 20; ++i)
        rows += parseGpuCsv(data, fields).samples.size();
    const double rowsPerSecond = double(rows) / (double(t.nsecsElapsed()) / 1e9);
    std::printf("KF-RESULT\tmonitor\tnvidia-smi CSV parse (8 GPUs, 18 fields)\t%.0f\tgoal\t1000000\trows/s\t%.2f\n", rowsPerSecond, rowsPerSecond / 1e6);

    qint64 end = 0;
    const auto series = dayOfEightGpus(&end);
    TimeChart chart;
    chart.resize(1280, 420);
    for (int g = 0; g < 8; ++g)
        chart.addSeries(QStringLiteral("GPU %1").arg(g));
    chart.setValueRange(0, 100);
    chart.show();
    QPixmap target(chart.size());
    chart.render(&target);
    const qint64 from = end - 24LL * 3600 * 1000;
    t.restart();
    const int rounds = 20;
    for (int r = 0; r < rounds; ++r) {
        chart.setTimeWindow(from, end);
        for (int g = 0; g < 8; ++g)
            chart.setSeriesData(g, series[size_t(g)].decimated(from, end, chart.columns()));
        chart.render(&target);
    }
    const double ms = double(t.nsecsElapsed()) / 1e6 / rounds;
    std::printf("KF-RESULT\tmonitor\tchart repaint 8 GPUs x 24 h (decimate + render)\t%.1f\tgoal\t10\tms\t%.2f\n", ms, 10.0 / ms);
    std::fflush(stdout);
}

#ifdef KF_HAVE_GOOGLE_BENCHMARK
void BM_NvidiaSmiRows(benchmark::State& state)
{
    const QByteArray data = smiStream(1000); // 8000 rows
    const QList<GpuField> fields = defaultGpuFields();
    qint64 rows = 0;
    for (auto _ : state) {
        const GpuCsvResult r = parseGpuCsv(data, fields);
        benchmark::DoNotOptimize(r.samples.size());
        rows += r.samples.size();
    }
    state.counters["rows/s"] = benchmark::Counter(double(rows), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_NvidiaSmiRows)->Unit(benchmark::kMillisecond);

void BM_NvidiaSmiRowsWithUnits(benchmark::State& state)
{
    const QByteArray header = test::readData(QStringLiteral("nvidia-smi/h200-driver580/query_csv_units.txt"));
    const QList<QByteArray> lines = header.split('\n');
    QByteArray data = lines[0] + '\n';
    for (int i = 0; i < 8000; ++i)
        data += lines[1] + '\n';
    qint64 rows = 0;
    for (auto _ : state) {
        const GpuCsvResult r = parseGpuCsv(data);
        rows += r.samples.size();
    }
    state.counters["rows/s"] = benchmark::Counter(double(rows), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_NvidiaSmiRowsWithUnits)->Unit(benchmark::kMillisecond);

void BM_PrometheusDemoPage(benchmark::State& state)
{
    const QByteArray page = test::readData(QStringLiteral("metrics/sglang_demo_tp2.prom"));
    qint64 bytes = 0;
    for (auto _ : state) {
        const PromText t = parsePrometheusText(page);
        const ServerMetrics m = deriveServerMetrics(t);
        benchmark::DoNotOptimize(m.genThroughput);
        bytes += page.size();
    }
    state.SetBytesProcessed(bytes);
}
BENCHMARK(BM_PrometheusDemoPage)->Unit(benchmark::kMicrosecond);

void BM_SeriesAppend(benchmark::State& state)
{
    SeriesBuffer b;
    qint64 t = 0;
    for (auto _ : state) {
        b.append(t, double(t % 100));
        t += 1000;
    }
}
BENCHMARK(BM_SeriesAppend);

void BM_Decimate24h(benchmark::State& state)
{
    qint64 end = 0;
    const auto series = dayOfEightGpus(&end);
    for (auto _ : state) {
        qsizetype n = 0;
        for (const auto& s : series)
            n += s.decimated(end - 24LL * 3600 * 1000, end, 1200).size();
        benchmark::DoNotOptimize(n);
    }
}
BENCHMARK(BM_Decimate24h)->Unit(benchmark::kMillisecond);

// Decimate 8 x 24 h to the chart width, hand it to the chart and render it offscreen.
void BM_ChartRepaint8Gpus24h(benchmark::State& state)
{
    qint64 end = 0;
    const auto series = dayOfEightGpus(&end);
    TimeChart chart;
    chart.resize(1280, 420);
    for (int g = 0; g < 8; ++g)
        chart.addSeries(QStringLiteral("GPU %1").arg(g));
    chart.setValueRange(0, 100);
    chart.show();
    QPixmap target(chart.size());
    chart.render(&target); // first layout
    const qint64 from = end - 24LL * 3600 * 1000;
    for (auto _ : state) {
        chart.setTimeWindow(from, end);
        const int columns = chart.columns();
        for (int g = 0; g < 8; ++g)
            chart.setSeriesData(g, series[size_t(g)].decimated(from, end, columns));
        chart.render(&target);
    }
    state.counters["points"] = double(chart.pointCount());
}
BENCHMARK(BM_ChartRepaint8Gpus24h)->Unit(benchmark::kMillisecond);

#endif

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", qgetenv("QT_QPA_PLATFORM").isEmpty() ? QByteArray("offscreen") : qgetenv("QT_QPA_PLATFORM"));
    QApplication app(argc, argv);
#ifdef KF_HAVE_GOOGLE_BENCHMARK
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
#endif
    printResults();
    return 0;
}
