// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildhistory.h"
#include "core/remotebuild/buildprofile.h"
#include "core/store/database.h"

#include "tests/support/testsupport.h"

#include <QTemporaryDir>

#include <QtTest>

#include <algorithm>

class TestBuildProfile : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        kf::store::setDatabasePath(m_dir.filePath(QStringLiteral("history.sqlite")));
    }

    void builtInsAreThere()
    {
        const auto b = kf::builtInBuildProfiles();
        QStringList names;
        for (const auto& p : b)
            names << p.name;
        QCOMPARE(names,
            QStringList({ QStringLiteral("sgl-kernel (pip)"), QStringLiteral("sgl-kernel (make build)"),
                QStringLiteral("sgl-kernel (uv build)"), QStringLiteral("CMake + Ninja"),
                QStringLiteral("Demo sgl-kernel (CMake + Ninja)") }));
        const auto pip = *kf::findBuildProfile(b, QStringLiteral("sgl-kernel (PIP)"));
        QVERIFY(pip.builtIn);
        QVERIFY(pip.command.contains(QStringLiteral("--no-build-isolation -v")));
        QVERIFY(pip.command.contains(QStringLiteral("-Cbuild-dir=build")));
        QCOMPARE(pip.ninjaLogPath(), QStringLiteral("~/sglang/sgl-kernel/build/.ninja_log"));
        // Exactly one built-in is the demo server's, and the flag survives a save/load round trip.
        QCOMPARE(std::count_if(b.begin(), b.end(), [](const kf::BuildProfile& p) { return p.demo; }), 1);
        const auto demo = *kf::findBuildProfile(b, QStringLiteral("Demo sgl-kernel (CMake + Ninja)"));
        QVERIFY(demo.demo);
        const auto again = kf::parseBuildProfiles(kf::serializeBuildProfiles({ demo }));
        QVERIFY(again && again.profiles.size() == 1 && again.profiles.first().demo);
        QVERIFY(!kf::parseBuildProfiles(kf::serializeBuildProfiles({ pip })).profiles.first().demo);
        // No built-in exports a CMake-only switch as a plain variable.
        for (const auto& p : b)
            for (auto it = p.env.cbegin(); it != p.env.cend(); ++it)
                QVERIFY2(!kf::isCMakeOnlyVariable(it.key()), qPrintable(p.name));
    }

    void jobSpecCarriesCMakeArgsAndNinjaStatus()
    {
        kf::BuildProfile p;
        p.name = QStringLiteral("x");
        p.command = QStringLiteral("make build");
        p.workingDirectory = QStringLiteral("~/sgl-kernel");
        p.cmakeArgs = { QStringLiteral("-DENABLE_BELOW_SM90=OFF") };
        p.maxJobs = 2;
        p.nvccThreads = 4;
        p.nvccThreadsDefine = QStringLiteral("SGL_KERNEL_COMPILE_THREADS");
        p.env.insert(QStringLiteral("CUDA_HOME"), QStringLiteral("/usr/local/cuda"));
        const kf::JobSpec s = p.toJobSpec();
        QCOMPARE(s.env.value(QStringLiteral("CMAKE_ARGS")),
            QStringLiteral("-DENABLE_BELOW_SM90=OFF -DSGL_KERNEL_COMPILE_THREADS=4"));
        QCOMPARE(s.env.value(QStringLiteral("MAX_JOBS")), QStringLiteral("2"));
        QCOMPARE(s.env.value(QStringLiteral("NINJA_STATUS")), QStringLiteral("[kf %f/%t %r %e] "));
        QCOMPARE(s.env.value(QStringLiteral("CUDA_HOME")), QStringLiteral("/usr/local/cuda"));
        QVERIFY(!s.env.contains(QStringLiteral("SGL_KERNEL_COMPILE_THREADS")));
        QCOMPARE(s.workingDirectory, QStringLiteral("~/sgl-kernel"));
        p.nvccThreadsDefine.clear();
        QCOMPARE(p.toJobSpec().env.value(QStringLiteral("NVCC_APPEND_FLAGS")), QStringLiteral("--threads 4"));
    }

    void cmakeOnlyEnvMovesToCMakeArgs()
    {
        kf::BuildProfile p;
        p.env.insert(QStringLiteral("SGL_KERNEL_ENABLE_FA3"), QStringLiteral("OFF"));
        p.env.insert(QStringLiteral("PATH"), QStringLiteral("/opt/bin:/usr/bin"));
        p.cmakeArgs = { QStringLiteral("-DSGL_KERNEL_ENABLE_FA3=ON"), QStringLiteral("-DX=1") };
        QCOMPARE(kf::moveCMakeOnlyEnv(p), QStringList { QStringLiteral("SGL_KERNEL_ENABLE_FA3") });
        QCOMPARE(p.env.keys(), QStringList { QStringLiteral("PATH") });
        QCOMPARE(p.cmakeArgs, QStringList({ QStringLiteral("-DX=1"), QStringLiteral("-DSGL_KERNEL_ENABLE_FA3=OFF") }));
    }

    void yamlRoundTripAndUserOverride()
    {
        auto all = kf::builtInBuildProfiles();
        kf::BuildProfile mine;
        mine.name = QStringLiteral("my build");
        mine.command = QStringLiteral("echo 'quoted: yes' && ninja");
        mine.workingDirectory = QStringLiteral("/srv/x");
        mine.env.insert(QStringLiteral("A"), QStringLiteral("b: c"));
        mine.cmakeArgs = { QStringLiteral("-DA=1") };
        mine.maxJobs = 3;
        mine.buildDir = QStringLiteral("out");
        all << mine;
        all[0].maxJobs = 8; // edit a built-in
        const QString path = m_dir.filePath(QStringLiteral("profiles.yaml"));
        QVERIFY(kf::saveUserBuildProfiles(all, path));
        const auto loaded = kf::loadBuildProfiles(path);
        QVERIFY2(loaded, qPrintable(loaded.error()));
        QCOMPARE(loaded->size(), all.size());
        QCOMPARE(loaded->at(0).maxJobs, 8);
        QVERIFY(!loaded->at(0).builtIn);
        QVERIFY(loaded->at(1).builtIn);
        auto back = *kf::findBuildProfile(*loaded, QStringLiteral("my build"));
        QCOMPARE(back, mine);
        // Only the edited built-in and the new profile are written.
        QFile f(path);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(kf::parseBuildProfiles(f.readAll()).profiles.size(), 2);
    }

    void invalidYaml_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::newRow("not a list") << QByteArray("profiles: 3\n");
        QTest::newRow("no command") << QByteArray("profiles:\n  - name: a\n");
        QTest::newRow("broken") << QByteArray("profiles: [\n");
        QTest::newRow("max_jobs not a number") << QByteArray("profiles:\n  - {name: a, command: b, max_jobs: lots}\n");
        QTest::newRow("nvcc_threads negative")
            << QByteArray("profiles:\n  - {name: a, command: b, nvcc_threads: -3}\n");
        QTest::newRow("unknown field") << QByteArray("profiles:\n  - {name: a, command: b, max_job: 2}\n");
        // nvcc_threads_define is a whole CMake variable name (trimmed first).
        QTest::newRow("define with leading dash")
            << QByteArray("profiles:\n  - {name: a, command: b, nvcc_threads: 2, nvcc_threads_define: -DX}\n");
        QTest::newRow("define with NUL") << QByteArray(
            "profiles:\n  - {name: a, command: b, nvcc_threads: 2, nvcc_threads_define: \"A\\0B\"}\n");
        QTest::newRow("define with a newline inside")
            << QByteArray("profiles:\n  - {name: a, command: b, nvcc_threads: 2, nvcc_threads_define: \"A\\nB\"}\n");
        QTest::newRow("env name") << QByteArray("profiles:\n  - {name: a, command: b, env: {1X: y}}\n");
        QTest::newRow("cmake_args not a list")
            << QByteArray("profiles:\n  - {name: a, command: b, cmake_args: -DA=1}\n");
        QTest::newRow("same name twice") << QByteArray(
            "profiles:\n  - {name: a, command: b}\n  - {name: A, command: c}\n");
    }
    void invalidYaml()
    {
        QFETCH(QByteArray, yaml);
        const auto parsed = kf::parseBuildProfiles(yaml);
        QVERIFY(!parsed);
        QVERIFY(parsed.profiles.isEmpty()); // nothing half-read
    }

    void historyComparesWithPreviousRun()
    {
        kf::BuildRecord a;
        a.jobId = QStringLiteral("j1");
        a.profile = QStringLiteral("sgl-kernel (pip)");
        a.host = QStringLiteral("gpu1");
        a.started = QDateTime::fromSecsSinceEpoch(1764400000, Qt::UTC);
        a.ended = a.started.addSecs(3 * 3600);
        a.result = QStringLiteral("succeeded");
        a.exitStatus = 0;
        a.stepsDone = a.stepsTotal = 430;
        a.peakMemKb = 60LL * 1024 * 1024;
        const auto id = kf::buildhistory::save(a);
        QVERIFY2(id, qPrintable(id.error()));
        kf::BuildRecord b = a;
        b.jobId = QStringLiteral("j2");
        b.started = a.ended.addSecs(60);
        b.ended = QDateTime();
        b.result = QStringLiteral("running");
        b.stepsDone = 100;
        QVERIFY(kf::buildhistory::save(b));
        // Updating the same job keeps one row.
        b.stepsDone = 200;
        QVERIFY(kf::buildhistory::save(b));
        const auto rows = kf::buildhistory::list(QStringLiteral("gpu1"));
        QVERIFY(rows);
        QCOMPARE(rows->size(), 2);
        QCOMPARE(rows->first().jobId, QStringLiteral("j2"));
        QCOMPARE(rows->first().stepsDone, 200);
        const auto prev = kf::buildhistory::previous(QStringLiteral("gpu1"), a.profile, b.jobId);
        QVERIFY(prev && prev->has_value());
        QCOMPARE((*prev)->jobId, QStringLiteral("j1"));
        QCOMPARE((*prev)->durationMs(), 3 * 3600 * 1000LL);
        b.ended = b.started.addSecs(2 * 3600);
        b.result = QStringLiteral("succeeded");
        const QString cmp = kf::compareBuilds(b, **prev);
        QVERIFY2(cmp.contains(QStringLiteral("2 h 0 min vs 3 h 0 min (-33%)")), qPrintable(cmp));
        QVERIFY2(cmp.contains(QStringLiteral("430/430 steps then, 200/430 now")), qPrintable(cmp));
        // Issue #30 item 6: a failed run stopped early; a percentage of it is no comparison ("0 s vs
        // 9 s (-100%)"), and a run that failed within its first second took "under 1 s", not 0 s.
        b.result = QStringLiteral("failed");
        b.ended = b.started;
        const QString failed = kf::compareBuilds(b, **prev);
        QVERIFY2(failed.contains(QStringLiteral("this run failed after under 1 s; that one took 3 h 0 min")),
            qPrintable(failed));
        QVERIFY2(!failed.contains(QLatin1Char('%')), qPrintable(failed));
        // A run that has not measured anything yet claims nothing "now".
        const QString fresh = kf::compareBuilds(kf::BuildRecord(), **prev);
        QVERIFY2(fresh.contains(QStringLiteral("430/430 steps then")) && !fresh.contains(QStringLiteral("now")),
            qPrintable(fresh));
        QVERIFY(!(*kf::buildhistory::previous(QStringLiteral("other"), a.profile)).has_value());
    }
};

QTEST_GUILESS_MAIN(TestBuildProfile)
#include "tst_buildprofile.moc"
