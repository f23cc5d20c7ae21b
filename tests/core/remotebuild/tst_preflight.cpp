// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/preflight.h"
#include "core/transport/localtransport.h"

#include "tests/support/factsfixture.h"
#include "tests/support/testsupport.h"

#include <QDir>
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

    // Debian 12's CMake 3.25 is older than sgl-kernel's cmake_minimum_required(3.26): the policy
    // guards cannot help there, and preflight says so (the corpus test found it).
    void cmakeBelowTheMinimum()
    {
        kf::ServerFacts facts = fixture();
        facts.cmake = QStringLiteral("3.25.1");
        facts.project.treeLines = { { QStringLiteral("README.md"), QStringLiteral("- CMake \u22653.31,") } };
        const auto checks = byId(kf::evaluatePreflight(facts, sglProfile(2, 4)));
        const kf::PreflightCheck& c = checks[QStringLiteral("cmake")];
        QCOMPARE(int(c.level), int(L::Fail));
        QVERIFY2(
            c.message.contains(QStringLiteral("older than the 3.26 CMakeLists.txt asks for")), qPrintable(c.message));
        QVERIFY2(c.message.contains(QStringLiteral("README.md asks for CMake >= 3.31")), qPrintable(c.message));
        QCOMPARE(c.fix, QStringLiteral("install CMake >= 3.31 (pip install 'cmake>=3.31')"));
        QVERIFY(!checks.contains(QStringLiteral("cmake-policy")));
    }

    // CMake 3.28 with the guards in place: older than the README's 3.31, and that is fine.
    void guardedPoliciesOnCMake328()
    {
        kf::ServerFacts facts = fixture();
        facts.project.cmakeLists = { QStringLiteral("cmake_minimum_required(VERSION 3.26 FATAL_ERROR)"),
            QStringLiteral("if(POLICY CMP0169) # (3.30)"), QStringLiteral("  cmake_policy(SET"),
            QStringLiteral("    CMP0169 OLD)"), QStringLiteral("endif()") };
        facts.project.treeLines = { { QStringLiteral("README.md"), QStringLiteral("- CMake \u22653.31,") } };
        const auto checks = byId(kf::evaluatePreflight(facts, sglProfile(2, 4)));
        QCOMPARE(int(checks[QStringLiteral("cmake")].level), int(L::Pass));
        QVERIFY2(
            checks[QStringLiteral("cmake")].message.contains(QStringLiteral("older than the 3.31 README.md asks for")),
            qPrintable(checks[QStringLiteral("cmake")].message));
    }

    // The CCCL folder reaches the host compiler either way: the patched CMakeLists or
    // CPLUS_INCLUDE_PATH as upstream's Dockerfile sets it.
    void ccclThroughTheEnvironment()
    {
        kf::ServerFacts facts = fixture();
        facts.project.cplusIncludePath = QStringLiteral("/opt/x/include:/usr/local/cuda/include/cccl/");
        const auto checks = byId(kf::evaluatePreflight(facts, sglProfile(2, 4)));
        QCOMPARE(int(checks[QStringLiteral("cccl")].level), int(L::Pass));
        QVERIFY2(checks[QStringLiteral("cccl")].message.contains(QStringLiteral("CPLUS_INCLUDE_PATH holds "
                                                                                "/usr/local/cuda/include/cccl")),
            qPrintable(checks[QStringLiteral("cccl")].message));
        facts.project.cplusIncludePath.clear();
        const auto without = byId(kf::evaluatePreflight(facts, sglProfile(2, 4)));
        QCOMPARE(int(without[QStringLiteral("cccl")].level), int(L::Fail));
        QVERIFY(without[QStringLiteral("cccl")].fix.contains(QStringLiteral("CPLUS_INCLUDE_PATH=")));
    }

    // The torch the tree asks for, read from the tree: sglang's pin first.
    void torchTheTreeAsksFor()
    {
        kf::ServerFacts facts = fixture(); // torch 2.10.0.dev20251120+cu130
        facts.project.treeLines = { { QStringLiteral("README.md"), QStringLiteral("Requires torch == 2.14.0") },
            { QStringLiteral("pyproject.toml"), QStringLiteral("  \"torch>=2.8.0\",") } };
        auto checks = byId(kf::evaluatePreflight(facts, sglProfile(2, 4)));
        QCOMPARE(int(checks[QStringLiteral("torch")].level), int(L::Warn));
        QVERIFY2(
            checks[QStringLiteral("torch")].message.contains(QStringLiteral("asks for torch == 2.14.0 (README.md)")),
            qPrintable(checks[QStringLiteral("torch")].message));
        QCOMPARE(checks[QStringLiteral("torch")].fix, QStringLiteral("install torch == 2.14.0 first"));
        facts.project.treeLines.append(
            { QStringLiteral("python/pyproject.toml"), QStringLiteral("  \"torch==2.10.0\",") });
        checks = byId(kf::evaluatePreflight(facts, sglProfile(2, 4)));
        QCOMPARE(int(checks[QStringLiteral("torch")].level), int(L::Pass));
        QVERIFY(checks[QStringLiteral("torch")].message.contains(QStringLiteral("python/pyproject.toml")));
    }

    void ccacheAskedFor()
    {
        kf::BuildProfile p = sglProfile(2, 4);
        p.ccache = true;
        kf::ServerFacts facts = fixture();
        QCOMPARE(int(byId(kf::evaluatePreflight(facts, p))[QStringLiteral("ccache")].level), int(L::Fail));
        facts.ccache = QStringLiteral("4.8");
        QCOMPARE(int(byId(kf::evaluatePreflight(facts, p))[QStringLiteral("ccache")].level), int(L::Pass));
        QVERIFY(!byId(kf::evaluatePreflight(facts, sglProfile(2, 4))).contains(QStringLiteral("ccache")));
    }

    // A kernel_tree profile on this machine: preflight finds the tree (either layout) below the
    // checkout and judges it there; without one, that is the first failure and says where it looked.
    void kernelTreeOnThisMachine()
    {
        QTemporaryDir dir;
        const QString tree = dir.filePath(QStringLiteral("sglang/python/sglang/kernels/aot"));
        QVERIFY(kf::test::writeFile(tree + QStringLiteral("/CMakeLists.txt"),
            "cmake_minimum_required(VERSION 3.22)\ninclude_directories(\n  # (x)\n  ${PROJECT_SOURCE_DIR}/include)\n"));
        QVERIFY(kf::test::writeFile(tree + QStringLiteral("/python/sgl_kernel/__init__.py"), ""));
        QVERIFY(kf::test::writeFile(tree + QStringLiteral("/README.md"),
            "Requires torch == 2.14.0\n- CMake \xe2\x89\xa5"
            "3.31,\n"));
        QVERIFY(kf::test::writeFile(dir.filePath(QStringLiteral("sglang/python/pyproject.toml")),
            "[project]\nname = \"sglang\"\ndependencies = [\n  \"torch==2.13.0\",\n]\n"));
        kf::BuildProfile p = sglProfile(1, 1);
        p.workingDirectory = dir.filePath(QStringLiteral("sglang"));
        p.kernelTree = true;
        kf::LocalTransport local;
        const auto checks = kf::runPreflight(local, p);
        QVERIFY2(checks, qPrintable(checks.error()));
        const auto m = byId(*checks);
        QCOMPARE(int(m[QStringLiteral("tree")].level), int(L::Pass));
        QVERIFY2(m[QStringLiteral("tree")].message.startsWith(
                     QStringLiteral("sgl-kernel tree: python/sglang/kernels/aot below")),
            qPrintable(m[QStringLiteral("tree")].message));
        QVERIFY(!m.contains(QStringLiteral("workdir")));

        p.workingDirectory = dir.filePath(QStringLiteral("elsewhere"));
        QVERIFY(QDir().mkpath(p.workingDirectory));
        const auto none = kf::runPreflight(local, p);
        QVERIFY2(none, qPrintable(none.error()));
        QCOMPARE(none->first().id, QStringLiteral("tree"));
        QCOMPARE(int(none->first().level), int(L::Fail));
        QVERIFY2(none->first().message.contains(QStringLiteral("looked for CMakeLists.txt and python/sgl_kernel in")),
            qPrintable(none->first().message));
    }
};

QTEST_GUILESS_MAIN(TestPreflight)
#include "tst_preflight.moc"
