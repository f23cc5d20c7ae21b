// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/preflight.h"
#include "core/transport/localtransport.h"

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
    void versions_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("cmp");
        QTest::newRow("equal with zero") << QStringLiteral("3.31") << QStringLiteral("3.31.0") << 0;
        QTest::newRow("less") << QStringLiteral("3.28.3") << QStringLiteral("3.31") << -1;
        QTest::newRow("suffix") << QStringLiteral("2.10.0.dev2025+cu130") << QStringLiteral("2.9") << 1;
        QTest::newRow("cuda") << QStringLiteral("12.4") << QStringLiteral("12.8") << -1;
    }
    void versions()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, cmp);
        QCOMPARE(kf::compareVersions(a, b), cmp);
    }

    void oldCMakeOnCuda13()
    {
        const auto facts
            = kf::parsePreflightFacts(kf::test::readData(QStringLiteral("buildlogs/preflight_cuda13_old_cmake.txt")));
        const auto checks = byId(kf::evaluatePreflight(facts, sglProfile(2, 4)));
        QCOMPARE(int(checks[QStringLiteral("cmake-policy")].level), int(L::Fail));
        QVERIFY(checks[QStringLiteral("cmake-policy")].message.contains(QStringLiteral("CMP0169, CMP0177")));
        QVERIFY(checks[QStringLiteral("cmake-policy")].message.contains(QStringLiteral("3.31")));
        QVERIFY(checks[QStringLiteral("cmake-policy")].fix.contains(QStringLiteral("cmake-policy patch")));
        QCOMPARE(int(checks[QStringLiteral("cccl")].level), int(L::Fail));
        QVERIFY(checks[QStringLiteral("cccl")].fix.contains(QStringLiteral("CCCL")));
        QCOMPARE(int(checks[QStringLiteral("nvcc")].level), int(L::Pass));
        QCOMPARE(int(checks[QStringLiteral("torch")].level), int(L::Pass));
        QCOMPARE(int(checks[QStringLiteral("env-dflag")].level), int(L::Warn));
        QVERIFY(checks[QStringLiteral("env-dflag")].fix.contains(QStringLiteral("-DSGL_KERNEL_ENABLE_FA3=OFF")));
        // 2 x 4 x 4 GB = 32 GB of 64 GB.
        QCOMPARE(int(checks[QStringLiteral("ram")].level), int(L::Pass));
        QCOMPARE(int(checks[QStringLiteral("disk")].level), int(L::Pass));
    }

    void patchedProjectPasses()
    {
        auto facts
            = kf::parsePreflightFacts(kf::test::readData(QStringLiteral("buildlogs/preflight_cuda13_old_cmake.txt")));
        facts.remove(QStringLiteral("cmakelists"));
        facts.remove(QStringLiteral("dflag_env"));
        // Insert in file order (QMultiMap keeps the newest first; evaluatePreflight restores file order).
        for (const char* l :
            { "if(POLICY CMP0169)", "  cmake_policy(SET CMP0169 OLD)", "endif()", "if(POLICY CMP0177)",
                "  cmake_policy(SET CMP0177 NEW)", "endif()", "include_directories(${CUDAToolkit_INCLUDE_DIRS}/cccl)" })
            facts.insert(QStringLiteral("cmakelists"), QString::fromLatin1(l));
        const auto all = kf::evaluatePreflight(facts, sglProfile(2, 4));
        for (const auto& c : all)
            QVERIFY2(c.level == L::Pass, qPrintable(c.id + QStringLiteral(": ") + c.message));
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
        const auto facts
            = kf::parsePreflightFacts(kf::test::readData(QStringLiteral("buildlogs/preflight_cuda13_old_cmake.txt")));
        const auto checks = byId(kf::evaluatePreflight(facts, sglProfile(jobs, threads)));
        QCOMPARE(int(checks[QStringLiteral("ram")].level), level);
        if (level == int(L::Fail))
            QVERIFY(checks[QStringLiteral("ram")].fix.contains(QStringLiteral("MAX_JOBS=")));
    }

    void oldCudaAndMissingTools()
    {
        kf::PreflightFacts facts;
        facts.insert(QStringLiteral("workdir"), QStringLiteral("missing"));
        facts.insert(QStringLiteral("nvcc"), QStringLiteral("12.4"));
        facts.insert(QStringLiteral("disk_free_kb"), QStringLiteral("1048576"));
        const auto checks = byId(kf::evaluatePreflight(facts, sglProfile(1, 1)));
        QCOMPARE(int(checks[QStringLiteral("workdir")].level), int(L::Fail));
        QCOMPARE(int(checks[QStringLiteral("cmake")].level), int(L::Fail));
        QCOMPARE(int(checks[QStringLiteral("ninja")].level), int(L::Warn));
        QCOMPARE(int(checks[QStringLiteral("cuda-arch")].level), int(L::Fail));
        QCOMPARE(int(checks[QStringLiteral("python")].level), int(L::Fail));
        QCOMPARE(int(checks[QStringLiteral("disk")].level), int(L::Fail));
        QVERIFY(!checks.contains(QStringLiteral("cccl")));
    }

    void scriptRunsOnThisMachine()
    {
        // The real script through /bin/sh: facts this machine certainly has.
        QTemporaryDir dir;
        QFile cm(dir.filePath(QStringLiteral("CMakeLists.txt")));
        QVERIFY(cm.open(QIODevice::WriteOnly));
        cm.write("cmake_minimum_required(VERSION 3.20)\ncmake_policy(SET CMP0177 NEW)\nproject(x)\n");
        cm.close();
        kf::BuildProfile p = sglProfile(1, 1);
        p.workingDirectory = dir.path();
        p.env.insert(QStringLiteral("SGL_KERNEL_COMPILE_THREADS"), QStringLiteral("8"));
        kf::LocalTransport t;
        const kf::ExecResult r = t.exec(
            { QStringLiteral("/bin/sh -c ") + QStringLiteral("'")
                + kf::preflightScript(p).replace(QLatin1Char('\''), QStringLiteral("'\\''")) + QStringLiteral("'") },
            120000);
        QVERIFY2(r.ok(), r.stdErr.constData());
        const auto facts = kf::parsePreflightFacts(r.stdOut);
        QCOMPARE(facts.value(QStringLiteral("workdir")), QStringLiteral("ok"));
        QVERIFY(facts.value(QStringLiteral("memavailable_kb")).toLongLong() > 0);
        QVERIFY(facts.value(QStringLiteral("disk_free_kb")).toLongLong() > 0);
        QVERIFY(facts.value(QStringLiteral("cpus")).toInt() >= 1);
        QCOMPARE(facts.values(QStringLiteral("cmakelists")).size(), 2);
        const auto run = kf::runPreflight(t, p);
        QVERIFY2(run, qPrintable(run.error()));
        const auto checks = byId(*run);
        QVERIFY(checks.contains(QStringLiteral("ram")));
        // The profile exports a CMake-only variable: warned once (profile), not twice (server env).
        QCOMPARE(std::count_if(run->begin(), run->end(),
                     [](const kf::PreflightCheck& c) { return c.id == QLatin1String("env-dflag"); }),
            1);
    }
};

QTEST_GUILESS_MAIN(TestPreflight)
#include "tst_preflight.moc"
