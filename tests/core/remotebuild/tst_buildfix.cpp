// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #33 item 4: a diagnosed error that a known patch or setting fixes names that fix (the
// patch of the built-in set, or the change of the build profile), and a profile change is what it
// says: MAX_JOBS x nvcc threads that fit, FA3 off, the tool's folder first on the PATH.
#include "core/remotebuild/buildfix.h"
#include "core/remotebuild/buildloganalyzer.h"
#include "core/transport/localtransport.h"

#include <QFile>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using kf::BuildFix;
using kf::Diagnostic;

namespace {

Diagnostic first(const QByteArray& line)
{
    kf::BuildLogAnalyzer a;
    QList<Diagnostic> all = a.feed(line + '\n').diagnostics;
    all += a.finish().diagnostics;
    return all.value(0);
}

kf::BuildProfile sglKernel()
{
    kf::BuildProfile p;
    p.name = QStringLiteral("sgl-kernel");
    p.workingDirectory = QStringLiteral("~/sglang/sgl-kernel");
    p.command = QStringLiteral("make build");
    p.cmakeArgs = { QStringLiteral("-DSGL_KERNEL_ENABLE_FA3=OFF") };
    p.maxJobs = 16;
    p.nvccThreads = 8;
    p.nvccThreadsDefine = QStringLiteral("SGL_KERNEL_COMPILE_THREADS");
    return p;
}

} // namespace

class TestBuildFix : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fixFor_data()
    {
        QTest::addColumn<QByteArray>("line");
        QTest::addColumn<QString>("kind"); // "": no fix
        QTest::addColumn<QString>("id");
        QTest::addColumn<QString>("tool");
        QTest::newRow("cccl") << QByteArray("csrc/x.cpp:7:10: fatal error: cuda/std/version: No such file or directory")
                              << "patch"
                              << "cccl-include-dir"
                              << "";
        QTest::newRow("sgl-kernel policy") << QByteArray(
            "CMake Error at CMakeLists.txt:16 (cmake_policy):\n  Policy \"CMP0177\" is not known to "
            "this version of CMake.\n") << "patch"
                                           << "cmake-policy-guards"
                                           << "";
        // Another project's policy is not what the patch guards.
        QTest::newRow("other policy") << QByteArray(
            "CMake Error at cccl/CMakeLists.txt:7 (cmake_policy):\n  Policy \"CMP0141\" is not known to "
            "this version of CMake.\n")
                                      << ""
                                      << ""
                                      << "";
        QTest::newRow("fa3 import") << QByteArray("ImportError: Can not import FA3 in sgl_kernel. Please check your "
                                                  "installation.")
                                    << "patch"
                                    << "fa3-import-soft-fail"
                                    << "";
        QTest::newRow("fa3 source, FA3 off in the profile")
            << QByteArray("csrc/flash/flash_fwd_hdim64_bf16_sm90.cu(12): error: identifier \"x\" is undefined")
            << "patch"
            << "fa3-option-respected"
            << "";
        QTest::newRow("oom") << QByteArray("nvcc error   : 'cicc' died due to signal 9 (Kill signal)") << "profile"
                             << "max-jobs"
                             << "";
        QTest::newRow("ninja code 137") << QByteArray("FAILED: [code=137] CMakeFiles/x.dir/a.cu.o") << "profile"
                                        << "max-jobs"
                                        << "";
        QTest::newRow("not on PATH") << QByteArray("/root/.cache/kernelforge/jobs/j/cmd: 1: cmake: not found")
                                     << "profile"
                                     << "path"
                                     << "cmake";
        QTest::newRow("no ninja") << QByteArray("RuntimeError: Ninja is required to load C++ extensions") << "profile"
                                  << "path"
                                  << "ninja";
        QTest::newRow("no nvcc") << QByteArray("error: [Errno 2] No such file or directory: '/usr/local/cuda/bin/nvcc'")
                                 << "profile"
                                 << "path"
                                 << "nvcc";
        QTest::newRow("cuda home") << QByteArray("OSError: CUDA_HOME environment variable is not set. Please set it "
                                                 "to your CUDA install root.")
                                   << "profile"
                                   << "path"
                                   << "nvcc";
        QTest::newRow("plain compile error") << QByteArray("a.cpp:1:2: error: 'x' was not declared in this scope") << ""
                                             << ""
                                             << "";
    }
    void fixFor()
    {
        QFETCH(QByteArray, line);
        QFETCH(QString, kind);
        QFETCH(QString, id);
        QFETCH(QString, tool);
        const Diagnostic d = first(line);
        const auto fix = kf::fixFor(d, sglKernel());
        QCOMPARE(fix.has_value(), !kind.isEmpty());
        if (!fix)
            return;
        QCOMPARE(kf::toString(fix->kind), kind);
        QCOMPARE(fix->id, id);
        QCOMPARE(fix->tool, tool);
        QVERIFY(!fix->title.isEmpty());
        const QJsonObject json = kf::toJson(*fix);
        QCOMPARE(json.value(QStringLiteral("kind")).toString(), kind);
        QCOMPARE(json.value(QStringLiteral("id")).toString(), id);
        if (fix->kind == BuildFix::Kind::Patch)
            QCOMPARE(json.value(QStringLiteral("set")).toString(), QStringLiteral("builtin:sgl-kernel-sm120-cuda13"));
    }

    void fa3SourceWithoutFa3OffTurnsItOff()
    {
        kf::BuildProfile p = sglKernel();
        p.cmakeArgs = { QStringLiteral("-DSGL_KERNEL_ENABLE_FA3=ON"), QStringLiteral("-DX=1") };
        const auto fix = kf::fixFor(first("csrc/flash/flash_api.cpp:3:1: error: boom"), p);
        QVERIFY(fix);
        QCOMPARE(fix->id, QStringLiteral("fa3-off"));
        const kf::BuildProfile off = kf::withFa3Off(p);
        QCOMPARE(
            off.cmakeArgs, QStringList({ QStringLiteral("-DX=1"), QStringLiteral("-DSGL_KERNEL_ENABLE_FA3=OFF") }));
    }

    void memoryFit()
    {
        // 16 jobs x 8 threads x 4 GiB is 512 GiB; 40 GiB fit 10 threads: 8 threads in one job.
        const kf::BuildProfile fit = kf::withMemoryFit(sglKernel(), 40LL << 30, 64);
        QCOMPARE(fit.nvccThreads, 8);
        QCOMPARE(fit.maxJobs, 1);
        // MAX_JOBS unset wants a job per CPU, one nvcc thread each without a threads define.
        kf::BuildProfile open;
        open.name = QStringLiteral("cmake");
        const kf::BuildProfile fitOpen = kf::withMemoryFit(open, 20LL << 30, 32);
        QCOMPARE(fitOpen.nvccThreads, 1);
        QCOMPARE(fitOpen.maxJobs, 5);
    }

    void toolOnPath()
    {
        kf::BuildProfile p = sglKernel();
        const kf::BuildProfile ninja
            = kf::withToolOnPath(p, QStringLiteral("/opt/venv/bin/ninja"), QStringLiteral("/usr/bin:/bin"));
        QCOMPARE(ninja.env.value(QStringLiteral("PATH")), QStringLiteral("/opt/venv/bin:/usr/bin:/bin"));
        QVERIFY(!ninja.env.contains(QStringLiteral("CUDA_HOME")));
        // The profile's own PATH is kept (the folder moves to the front once), and nvcc brings CUDA_HOME.
        p.env.insert(QStringLiteral("PATH"), QStringLiteral("/a:/usr/local/cuda-13.0/bin:/b"));
        const kf::BuildProfile nvcc
            = kf::withToolOnPath(p, QStringLiteral("/usr/local/cuda-13.0/bin/nvcc"), QStringLiteral("/usr/bin"));
        QCOMPARE(nvcc.env.value(QStringLiteral("PATH")), QStringLiteral("/usr/local/cuda-13.0/bin:/a:/b"));
        QCOMPARE(nvcc.env.value(QStringLiteral("CUDA_HOME")), QStringLiteral("/usr/local/cuda-13.0"));
    }

    // Where a tool lives when the build's PATH lacks it: a real shell on this machine, a HOME
    // with a virtualenv holding the tool.
    void locateToolFindsAVirtualenv()
    {
        QTemporaryDir home;
        QVERIFY(QDir().mkpath(home.filePath(QStringLiteral("proj/.venv/bin"))));
        const QString tool = home.filePath(QStringLiteral("proj/.venv/bin/kf-test-tool"));
        QFile f(tool);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("#!/bin/sh\n");
        f.close();
        QVERIFY(f.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
        kf::LocalTransport local;
        kf::BuildProfile p;
        p.env.insert(QStringLiteral("HOME"), home.path());
        p.env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        const auto found = kf::locateTool(local, QStringLiteral("kf-test-tool"), p);
        QVERIFY2(found, qPrintable(found.error()));
        QCOMPARE(found->path, tool);
        QCOMPARE(found->serverPath, QStringLiteral("/usr/bin:/bin"));
        const auto missing = kf::locateTool(local, QStringLiteral("kf-no-such-tool"), p);
        QVERIFY(!missing);
        QCOMPARE(int(missing.kind()), int(kf::ErrorKind::NotFound));
        QVERIFY(missing.error().contains(QLatin1String("not installed in any usual place")));
        // Never more than a command name reaches the script.
        QVERIFY(!kf::locateTool(local, QStringLiteral("a b; rm -rf x"), p));
    }
};

QTEST_GUILESS_MAIN(TestBuildFix)
#include "tst_buildfix.moc"
