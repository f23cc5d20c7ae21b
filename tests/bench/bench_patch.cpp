// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Patch review benchmarks:
//  - line diff of two 20k-line files: our Myers (in process, unified output included) against
//    libgit2's git_diff_buffers (in process, git's xdiff, the unified text built from its line
//    callbacks) on the same inputs in the same run, CPU time and wall time, interleaved;
//  - opening the review pane on a 5k-line file with 200 changed places (plan -> tree, diff
//    view with highlighting and word marks).
#include "core/hosts/hostconnection.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/patch/textdiff.h"
#include "core/store/database.h"
#include "tests/support/benchreport.h"
#include "ui/diff/diffview.h"
#include "ui/patch/patchpane.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>
#include <git2.h>

#include <ctime>
#include <functional>
#include <string>

namespace {

// A C++-looking file of n lines and a copy with `changes` edits spread through it.
std::pair<QString, QString> makeFiles(int n, int changes, quint32 seed)
{
    QRandomGenerator rng(seed);
    QStringList a;
    a.reserve(n);
    for (int i = 0; i < n; ++i)
        a.append(QStringLiteral("    value_%1 = compute(input[%2], %3); // step %4")
                     .arg(i)
                     .arg(rng.bounded(1000))
                     .arg(rng.bounded(97))
                     .arg(i % 13));
    QStringList b = a;
    const int stride = n / changes;
    for (int c = changes - 1; c >= 0; --c) {
        const int at = c * stride + int(rng.bounded(std::max(stride - 3, 1)));
        switch (c % 3) {
        case 0: b[at] = b[at] + QStringLiteral(" // changed"); break;
        case 1: b.insert(at, QStringLiteral("    inserted_%1();").arg(c)); break;
        case 2: b.removeAt(at); break;
        }
    }
    return { a.join(QLatin1Char('\n')) + QLatin1Char('\n'), b.join(QLatin1Char('\n')) + QLatin1Char('\n') };
}

void BM_LineDiff20k(benchmark::State& state)
{
    const auto [a, b] = makeFiles(20000, int(state.range(0)), 1);
    for (auto _ : state) {
        const QString d = kf::textdiff::unifiedDiff(a, b, QStringLiteral("a/f"), QStringLiteral("b/f"));
        benchmark::DoNotOptimize(d.size());
    }
}
BENCHMARK(BM_LineDiff20k)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond);

// libgit2's diff of two buffers (git's xdiff) with the unified text built from its callbacks:
// the same work as unifiedDiff, in the same process.
int gitHunk(const git_diff_delta*, const git_diff_hunk* hunk, void* payload)
{
    static_cast<std::string*>(payload)->append(hunk->header, hunk->header_len);
    return 0;
}

int gitLine(const git_diff_delta*, const git_diff_hunk*, const git_diff_line* line, void* payload)
{
    auto* out = static_cast<std::string*>(payload);
    if (line->origin == GIT_DIFF_LINE_CONTEXT || line->origin == GIT_DIFF_LINE_ADDITION
        || line->origin == GIT_DIFF_LINE_DELETION)
        out->push_back(line->origin);
    out->append(line->content, line->content_len);
    return 0;
}

std::string libgit2Unified(const QByteArray& a, const QByteArray& b)
{
    git_diff_options opts = GIT_DIFF_OPTIONS_INIT;
    opts.context_lines = 3;
    std::string out;
    git_diff_buffers(a.constData(), size_t(a.size()), "a/f", b.constData(), size_t(b.size()), "b/f", &opts, nullptr,
        nullptr, gitHunk, gitLine, &out);
    return out;
}

void BM_Libgit2DiffBuffers20k(benchmark::State& state)
{
    const auto [a, b] = makeFiles(20000, int(state.range(0)), 1);
    const QByteArray a8 = a.toUtf8();
    const QByteArray b8 = b.toUtf8();
    for (auto _ : state)
        benchmark::DoNotOptimize(libgit2Unified(a8, b8).size());
}
BENCHMARK(BM_Libgit2DiffBuffers20k)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond);

// Changed lines (+ and - lines, file headers aside) of a unified diff: both sides must find a
// change set of the same size, or they did different work.
qsizetype changedLines(const QByteArray& unified)
{
    qsizetype n = 0;
    for (const QByteArray& l : unified.split('\n'))
        if ((l.startsWith('+') && !l.startsWith("+++")) || (l.startsWith('-') && !l.startsWith("---")))
            ++n;
    return n;
}

double processCpuMs()
{
    timespec ts {};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return double(ts.tv_sec) * 1e3 + double(ts.tv_nsec) / 1e6;
}

void BM_WordDiff(benchmark::State& state)
{
    const QString a
        = QStringLiteral("if (\"${CUDA_VERSION}\" VERSION_GREATER_EQUAL \"12.4\" OR SGL_KERNEL_ENABLE_SM90A)");
    const QString b
        = QStringLiteral("if (\"${CUDA_VERSION}\" VERSION_GREATER_EQUAL \"12.8\" AND NOT SGL_KERNEL_ENABLE_SM90A)");
    for (auto _ : state)
        benchmark::DoNotOptimize(kf::textdiff::diffWords(a, b).newChanged.size());
}
BENCHMARK(BM_WordDiff)->Unit(benchmark::kMicrosecond);

// The pane from a finished plan to a painted diff of a 5k-line file with 200 hunks.
void BM_OpenPane5k200(benchmark::State& state)
{
    const auto [a, b] = makeFiles(5000, 200, 2);
    const QString diff = QStringLiteral("diff --git a/big.cpp b/big.cpp\n")
        + kf::textdiff::unifiedDiff(a, b, QStringLiteral("a/big.cpp"), QStringLiteral("b/big.cpp"));
    const auto set = kf::patch::patchSetFromDiff(diff, QStringLiteral("big.patch"));
    const kf::patch::SetPlan plan
        = kf::patch::planSetOnFiles(set.value(), { { QStringLiteral("big.cpp"), a.toUtf8() } });
    if (plan.count(kf::patch::PatchStatus::WillApply) != 1) {
        state.SkipWithError("plan did not apply");
        return;
    }
    kf::HostProfile profile;
    profile.name = QStringLiteral("bench");
    profile.isLocal = true;
    kf::LocalHostConnection host(profile); // the pane's host; its history is read from the bench's database
    int hunks = 0;
    for (auto _ : state) {
        kf::PatchPane pane { kf::AppContext {}, &host };
        pane.resize(1400, 900);
        pane.show();
        pane.showPlan(plan);
        QCoreApplication::processEvents();
        pane.repaint();
        hunks = pane.diffView()->hunkCount();
    }
    state.counters["hunks"] = hunks;
}
BENCHMARK(BM_OpenPane5k200)->Unit(benchmark::kMillisecond)->Iterations(5);

} // namespace

int main(int argc, char** argv)
{
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QTemporaryDir db;
    kf::store::setDatabasePath(db.filePath(QStringLiteral("history.sqlite")));
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();

    // Summary rows for scripts/bench: ours and libgit2 in turn on the same inputs, each run the
    // best of 3 calls (CPU time of the process, and wall time), KF_BENCH_REPEATS runs.
    git_libgit2_init();
    for (const int changes : { 200, 2000 }) {
        const auto [a, b] = makeFiles(20000, changes, 1);
        const QByteArray a8 = a.toUtf8();
        const QByteArray b8 = b.toUtf8();
        const qsizetype oursChanged
            = changedLines(kf::textdiff::unifiedDiff(a, b, QStringLiteral("a/f"), QStringLiteral("b/f")).toUtf8());
        const qsizetype gitChanged = changedLines(QByteArray::fromStdString(libgit2Unified(a8, b8)));
        printf("%d changes: changed lines found: ours %lld, libgit2 %lld\n", changes, (long long)oursChanged,
            (long long)gitChanged);
        auto best = [](const std::function<void()>& work, bool cpu) {
            double bestMs = 1e18;
            for (int i = 0; i < 3; ++i) {
                QElapsedTimer wall;
                const double cpu0 = processCpuMs();
                wall.start();
                work();
                bestMs = std::min(bestMs, cpu ? processCpuMs() - cpu0 : double(wall.nsecsElapsed()) / 1e6);
            }
            return bestMs;
        };
        auto ours = [&] {
            benchmark::DoNotOptimize(
                kf::textdiff::unifiedDiff(a, b, QStringLiteral("a/f"), QStringLiteral("b/f")).size());
        };
        auto git = [&] { benchmark::DoNotOptimize(libgit2Unified(a8, b8).size()); };
        for (const bool cpu : { true, false }) {
            const auto runs = kf::bench::interleaved([&] { return best(ours, cpu); }, [&] { return best(git, cpu); });
            const QByteArray what = QStringLiteral("line diff, two 20k-line files, %1 changes, unified text, %2")
                                        .arg(changes)
                                        .arg(cpu ? QStringLiteral("CPU time") : QStringLiteral("wall time"))
                                        .toUtf8();
            kf::bench::report("patch", what.constData(), runs, "libgit2 git_diff_buffers (in process)", "ms", false);
        }
    }
    git_libgit2_shutdown();
    return 0;
}
