// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/preflight.h"
#include "core/transport/localtransport.h"

#include "tests/support/factsfixture.h"
#include "tests/support/testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

using L = kf::PreflightCheck::Level;

namespace {
QMap<QString, kf::PreflightCheck> byId(const QList<kf::PreflightCheck>& checks)
{
    QMap<QString, kf::PreflightCheck> m;
    for (const auto& c : checks)
        m.insert(c.id, c); // the last one of an id wins; tests look at ids that occur once
    return m;
}
kf::ServerFacts fixture()
{
    return kf::test::factsFixture(QStringLiteral("project-cuda13-old-cmake.txt"));
}
kf::BuildProfile sglProfile(int jobs, int threads)
{
    kf::BuildProfile p;
    p.name = QStringLiteral("sgl");
    p.command = QStringLiteral("make build");
    p.workingDirectory = QStringLiteral("~/sglang/sgl-kernel");
    p.buildDir = QStringLiteral("build");
    p.maxJobs = jobs;
    p.nvccThreads = threads;
    p.nvccThreadsDefine = QStringLiteral("SGL_KERNEL_COMPILE_THREADS");
    return p;
}
} // namespace

class TestPreflight : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void oldCMakeOnCuda13()
    {
        const auto checks = byId(kf::evaluatePreflight(fixture(), sglProfile(2, 4)));
        QCOMPARE(int(checks[QStringLiteral("cmake-policy")].level), int(L::Fail));
        QVERIFY(checks[QStringLiteral("cmake-policy")].message.contains(QStringLiteral("CMP0169, CMP0177")));
        QVERIFY(checks[QStringLiteral("cmake-policy")].message.contains(QStringLiteral("3.31")));
        QVERIFY(checks[QStringLiteral("cmake-policy")].fix.contains(QStringLiteral("cmake-policy patch")));
        QCOMPARE(int(checks[QStringLiteral("cccl")].level), int(L::Fail));
        QVERIFY(checks[QStringLiteral("cccl")].fix.contains(QStringLiteral("CCCL")));
        QCOMPARE(int(checks[QStringLiteral("nvcc")].level), int(L::Pass));
        // Messages name the CUDA release, as the old preflight script's "release 13.0" did.
        QCOMPARE(checks[QStringLiteral("nvcc")].message,
            QStringLiteral("CUDA 13.0 at /usr/local/cuda/bin/nvcc (sm_120a ok)"));
        QVERIFY(checks[QStringLiteral("cccl")].message.contains(QStringLiteral("/usr/local/cuda/include/cccl")));
        QCOMPARE(int(checks[QStringLiteral("torch")].level), int(L::Pass));
        QCOMPARE(int(checks[QStringLiteral("env-dflag")].level), int(L::Warn));
        QVERIFY(checks[QStringLiteral("env-dflag")].fix.contains(QStringLiteral("-DSGL_KERNEL_ENABLE_FA3=OFF")));
        // 2 x 4 x 4 GB = 32 GB of 64 GB.
        QCOMPARE(int(checks[QStringLiteral("ram")].level), int(L::Pass));
        QCOMPARE(int(checks[QStringLiteral("disk")].level), int(L::Pass));
    }

    void patchedProjectPasses()
    {
        kf::ServerFacts facts = fixture();
        facts.project.exportedCMakeVariables.clear();
        facts.project.cmakeLists = { QStringLiteral("if(POLICY CMP0169)"),
            QStringLiteral("  cmake_policy(SET CMP0169 OLD)"), QStringLiteral("endif()"),
            QStringLiteral("if(POLICY CMP0177)"), QStringLiteral("  cmake_policy(SET CMP0177 NEW)"),
            QStringLiteral("endif()"), QStringLiteral("include_directories(${CUDAToolkit_INCLUDE_DIRS}/cccl)") };
        const auto all = kf::evaluatePreflight(facts, sglProfile(2, 4));
        for (const auto& c : all)
            QVERIFY2(c.level == L::Pass, qPrintable(c.id + QStringLiteral(": ") + c.message));
    }

    // Installed is not importable: the build imports torch.
    void torchThatDoesNotImport()
    {
        kf::ServerFacts facts = fixture();
        facts.torchError = QStringLiteral("OSError: libcudart.so.13: cannot open shared object file");
        auto checks = byId(kf::evaluatePreflight(facts, sglProfile(2, 4)));
        QCOMPARE(int(checks[QStringLiteral("torch")].level), int(L::Warn));
        QVERIFY(checks[QStringLiteral("torch")].message.contains(QStringLiteral("not importable")));
        facts = fixture();
        facts.torchCuda = QStringLiteral("12.8");
        checks = byId(kf::evaluatePreflight(facts, sglProfile(2, 4)));
        QCOMPARE(checks[QStringLiteral("torch")].message,
            QStringLiteral("torch 2.10.0.dev20251120+cu130 is built for CUDA 12.8 but nvcc is 13.0"));
    }

    void ramBudget_data()
    {
        QTest::addColumn<int>("jobs");
        QTest::addColumn<int>("threads");
        QTest::addColumn<int>("level");
        QTest::newRow("fits") << 2 << 4 << int(L::Pass);                // 32 of 64 GB
        QTest::newRow("tight") << 3 << 5 << int(L::Warn);               // 60 of 64 GB
        QTest::newRow("default 32 threads") << 4 << 32 << int(L::Fail); // 512 GB
    }
    void ramBudget()
    {
        QFETCH(int, jobs);
        QFETCH(int, threads);
        QFETCH(int, level);
        const auto checks = byId(kf::evaluatePreflight(fixture(), sglProfile(jobs, threads)));
        QCOMPARE(int(checks[QStringLiteral("ram")].level), level);
        if (level == int(L::Fail))
            QVERIFY(checks[QStringLiteral("ram")].fix.contains(QStringLiteral("MAX_JOBS=")));
    }

    // 64 GB available on the host, but the login session's cgroup allows 10 GiB with 2 used: the
    // budget is judged against 8 GiB. With the memory gate the build is slower, not killed (warn);
    // without it, it fails with MAX_JOBS advice that fits the cgroup.
    void ramUnderACgroupLimit()
    {
        kf::ServerFacts facts = fixture();
        facts.memory.cgroupVersion = 2;
        facts.memory.cgroupPath = QStringLiteral("/user.slice/user-1000.slice/session-2.scope");
        facts.memory.levels = { { facts.memory.cgroupPath }, { QStringLiteral("/user.slice/user-1000.slice") } };
        facts.memory.levels[1].maxBytes = 10.0 * (1 << 30);
        facts.memory.levels[1].currentBytes = 2.0 * (1 << 30);
        kf::BuildProfile p = sglProfile(4, 1); // 16 GB
        auto checks = byId(kf::evaluatePreflight(facts, p));
        const kf::PreflightCheck& ram = checks[QStringLiteral("ram")];
        QCOMPARE(int(ram.level), int(L::Warn));
        QVERIFY2(ram.message.startsWith(QStringLiteral("MAX_JOBS 4 x 1 nvcc threads x ~4 GB = 16 GB; 8.0 GB available "
                                                       "(cgroup v2 /user.slice/user-1000.slice (limit 10.0 GiB))")),
            qPrintable(ram.message));
        QVERIFY2(ram.message.endsWith(QStringLiteral("the memory gate runs about 2 compiles at once")),
            qPrintable(ram.message));
        p.memoryGate = false;
        checks = byId(kf::evaluatePreflight(facts, p));
        QCOMPARE(int(checks[QStringLiteral("ram")].level), int(L::Fail));
        QVERIFY2(checks[QStringLiteral("ram")].fix.contains(QStringLiteral("use MAX_JOBS=2 ")),
            qPrintable(checks[QStringLiteral("ram")].fix));
    }

    void oldCudaAndMissingTools()
    {
        kf::ServerFacts facts;
        facts.project.probed = true;
        facts.project.workDirExists = false;
        facts.nvcc = QStringLiteral("12.4.131");
        facts.project.diskAvailableKiB = 1048576;
        const auto checks = byId(kf::evaluatePreflight(facts, sglProfile(1, 1)));
        QCOMPARE(int(checks[QStringLiteral("workdir")].level), int(L::Fail));
        QCOMPARE(int(checks[QStringLiteral("cmake")].level), int(L::Fail));
        QCOMPARE(int(checks[QStringLiteral("ninja")].level), int(L::Warn));
        QCOMPARE(int(checks[QStringLiteral("cuda-arch")].level), int(L::Fail));
        QCOMPARE(
            checks[QStringLiteral("cuda-arch")].message, QStringLiteral("CUDA 12.4 cannot build sm_120a (needs 12.8)"));
        QCOMPARE(int(checks[QStringLiteral("python")].level), int(L::Fail));
        QCOMPARE(int(checks[QStringLiteral("disk")].level), int(L::Fail));
        QVERIFY(!checks.contains(QStringLiteral("cccl")));
    }

    void scriptRunsOnThisMachine()
    {
        // The real probe through /bin/sh, with the profile's folder and environment.
        QTemporaryDir dir;
        QVERIFY(kf::test::writeFile(dir.filePath(QStringLiteral("CMakeLists.txt")),
            "cmake_minimum_required(VERSION 3.20)\ncmake_policy(SET CMP0177 NEW)\nproject(x)\n"));
        kf::BuildProfile p = sglProfile(1, 1);
        p.workingDirectory = dir.path();
        p.env.insert(QStringLiteral("SGL_KERNEL_COMPILE_THREADS"), QStringLiteral("8"));
        kf::LocalTransport t;
        const auto run = kf::runPreflight(t, p);
        QVERIFY2(run, qPrintable(run.error()));
        const auto checks = byId(*run);
        QVERIFY(!checks.contains(QStringLiteral("workdir")));
        QVERIFY(checks.contains(QStringLiteral("ram")));
        QVERIFY(checks.contains(QStringLiteral("disk")));
        // The profile exports a CMake-only variable: warned once (profile), not twice (server env).
        QCOMPARE(std::count_if(run->begin(), run->end(),
                     [](const kf::PreflightCheck& c) { return c.id == QLatin1String("env-dflag"); }),
            1);
        p.workingDirectory = dir.filePath(QStringLiteral("missing"));
        const auto missing = kf::runPreflight(t, p);
        QVERIFY2(missing, qPrintable(missing.error()));
        QCOMPARE(int(byId(*missing)[QStringLiteral("workdir")].level), int(L::Fail));
    }
};

QTEST_GUILESS_MAIN(TestPreflight)
#include "tst_preflight.moc"
