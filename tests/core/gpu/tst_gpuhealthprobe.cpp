// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The health script's output, parsed and judged: the real H200's values (query and -q from its
// captures), eight GPUs with crafted faults, no kernel log access, a failing and a missing
// nvidia-smi (tests/data/nvidia-smi/health); and the script itself against the demo's nvidia-smi.
#include "core/gpu/gpuhealthprobe.h"
#include "core/transport/localtransport.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QtTest>

using namespace kf;

namespace {
GpuHealthReport report(const char* name)
{
    return parseGpuHealthOutput(test::readData(QStringLiteral("nvidia-smi/health/") + QLatin1String(name)));
}
} // namespace

class TestGpuHealthProbe : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realH200IsHealthy()
    {
        const GpuHealthReport r = report("h200_healthy.txt");
        QCOMPARE(r.gpus.size(), 1);
        QCOMPARE(r.xidSource, QStringLiteral("dmesg"));
        const GpuHealthInput& in = r.inputs.first();
        QCOMPARE(in.sample.text(GpuField::BusId), QStringLiteral("00000000:00:06.0"));
        QCOMPARE(in.sample.text(GpuField::EccMode), QStringLiteral("Enabled"));
        QCOMPARE(in.sample.value(GpuField::PcieWidthMax), 16.0);
        QCOMPARE(in.sample.value(GpuField::EventSwPowerUs), 0.0);
        QVERIFY(!hasValue(in.sample.value(GpuField::RetiredSbe))); // [N/A] on Hopper: rows are remapped
        QCOMPARE(in.pcieReplays, 0.0);
        QCOMPARE(in.pcieReplayRollovers, 0.0);
        QVERIFY(!hasValue(in.nvlinkErrors)); // no link lines: no NVLink on this VM
        QCOMPARE(r.gpus.first().verdict, HealthLevel::Pass);
        QCOMPARE(r.verdict(), HealthLevel::Pass);
        QCOMPARE(r.summary(), QStringLiteral("1 GPU(s): 1 healthy"));
    }

    void eightGpusWithFaults()
    {
        const GpuHealthReport r = report("eight_gpus_faults.txt");
        QCOMPARE(r.gpus.size(), 8);
        const QList<HealthLevel> expected { HealthLevel::Pass, HealthLevel::Warn, HealthLevel::Fail, HealthLevel::Warn,
            HealthLevel::Pass, HealthLevel::Warn, HealthLevel::Fail, HealthLevel::Fail };
        for (int i = 0; i < 8; ++i)
            QVERIFY2(r.gpus[i].verdict == expected[i],
                qPrintable(QStringLiteral("GPU %1: %2").arg(i).arg(r.gpus[i].summary())));
        // NVLink: link 3 of GPU 1, 12 CRC and 1 recovery error.
        QCOMPARE(r.inputs[1].nvlinkErrors, 13.0);
        QCOMPARE(r.inputs[0].nvlinkErrors, 0.0);
        QVERIFY(r.gpus[1].summary().contains(QStringLiteral("13 NVLink error(s): link 3: 1 Recovery Errors")));
        // Replays by bus id.
        QCOMPARE(r.inputs[6].pcieReplays, 12.0);
        // Xids by bus id: 94 on GPU 3 (warn), 13 on GPU 4 (the application's), 48 on GPU 7.
        QCOMPARE(r.inputs[3].xids.size(), 1);
        QCOMPARE(r.inputs[3].xids.first().code, 94);
        QCOMPARE(r.inputs[4].xids.first().code, 13);
        QCOMPARE(r.inputs[7].xids.first().code, 48);
        QCOMPARE(r.inputs[7].xids.first().when, QStringLiteral("[ 4410.118400]"));
        QVERIFY(r.inputs[7].xids.first().text.startsWith(QStringLiteral("pid=4186, name=python3, An uncorrectable")));
        QVERIFY(r.gpus[2].summary().contains(QStringLiteral("rows are pending remapping")));
        QVERIFY(r.gpus[5].summary().contains(QStringLiteral("PCIe link is x8 of x16")));
        // Xid 79 on a bus no listed GPU has: a GPU fell off the bus.
        QCOMPARE(r.unmatchedXids.size(), 1);
        QCOMPARE(r.unmatchedXids.first().code, 79);
        QCOMPARE(r.verdict(), HealthLevel::Fail);
        QVERIFY(r.summary().startsWith(QStringLiteral("8 GPU(s): 2 healthy, 3 with warnings, 3 unhealthy (GPU 2: ")));
        const QJsonObject json = r.toJson();
        QCOMPARE(json.value(QStringLiteral("verdict")).toString(), QStringLiteral("fail"));
        QCOMPARE(json.value(QStringLiteral("gpus")).toArray().size(), 8);
        QCOMPARE(json.value(QStringLiteral("unmatched_xids")).toArray().size(), 1);
    }

    void kernelLogNotReadable()
    {
        const GpuHealthReport r = report("no_kernel_log.txt");
        QVERIFY(r.xidSource.isEmpty());
        QCOMPARE(r.gpus.first().verdict, HealthLevel::Pass);
        QCOMPARE(r.gpus.first().findings.first().message,
            QStringLiteral("Xid events not read: neither dmesg nor journalctl -k could be read (dmesg: read kernel "
                           "buffer failed: Operation not permitted)"));
    }

    void failingAndMissingNvidiaSmi()
    {
        const GpuHealthReport failing = report("nvml_mismatch.txt");
        QVERIFY(failing.gpus.isEmpty());
        QCOMPARE(failing.problem,
            QStringLiteral("nvidia-smi lists no GPU: Failed to initialize NVML: Driver/library version mismatch"));
        QCOMPARE(failing.verdict(), HealthLevel::Fail);
        const GpuHealthReport missing = report("no_driver.txt");
        QVERIFY(missing.driverMissing);
        QVERIFY(missing.problem.isEmpty());
        QCOMPARE(missing.verdict(), HealthLevel::Pass); // nothing to judge: a host without GPUs is not unhealthy
    }

    void fieldArgumentsSpellEveryName()
    {
        const QStringList args = gpuHealthFieldArguments();
        QVERIFY(args.contains(QStringLiteral("pcie.link.gen.gpucurrent|pcie.link.gen.current")));
        QVERIFY(args.contains(QStringLiteral("retired_pages.single_bit_ecc.count|retired_pages.sbe")));
        QVERIFY(args.contains(QStringLiteral("clocks_event_reasons_counters.hw_thermal_slowdown")));
    }

    // The script itself against the demo's nvidia-smi and dmesg: the hot GPU (1) fails, with the
    // Xid the demo's kernel log holds and the pending remap and ECC error its nvidia-smi reports.
    void scriptOnTheDemo()
    {
        LocalTransport local;
        const QString bin = QStringLiteral(KF_SOURCE_DIR "/resources/demo/bin");
        const auto r = checkGpuHealth(local, bin + QStringLiteral("/nvidia-smi"),
            { { QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("2") },
                { QStringLiteral("KF_DEMO_HOT_GPU"), QStringLiteral("1") },
                { QStringLiteral("PATH"), bin + u':' + qEnvironmentVariable("PATH") } });
        QVERIFY2(r, qPrintable(r.error()));
        QCOMPARE(r->gpus.size(), 2);
        QCOMPARE(r->xidSource, QStringLiteral("dmesg"));
        QCOMPARE(r->gpus[0].verdict, HealthLevel::Pass);
        QCOMPARE(r->gpus[1].verdict, HealthLevel::Fail);
        QCOMPARE(r->inputs[1].xids.size(), 1);
        QCOMPARE(r->inputs[1].xids.first().code, 48);
        QCOMPARE(r->inputs[1].pcieReplays, 3.0);
        QCOMPARE(r->inputs[0].nvlinkErrors, 0.0); // 18 links, no error
        const QString summary = r->gpus[1].summary();
        QVERIFY2(summary.contains(QStringLiteral("Xid 48")) && summary.contains(QStringLiteral("pending remapping"))
                && summary.contains(QStringLiteral("1 uncorrected ECC error(s) since the driver loaded")),
            qPrintable(summary));
        QCOMPARE(r->verdict(), HealthLevel::Fail);
    }
};

QTEST_GUILESS_MAIN(TestGpuHealthProbe)
#include "tst_gpuhealthprobe.moc"
