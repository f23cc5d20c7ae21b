// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Verification follows sgl-kernel's loader, per GPU: libraries built by this machine's nvcc in
// the sm90/ + sm100/ layout of a late-2026 sgl-kernel package (their targets read from the
// files themselves), judged against GPU lists of mixed compute capabilities; what would fail
// becomes a launch blocker.
#include "core/verify/fatbinreader.h"
#include "core/verify/sglkernelloader.h"
#include "tests/support/cudafixtures.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;
using Level = PreflightCheck::Level;

namespace {

VerifyGpu gpu(int index, const char* name, int major, int minor)
{
    return VerifyGpu { index, QString::fromLatin1(name), ComputeCapability { major, minor } };
}

QStringList messages(const VerifyReport& r, Level level)
{
    QStringList out;
    for (const PreflightCheck& c : r.checks)
        if (c.id == QLatin1String("arch") && c.level == level)
            out << c.message;
    return out;
}

} // namespace

class TestSglKernelLoader : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;
    QString m_problem;
    QList<VerifyLibrary> m_libraries; // sgl_kernel/sm90/common_ops..., sgl_kernel/sm100/common_ops...

    // The package as verify finds it, with these GPUs, judged.
    VerifyReport judged(const QList<VerifyGpu>& gpus, const QList<VerifyLibrary>& libraries) const
    {
        VerifyReport r;
        r.dir = m_dir.path();
        r.gpus = gpus;
        r.python = QStringLiteral("/usr/bin/python3");
        r.libraries = libraries;
        evaluateVerify(r, std::nullopt);
        return r;
    }

private Q_SLOTS:
    void initTestCase()
    {
        if (test::nvccPath().isEmpty())
            QSKIP("no nvcc: the sm90/ + sm100/ libraries cannot be built here");
        // As #35526 describes the late-2026 wheels: sm90/ is the compatibility build (sm_80, sm_89
        // and sm_90a SASS); sm100/ has Blackwell code only.
        const QString pkg = m_dir.path() + QStringLiteral("/sgl_kernel");
        QVERIFY(QDir().mkpath(pkg + QStringLiteral("/sm90")));
        QVERIFY(QDir().mkpath(pkg + QStringLiteral("/sm100")));
        const QList<test::CudaLibrary> libs {
            { QStringLiteral("sm90/common_ops.abi3.so"),
                { QStringLiteral("-gencode"), QStringLiteral("arch=compute_80,code=sm_80"), QStringLiteral("-gencode"),
                    QStringLiteral("arch=compute_89,code=sm_89"), QStringLiteral("-gencode"),
                    QStringLiteral("arch=compute_90a,code=sm_90a") },
                { QStringLiteral("sm_80"), QStringLiteral("sm_89"), QStringLiteral("sm_90a") } },
            { QStringLiteral("sm100/common_ops.abi3.so"),
                { QStringLiteral("-gencode"), QStringLiteral("arch=compute_100a,code=sm_100a"),
                    QStringLiteral("-gencode"), QStringLiteral("arch=compute_120a,code=sm_120a") },
                { QStringLiteral("sm_100a"), QStringLiteral("sm_120a") } },
        };
        m_problem = test::buildCudaLibraries(pkg, libs);
        QVERIFY2(m_problem.isEmpty(), qPrintable(m_problem));
        for (const test::CudaLibrary& l : libs) {
            VerifyLibrary v;
            v.path = pkg + u'/' + l.name;
            v.origin = QStringLiteral("package");
            v.source = QStringLiteral("headers");
            const FatbinScan scan = scanFatbin(test::readFile(v.path));
            QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
            v.targets = scan.targets();
            QStringList names;
            for (const CudaTarget& t : v.targets)
                names << t.name();
            QCOMPARE(names, l.targets);
            m_libraries << v;
        }
    }

    void loaderRule()
    {
        QCOMPARE(sglKernelLoaderFolder(ComputeCapability { 9, 0 }), QStringLiteral("sm90"));
        QCOMPARE(sglKernelLoaderFolder(ComputeCapability { 8, 9 }), QStringLiteral("sm100"));
        QCOMPARE(sglKernelLoaderFolder(ComputeCapability { 12, 0 }), QStringLiteral("sm100"));
        QCOMPARE(sglKernelLoaderFolder(std::nullopt), QStringLiteral("sm100"));
    }

    void hopperAndBlackwellPass()
    {
        const VerifyReport r
            = judged({ gpu(0, "NVIDIA H200", 9, 0), gpu(1, "NVIDIA RTX PRO 6000", 12, 0) }, m_libraries);
        QVERIFY(messages(r, Level::Fail).isEmpty());
        QVERIFY(r.launchBlockers().isEmpty());
        const QStringList pass = messages(r, Level::Pass);
        QVERIFY2(pass.contains(QStringLiteral("sgl-kernel's loader: GPU 0 (9.0) -> sgl_kernel/sm90/common_ops.abi3.so "
                                              "(sm_90a SASS); GPU 1 (12.0) -> sgl_kernel/sm100/common_ops.abi3.so "
                                              "(sm_120a SASS)")),
            qPrintable(pass.join(u'\n')));
        // Each variant is judged only where the loader sends a GPU: sm90/ on the 12.0 GPU is not a failure.
        // The two GPUs load different variants: said, not a failure.
        QCOMPARE(messages(r, Level::Warn).size(), 1);
        QVERIFY2(messages(r, Level::Warn)
                     .first()
                     .startsWith(QStringLiteral("the GPUs load different common_ops variants (GPU 1 -> sm100/; GPU 0 "
                                                "-> sm90/): the loader decides once per process")),
            qPrintable(messages(r, Level::Warn).first()));
    }

    void amperePlusAdaWorkstationFailsBeforeLaunch()
    {
        // sm_86 + sm_89: every GPU but 9.0 goes to sm100/, which has Blackwell code only.
        const VerifyReport r
            = judged({ gpu(0, "NVIDIA GeForce RTX 3090", 8, 6), gpu(1, "NVIDIA GeForce RTX 4090", 8, 9) }, m_libraries);
        const QStringList fail = messages(r, Level::Fail);
        QCOMPARE(fail.size(), 2);
        QVERIFY2(
            fail[0].startsWith(QStringLiteral("GPU 0 (NVIDIA GeForce RTX 3090, compute capability 8.6) would fail: "
                                              "sgl-kernel's loader picks sgl_kernel/sm100/common_ops.abi3.so for it "
                                              "(every GPU but 9.0 goes to sm100/), which carries [sm_100a sm_120a]")),
            qPrintable(fail[0]));
        // sm90/'s sm_80 SASS would run on 8.6 (same major, 8.6 >= 8.0): the loader never goes there.
        QVERIFY2(fail[0].contains(QStringLiteral("sgl_kernel/sm90/common_ops.abi3.so has code for it, but the loader "
                                                 "never picks it for 8.6")),
            qPrintable(fail[0]));
        QVERIFY2(
            fail[1].startsWith(QStringLiteral("GPU 1 (NVIDIA GeForce RTX 4090, compute capability 8.9) would fail")),
            qPrintable(fail[1]));
        QVERIFY(fail[1].contains(QStringLiteral("sm90/common_ops.abi3.so has code for it")));
        QCOMPARE(r.launchBlockers().size(), 2);
        QVERIFY(r.failed());
    }

    void mixedHopperAndAdaFailsOnlyTheAda()
    {
        const VerifyReport r = judged({ gpu(0, "NVIDIA H100 PCIe", 9, 0), gpu(1, "NVIDIA L40S", 8, 9) }, m_libraries);
        const QStringList fail = messages(r, Level::Fail);
        QCOMPARE(fail.size(), 1);
        QVERIFY(fail.first().startsWith(QStringLiteral("GPU 1 (NVIDIA L40S, compute capability 8.9) would fail")));
        QVERIFY(messages(r, Level::Pass).join(u'\n').contains(QStringLiteral("GPU 0 (9.0) -> sgl_kernel/sm90/")));
        QCOMPARE(r.launchBlockers().size(), 1);
    }

    void blackwellVariantsNeedTheirExactArch()
    {
        // sm_100a runs on 10.0 only: a 10.3 GPU (B300) finds nothing in sm100/.
        const VerifyReport r = judged({ gpu(0, "NVIDIA B200", 10, 0), gpu(1, "NVIDIA B300", 10, 3) }, m_libraries);
        const QStringList fail = messages(r, Level::Fail);
        QCOMPARE(fail.size(), 1);
        QVERIFY2(fail.first().startsWith(QStringLiteral("GPU 1 (NVIDIA B300, compute capability 10.3) would fail")),
            qPrintable(fail.first()));
    }

    void missingVariantFallsBackOrFails()
    {
        // Only sm90/ installed: a 12.0 GPU's loader finds no sm100/ and no top-level common_ops.
        const VerifyReport r = judged({ gpu(0, "NVIDIA RTX PRO 6000", 12, 0) }, { m_libraries.first() });
        const QStringList fail = messages(r, Level::Fail);
        QCOMPARE(fail.size(), 1);
        QVERIFY2(fail.first().contains(QStringLiteral("cannot import sgl_kernel: its loader looks for "
                                                      "sgl_kernel/sm100/common_ops.*")),
            qPrintable(fail.first()));
        // With the package's own common_ops beside the folders, the loader falls back to it.
        VerifyLibrary top = m_libraries.last(); // Blackwell code, at the top level
        top.path = m_dir.path() + QStringLiteral("/sgl_kernel/common_ops.abi3.so");
        const VerifyReport fallback = judged({ gpu(0, "NVIDIA RTX PRO 6000", 12, 0) }, { m_libraries.first(), top });
        QVERIFY(messages(fallback, Level::Fail).isEmpty());
        QVERIFY(messages(fallback, Level::Pass).join(u'\n').contains(QStringLiteral("sgl_kernel/common_ops.abi3.so")));
        QCOMPARE(loaderChosenLibraries(fallback).size(), 2);
    }

    void otherLibrariesStayJudgedAsBefore()
    {
        // A library outside the variant folders is judged against every GPU, as before.
        VerifyLibrary flash = m_libraries.last();
        flash.path = m_dir.path() + QStringLiteral("/sgl_kernel/flash_ops.abi3.so");
        const VerifyReport r = judged({ gpu(0, "NVIDIA H200", 9, 0) }, m_libraries + QList<VerifyLibrary> { flash });
        QVERIFY2(messages(r, Level::Fail).join(u'\n').contains(QStringLiteral("flash_ops.abi3.so cannot run on GPU 0")),
            qPrintable(messages(r, Level::Fail).join(u'\n')));
        QCOMPARE(messages(r, Level::Fail).size(), 1);
    }
};

QTEST_GUILESS_MAIN(TestSglKernelLoader)
#include "tst_sglkernelloader.moc"
