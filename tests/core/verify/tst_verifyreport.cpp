// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Judging what verify found: the checks, their levels and fixes, what blocks a server launch,
// the FA3 flags of a profile, and the script's output read back (banners ignored).
#include "core/sglkernel/rules.h"
#include "core/verify/verifyreport.h"
#include "tests/support/testsupport.h"

#include <QtTest>

using namespace kf;
using Level = PreflightCheck::Level;

namespace {

VerifyLibrary lib(const QString& path, const QList<const char*>& targets)
{
    VerifyLibrary l;
    l.path = path;
    l.origin = QStringLiteral("build");
    l.source = QStringLiteral("headers");
    for (const char* t : targets)
        l.targets << parseCudaTarget(QString::fromLatin1(t)).value();
    l.targets = uniqueTargets(l.targets);
    l.noDeviceCode = targets.isEmpty();
    return l;
}

VerifyReport h200s(int n)
{
    VerifyReport r;
    r.dir = QStringLiteral("/home/u/sgl-kernel/build");
    for (int i = 0; i < n; ++i)
        r.gpus << VerifyGpu { i, QStringLiteral("NVIDIA H200"), ComputeCapability { 9, 0 } };
    r.python = QStringLiteral("/usr/bin/python3");
    return r;
}

const PreflightCheck* find(const VerifyReport& r, const char* id, Level level)
{
    for (const PreflightCheck& c : r.checks)
        if (c.id == QLatin1String(id) && c.level == level)
            return &c;
    return nullptr;
}

BuildProfile withArgs(const QStringList& args)
{
    BuildProfile p;
    p.name = QStringLiteral("p");
    p.cmakeArgs = args;
    return p;
}

} // namespace

// The profile's FA3 request as the verifier reads it (core/sglkernel/rules.h owns the switch).
std::optional<bool> fa3Requested(const BuildProfile& p)
{
    return sglkernel::fa3Requested(p.cmakeArgs, p.env);
}

class TestVerifyReport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fa3Flags()
    {
        QCOMPARE(fa3Requested(withArgs({ "-DENABLE_BELOW_SM90=OFF", "-DSGL_KERNEL_ENABLE_FA3=OFF" })), false);
        QCOMPARE(fa3Requested(withArgs({ "-DSGL_KERNEL_ENABLE_FA3:BOOL=ON" })), true);
        QCOMPARE(fa3Requested(withArgs({ "-DSGL_KERNEL_ENABLE_FA3=OFF", "-DSGL_KERNEL_ENABLE_FA3=1" })), true);
        QCOMPARE(fa3Requested(withArgs({ "-DSGL_KERNEL_ENABLE_FA3X=ON" })), std::nullopt);
        QCOMPARE(fa3Requested(withArgs({})), std::nullopt);
        BuildProfile env = withArgs({});
        env.env.insert(QStringLiteral("SGL_KERNEL_ENABLE_FA3"), QStringLiteral("off"));
        QCOMPARE(fa3Requested(env), false);
        // The built-in sgl-kernel profiles ask for FA3 off.
        const auto profiles = builtInBuildProfiles();
        QVERIFY(!profiles.isEmpty());
        QCOMPARE(fa3Requested(profiles.first()), false);
    }

    void wrongArchFailsAndBlocksLaunch()
    {
        VerifyReport r = h200s(8);
        r.libraries << lib(r.dir + "/common_ops.so", { "sm_100a", "sm_120a" });
        r.libraries << lib(r.dir + "/flash_ops.so", { "sm_90a" });
        r.importRan = true;
        r.importExit = 1;
        r.importOutput = test::readData(QStringLiteral("fatbin/h200/import_abi.txt"));
        evaluateVerify(r, withArgs({ "-DSGL_KERNEL_ENABLE_FA3=OFF" }));
        const PreflightCheck* arch = find(r, "arch", Level::Fail);
        QVERIFY(arch);
        QCOMPARE(arch->message,
            QStringLiteral("common_ops.so cannot run on GPUs 0-7: no kernel image for 9.0: sm_100a runs only on 10.0, "
                           "sm_120a runs only on 12.0; no PTX to JIT"));
        QCOMPARE(arch->fix,
            QStringLiteral("rebuild with code for 9.0: -gencode arch=compute_90a,code=sm_90a (CMAKE_CUDA_ARCHITECTURES "
                           "90a, TORCH_CUDA_ARCH_LIST 9.0a); sgl-kernel: -DSGL_KERNEL_ENABLE_SM90A=ON"));
        QVERIFY(find(r, "arch", Level::Pass)->message.contains(QLatin1String("flash_ops.so [sm_90a] runs on 9.0")));
        const PreflightCheck* import = find(r, "import", Level::Fail);
        QVERIFY(import);
        QVERIFY(import->message.contains(QLatin1String("different torch")));
        QVERIFY(find(r, "fa3", Level::Warn)); // built although the profile says OFF
        QVERIFY(r.failed());
        QCOMPARE(r.launchBlockers().size(), 2);
    }

    void jitWarnsNoCudaWarnsNotInstalledWarns()
    {
        VerifyReport r = h200s(1);
        r.libraries << lib(r.dir + "/ptx.so", { "compute_80" });
        r.libraries << lib(r.dir + "/cpu.so", {});
        r.importRan = true;
        r.importExit = 1;
        r.importOutput = "ModuleNotFoundError: No module named 'sgl_kernel'\n";
        evaluateVerify(r, std::nullopt);
        QVERIFY(!r.failed());
        QVERIFY(find(r, "arch", Level::Warn)->message.contains(QLatin1String("JIT from compute_80")));
        bool sawNoCuda = false;
        for (const PreflightCheck& c : r.checks)
            sawNoCuda = sawNoCuda
                || c.message
                    == QLatin1String("no CUDA code in cpu.so (built by the host compiler, "
                                     "without nvcc?)");
        QVERIFY(sawNoCuda);
        QVERIFY(find(r, "import", Level::Warn)->message.startsWith(QLatin1String("sgl_kernel is not installed")));
        QVERIFY(find(r, "fa3", Level::Pass));
        QVERIFY(r.launchBlockers().isEmpty());
    }

    // A library read only in part (a read failed, the budget ran out) gets no "cannot run":
    // the missing image may be in the part not read.
    void partlyReadLibraryIsNoFailure()
    {
        VerifyReport r = h200s(2);
        VerifyLibrary l = lib(r.dir + "/common_ops.so", { "sm_100a" });
        l.error = QStringLiteral("connection lost");
        r.libraries << l;
        evaluateVerify(r, std::nullopt);
        QVERIFY(!find(r, "arch", Level::Fail));
        QCOMPARE(find(r, "arch", Level::Warn)->message,
            QStringLiteral("common_ops.so [sm_100a ...] was not read to the end: connection lost"));
    }

    void nothingBuiltFails()
    {
        VerifyReport r = h200s(1);
        evaluateVerify(r, std::nullopt);
        QVERIFY(find(r, "libraries", Level::Fail));
        VerifyReport missing;
        missing.dir = QStringLiteral("nope");
        missing.dirMissing = true;
        missing.nvidiaSmiMissing = true;
        evaluateVerify(missing, std::nullopt);
        QVERIFY(find(missing, "dir", Level::Fail));
        QVERIFY(find(missing, "gpus", Level::Warn));
    }

    // The tree verified (the checkout's aot folder) comes first; wheels say which era's name they carry.
    void treeAndWheelNames()
    {
        VerifyReport r = h200s(1);
        r.tree = QStringLiteral("sgl-kernel tree: python/sglang/kernels/aot below ~/sglang (aot layout)");
        r.libraries << lib(
            QStringLiteral("/home/u/sglang/python/sglang/kernels/aot/build/common_ops.so"), { "sm_90a" });
        r.wheels << VerifyWheel { QStringLiteral("/home/u/sglang/python/sglang/kernels/aot/dist/"
                                                 "sglang_kernel-0.4.6-cp310-abi3-linux_x86_64.whl"),
            100, { QStringLiteral("sgl_kernel/common_ops.so") }, {} };
        r.wheels << VerifyWheel { QStringLiteral("/home/u/old/dist/sgl_kernel-0.3.16-cp310-abi3-linux_x86_64.whl"), 100,
            { QStringLiteral("sgl_kernel/common_ops.so") }, {} };
        evaluateVerify(r, std::nullopt);
        QCOMPARE(r.checks.first().id, QStringLiteral("tree"));
        QCOMPARE(r.checks.first().message, r.tree);
        QStringList wheels;
        for (const PreflightCheck& c : r.checks)
            if (c.id == QLatin1String("wheel"))
                wheels << c.message;
        QCOMPARE(wheels.size(), 2);
        QVERIFY2(wheels[0].contains(QStringLiteral(".whl (sglang-kernel): sgl_kernel/common_ops.so")),
            qPrintable(wheels[0]));
        QVERIFY2(wheels[1].contains(QStringLiteral(".whl (sgl-kernel)")), qPrintable(wheels[1]));
    }

    // The script's real output on the H200 machine (scripts/field/verify.sh): nvidia-smi's
    // compute_cap, cuobjdump 13.0's listings, torch 2.11 and an extension needing a c10 symbol.
    void realH200Output()
    {
        VerifyReport r = parseVerifyOutput(test::readData(QStringLiteral("fatbin/h200/verify_script.txt")));
        QCOMPARE(r.cuobjdump, QStringLiteral("/usr/local/cuda/bin/cuobjdump"));
        QCOMPARE(r.gpus.size(), 1);
        QCOMPARE(r.gpus[0].name, QStringLiteral("NVIDIA H200"));
        QCOMPARE(r.gpus[0].cc->toString(), QStringLiteral("9.0"));
        QCOMPARE(r.torchVersion, QStringLiteral("2.11.0+cu130"));
        QCOMPARE(r.libraries.size(), 4);
        for (const VerifyLibrary& l : r.libraries) {
            QCOMPARE(l.source, QStringLiteral("cuobjdump"));
            QVERIFY2(l.error.isEmpty(), qPrintable(l.error));
        }
        QCOMPARE(joinTargetNames(r.libraries[0].targets), QStringLiteral("compute_80"));
        QCOMPARE(r.libraries[1].entries, 2);
        QCOMPARE(joinTargetNames(r.libraries[2].targets), QStringLiteral("sm_100a"));
        QVERIFY(r.libraries[3].noDeviceCode);
        QCOMPARE(r.libraries[3].origin, QStringLiteral("package"));
        evaluateVerify(r, std::nullopt);
        QVERIFY(find(r, "arch", Level::Fail)->message.startsWith(QLatin1String("sm100a.so cannot run on GPU 0")));
        QVERIFY(find(r, "arch", Level::Warn));
        QVERIFY(find(r, "import", Level::Fail)->message.contains(QLatin1String("torch 2.11.0+cu130")));
        QCOMPARE(r.launchBlockers().size(), 2);
    }

    // The script's lines back into a report; a login banner and unknown keys are skipped,
    // nvidia-smi's CSV goes through the GPU parser, cuobjdump listings fill the targets.
    void parseOutput()
    {
        const QByteArray out = "Welcome to gpu1!\n"
                               "dir\t/home/u/b\n"
                               "cuobjdump\t/usr/local/cuda/bin/cuobjdump\n"
                               "nvsmi\tindex, name, compute_cap\n"
                               "nvsmi\t0, NVIDIA H200, 9.0\n"
                               "nvsmi\t1, NVIDIA RTX PRO 6000 Blackwell, 12.0\n"
                               "python\t/usr/bin/python3\n"
                               "package\t/usr/lib/python3/dist-packages/sgl_kernel\n"
                               "import_rc\t0\n"
                               "lib\t1234\t/home/u/b/common_ops.so\n"
                               "pkglib\t99\t/usr/lib/python3/dist-packages/sgl_kernel/common_ops.abi3.so\n"
                               "objdump_begin\t/home/u/b/common_ops.so\n"
                               "objdump\tELF file    1: common_ops.1.sm_90a.cubin\n"
                               "objdump\tELF file    2: common_ops.2.sm_120a.cubin\n"
                               "objdump_end\t0\n"
                               "bogus\tline\n";
        VerifyReport r = parseVerifyOutput(out);
        QCOMPARE(r.dir, QStringLiteral("/home/u/b"));
        QCOMPARE(r.gpus.size(), 2);
        QCOMPARE(r.gpus[1].cc->toString(), QStringLiteral("12.0"));
        QCOMPARE(r.libraries.size(), 2);
        QCOMPARE(joinTargetNames(r.libraries[0].targets), QStringLiteral("sm_90a sm_120a"));
        QCOMPARE(r.libraries[0].source, QStringLiteral("cuobjdump"));
        QCOMPARE(r.libraries[1].origin, QStringLiteral("package"));
        QVERIFY(r.libraries[1].source.isEmpty()); // left for the header reader
        evaluateVerify(r, std::nullopt);
        QVERIFY(find(r, "import", Level::Pass));
        const auto lines = r.toJsonLines();
        QCOMPARE(lines.first().value("type").toString(), QStringLiteral("gpu"));
        QCOMPARE(lines.last().value("type").toString(), QStringLiteral("summary"));
        QCOMPARE(lines.last().value("ok").toBool(), true);
    }

    // Output where library lines come between objdump_begin and its lines (the fuzzer's
    // heap-use-after-free: the parser kept a pointer into the list the new lines grew).
    void libraryLinesInsideAnObjdumpSection()
    {
        QByteArray out = "lib\t1\t/b/first.so\n"
                         "objdump_begin\t/b/first.so\n";
        for (int i = 0; i < 100; ++i)
            out += "lib\t1\t/b/more" + QByteArray::number(i) + ".so\n";
        out += "objdump\tELF file    1: first.1.sm_120a.cubin\n"
               "objdump_end\t0\n";
        const VerifyReport r = parseVerifyOutput(out);
        QCOMPARE(r.libraries.size(), 101);
        QCOMPARE(r.libraries[0].source, QStringLiteral("cuobjdump"));
        QCOMPARE(joinTargetNames(r.libraries[0].targets), QStringLiteral("sm_120a"));
    }
};

QTEST_GUILESS_MAIN(TestVerifyReport)
#include "tst_verifyreport.moc"
