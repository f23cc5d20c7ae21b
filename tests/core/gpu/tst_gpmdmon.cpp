// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The GPM stream's parser: `nvidia-smi dmon --gpm-metrics` output in NVIDIA's documented format
// (tests/data/nvidia-smi/gpm, hand-written until a Hopper GPU is lent) and the real H200's dmon
// captures without GPM, plus the stream command.
#include "core/gpu/gpmdmon.h"
#include "tests/support/testsupport.h"

#include <QtTest>

using namespace kf;

namespace {
QByteArray gpm(const char* name)
{
    return test::readData(QStringLiteral("nvidia-smi/gpm/") + QLatin1String(name));
}
} // namespace

class TestGpmDmon : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everyGpmRowHasItsColumn()
    {
        QCOMPARE(gpmFieldFromColumn("smutil"), GpuField::SmActive);
        QCOMPARE(gpmFieldFromColumn("SMOCC"), GpuField::SmOccupancy);
        QCOMPARE(gpmFieldFromColumn("mmaact"), GpuField::TensorActive);
        QCOMPARE(gpmFieldFromColumn("dram"), GpuField::DramActive);
        QCOMPARE(gpmFieldFromColumn("pcitx"), GpuField::PcieTx);
        QCOMPARE(gpmFieldFromColumn("pcirx"), GpuField::PcieRx);
        QCOMPARE(gpmFieldFromColumn("nvltx"), GpuField::NvlinkTx);
        QCOMPARE(gpmFieldFromColumn("nvlrx"), GpuField::NvlinkRx);
        // dmon's own columns and the metric ids are not GPM columns.
        QCOMPARE(gpmFieldFromColumn("sm"), GpuField::Unknown);
        QCOMPARE(gpmFieldFromColumn("2"), GpuField::Unknown);
        QCOMPARE(gpmFieldFromColumn(""), GpuField::Unknown);
        for (const GpuField f : gpmGpuFields())
            QVERIFY(gpmMetricId(f) > 0);
        QCOMPARE(gpmMetricIds(gpmGpuFields()), QStringLiteral("2,3,5,10,20,21,61,60"));
        QCOMPARE(gpmMetricId(GpuField::UtilGpu), 0);
    }

    void twoGpusThreeIntervals()
    {
        const DmonResult r = parseDmon(gpm("dmon_gpm_2gpus.txt"));
        QCOMPARE(r.badLines, 0);
        QVERIFY(r.messages.isEmpty());
        QVERIFY(r.layout.known());
        QCOMPARE(r.layout.gpuColumn, 0);
        QCOMPARE(r.samples.size(), 6);
        // The first interval: GPM needs two samples, every metric is "-".
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(r.samples[i].index, i);
            for (const GpuField f : gpmGpuFields())
                QVERIFY(!hasValue(r.samples[i].value(f)));
        }
        const GpuSample& busy = r.samples[2];
        QCOMPARE(busy.index, 0);
        QCOMPARE(busy.value(GpuField::SmActive), 93.0);
        QCOMPARE(busy.value(GpuField::SmOccupancy), 31.0);
        QCOMPARE(busy.value(GpuField::TensorActive), 71.0);
        QCOMPARE(busy.value(GpuField::DramActive), 42.0);
        QCOMPARE(busy.value(GpuField::PcieTx), 44.0);
        QCOMPARE(busy.value(GpuField::PcieRx), 187.0);
        QCOMPARE(busy.value(GpuField::NvlinkTx), 21034.0);
        QCOMPARE(busy.value(GpuField::NvlinkRx), 20511.0);
        // dmon's own columns are not read: pwr is not a field of the sample.
        QVERIFY(!hasValue(busy.value(GpuField::PowerDraw)));
        // The repeated header changes nothing.
        QCOMPARE(r.samples[5].index, 1);
        QCOMPARE(r.samples[5].value(GpuField::SmActive), 0.0);
        QCOMPARE(r.samples[5].value(GpuField::PcieRx), 5.0);
    }

    void csvWithTimeColumn()
    {
        const DmonResult r = parseDmon(gpm("dmon_gpm_csv_time.txt"));
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.layout.gpuColumn, 1);
        QCOMPARE(r.samples.size(), 4);
        QCOMPARE(r.samples[3].index, 1);
        QCOMPARE(r.samples[3].value(GpuField::SmActive), 91.0);
        QCOMPARE(r.samples[3].value(GpuField::NvlinkRx), 20655.0);
    }

    void unsupportedMetricAndGpuAreNoValue()
    {
        // An H100 PCIe (no NVLink) beside an A100 (no GPM at all).
        const DmonResult r = parseDmon(gpm("dmon_gpm_no_nvlink.txt"));
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.samples.size(), 4);
        const GpuSample& h100 = r.samples[2];
        QCOMPARE(h100.index, 0);
        QCOMPARE(h100.value(GpuField::SmActive), 88.0);
        QCOMPARE(h100.value(GpuField::PcieRx), 212.0);
        QVERIFY(!hasValue(h100.value(GpuField::NvlinkTx)));
        QVERIFY(!hasValue(h100.value(GpuField::NvlinkRx)));
        for (const GpuField f : gpmGpuFields())
            QVERIFY(!hasValue(r.samples[3].value(f)));
    }

    void countersBusyIsAMessage()
    {
        const DmonResult r = parseDmon(gpm("dmon_gpm_busy.txt"));
        QCOMPARE(r.messages, QStringList { "Failed to start GPM sampling on all GPUs: In use by another client" });
        QCOMPARE(r.samples.size(), 2);
        QVERIFY(!hasValue(r.samples[0].value(GpuField::SmActive)));
        QCOMPARE(r.badLines, 0);
    }

    void realDmonWithoutGpm()
    {
        // The real H200's dmon (no --gpm-metrics): rows parse, GPM stays empty.
        const DmonResult r = parseDmon(test::readData(QStringLiteral("nvidia-smi/h200-driver580/dmon_load.txt")));
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.samples.size(), 3);
        for (const GpuSample& s : r.samples) {
            QCOMPARE(s.index, 0);
            for (const GpuField f : gpmGpuFields())
                QVERIFY(!hasValue(s.value(f)));
        }
    }

    void layoutCarriesAcrossChunks()
    {
        const QByteArray all = gpm("dmon_gpm_2gpus.txt");
        const qsizetype cut = all.indexOf("    0    684");
        const DmonResult first = parseDmon(all.first(cut));
        QCOMPARE(first.samples.size(), 2);
        const DmonResult rest = parseDmon(all.sliced(cut), first.layout);
        QCOMPARE(rest.badLines, 0);
        QCOMPARE(rest.samples.size(), 4);
        QCOMPARE(rest.samples[0].value(GpuField::SmActive), 93.0);
        // Without the header the rows are not read: counted, never guessed.
        const DmonResult blind = parseDmon(all.sliced(cut));
        QCOMPARE(blind.samples.size(), 2); // the rows after the repeated header
        QCOMPARE(blind.badLines, 2);
    }

    void garbageAndRanges()
    {
        const QByteArray text = "# gpu smutil pcitx\n"
                                "    0    250     12\n" // a percentage past 100.5: no value
                                "    1     -1 2e10\n"   // negative, and MiB/s past 1e9: no value
                                "    2    100.4  7.5\n"
                                "    x     10     10\n" // not a data line: a message
                                "    9999  10     10\n" // index past 4096: counted
                                "    3     10\n"        // a column short: counted
                                "    4     nan     inf\n";
        const DmonResult r = parseDmon(text);
        QCOMPARE(r.samples.size(), 4);
        QVERIFY(!hasValue(r.samples[0].value(GpuField::SmActive)));
        QCOMPARE(r.samples[0].value(GpuField::PcieTx), 12.0);
        QVERIFY(!hasValue(r.samples[1].value(GpuField::SmActive)));
        QVERIFY(!hasValue(r.samples[1].value(GpuField::PcieTx)));
        QCOMPARE(r.samples[2].value(GpuField::SmActive), 100.4);
        QCOMPARE(r.samples[2].value(GpuField::PcieTx), 7.5);
        QVERIFY(!hasValue(r.samples[3].value(GpuField::SmActive)));
        QVERIFY(!hasValue(r.samples[3].value(GpuField::PcieTx)));
        QCOMPARE(r.badLines, 2);
        QCOMPARE(r.messages.size(), 1);
    }

    void streamCommand()
    {
        QCOMPARE(dmonIntervalSeconds(100), 1);
        QCOMPARE(dmonIntervalSeconds(1000), 1);
        QCOMPARE(dmonIntervalSeconds(1500), 2);
        QCOMPARE(dmonIntervalSeconds(600000), 10);
        const QString c = gpmStreamCommand(QStringLiteral("/opt/nv/nvidia-smi"), gpmGpuFields(), 2);
        QVERIFY(c.contains(QStringLiteral("/opt/nv/nvidia-smi dmon -s p --gpm-metrics 2,3,5,10,20,21,61,60 -d 2")));
        QVERIFY(c.contains(QStringLiteral("stdbuf -oL")));
    }
};

QTEST_GUILESS_MAIN(TestGpmDmon)
#include "tst_gpmdmon.moc"
