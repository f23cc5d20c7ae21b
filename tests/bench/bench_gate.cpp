// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The memory gate against hand-tuned -j (run by hand; rows go to docs/PERFORMANCE.md).
// The heavy project (tests/data/memgate-project, KF_UNITS units per language) is built inside a
// memory cgroup (tests/support/memorycgroup.h; root, cgroup v1 or v2) that cannot hold all its
// compiles at once:
//  1. the sweep: ungated `cmake --build -j J` for J = 1, 2, ... until a run is OOM-killed (or 8):
//     the best fixed -j is the fastest run that finished;
//  2. the gate with -j 16, first with no history (per-compiler first guesses) and then seeded with
//     the peaks that run learned (memorygate::learn), as the next run of a profile is;
//  3. KF_BENCH_REPEATS times (default 3: each run is a whole build) the seeded gate and the best
//     fixed -j in turn: the row's ratio is the median of the pairs' ratios.
// Every run compiles every unit (a clean first) and its wall time includes ninja's start.
//   bench_gate [units per language] [cgroup MiB]     (default 5 and 700)
#include "core/remotebuild/memorygate.h"
#include "tests/support/benchreport.h"
#include "tests/support/memorycgroup.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>
#include <vector>

namespace {

const QString kNvcc = QStringLiteral("/usr/local/cuda/bin/nvcc");
const QString kLauncher = QStringLiteral(KF_SOURCE_DIR "/resources/gate/kf-memgate");

struct Run
{
    double wallS = 0;
    bool ok = false;
    qint64 oomKills = 0;
};

// A command run with its whole process tree in the cgroup.
int inCgroup(const kf::test::MemoryCgroup& cg, const QStringList& command, const QProcessEnvironment& env)
{
    QProcess p;
    p.setProcessEnvironment(env);
    p.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    p.setStandardOutputFile(QProcess::nullDevice());
    p.start(QStringLiteral("/bin/sh"),
        QStringList { QStringLiteral("-c"), QStringLiteral("echo $$ > \"$0\" && exec \"$@\""),
            cg.folder() + QStringLiteral("/cgroup.procs") }
            + command);
    p.waitForFinished(-1);
    return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
}

Run build(const kf::test::MemoryCgroup& cg, const QString& buildDir, int jobs, const QProcessEnvironment& env)
{
    const QProcessEnvironment plain = QProcessEnvironment::systemEnvironment();
    inCgroup(cg,
        { QStringLiteral("cmake"), QStringLiteral("--build"), buildDir, QStringLiteral("--target"),
            QStringLiteral("clean") },
        plain);
    const qint64 before = cg.oomKills();
    QElapsedTimer t;
    t.start();
    const int rc = inCgroup(cg,
        { QStringLiteral("cmake"), QStringLiteral("--build"), buildDir, QStringLiteral("-j"), QString::number(jobs) },
        env);
    Run r;
    r.wallS = double(t.elapsed()) / 1000.0;
    r.oomKills = cg.oomKills() - before;
    r.ok = rc == 0 && r.oomKills == 0;
    return r;
}

bool configure(const QString& src, const QString& buildDir, int units, const QStringList& extra)
{
    const auto r = kf::test::runProgram(QStringLiteral("cmake"),
        QStringList { QStringLiteral("-S"), src, QStringLiteral("-B"), buildDir, QStringLiteral("-G"),
            QStringLiteral("Ninja"), QStringLiteral("-DCMAKE_CUDA_COMPILER=") + kNvcc,
            QStringLiteral("-DKF_UNITS=%1").arg(units) }
            + extra,
        600000);
    if (r.exitCode != 0)
        fprintf(stderr, "configure failed: %s\n", r.err.constData());
    return r.exitCode == 0;
}

// The gate's environment: a fresh state folder seeded with `seed`.
QProcessEnvironment gateEnv(const QString& folder, const QList<kf::UnitPeak>& seed)
{
    QDir(folder).removeRecursively();
    QDir().mkpath(folder);
    kf::test::writeFile(folder + QStringLiteral("/memgate.seed"), kf::memorygate::seedFile(seed));
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("KF_MEMGATE_DIR"), folder);
    return env;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const int units = argc > 1 ? atoi(argv[1]) : 5;
    const qint64 limitMb = argc > 2 ? atoll(argv[2]) : 700;
    if (!QFile::exists(kNvcc) || QStandardPaths::findExecutable(QStringLiteral("ninja")).isEmpty()) {
        printf("skipped: needs nvcc at %s, cmake and ninja\n", qPrintable(kNvcc));
        return 0;
    }
    auto cg = kf::test::MemoryCgroup::create(
        QStringLiteral("kf-bench-gate-%1").arg(QCoreApplication::applicationPid()), limitMb << 20);
    if (!cg) {
        printf("skipped: %s\n", qPrintable(cg.error()));
        return 0;
    }
    QTemporaryDir tmp;
    const QString src = kf::test::dataPath(QStringLiteral("memgate-project"));
    const QString plainDir = tmp.filePath(QStringLiteral("plain"));
    const QString gatedDir = tmp.filePath(QStringLiteral("gated"));
    const QString launcher = QStringLiteral("-DCMAKE_%1_COMPILER_LAUNCHER=") + kLauncher;
    if (!configure(src, plainDir, units, {})
        || !configure(
            src, gatedDir, units, { launcher.arg(QStringLiteral("CXX")), launcher.arg(QStringLiteral("CUDA")) }))
        return 1;
    printf("%d units (%d nvcc, %d g++) in a cgroup v%d of %lld MiB, %d cores\n", 2 * units, units, units,
        (*cg)->version(), (long long)limitMb, QThread::idealThreadCount());
    const QProcessEnvironment plain = QProcessEnvironment::systemEnvironment();

    // 1. The sweep.
    int bestJobs = 0;
    double bestS = 0;
    for (int j = 1; j <= 8; ++j) {
        const Run r = build(**cg, plainDir, j, plain);
        printf("sweep: -j %d: %.1f s, %s\n", j, r.wallS,
            r.ok ? "finished" : qPrintable(QStringLiteral("failed (%1 OOM kills)").arg(r.oomKills)));
        fflush(stdout);
        if (r.ok && (bestJobs == 0 || r.wallS < bestS)) {
            bestJobs = j;
            bestS = r.wallS;
        }
        if (!r.ok)
            break;
    }
    if (bestJobs == 0) {
        printf("no fixed -j finished: the cgroup is too small for one unit\n");
        return 1;
    }
    printf("best fixed -j: %d (%.1f s)\n", bestJobs, bestS);

    // 2. The gate, first with no history, then seeded with what it learned.
    const QString state = tmp.filePath(QStringLiteral("gate"));
    const Run first = build(**cg, gatedDir, 16, gateEnv(state, {}));
    const QList<kf::UnitPeak> learned = kf::memorygate::learn(
        {}, kf::memorygate::parsePeaks(kf::test::readFile(state + QStringLiteral("/memgate.peaks"))));
    printf("gate, first run (no history), -j 16: %.1f s, %s; learned %lld peaks:", first.wallS,
        first.ok ? "finished" : "FAILED", (long long)learned.size());
    for (const kf::UnitPeak& p : learned)
        printf(" %lld", (long long)(p.peakKb / 1024));
    printf(" MB\n");
    const kf::test::MemoryCgroup& cgroup = **cg;
    std::vector<double> seeded;
    const kf::bench::Interleaved runs = kf::bench::interleaved(
        [&] {
            const Run r = build(cgroup, gatedDir, 16, gateEnv(state, learned));
            printf("gate, seeded, -j 16: %.1f s, %s\n", r.wallS, r.ok ? "finished" : "FAILED");
            return r.ok ? r.wallS : 0.0;
        },
        [&] {
            const Run r = build(cgroup, plainDir, bestJobs, plain);
            printf("fixed -j %d: %.1f s, %s\n", bestJobs, r.wallS, r.ok ? "finished" : "FAILED");
            return r.ok ? r.wallS : 0.0;
        });
    const QByteArray anchor = QStringLiteral("best fixed -j (sweep 1..8: -j %1), ungated").arg(bestJobs).toUtf8();
    const QByteArray what = QStringLiteral("heavy CMake+CUDA build, %1 units in a %2 MiB cgroup: wall time, memory "
                                           "gate -j 16 seeded with learned peaks")
                                .arg(2 * units)
                                .arg(limitMb)
                                .toUtf8();
    kf::bench::report("build", what.constData(), runs, anchor.constData(), "s", false);
    const QByteArray whatFirst = QStringLiteral("the same, the gate's first run (no history: per-compiler first "
                                                "guesses)")
                                     .toUtf8();
    kf::bench::report(
        "build", whatFirst.constData(), first.ok ? first.wallS : 0.0, anchor.constData(), bestS, "s", false);
    printf("load average %s\n", kf::bench::loadNote());
    return first.ok ? 0 : 1;
}
