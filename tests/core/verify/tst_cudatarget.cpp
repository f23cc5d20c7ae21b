// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Which code runs on which GPU: the rule table, and the rule against what a real H200
// (compute capability 9.0) did with each fixture library (tests/data/fatbin/h200/run.txt).
#include "core/verify/cudatarget.h"
#include "core/verify/fatbinreader.h"
#include "tests/support/testsupport.h"

#include <QtTest>

using namespace kf;

namespace {

CudaTarget t(const char* name)
{
    return parseCudaTarget(QString::fromLatin1(name)).value();
}

ComputeCapability cc(const char* text)
{
    return parseComputeCapability(QString::fromLatin1(text)).value();
}

} // namespace

class TestCudaTarget : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void names()
    {
        for (const char* n : { "sm_90a", "sm_90", "compute_80", "compute_90a", "sm_100f", "lto_90", "sm_120a" })
            QCOMPARE(t(n).name(), QString::fromLatin1(n));
        QVERIFY(!parseCudaTarget(u"sm_9"));
        QVERIFY(!parseCudaTarget(u"sm_90b"));
        QVERIFY(!parseCudaTarget(u"compute_"));
        QVERIFY(!parseCudaTarget(u"sm_090"));
        // The whole name: '$' alone would accept a trailing newline.
        QVERIFY(!parseCudaTarget(u"sm_90\n"));
        QVERIFY(!parseCudaTarget(u"sm_90a\n"));
        QVERIFY(!parseCudaTarget(QStringView(u"sm_90\0", 6)));
        QVERIFY(!parseCudaTarget(u"-sm_90"));
        QCOMPARE(cc("12.0").number(), 120);
        QVERIFY(!parseComputeCapability(u"9"));
        QVERIFY(!parseComputeCapability(u"[N/A]"));
        QCOMPARE(cc(" 9.0\n").number(), 90); // nvidia-smi's padding and line end
        QVERIFY(!parseComputeCapability(u"9.0\nx"));
        QVERIFY(!parseComputeCapability(QStringView(u"9.0\0", 4)));
        QVERIFY(!parseComputeCapability(u"-9.0"));
        QCOMPARE(joinTargetNames(uniqueTargets({ t("compute_120"), t("sm_90a"), t("sm_90a"), t("compute_90a") })),
            QStringLiteral("sm_90a compute_90a compute_120"));
    }

    void rules_data()
    {
        QTest::addColumn<QString>("target");
        QTest::addColumn<QString>("cc");
        QTest::addColumn<bool>("runs");
        QTest::newRow("sm_90a on 9.0") << "sm_90a"
                                       << "9.0" << true;
        QTest::newRow("sm_90a not on 10.0") << "sm_90a"
                                            << "10.0" << false;
        QTest::newRow("sm_90 on 9.0") << "sm_90"
                                      << "9.0" << true;
        QTest::newRow("sm_80 on 8.6") << "sm_80"
                                      << "8.6" << true;
        QTest::newRow("sm_86 not on 8.0") << "sm_86"
                                          << "8.0" << false;
        QTest::newRow("sm_80 not on 9.0") << "sm_80"
                                          << "9.0" << false;
        QTest::newRow("sm_120a on 12.0") << "sm_120a"
                                         << "12.0" << true;
        QTest::newRow("sm_120a not on 12.1") << "sm_120a"
                                             << "12.1" << false;
        QTest::newRow("sm_120 on 12.1") << "sm_120"
                                        << "12.1" << true;
        QTest::newRow("sm_100f on 10.3") << "sm_100f"
                                         << "10.3" << true;
        QTest::newRow("sm_100f not on 12.0") << "sm_100f"
                                             << "12.0" << false;
        QTest::newRow("compute_80 JITs on 9.0") << "compute_80"
                                                << "9.0" << true;
        QTest::newRow("compute_80 JITs on 12.0") << "compute_80"
                                                 << "12.0" << true;
        QTest::newRow("compute_90 not on 8.9") << "compute_90"
                                               << "8.9" << false;
        QTest::newRow("compute_90a on 9.0") << "compute_90a"
                                            << "9.0" << true;
        QTest::newRow("compute_90a not on 10.0") << "compute_90a"
                                                 << "10.0" << false;
        QTest::newRow("compute_100f on 10.3") << "compute_100f"
                                              << "10.3" << true;
        QTest::newRow("compute_100f not on 12.0") << "compute_100f"
                                                  << "12.0" << false;
        QTest::newRow("lto_90 never") << "lto_90"
                                      << "9.0" << false;
    }
    void rules()
    {
        QFETCH(QString, target);
        QFETCH(QString, cc);
        QFETCH(bool, runs);
        QCOMPARE(runsOn(parseCudaTarget(target).value(), parseComputeCapability(cc).value()), runs);
    }

    void choice()
    {
        const auto both = chooseKernelImage({ t("compute_80"), t("sm_90a"), t("sm_120a") }, cc("9.0"));
        QVERIFY(both.runs());
        QVERIFY(!both.jit);
        QCOMPARE(both.target->name(), QStringLiteral("sm_90a"));
        const auto jit = chooseKernelImage({ t("compute_80"), t("sm_90a") }, cc("12.0"));
        QVERIFY(jit.jit);
        QCOMPARE(jit.target->name(), QStringLiteral("compute_80"));
        QVERIFY2(jit.reason.contains(QLatin1String("JIT from compute_80 PTX")), qPrintable(jit.reason));
        const auto none = chooseKernelImage({ t("sm_100a"), t("sm_120a") }, cc("9.0"));
        QVERIFY(!none.runs());
        QCOMPARE(none.reason,
            QStringLiteral(
                "no kernel image for 9.0: sm_100a runs only on 10.0, sm_120a runs only on 12.0; no PTX to JIT"));
        const auto old = chooseKernelImage({ t("sm_80"), t("compute_100") }, cc("9.0"));
        QCOMPARE(old.reason,
            QStringLiteral("no kernel image for 9.0: sm_80 needs 8.0 up to 8.9, compute_100 needs 10.0 or newer"));
    }

    // What the H200 did with each fixture is what the rule says for the parsed targets.
    void realH200()
    {
        const QByteArray runs = test::readData(QStringLiteral("fatbin/h200/run.txt"));
        QVERIFY(!runs.isEmpty());
        const ComputeCapability h200 = cc("9.0");
        int checked = 0;
        for (const QByteArray& line : runs.split('\n')) {
            const qsizetype colon = line.indexOf(".run.txt: ");
            if (colon < 0)
                continue;
            const QString lib = QString::fromUtf8(line.left(colon));
            const QByteArray result = line.mid(colon + 10);
            const FatbinScan scan = scanFatbin(test::readData(QStringLiteral("fatbin/") + lib));
            QVERIFY2(scan.error.isEmpty(), qPrintable(scan.error));
            if (!scan.hasDeviceCode()) {
                QCOMPARE(result, QByteArray("no CUDA"));
                continue;
            }
            const bool ran = result == "ok";
            QVERIFY(ran || result == "no kernel image is available for execution on the device");
            QVERIFY2(chooseKernelImage(scan.targets(), h200).runs() == ran, qPrintable(lib));
            ++checked;
        }
        QCOMPARE(checked, 10);
    }
};

QTEST_GUILESS_MAIN(TestCudaTarget)
#include "tst_cudatarget.moc"
