// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The GPM probe's verdicts: available, and each "why not" (an older GPU, a driver without GPM,
// counters held by another client, MIG), from the probe script's output in NVIDIA's documented
// format (tests/data/nvidia-smi/gpm), and the script itself run against the demo's nvidia-smi.
#include "core/gpu/gpmprobe.h"
#include "core/transport/localtransport.h"
#include "tests/support/testsupport.h"

#include <QtTest>

using namespace kf;

namespace {
GpmSupport probe(const char* name)
{
    return parseGpmProbe(test::readData(QStringLiteral("nvidia-smi/gpm/") + QLatin1String(name)));
}

GpmSupport runScript(const QMap<QString, QString>& env)
{
    LocalTransport local;
    CommandSpec spec;
    spec.command = gpmProbeScript();
    spec.arguments = { QStringLiteral(KF_SOURCE_DIR "/resources/demo/bin/nvidia-smi"), QStringLiteral("2,3,5,61") };
    spec.env = env;
    spec.env.insert(QStringLiteral("KF_DEMO_TIME_SCALE"), QStringLiteral("20"));
    const ExecResult r = local.exec(spec, 60000);
    if (!r.error.isEmpty() || r.exitCode != 0)
        qWarning() << r.error << r.exitCode << r.stdErr;
    return parseGpmProbe(
        r.stdOut, { GpuField::SmActive, GpuField::SmOccupancy, GpuField::TensorActive, GpuField::NvlinkTx });
}
} // namespace

class TestGpmProbe : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void hopperHasGpm()
    {
        const GpmSupport s = probe("probe_h100.txt");
        QVERIFY2(s.available, qPrintable(s.why));
        QVERIFY(s.why.isEmpty());
        QCOMPARE(s.gpus, (QList<int> { 0, 1 }));
        QCOMPARE(s.metrics, gpmGpuFields());
        QVERIFY(s.silentMetrics.isEmpty());
        QVERIFY(s.notes.isEmpty());
        QCOMPARE(s.driver, QStringLiteral("570.124.06"));
    }

    void olderGpu()
    {
        const GpmSupport s = probe("probe_a100.txt");
        QVERIFY(!s.available);
        QCOMPARE(s.why,
            QStringLiteral("GPUs 0, 1: NVIDIA A100-SXM4-80GB, compute capability 8.0, predates Hopper: GPM needs "
                           "compute capability 9.0 or newer"));
    }

    void driverWithoutGpm()
    {
        const GpmSupport s = probe("probe_old_driver.txt");
        QVERIFY(!s.available);
        QCOMPARE(s.why,
            QStringLiteral(
                "this driver's nvidia-smi (470.256.02) has no `dmon --gpm-metrics` (GPM came with driver 525)"));
    }

    void countersHeldByAnotherClient()
    {
        const GpmSupport s = probe("probe_busy.txt");
        QVERIFY(!s.available);
        QCOMPARE(s.why,
            QStringLiteral("GPU 0: its GPM counters are in use by another client (nvidia-smi dmon: Failed to start GPM "
                           "sampling on all GPUs: In use by another client)"));
    }

    void migMode()
    {
        const GpmSupport s = probe("probe_mig.txt");
        QVERIFY(!s.available);
        QVERIFY2(s.why.startsWith(QStringLiteral("GPU 0: MIG mode is on")), qPrintable(s.why));
    }

    void mixedHostSaysWhichAndWhatIsMissing()
    {
        // An H100 PCIe (no NVLink) and an A100: GPM on GPU 0 only; NVLink never gave a value.
        const GpmSupport s = probe("probe_mixed.txt");
        QVERIFY(s.available);
        QCOMPARE(s.gpus, QList<int> { 0 });
        QCOMPARE(s.silentMetrics, (QList<GpuField> { GpuField::NvlinkTx, GpuField::NvlinkRx }));
        QCOMPARE(s.notes.size(), 2);
        QVERIFY(s.notes[0].startsWith(QStringLiteral("GPU 1: NVIDIA A100 80GB PCIe, compute capability 8.0")));
        QCOMPARE(
            s.notes[1], QStringLiteral("no value for NVLink TX, NVLink RX on any GPU (not on this board or driver)"));
    }

    void noAnswer()
    {
        QCOMPARE(parseGpmProbe("").why, QStringLiteral("the GPM probe did not run"));
        const GpmSupport failing = parseGpmProbe(
            "query_rc\t18\nquery\tFailed to initialize NVML: Driver/library version mismatch\nhelp\t2\n");
        QVERIFY(!failing.available);
        QCOMPARE(failing.why,
            QStringLiteral("nvidia-smi lists no GPU (Failed to initialize NVML: Driver/library version mismatch)"));
    }

    // The script itself, against the demo's nvidia-smi in each of its GPM modes.
    void scriptOnTheDemo()
    {
        const GpmSupport h200 = runScript({ { QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("2") } });
        QVERIFY2(h200.available, qPrintable(h200.why));
        QCOMPARE(h200.gpus, (QList<int> { 0, 1 }));
        QCOMPARE(h200.metrics.size(), 4);

        const GpmSupport a100 = runScript({ { QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("1") },
            { QStringLiteral("KF_DEMO_GPU_MODELS"), QStringLiteral("NVIDIA A100-SXM4-80GB=8.0") } });
        QVERIFY(!a100.available);
        QVERIFY2(a100.why.contains(QStringLiteral("predates Hopper")), qPrintable(a100.why));

        const GpmSupport old = runScript({ { QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("1") },
            { QStringLiteral("KF_DEMO_GPM"), QStringLiteral("unsupported-driver") } });
        QVERIFY(!old.available);
        QVERIFY2(old.why.contains(QStringLiteral("no `dmon --gpm-metrics`")), qPrintable(old.why));

        const GpmSupport busy = runScript({ { QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("1") },
            { QStringLiteral("KF_DEMO_GPM"), QStringLiteral("busy") } });
        QVERIFY(!busy.available);
        QVERIFY2(busy.why.contains(QStringLiteral("in use by another client")), qPrintable(busy.why));
    }
};

QTEST_GUILESS_MAIN(TestGpmProbe)
#include "tst_gpmprobe.moc"
