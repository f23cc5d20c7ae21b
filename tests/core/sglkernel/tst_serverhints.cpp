// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/sglkernel/serverhints.h"
#include "tests/support/factsfixture.h"
#include "tests/support/testsupport.h"

#include <QtTest>

using namespace kf;

namespace {

bool has(const QStringList& hints, const char* needle)
{
    return std::any_of(hints.begin(), hints.end(), [&](const QString& h) { return h.contains(QLatin1String(needle)); });
}

} // namespace

class TestServerHints : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fixtures()
    {
        const QStringList blackwell = sglkernel::serverHints(test::factsFixture(QStringLiteral("blackwell-8gpu.txt")));
        QVERIFY(has(blackwell, "CMake 3.28.3 is older than 3.31"));
        QVERIFY(has(blackwell, "CUDA 13.0.48 keeps CUB/Thrust"));
        QVERIFY(has(blackwell, "SGL_KERNEL_ENABLE_FA3=OFF"));
        QVERIFY(!has(blackwell, "cannot compile"));        // CUDA 13 knows sm_120
        QVERIFY(has(blackwell, "at or below about 355 ")); // 1490000000 KiB / 4 GiB
        QVERIFY(!has(blackwell, "did not finish"));

        const QStringList h200 = sglkernel::serverHints(test::factsFixture(QStringLiteral("h200-ubuntu2404.txt")));
        QVERIFY(!has(h200, "older than 3.31")); // CMake 4.4.3
        QVERIFY(!has(h200, "FA3"));             // sm 9.0 is what FA3 is for
        QVERIFY(has(h200, "include/cccl"));
        QVERIFY(!has(h200, "PyTorch is not installed"));
        QVERIFY(!has(h200, "cannot compile"));

        const QStringList nvml = sglkernel::serverHints(test::factsFixture(QStringLiteral("nvml-mismatch.txt")));
        QVERIFY(has(nvml, "reboot"));
        QVERIFY(!has(nvml, "Ninja"));

        QVERIFY(has(sglkernel::serverHints(test::factsFixture(QStringLiteral("truncated.txt"))), "did not finish"));
        // A cgroup of 2 GiB on a 24 GB machine: the advice follows the cgroup.
        const QStringList cgroup = sglkernel::serverHints(test::factsFixture(QStringLiteral("debian12-cgroup-v1.txt")));
        QVERIFY(has(cgroup, "2.0 GiB of RAM available under cgroup v1 /kf-facts-capture (limit 2.0 GiB): keep "));
        QVERIFY(has(cgroup, "SGL_KERNEL_COMPILE_THREADS at or below about 1 "));
        const QStringList debian = sglkernel::serverHints(test::factsFixture(QStringLiteral("debian12-nogpu.txt")));
        QVERIFY(has(debian, "PyTorch is not installed"));
        QVERIFY(has(debian, "older than 3.31"));
    }

    // nvcc too old for the GPUs: the GPU whose target needs the newest CUDA decides
    // (core/sglkernel/rules.h, kArchRules).
    void nvccTooOldForTheGpus_data()
    {
        QTest::addColumn<QString>("cc");
        QTest::addColumn<QString>("nvcc");
        QTest::addColumn<QString>("hint"); // empty: none
        QTest::newRow("sm_120 on 12.4") << "12.0"
                                        << "12.4.131"
                                        << "nvcc 12.4.131 cannot compile for these sm_120 GPUs (\"Unsupported gpu "
                                           "architecture 'compute_120a'\"): CUDA 12.8 or newer is needed.";
        // B200 (compute capability 10.0) needs CUDA 12.8 for sm_100a just as SM120 does; the
        // hint used to look at compute capability >= 12.0 only and said nothing.
        QTest::newRow("sm_100 on 12.4") << "10.0"
                                        << "12.4.131"
                                        << "nvcc 12.4.131 cannot compile for these sm_100 GPUs (\"Unsupported gpu "
                                           "architecture 'compute_100a'\"): CUDA 12.8 or newer is needed.";
        QTest::newRow("sm_90 on 11.8") << "9.0"
                                       << "11.8.89"
                                       << "nvcc 11.8.89 cannot compile for these sm_90 GPUs (\"Unsupported gpu "
                                          "architecture 'compute_90a'\"): CUDA 12.0 or newer is needed.";
        QTest::newRow("sm_90 on 12.4") << "9.0"
                                       << "12.4.131"
                                       << "";
        QTest::newRow("sm_100 on 12.8") << "10.0"
                                        << "12.8.61"
                                        << "";
        QTest::newRow("A100 on 11.8") << "8.0"
                                      << "11.8.89"
                                      << "";
    }
    void nvccTooOldForTheGpus()
    {
        QFETCH(QString, cc);
        QFETCH(QString, nvcc);
        QFETCH(QString, hint);
        ServerFacts f = test::factsFixture(QStringLiteral("blackwell-8gpu.txt"));
        for (GpuFact& g : f.gpus)
            g.computeCapability = cc;
        f.nvcc = nvcc;
        const QStringList hints = sglkernel::serverHints(f);
        if (hint.isEmpty())
            QVERIFY2(!has(hints, "cannot compile"), qPrintable(hints.join(QLatin1Char('\n'))));
        else
            QVERIFY2(hints.contains(hint), qPrintable(hints.join(QLatin1Char('\n'))));
    }

    void mixedGpusTheNewestDecides()
    {
        ServerFacts f = test::factsFixture(QStringLiteral("blackwell-8gpu.txt"));
        f.gpus[0].computeCapability = QStringLiteral("9.0");
        f.nvcc = QStringLiteral("12.4.131");
        f.ninja.clear();
        const QStringList hints = sglkernel::serverHints(f);
        QVERIFY(has(hints, "nvcc 12.4.131 cannot compile for these sm_120 GPUs"));
        QVERIFY(has(hints, "SGL_KERNEL_ENABLE_FA3=OFF"));
        QVERIFY(!has(hints, "include/cccl"));
        QVERIFY(has(hints, "Ninja is not installed"));
    }

    // With a project probe the hints speak of the tree found and what it asks for.
    void treeAware()
    {
        ServerFacts f = test::factsFixture(QStringLiteral("project-cuda13-old-cmake.txt"));
        f.cmake = QStringLiteral("3.25.1");
        f.torch = QStringLiteral("2.9.1+cu130");
        f.sglKernel = QStringLiteral("0.3.20");
        f.sglangKernel = QStringLiteral("0.4.6");
        f.project.tree = QStringLiteral("sgl-kernel tree: python/sglang/kernels/aot below ~/sglang (aot layout)");
        f.project.treeLines = { { QStringLiteral("README.md"), QStringLiteral("Requires torch == 2.14.0") },
            { QStringLiteral("README.md"), QStringLiteral("- CMake \u22653.31,") } };
        QStringList hints = sglkernel::serverHints(f);
        QVERIFY(has(hints, "sgl-kernel tree: python/sglang/kernels/aot below ~/sglang"));
        QVERIFY2(has(hints, "CMake 3.25.1 is older than the 3.26 this CMakeLists.txt asks for"),
            qPrintable(hints.join(u'\n')));
        QVERIFY(has(hints, "install CMake >= 3.31"));
        QVERIFY(has(hints, "this tree asks for torch == 2.14.0 (README.md)"));
        QVERIFY(has(hints, "Both sgl-kernel 0.3.20 and sglang-kernel 0.4.6 are installed"));
        QVERIFY(has(hints, "include/cccl"));
        // The Dockerfile's way: CPLUS_INCLUDE_PATH already holds the folder, no CCCL hint.
        f.project.cplusIncludePath = QStringLiteral("/usr/local/cuda/include/cccl");
        hints = sglkernel::serverHints(f);
        QVERIFY(!has(hints, "include/cccl"));
    }
};

QTEST_GUILESS_MAIN(TestServerHints)
#include "tst_serverhints.moc"
