// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildhistory.h"
#include "core/remotebuild/buildprofile.h"
#include "core/sglkernel/rules.h"
#include "core/store/database.h"

#include "tests/support/testsupport.h"

#include <QTemporaryDir>

#include <QtTest>

#include <algorithm>

#include <sys/stat.h>

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
                QStringLiteral("Demo sgl-kernel (CMake + Ninja)"),
                QStringLiteral("Demo sgl-kernel wheel (CMake + Ninja, then a wheel)"),
                QStringLiteral("Demo sglang checkout, aot layout (CMake + Ninja)") }));
        const auto pip = *kf::findBuildProfile(b, QStringLiteral("sgl-kernel (PIP)"));
        QVERIFY(pip.builtIn);
        QVERIFY(pip.command.contains(QStringLiteral("--no-build-isolation -v")));
        QVERIFY(pip.command.contains(QStringLiteral("-Cbuild-dir=build")));
        // The sgl-kernel profiles name the checkout and build in the tree found there (either layout).
        for (const char* name : { "sgl-kernel (pip)", "sgl-kernel (make build)", "sgl-kernel (uv build)" }) {
            const auto p = *kf::findBuildProfile(b, QLatin1String(name));
            QVERIFY2(p.kernelTree && p.workingDirectory == QLatin1String("~/sglang"), name);
        }
        QVERIFY(kf::findBuildProfile(b, QStringLiteral("sgl-kernel (uv build)"))->ccache);
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
                QVERIFY2(!kf::sglkernel::isCMakeOnlyVariable(it.key()), qPrintable(p.name));
    }

    void kernelTreeAndCcacheRoundTrip()
    {
        kf::BuildProfile p;
        p.name = QStringLiteral("t");
        p.command = QStringLiteral("make build");
        p.workingDirectory = QStringLiteral("~/sglang");
        p.kernelTree = true;
        p.ccache = true;
        const auto again = kf::parseBuildProfiles(kf::serializeBuildProfiles({ p }));
        QVERIFY2(again, qPrintable(again.error));
        QVERIFY(again.profiles.first().kernelTree);
        QVERIFY(again.profiles.first().ccache);
        const auto bad = kf::parseBuildProfiles("profiles:\n  - name: x\n    command: y\n    kernel_tree: maybe\n");
        QVERIFY(!bad);
        QCOMPARE(bad.errorLine, 4);
        QVERIFY2(
            bad.error.contains(QStringLiteral("build-profiles.yaml:4: profiles[0].kernel_tree: must be true or false")),
            qPrintable(bad.error));
    }

    // ccache as upstream's Dockerfile sets it, NVCC_THREADS beside the threads define; the
    // profile's own environment wins.
    void jobSpecCcacheAndNvccThreads()
    {
        kf::BuildProfile p;
        p.name = QStringLiteral("x");
        p.command = QStringLiteral("uv build --wheel");
        p.workingDirectory = QStringLiteral("/home/u/sglang/python/sglang/kernels/aot");
        p.nvccThreads = 4;
        p.nvccThreadsDefine = QStringLiteral("SGL_KERNEL_COMPILE_THREADS");
        QVERIFY(!p.toJobSpec().env.contains(QStringLiteral("CMAKE_CXX_COMPILER_LAUNCHER")));
        p.ccache = true;
        p.env.insert(QStringLiteral("CCACHE_MAXSIZE"), QStringLiteral("50G"));
        const kf::JobSpec spec = p.toJobSpec();
        QCOMPARE(spec.env.value(QStringLiteral("NVCC_THREADS")), QStringLiteral("4"));
        QVERIFY(
            spec.env.value(QStringLiteral("CMAKE_ARGS")).contains(QStringLiteral("-DSGL_KERNEL_COMPILE_THREADS=4")));
        for (const char* launcher :
            { "CMAKE_C_COMPILER_LAUNCHER", "CMAKE_CXX_COMPILER_LAUNCHER", "CMAKE_CUDA_COMPILER_LAUNCHER" })
            QCOMPARE(spec.env.value(QLatin1String(launcher)), QStringLiteral("ccache"));
        QCOMPARE(spec.env.value(QStringLiteral("CCACHE_COMPILERCHECK")), QStringLiteral("content"));
        QCOMPARE(spec.env.value(QStringLiteral("CCACHE_MAXSIZE")), QStringLiteral("50G")); // the profile's
        QCOMPARE(spec.env.value(QStringLiteral("CCACHE_BASEDIR")), p.workingDirectory);
        p.workingDirectory = QStringLiteral("~/sglang");
        QVERIFY(!p.toJobSpec().env.contains(QStringLiteral("CCACHE_BASEDIR"))); // not absolute: ccache needs one
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
        // yaml-cpp would read the first, every other YAML tool the last: refused.
        QTest::newRow("a key twice") << QByteArray(
            "profiles:\n  - name: a\n    command: make\n    command: rm -rf ~\n");
        QTest::newRow("the list twice") << QByteArray("profiles: []\nprofiles:\n  - {name: a, command: b}\n");
    }
    void invalidYaml()
    {
        QFETCH(QByteArray, yaml);
        const auto parsed = kf::parseBuildProfiles(yaml);
        QVERIFY(!parsed);
        QVERIFY(parsed.profiles.isEmpty()); // nothing half-read
    }

    void duplicateKeyNamesItsLines()
    {
        const auto parsed
            = kf::parseBuildProfiles("profiles:\n  - name: a\n    command: make\n    command: rm -rf ~\n");
        QCOMPARE(parsed.error, QStringLiteral("build-profiles.yaml:4: command: duplicate key (first at line 3)"));
        QCOMPARE(parsed.errorLine, 4);
    }

    // The file can hold tokens (env values): 0600, whatever the umask, an existing folder or
    // an existing file's mode.
    void savedFileIsPrivate()
    {
        const mode_t old = ::umask(022);
        const QString folder = m_dir.filePath(QStringLiteral("existing-config"));
        QVERIFY(QDir().mkpath(folder));
        QVERIFY(QFile::setPermissions(folder,
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ReadGroup | QFile::ExeGroup
                | QFile::ReadOther | QFile::ExeOther));
        kf::BuildProfile mine;
        mine.name = QStringLiteral("with a token");
        mine.command = QStringLiteral("make");
        mine.env.insert(QStringLiteral("HF_TOKEN"), QStringLiteral("hf_secret"));
        const QString path = folder + QStringLiteral("/build-profiles.yaml");
        const auto owner = QFile::ReadOwner | QFile::WriteOwner | QFile::ReadUser | QFile::WriteUser;
        QVERIFY(kf::saveUserBuildProfiles({ mine }, path));
        QCOMPARE(QFile::permissions(path), owner);
        QVERIFY(QFile::setPermissions(path, owner | QFile::ReadGroup | QFile::ReadOther));
        QVERIFY(kf::saveUserBuildProfiles({ mine }, path));
        QCOMPARE(QFile::permissions(path), owner);
        ::umask(old);
    }

    // A deployment recipe's build is checked by the same function as build-profiles.yaml.
    void checkNamesTheKey()
    {
        kf::BuildProfile p;
        p.name = QStringLiteral("x");
        p.command = QStringLiteral("make");
        QVERIFY(!kf::checkBuildProfile(p));
        p.maxJobs = 5000;
        QCOMPARE(kf::checkBuildProfile(p)->key, QStringLiteral("max_jobs"));
        p.maxJobs = 2;
        p.nvccThreadsDefine = QStringLiteral("X -DEVIL=1");
        QCOMPARE(kf::checkBuildProfile(p)->key, QStringLiteral("nvcc_threads_define"));
        p.nvccThreadsDefine.clear();
        p.env.insert(QStringLiteral("A B"), QStringLiteral("x"));
        QCOMPARE(kf::checkBuildProfile(p)->key, QStringLiteral("env"));
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
