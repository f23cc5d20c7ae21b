// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/serverfacts.h"
#include "core/transport/localtransport.h"
#include "tests/support/factsfixture.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <gnu/libc-version.h>

#include <unistd.h>

using namespace kf;

namespace {

QString row(const ServerFacts& f, const QString& label)
{
    for (const auto& [l, v] : f.rows())
        if (l == label)
            return v;
    return QStringLiteral("<no row %1>").arg(label);
}

bool writeExecutable(const QString& path, const QByteArray& text)
{
    QFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    f.write(text);
    f.close();
    return f.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
}

qint64 meminfoKiB(const char* key)
{
    QFile f(QStringLiteral("/proc/meminfo"));
    if (!f.open(QIODevice::ReadOnly))
        return -1;
    for (const QByteArray& line : f.readAll().split('\n'))
        if (line.startsWith(key))
            return line.mid(qstrlen(key)).simplified().split(' ').value(0).toLongLong();
    return -1;
}

} // namespace

class TestServerFacts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realH200()
    {
        const ServerFacts f = test::factsFixture(QStringLiteral("h200-ubuntu2404.txt"));
        QVERIFY(f.complete);
        QCOMPARE(f.os, QStringLiteral("Ubuntu 24.04.3 LTS"));
        QCOMPARE(f.kernel, QStringLiteral("6.18.44-fc-v657-gpu"));
        QCOMPARE(f.cpuCount, 16);
        QCOMPARE(f.memory.memTotalKiB, 131981020.0);
        QCOMPARE(f.memory.memAvailableKiB, 131506544.0);
        QCOMPARE(f.diskHomeTotalKiB, 264212084.0);
        QCOMPARE(f.diskHomeAvailableKiB, 67091236.0);
        QCOMPARE(f.gpus.size(), 1);
        const GpuFact expected { 0, QStringLiteral("NVIDIA H200"),
            QStringLiteral("GPU-a4881ce0-47b4-1473-bdba-3f9505c667e5"), QStringLiteral("9.0"), 143771 };
        QCOMPARE(f.gpus.first(), expected);
        QVERIFY(f.hasNvidiaSmi);
        QCOMPARE(f.driverVersion, QStringLiteral("580.159.04"));
        QCOMPARE(f.nvcc, QStringLiteral("13.0.88"));
        QCOMPARE(f.cmake, QStringLiteral("4.4.3"));
        QCOMPARE(f.ninja, QStringLiteral("1.13.2.git.kitware.jobserver-pipe-1"));
        QCOMPARE(f.gcc, QStringLiteral("13.3.0"));
        QCOMPARE(f.python, QStringLiteral("3.12.3"));
        QCOMPARE(f.torch, QStringLiteral("2.11.0"));
        QVERIFY(f.sglang.isEmpty());
        QVERIFY(f.extra.isEmpty());
        QCOMPARE(row(f, QStringLiteral("GPUs")), QStringLiteral("0: NVIDIA H200 (sm 9.0, 143771 MiB)"));
        QCOMPARE(row(f, QStringLiteral("RAM")), QStringLiteral("125.9 GiB total, 125.4 GiB available"));
        // Inside a memory cgroup (a real capture): what is usable and where the limit is.
        const ServerFacts g = test::factsFixture(QStringLiteral("debian12-cgroup-v1.txt"));
        QCOMPARE(g.memory.cgroupVersion, 1);
        QCOMPARE(g.memory.limitKiB(), 2.0 * 1024 * 1024);
        QCOMPARE(g.memory.availableKiB(), 2.0 * 1024 * 1024 - (655360 - 4096) / 1024.0);
        QCOMPARE(g.memory.kernelOomKills, 1.0);
        QVERIFY(g.extra.isEmpty());
        QCOMPARE(row(g, QStringLiteral("RAM")),
            QStringLiteral("23.5 GiB total, 19.2 GiB available; 2.0 GiB usable under cgroup v1 /kf-facts-capture "
                           "(limit 2.0 GiB)"));
        const QJsonObject j = g.toJson();
        QCOMPARE(j.value(QStringLiteral("memoryLimitKiB")).toDouble(), 2.0 * 1024 * 1024);
        QCOMPARE(j.value(QStringLiteral("cgroup")).toString(), QStringLiteral("/kf-facts-capture"));
        QCOMPARE(row(f, QStringLiteral("SGLang")), QStringLiteral("not found"));
    }

    void realDebianWithoutGpu()
    {
        const ServerFacts f = test::factsFixture(QStringLiteral("debian12-nogpu.txt"));
        QVERIFY(f.complete);
        QVERIFY(!f.hasNvidiaSmi);
        QVERIFY(f.gpus.isEmpty());
        QCOMPARE(f.torchError, QStringLiteral("ModuleNotFoundError: No module named 'torch'"));
        QCOMPARE(row(f, QStringLiteral("GPUs")), QStringLiteral("none (no nvidia-smi)"));
        QCOMPARE(row(f, QStringLiteral("PyTorch")),
            QStringLiteral("not importable: ModuleNotFoundError: No module named 'torch'"));
        QVERIFY(!row(f, QStringLiteral("Driver")).startsWith(QLatin1String("not"))); // no Driver row at all
    }

    void blackwellWithBannerAndUnknownKeys()
    {
        const ServerFacts f = test::factsFixture(QStringLiteral("blackwell-8gpu.txt"));
        QVERIFY(f.complete);
        QCOMPARE(f.hostName, QStringLiteral("gpu-node-07"));
        QCOMPARE(f.gpus.size(), 8);
        QCOMPARE(f.gpus[3].index, 3);
        QCOMPARE(f.gpus[3].name, QStringLiteral("NVIDIA RTX PRO 6000 Blackwell Server Edition"));
        QCOMPARE(f.gpus[3].computeCapability, QStringLiteral("12.0"));
        QCOMPARE(f.gpus[3].memoryMiB, 97887.0);
        // "[N/A]" is no value, not a value.
        QVERIFY(f.gpus[7].computeCapability.isEmpty());
        QVERIFY(!hasValue(f.gpus[7].memoryMiB));
        QCOMPARE(f.torch, QStringLiteral("2.10.0.dev20251120+cu130"));
        QCOMPARE(f.sglang, QStringLiteral("0.5.5.post3"));
        QCOMPARE(f.sglKernel, QStringLiteral("0.3.17.post1"));
        QCOMPARE(f.nvcc, QStringLiteral("13.0.48"));
        QCOMPARE(f.extra.size(), 1);
        QCOMPARE(f.extra.first().first, QStringLiteral("rocm"));
    }

    void nvmlMismatch()
    {
        const ServerFacts f = test::factsFixture(QStringLiteral("nvml-mismatch.txt"));
        QVERIFY(f.complete);
        QVERIFY(f.hasNvidiaSmi);
        QVERIFY(f.gpus.isEmpty());
        QCOMPARE(f.nvidiaSmiError, QStringLiteral("Failed to initialize NVML: Driver/library version mismatch"));
        QCOMPARE(row(f, QStringLiteral("GPUs")),
            QStringLiteral("nvidia-smi failed: Failed to initialize NVML: Driver/library version mismatch"));
        QVERIFY(!hasValue(f.diskHomeAvailableKiB));
        QCOMPARE(row(f, QStringLiteral("Disk (home)")), QStringLiteral("unknown"));
        QCOMPARE(row(f, QStringLiteral("nvcc")), QStringLiteral("not found"));
        QCOMPARE(row(f, QStringLiteral("PyTorch")), QStringLiteral("not found"));
    }

    void truncatedIsIncomplete()
    {
        const ServerFacts f = test::factsFixture(QStringLiteral("truncated.txt"));
        QVERIFY(!f.complete);
        QCOMPARE(f.cpuCount, 64);
        QCOMPARE(f.os, QStringLiteral("Rocky Linux 9.4 (Blue Onyx)"));
    }

    void notOurOutput_data()
    {
        QTest::addColumn<QByteArray>("output");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("shell error") << QByteArray("sh: 1: Syntax error: end of file unexpected\n");
        QTest::newRow("keys without marker") << QByteArray("os=Debian\nkernel=6.1\n");
    }
    void notOurOutput()
    {
        QFETCH(QByteArray, output);
        QVERIFY(!parseServerFacts(output).ok());
    }

    void crlfAndValuesWithEquals()
    {
        const auto f = parseServerFacts("kf_facts=1\r\nos=\"A=B OS\"\r\ncpu_model=x  y\r\nkf_facts_end=1\r\n");
        QVERIFY(f.ok());
        QCOMPARE(f->os, QStringLiteral("A=B OS"));
        QCOMPARE(f->cpuModel, QStringLiteral("x y"));
        QVERIFY(f->complete);
    }

    void versions_data()
    {
        QTest::addColumn<QString>("key");
        QTest::addColumn<QString>("raw");
        QTest::addColumn<QString>("version");
        QTest::newRow("nvcc full") << "nvcc"
                                   << "Cuda compilation tools, release 12.4, V12.4.131"
                                   << "12.4.131";
        QTest::newRow("nvcc release only") << "nvcc"
                                           << "Cuda compilation tools, release 11.8"
                                           << "11.8";
        QTest::newRow("cmake") << "cmake"
                               << "cmake version 3.25.1"
                               << "3.25.1";
        QTest::newRow("cmake rc") << "cmake"
                                  << "cmake version 3.31.0-rc1"
                                  << "3.31.0-rc1";
        QTest::newRow("ninja") << "ninja"
                               << "1.11.1"
                               << "1.11.1";
        QTest::newRow("ninja kitware") << "ninja"
                                       << "1.13.2.git.kitware.jobserver-pipe-1"
                                       << "1.13.2.git.kitware.jobserver-pipe-1";
        QTest::newRow("gcc debian") << "gcc"
                                    << "gcc (Debian 12.2.0-14+deb12u1) 12.2.0"
                                    << "12.2.0";
        QTest::newRow("gcc rhel") << "gcc"
                                  << "gcc (GCC) 11.4.1 20231218 (Red Hat 11.4.1-3)"
                                  << "gcc (GCC) 11.4.1 20231218 (Red Hat 11.4.1-3)";
        QTest::newRow("python") << "python3"
                                << "Python 3.12.3"
                                << "3.12.3";
        QTest::newRow("garbage kept") << "cmake"
                                      << "something odd"
                                      << "something odd";
    }
    void versions()
    {
        QFETCH(QString, key);
        QFETCH(QString, raw);
        QFETCH(QString, version);
        QCOMPARE(versionFromToolOutput(key, raw), version);
    }

    void identicalGpusWithoutMemoryShareALine()
    {
        // Memory the driver cannot report is no value (NaN): two such GPUs are still alike.
        const auto r = parseServerFacts(QByteArray("kf_facts=1\n"
                                                   "gpu=GPU 0: NVIDIA A100-SXM4-40GB MIG 1g.5gb (UUID: MIG-a)\n"
                                                   "gpu=GPU 1: NVIDIA A100-SXM4-40GB MIG 1g.5gb (UUID: MIG-b)\n"
                                                   "gpu_info=0, 8.0, [N/A]\ngpu_info=1, 8.0, [N/A]\n"
                                                   "kf_facts_end=1\n"));
        QVERIFY2(r, qPrintable(r.error()));
        QVERIFY(!hasValue(r->gpus[0].memoryMiB));
        QCOMPARE(
            row(*r, QStringLiteral("GPUs")), QStringLiteral("0\u20131: NVIDIA A100-SXM4-40GB MIG 1g.5gb (sm 8.0)"));
        QVERIFY(r->toJson()
                    .value(QStringLiteral("gpus"))
                    .toArray()
                    .at(1)
                    .toObject()
                    .value(QStringLiteral("memoryMiB"))
                    .isNull());
    }

    void formatting_data()
    {
        QTest::addColumn<double>("kib");
        QTest::addColumn<QString>("text");
        QTest::newRow("unknown") << noValue() << "unknown";
        QTest::newRow("zero") << 0.0 << "0 B";
        QTest::newRow("kib") << 1.0 << "1.0 KiB";
        QTest::newRow("mib") << 1536.0 << "1.5 MiB";
        QTest::newRow("tib") << 3751020544.0 << "3.5 TiB";
    }
    void formatting()
    {
        QFETCH(double, kib);
        QFETCH(QString, text);
        QCOMPARE(formatKiB(kib), text);
    }

    void json()
    {
        const ServerFacts f = test::factsFixture(QStringLiteral("h200-ubuntu2404.txt"));
        const QJsonObject j = f.toJson();
        QCOMPARE(j.value(QStringLiteral("cpus")).toInt(), 16);
        QCOMPARE(j.value(QStringLiteral("gpus")).toArray().size(), 1);
        QCOMPARE(j.value(QStringLiteral("gpus"))
                     .toArray()
                     .first()
                     .toObject()
                     .value(QStringLiteral("computeCapability"))
                     .toString(),
            QStringLiteral("9.0"));
        QVERIFY(j.value(QStringLiteral("sglang")).isNull());
        QCOMPARE(j.value(QStringLiteral("memTotalKiB")).toDouble(), 131981020.0);
        QVERIFY(j.value(QStringLiteral("complete")).toBool());
    }

    // The real script on this machine, checked against what the test reads itself.
    void scriptOnThisMachine()
    {
        LocalTransport local;
        const auto r = collectServerFacts(local, 120000);
        QVERIFY2(r.ok(), qPrintable(r.error()));
        const ServerFacts& f = r.value();
        QVERIFY(f.complete);
        QCOMPARE(f.kernel, QSysInfo::kernelVersion());
        QCOMPARE(f.cpuCount, int(::sysconf(_SC_NPROCESSORS_ONLN)));
        QCOMPARE(f.memory.memTotalKiB, double(meminfoKiB("MemTotal:")));
        QVERIFY(f.memory.memAvailableKiB > 0);
        QVERIFY(f.diskHomeTotalKiB > 0);
        QVERIFY(f.diskHomeAvailableKiB >= 0);
        QVERIFY(!f.os.isEmpty());
        QVERIFY(!f.os.startsWith(QLatin1Char('"')));
        QVERIFY2(f.extra.isEmpty(), qPrintable(f.extra.value(0).first));
        // What a promoted build must match (issue #36): the C library and the extension ABI.
        QCOMPARE(f.glibc, QString::fromLatin1(gnu_get_libc_version()));
        QVERIFY2(f.pythonSoabi.startsWith(QLatin1String("cpython-")), qPrintable(f.pythonSoabi));
    }

    // glibc, the Python extension ABI and torch's C++ ABI: what decides whether a library built
    // on one host loads on another.
    void abiFacts()
    {
        const auto f = parseServerFacts("kf_facts=1\nglibc=glibc 2.39\npython_soabi=cpython-312-x86_64-linux-gnu\n"
                                        "torch_cxx11_abi=1\nkf_facts_end=1\n");
        QVERIFY2(f, qPrintable(f.error()));
        QCOMPARE(f->glibc, QStringLiteral("2.39"));
        QCOMPARE(f->pythonSoabi, QStringLiteral("cpython-312-x86_64-linux-gnu"));
        QCOMPARE(f->torchCxx11Abi, std::optional<bool>(true));
        QVERIFY(f->extra.isEmpty());
        QCOMPARE(f->toJson().value(QStringLiteral("torchCxx11Abi")).toBool(), true);
        // musl prints nothing for GNU_LIBC_VERSION; an answer that is not 0 or 1 is no answer.
        const auto musl = parseServerFacts("kf_facts=1\nglibc=\ntorch_cxx11_abi=yes\nkf_facts_end=1\n");
        QVERIFY(musl);
        QVERIFY(musl->glibc.isEmpty());
        QVERIFY(!musl->torchCxx11Abi);
        QVERIFY(musl->toJson().value(QStringLiteral("torchCxx11Abi")).isNull());
    }

    // Every tool missing: only sh itself (its builtins) is there. The script still ends.
    void scriptWithNothingInstalled()
    {
        QTemporaryDir bin;
        QVERIFY(QFile::link(QStringLiteral("/bin/sh"), bin.path() + QStringLiteral("/sh")));
        LocalTransport local;
        CommandSpec spec;
        spec.command = QStringLiteral("sh -s");
        spec.env.insert(QStringLiteral("PATH"), bin.path());
        spec.stdinData = serverFactsScript();
        const ExecResult r = local.exec(spec, 60000);
        QVERIFY2(r.error.isEmpty(), qPrintable(r.error));
        const auto f = parseServerFacts(r.stdOut);
        QVERIFY2(f.ok(), qPrintable(f.error()));
        QVERIFY2(f->complete, r.stdOut.constData());
        QVERIFY(f->cmake.isEmpty());
        QVERIFY(f->python.isEmpty());
        QVERIFY(f->gpus.isEmpty());
        QVERIFY(!f->homeDir.isEmpty());
    }

    // Tools that exist but misbehave: a broken driver, a python that cannot run, a cmake rc.
    void scriptWithBrokenTools()
    {
        QTemporaryDir bin;
        QVERIFY(writeExecutable(bin.path() + QStringLiteral("/nvidia-smi"),
            "#!/bin/sh\necho 'Failed to initialize NVML: Driver/library version mismatch'\n"
            "echo 'NVML library version: 580.95'\nexit 18\n"));
        QVERIFY(writeExecutable(
            bin.path() + QStringLiteral("/python3"), "#!/bin/sh\necho 'python3: broken' >&2\nexit 1\n"));
        QVERIFY(writeExecutable(bin.path() + QStringLiteral("/cmake"),
            "#!/bin/sh\necho 'cmake version 3.31.0-rc1'\necho\n"
            "echo 'CMake suite maintained...'\n"));
        QVERIFY(writeExecutable(bin.path() + QStringLiteral("/ninja"), "#!/bin/sh\nread x\necho \"stole: $x\"\n"));
        LocalTransport local;
        CommandSpec spec;
        spec.command = QStringLiteral("sh -s");
        spec.env.insert(QStringLiteral("PATH"), bin.path() + QStringLiteral(":/usr/bin:/bin"));
        spec.stdinData = serverFactsScript();
        const ExecResult r = local.exec(spec, 60000);
        const auto f = parseServerFacts(r.stdOut);
        QVERIFY2(f.ok(), qPrintable(f.error()));
        QVERIFY(f->complete);
        QCOMPARE(f->nvidiaSmiError, QStringLiteral("Failed to initialize NVML: Driver/library version mismatch"));
        QVERIFY(f->gpus.isEmpty());
        QCOMPARE(f->cmake, QStringLiteral("3.31.0-rc1"));
        QVERIFY(f->python.isEmpty());
        // A tool that reads stdin gets an empty stream (the script runs with stdin from /dev/null).
        QCOMPARE(f->ninja, QStringLiteral("stole:"));
    }

    // The keys only a project probe (preflight) prints: one struct for them too.
    void projectKeys()
    {
        const ServerFacts f = test::factsFixture(QStringLiteral("project-cuda13-old-cmake.txt"));
        QVERIFY(f.complete);
        QVERIFY(f.extra.isEmpty());
        QCOMPARE(f.nvcc, QStringLiteral("13.0.48"));
        QCOMPARE(f.nvccPath, QStringLiteral("/usr/local/cuda/bin/nvcc"));
        QCOMPARE(f.ccclDir, QStringLiteral("/usr/local/cuda/include/cccl"));
        QCOMPARE(f.torch, QStringLiteral("2.10.0.dev20251120+cu130"));
        QCOMPARE(f.torchCuda, QStringLiteral("13.0"));
        QVERIFY(f.project.probed);
        QVERIFY(f.project.workDirExists);
        QCOMPARE(f.project.cmakeLists,
            (QStringList { "cmake_minimum_required(VERSION 3.26 FATAL_ERROR)", "cmake_policy(SET CMP0169 OLD)",
                "cmake_policy(SET CMP0177 NEW)" }));
        QCOMPARE(f.project.exportedCMakeVariables, QStringList { "SGL_KERNEL_ENABLE_FA3=OFF" });
        QCOMPARE(f.project.diskTotalKiB, 976762584);
        QCOMPARE(f.project.diskAvailableKiB, 314572800);
        // The card's JSON keeps its keys (kernelforge-cli facts --json is an interface).
        QVERIFY(!f.toJson().contains(QStringLiteral("project")));
        QVERIFY(!test::factsFixture(QStringLiteral("h200-ubuntu2404.txt")).project.probed);
    }

    // The project part on this machine: its folder, its CMakeLists.txt, the environment given.
    void projectScriptOnThisMachine()
    {
        QTemporaryDir dir;
        QVERIFY(kf::test::writeFile(dir.filePath(QStringLiteral("CMakeLists.txt")),
            "cmake_minimum_required(VERSION 3.20)\r\ncmake_policy(SET CMP0177 NEW)\nproject(x)\n"));
        ProjectProbe probe;
        probe.workingDirectory = dir.path();
        probe.buildPath = dir.filePath(QStringLiteral("build/not/there/yet"));
        probe.env.insert(QStringLiteral("SGL_KERNEL_COMPILE_THREADS"), QStringLiteral("8"));
        probe.env.insert(QStringLiteral("CPLUS_INCLUDE_PATH"), QStringLiteral("/usr/local/cuda/include/cccl"));
        QVERIFY(kf::test::writeFile(dir.filePath(QStringLiteral("README.md")),
            "# x\nRequires torch == 2.14.0\n- CMake \xe2\x89\xa5"
            "3.31,\nTORCH_CHECK(a >= b)\n"));
        QVERIFY(kf::test::writeFile(dir.filePath(QStringLiteral("sglang.toml")),
            "[project]\ndependencies = [\n  \"torch==2.13.0\",\n  \"torchvision\",\n]\n"));
        probe.sglangPyproject = dir.filePath(QStringLiteral("sglang.toml"));
        LocalTransport local;
        const auto r = collectServerFacts(local, 120000, probe);
        QVERIFY2(r.ok(), qPrintable(r.error()));
        QVERIFY(r->complete);
        QVERIFY2(r->extra.isEmpty(), qPrintable(r->extra.value(0).first));
        QVERIFY(r->project.probed);
        QVERIFY(r->project.workDirExists);
        // The whole file now (CRs dropped), so the rules read it as CMake.
        QCOMPARE(r->project.cmakeLists,
            (QStringList { "cmake_minimum_required(VERSION 3.20)", "cmake_policy(SET CMP0177 NEW)", "project(x)" }));
        QCOMPARE(r->project.exportedCMakeVariables, QStringList { "SGL_KERNEL_COMPILE_THREADS=8" });
        // What the tree asks for: its README and pyproject lines naming torch or CMake with a version
        // (the rules pick the requirement: TORCH_CHECK is none), and sglang's pyproject when named.
        QCOMPARE(r->project.treeLines,
            (QList<QPair<QString, QString>> { { "README.md", "Requires torch == 2.14.0" },
                { "README.md", "- CMake \u22653.31," }, { "README.md", "TORCH_CHECK(a >= b)" },
                { "python/pyproject.toml", "  \"torch==2.13.0\"," } }));
        QCOMPARE(r->project.cplusIncludePath, QStringLiteral("/usr/local/cuda/include/cccl"));
        QVERIFY(r->project.diskAvailableKiB > 0); // of the nearest existing parent
        QCOMPARE(r->homeDir, QDir::homePath());   // the card's facts are all there too
        QVERIFY(r->memory.memAvailableKiB > 0);

        probe.workingDirectory = dir.filePath(QStringLiteral("missing"));
        const auto missing = collectServerFacts(local, 120000, probe);
        QVERIFY2(missing.ok(), qPrintable(missing.error()));
        QVERIFY(missing->complete);
        QVERIFY(missing->project.probed);
        QVERIFY(!missing->project.workDirExists);
        QVERIFY(missing->project.cmakeLists.isEmpty());
    }

    // nvcc outside PATH is found where the build finds it: $CUDA_HOME/bin (the card used to
    // look in /usr/local/cuda/bin only, preflight in $CUDA_HOME too).
    void nvccFromCudaHome()
    {
        QTemporaryDir cuda;
        QVERIFY(QDir().mkpath(cuda.filePath(QStringLiteral("bin"))));
        QVERIFY(QDir().mkpath(cuda.filePath(QStringLiteral("include/cccl"))));
        QVERIFY(writeExecutable(cuda.filePath(QStringLiteral("bin/nvcc")),
            "#!/bin/sh\necho 'nvcc: NVIDIA (R) Cuda compiler driver'\n"
            "echo 'Cuda compilation tools, release 13.0, V13.0.48'\n"));
        LocalTransport local;
        CommandSpec spec;
        spec.command = QStringLiteral("sh -s");
        spec.env.insert(QStringLiteral("PATH"), QStringLiteral("/usr/bin:/bin"));
        spec.env.insert(QStringLiteral("CUDA_HOME"), cuda.path());
        spec.stdinData = serverFactsScript();
        const ExecResult r = local.exec(spec, 60000);
        const auto f = parseServerFacts(r.stdOut);
        QVERIFY2(f.ok(), qPrintable(f.error()));
        QCOMPARE(f->nvcc, QStringLiteral("13.0.48"));
        QCOMPARE(f->nvccPath, cuda.filePath(QStringLiteral("bin/nvcc")));
        QCOMPARE(f->ccclDir, cuda.filePath(QStringLiteral("include/cccl")));
    }

    void cliLocalJson()
    {
        if (!QFile::exists(QStringLiteral(KF_CLI_BINARY)))
            QSKIP("kernelforge-cli is not built");
        const auto r = test::runCli({ QStringLiteral("facts"), QStringLiteral("--local"), QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonParseError error;
        const QJsonObject j = QJsonDocument::fromJson(r.out, &error).object();
        QVERIFY2(error.error == QJsonParseError::NoError, qPrintable(error.errorString()));
        QCOMPARE(j.value(QStringLiteral("cpus")).toInt(), int(::sysconf(_SC_NPROCESSORS_ONLN)));
        QCOMPARE(j.value(QStringLiteral("kernel")).toString(), QSysInfo::kernelVersion());
        QVERIFY(j.value(QStringLiteral("complete")).toBool());

        const auto table = test::runCli({ QStringLiteral("facts"), QStringLiteral("--local") });
        QCOMPARE(table.exitCode, 0);
        QVERIFY(table.out.startsWith("OS "));
        QVERIFY(table.out.contains(QByteArray(QByteArray("\nKernel       ") + QSysInfo::kernelVersion().toUtf8())));

        const auto bad = test::runCli({ QStringLiteral("facts"), QStringLiteral("--bogus") });
        QCOMPARE(bad.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestServerFacts)
#include "tst_serverfacts.moc"
