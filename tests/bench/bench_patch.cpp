// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Patch review benchmarks:
//  - line diff of two 20k-line files: our Myers (in process, unified output included) against
//    `git diff --no-index` on the same files in the same run (process start included, as a
//    user would run it);
//  - opening the review pane on a 5k-line file with 200 changed places (plan -> tree, diff
//    view with highlighting and word marks).
#include "core/hosts/hostconnection.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"
#include "core/patch/textdiff.h"
#include "core/store/database.h"
#include "tests/support/benchreport.h"
#include "tests/support/testsupport.h"
#include "ui/diff/diffview.h"
#include "ui/patch/patchpane.h"

#include <QApplication>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <benchmark/benchmark.h>

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

void BM_GitDiffNoIndex20k(benchmark::State& state)
{
    const auto [a, b] = makeFiles(20000, int(state.range(0)), 1);
    QTemporaryDir dir;
    for (const auto& [name, text] : { std::pair { QStringLiteral("a"), a }, std::pair { QStringLiteral("b"), b } }) {
        QFile f(dir.filePath(name));
        (void)f.open(QIODevice::WriteOnly);
        f.write(text.toUtf8());
    }
    for (auto _ : state) {
        const auto r = kf::test::runProgram(QStringLiteral("git"),
            { QStringLiteral("diff"), QStringLiteral("--no-index"), QStringLiteral("--no-color"),
                dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("b")) });
        benchmark::DoNotOptimize(r.out.size());
    }
}
BENCHMARK(BM_GitDiffNoIndex20k)->Arg(200)->Arg(2000)->Unit(benchmark::kMillisecond);

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

    // Summary rows for scripts/bench: best of 7, ours vs git diff --no-index on the same files
    // (git's time includes starting the process: what a user waits for either way).
    for (const int changes : { 200, 2000 }) {
        const auto [a, b] = makeFiles(20000, changes, 1);
        QTemporaryDir dir;
        for (const auto& [name, text] :
            { std::pair { QStringLiteral("a"), a }, std::pair { QStringLiteral("b"), b } }) {
            QFile f(dir.filePath(name));
            (void)f.open(QIODevice::WriteOnly);
            f.write(text.toUtf8());
        }
        double ours = 1e9, git = 1e9;
        for (int i = 0; i < 7; ++i) {
            QElapsedTimer t;
            t.start();
            benchmark::DoNotOptimize(
                kf::textdiff::unifiedDiff(a, b, QStringLiteral("a/f"), QStringLiteral("b/f")).size());
            ours = std::min(ours, double(t.nsecsElapsed()) / 1e6);
            t.restart();
            kf::test::runProgram(QStringLiteral("git"),
                { QStringLiteral("diff"), QStringLiteral("--no-index"), QStringLiteral("--no-color"),
                    dir.filePath(QStringLiteral("a")), dir.filePath(QStringLiteral("b")) });
            git = std::min(git, double(t.nsecsElapsed()) / 1e6);
        }
        kf::bench::report("patch", qPrintable(QStringLiteral("line diff, two 20k-line files, %1 changes").arg(changes)),
            ours, "git diff --no-index", git, "ms", false);
    }
    return 0;
}
