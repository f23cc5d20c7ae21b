// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Import failures explained: real Python output from the H200 machine (tests/data/fatbin/h200),
// the demo sgl_kernel package imported by this machine's python3, and error lines as public
// sglang issues quote them.
#include "core/verify/importdiagnosis.h"
#include "tests/support/testsupport.h"

#include <QStandardPaths>
#include <QtTest>

using namespace kf;
using K = ImportDiagnosis::Kind;

class TestImportDiagnosis : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realCaptures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("detail");
        QTest::newRow("torch ABI") << "import_abi.txt" << int(K::TorchAbi) << "_ZNK3c106SymInt9kf_sym_neERKS0_";
        QTest::newRow("CUDA 11 runtime") << "import_cudart.txt" << int(K::CudaLibraryMissing) << "libcudart.so.11.0";
        QTest::newRow("not installed") << "import_missing.txt" << int(K::NotInstalled) << "sgl_kernel";
    }
    void realCaptures()
    {
        QFETCH(QString, file);
        QFETCH(int, kind);
        QFETCH(QString, detail);
        const QByteArray out = test::readData(QStringLiteral("fatbin/h200/") + file);
        QVERIFY(!out.isEmpty());
        const ImportDiagnosis d = diagnoseImport(out, 1);
        QCOMPARE(int(d.kind), kind);
        QCOMPARE(d.detail, detail);
        QVERIFY(!d.explanation.isEmpty());
        QVERIFY(!d.fix.isEmpty());
    }

    void torchAbiSaysSo()
    {
        const ImportDiagnosis d = diagnoseImport(test::readData(QStringLiteral("fatbin/h200/import_abi.txt")), 1);
        QVERIFY2(d.explanation.contains(QLatin1String("built against a different torch than the one installed")),
            qPrintable(d.explanation));
    }

    // Error lines as quoted in sgl-project/sglang issues #5100, #8131, PR #13948 and others.
    void publicErrorLines_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("kind");
        QTest::newRow("c10 cuda SetDevice")
            << "ImportError: /usr/lib/python3/sgl_kernel/common_ops.abi3.so: undefined symbol: _ZN3c104cuda9SetDeviceEa"
            << int(K::TorchAbi);
        QTest::newRow("torch jit")
            << "ImportError: /x/sgl_kernel/common_ops.abi3.so: undefined symbol: _ZN5torch3jit17parseSchemaOrNameERKSsb"
            << int(K::TorchAbi);
        QTest::newRow("critical loader")
            << "ImportError: \n[sgl_kernel] CRITICAL: Could not load any common_ops library!\nError details from "
               "previous "
               "import attempts:\n- ImportError: /x/sgl_kernel/sm100/common_ops.abi3.so: undefined symbol: "
               "_ZNK3c106SymInt6sym_neERKS0_\n- ModuleNotFoundError: No module named 'common_ops'"
            << int(K::TorchAbi);
        QTest::newRow("driver API")
            << "ImportError: /opt/sgl_kernel/common_ops.abi3.so: undefined symbol: cuGreenCtxStreamCreate"
            << int(K::DriverTooOld);
        QTest::newRow("cudart 12") << "ImportError: libcudart.so.12: cannot open shared object file: No such file or "
                                      "directory"
                                   << int(K::CudaLibraryMissing);
        QTest::newRow("libc10") << "ImportError: libc10.so: cannot open shared object file: No such file or directory"
                                << int(K::TorchMissing);
        QTest::newRow("no torch") << "ModuleNotFoundError: No module named 'torch'" << int(K::TorchMissing);
        QTest::newRow("other") << "Traceback (most recent call last):\nRuntimeError: CUDA error: out of memory"
                               << int(K::Other);
    }
    void publicErrorLines()
    {
        QFETCH(QString, text);
        QFETCH(int, kind);
        QCOMPARE(int(diagnoseImport(text.toUtf8(), 1).kind), kind);
    }

    void okAndOther()
    {
        QVERIFY(diagnoseImport("", 0).ok());
        const ImportDiagnosis d = diagnoseImport("Traceback...\nRuntimeError: CUDA error: out of memory\n", 1);
        QCOMPARE(d.detail, QStringLiteral("RuntimeError: CUDA error: out of memory"));
        QCOMPARE(diagnoseImport("", 139).explanation, QStringLiteral("import sgl_kernel failed with exit status 139"));
    }

    // The demo package's flash_attn.py (like the real one) raises when flash_ops is missing.
    void demoPackageWithoutFa3()
    {
        const QString python = QStandardPaths::findExecutable(QStringLiteral("python3"));
        if (python.isEmpty())
            QSKIP("no python3");
        const auto run = test::runProgram(python, { "-c", "import sgl_kernel" }, 60000, {},
            { QStringLiteral("PYTHONPATH=") + KF_SOURCE_DIR + "/resources/demo/home/sgl-kernel/python" });
        QCOMPARE(run.exitCode, 1);
        const ImportDiagnosis d = diagnoseImport(QByteArray(run.out + run.err), run.exitCode);
        QCOMPARE(toString(d.kind), toString(K::Fa3Missing));
        QCOMPARE(
            d.detail, QStringLiteral("ImportError: Can not import FA3 in sgl_kernel. Please check your installation."));
    }
};

QTEST_GUILESS_MAIN(TestImportDiagnosis)
#include "tst_importdiagnosis.moc"
