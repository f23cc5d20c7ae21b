// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Whether a build made on one host fits another (issue #36): each fact that decides it, alone.
#include "core/deploy/buildfingerprint.h"

#include <QtTest>

using namespace kf;
using namespace kf::deploy;

namespace {

ServerFacts host(const QString& cc = QStringLiteral("12.0"))
{
    ServerFacts f;
    f.arch = QStringLiteral("x86_64");
    f.glibc = QStringLiteral("2.39");
    f.pythonSoabi = QStringLiteral("cpython-312-x86_64-linux-gnu");
    f.torch = QStringLiteral("2.9.1+cu130");
    f.torchCxx11Abi = true;
    f.nvcc = QStringLiteral("13.0.88");
    f.driverVersion = QStringLiteral("580.95.05");
    for (int i = 0; i < 2; ++i)
        f.gpus.append(
            { i, QStringLiteral("NVIDIA RTX PRO 6000 Blackwell"), QStringLiteral("GPU-%1").arg(i), cc, 97887 });
    return f;
}

QList<CudaTarget> targets(std::initializer_list<const char16_t*> names)
{
    QList<CudaTarget> out;
    for (const char16_t* n : names)
        out.append(*parseCudaTarget(QStringView(n)));
    return out;
}

} // namespace

class TestBuildFingerprint : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void anIdenticalHostFits()
    {
        const BuildFingerprint built
            = fingerprintOf(BuildEnvironment::of(host()), targets({ u"sm_120a" }), QStringLiteral("ab12"));
        QCOMPARE(promotionRefusals(built, host(), QStringLiteral("gpu-b")), QStringList());
        QCOMPARE(BuildFingerprint::fromJson(built.toJson()), built);
    }

    void eachDifferenceIsNamed_data()
    {
        QTest::addColumn<QString>("field");
        QTest::addColumn<QString>("value");
        QTest::addColumn<QString>("expected");
        QTest::newRow("torch") << "torch"
                               << "2.9.0+cu129"
                               << "torch 2.9.1+cu130 here, 2.9.0+cu129 on gpu-b";
        QTest::newRow("python")
            << "python"
            << "cpython-311-x86_64-linux-gnu"
            << "Python ABI cpython-312-x86_64-linux-gnu here, cpython-311-x86_64-linux-gnu on gpu-b";
        QTest::newRow("older glibc") << "glibc"
                                     << "2.36"
                                     << "glibc 2.39 here, 2.36 on gpu-b";
        QTest::newRow("glibc unknown") << "glibc"
                                       << ""
                                       << "glibc 2.39 here, unknown on gpu-b";
        QTest::newRow("arch") << "arch"
                              << "aarch64"
                              << "architecture x86_64 here, aarch64 on gpu-b";
        QTest::newRow("old driver") << "driver"
                                    << "575.57.08"
                                    << "CUDA 13.0.88 here needs a driver >= 580; gpu-b has 575.57.08";
        QTest::newRow("abi") << "abi"
                             << "0"
                             << "torch's C++ ABI (_GLIBCXX_USE_CXX11_ABI) 1 here, 0 on gpu-b";
        QTest::newRow("gpu") << "cc"
                             << "9.0"
                             << "GPU 0 of gpu-b (NVIDIA RTX PRO 6000 Blackwell): no kernel image";
    }
    void eachDifferenceIsNamed()
    {
        QFETCH(QString, field);
        QFETCH(QString, value);
        QFETCH(QString, expected);
        const BuildFingerprint built = fingerprintOf(BuildEnvironment::of(host()), targets({ u"sm_120a" }));
        ServerFacts target = host(field == u"cc" ? value : QStringLiteral("12.0"));
        if (field == u"torch")
            target.torch = value;
        else if (field == u"python")
            target.pythonSoabi = value;
        else if (field == u"glibc")
            target.glibc = value;
        else if (field == u"arch")
            target.arch = value;
        else if (field == u"driver")
            target.driverVersion = value;
        else if (field == u"abi")
            target.torchCxx11Abi = value == u"1";
        const QStringList refusals = promotionRefusals(built, target, QStringLiteral("gpu-b"));
        QVERIFY2(!refusals.isEmpty() && refusals.first().startsWith(expected), qPrintable(refusals.join(u'\n')));
        if (field != u"cc")
            QCOMPARE(refusals.size(), 1);
    }

    // A newer glibc and a newer driver fit; PTX the driver can JIT fits a newer GPU.
    void newerIsFine()
    {
        const BuildFingerprint built
            = fingerprintOf(BuildEnvironment::of(host(QStringLiteral("9.0"))), targets({ u"sm_90a", u"compute_90" }));
        ServerFacts target = host(QStringLiteral("10.0"));
        target.glibc = QStringLiteral("2.41");
        target.driverVersion = QStringLiteral("590.10");
        QCOMPARE(promotionRefusals(built, target, QStringLiteral("gpu-b")), QStringList());
    }

    // A build without device code (nvcc-free, host-compiled) asks nothing of the driver or the
    // GPUs; everything else still counts.
    void noDeviceCodeAsksNoDriver()
    {
        ServerFacts source = host();
        source.nvcc.clear();
        const BuildFingerprint built = fingerprintOf(BuildEnvironment::of(source), {});
        ServerFacts target = host(QStringLiteral("8.0"));
        target.driverVersion = QStringLiteral("470.1");
        QCOMPARE(promotionRefusals(built, target, QStringLiteral("gpu-b")), QStringList());
        target.torch = QStringLiteral("2.8.0");
        QCOMPARE(promotionRefusals(built, target, QStringLiteral("gpu-b")).size(), 1);
    }

    // The source itself since its build: what changed is named; what the build did not record
    // (an older row) is not held against today.
    void theEnvironmentSinceTheBuild()
    {
        const BuildEnvironment atBuild = BuildEnvironment::of(host());
        QCOMPARE(BuildEnvironment::fromJson(atBuild.toJson()), atBuild);
        QCOMPARE(environmentChanges(atBuild, atBuild), QStringList());
        ServerFacts later = host();
        later.torch = QStringLiteral("2.9.2+cu130");
        later.torchCxx11Abi.reset();
        QCOMPARE(environmentChanges(atBuild, BuildEnvironment::of(later)),
            QStringList({ QStringLiteral("torch 2.9.1+cu130 at the build, 2.9.2+cu130 now"),
                QStringLiteral("torch's C++ ABI 1 at the build, unknown now") }));
        BuildEnvironment older;
        older.torch = atBuild.torch;
        QCOMPARE(environmentChanges(older, BuildEnvironment::of(later)).size(), 1);
        QVERIFY(BuildEnvironment().isEmpty());
        QVERIFY(!older.isEmpty());
    }

    void minimumDrivers()
    {
        QCOMPARE(minimumDriverFor(QStringLiteral("12.8.93")), QStringLiteral("525.60.13"));
        QCOMPARE(minimumDriverFor(QStringLiteral("13.0.88")), QStringLiteral("580"));
        QCOMPARE(minimumDriverFor(QStringLiteral("11.8.89")), QStringLiteral("450.80.02"));
        QCOMPARE(minimumDriverFor(QStringLiteral("")), QString());
    }
};

QTEST_GUILESS_MAIN(TestBuildFingerprint)
#include "tst_buildfingerprint.moc"
