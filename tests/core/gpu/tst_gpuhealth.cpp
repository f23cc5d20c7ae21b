// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The health rules (core/gpu/gpuhealth.h), one crafted input per rule: what fails a GPU, what
// only warns, what is noted, and that what could not be read is said, never judged.
#include "core/gpu/gpuhealth.h"

#include <QJsonArray>
#include <QtTest>

using namespace kf;

namespace {
GpuHealthInput healthyH200()
{
    GpuHealthInput in;
    in.sample.index = 0;
    in.sample.setText(GpuField::Name, QStringLiteral("NVIDIA H200"));
    in.sample.setText(GpuField::EccMode, QStringLiteral("Enabled"));
    in.sample.setValue(GpuField::EccUncorrected, 0);
    in.sample.setValue(GpuField::EccUncorrectedAll, 0);
    in.sample.setText(GpuField::RemapPending, QStringLiteral("No"));
    in.sample.setText(GpuField::RemapFailure, QStringLiteral("No"));
    in.sample.setValue(GpuField::PcieGen, 5);
    in.sample.setValue(GpuField::PcieGenMax, 5);
    in.sample.setValue(GpuField::PcieWidth, 16);
    in.sample.setValue(GpuField::PcieWidthMax, 16);
    in.pcieReplays = 0;
    in.pcieReplayRollovers = 0;
    in.xidKnown = true;
    return in;
}

QStringList checks(const GpuHealth& h, HealthLevel level)
{
    QStringList out;
    for (const HealthFinding& f : h.findings)
        if (f.level == level)
            out << f.check;
    return out;
}
} // namespace

class TestGpuHealth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void healthyIsPass()
    {
        const GpuHealth h = judgeGpuHealth(healthyH200());
        QCOMPARE(h.verdict, HealthLevel::Pass);
        QVERIFY(h.findings.isEmpty());
        QCOMPARE(h.summary(), QStringLiteral("healthy"));
        QCOMPARE(h.toJson().value(QStringLiteral("verdict")).toString(), QStringLiteral("pass"));
    }

    void failures_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("check");
        QTest::newRow("Xid 79") << "xid79"
                                << "xid";
        QTest::newRow("Xid 48") << "xid48"
                                << "xid";
        QTest::newRow("volatile uncorrected ECC") << "ecc"
                                                  << "ecc";
        QTest::newRow("pages pending retirement") << "retired"
                                                  << "retired_pages";
        QTest::newRow("rows pending remapping") << "remapPending"
                                                << "remapped_rows";
        QTest::newRow("row remapping failure") << "remapFailure"
                                               << "remapped_rows";
    }
    void failures()
    {
        QFETCH(QString, what);
        QFETCH(QString, check);
        GpuHealthInput in = healthyH200();
        if (what == u"xid79")
            in.xids = { { 79, QStringLiteral("[ 4410.118272]"), QStringLiteral("GPU has fallen off the bus.") } };
        else if (what == u"xid48")
            in.xids = { { 48, {}, {} } };
        else if (what == u"ecc")
            in.sample.setValue(GpuField::EccUncorrected, 2);
        else if (what == u"retired")
            in.sample.setText(GpuField::RetiredPending, QStringLiteral("Yes"));
        else if (what == u"remapPending")
            in.sample.setText(GpuField::RemapPending, QStringLiteral("Yes"));
        else if (what == u"remapFailure")
            in.sample.setText(GpuField::RemapFailure, QStringLiteral("Yes"));
        const GpuHealth h = judgeGpuHealth(in);
        QCOMPARE(h.verdict, HealthLevel::Fail);
        QCOMPARE(checks(h, HealthLevel::Fail), QStringList { check });
        QVERIFY(h.summary().startsWith(QStringLiteral("unhealthy: ")));
    }

    void xidWordsAndWhen()
    {
        GpuHealthInput in = healthyH200();
        in.xids = { { 79, QStringLiteral("[ 4410.118272]"), QStringLiteral("GPU has fallen off the bus.") } };
        QCOMPARE(judgeGpuHealth(in).findings.first().message,
            QStringLiteral("Xid 79 (GPU has fallen off the bus) at [ 4410.118272] since boot"));
    }

    void warnings_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("check");
        QTest::newRow("Xid 94") << "xid94"
                                << "xid";
        QTest::newRow("aggregate uncorrected ECC") << "eccAll"
                                                   << "ecc";
        QTest::newRow("ECC off") << "eccOff"
                                 << "ecc";
        QTest::newRow("retired pages") << "retiredPages"
                                       << "retired_pages";
        QTest::newRow("rows remapped for uncorrectable errors") << "remapBad"
                                                                << "remapped_rows";
        QTest::newRow("x8 of x16") << "width"
                                   << "pcie_link";
        QTest::newRow("Gen 3 of 5 under load") << "genBusy"
                                               << "pcie_link";
        QTest::newRow("PCIe replays") << "replays"
                                      << "pcie_replay";
        QTest::newRow("replay rollovers") << "rollovers"
                                          << "pcie_replay";
        QTest::newRow("NVLink errors") << "nvlink"
                                       << "nvlink";
        QTest::newRow("HW thermal slowdown") << "hwThermal"
                                             << "clock_events";
        QTest::newRow("HW power brake") << "powerBrake"
                                        << "clock_events";
    }
    void warnings()
    {
        QFETCH(QString, what);
        QFETCH(QString, check);
        GpuHealthInput in = healthyH200();
        GpuSample& s = in.sample;
        if (what == u"xid94")
            in.xids = { { 94, {}, {} } };
        else if (what == u"eccAll")
            s.setValue(GpuField::EccUncorrectedAll, 3);
        else if (what == u"eccOff")
            s.setText(GpuField::EccMode, QStringLiteral("Disabled"));
        else if (what == u"retiredPages")
            s.setValue(GpuField::RetiredDbe, 2);
        else if (what == u"remapBad")
            s.setValue(GpuField::RemapUncorrectable, 1);
        else if (what == u"width")
            s.setValue(GpuField::PcieWidth, 8);
        else if (what == u"genBusy") {
            s.setValue(GpuField::PcieGen, 3);
            s.setValue(GpuField::UtilGpu, 97);
        } else if (what == u"replays")
            in.pcieReplays = 12;
        else if (what == u"rollovers")
            in.pcieReplayRollovers = 1;
        else if (what == u"nvlink") {
            in.nvlinkErrors = 13;
            in.nvlinkDetail = { QStringLiteral("link 3: 12 CRC Errors") };
        } else if (what == u"hwThermal")
            s.setValue(GpuField::EventHwThermalUs, 4.2e6);
        else if (what == u"powerBrake")
            s.setValue(GpuField::EventHwPowerBrakeUs, 1);
        const GpuHealth h = judgeGpuHealth(in);
        QCOMPARE(h.verdict, HealthLevel::Warn);
        QCOMPARE(checks(h, HealthLevel::Warn), QStringList { check });
        QVERIFY(h.summary().startsWith(QStringLiteral("1 warning(s): ")));
    }

    void notesDoNotCount()
    {
        GpuHealthInput in = healthyH200();
        in.xids = { { 13, {}, {} }, { 31, {}, {} } }; // the application's
        in.sample.setValue(GpuField::PcieGen, 1);     // idle power saving
        in.sample.setValue(GpuField::UtilGpu, 0);
        in.sample.setValue(GpuField::EventSwPowerUs, 22189097); // power capping under load
        in.sample.setValue(GpuField::RemapCorrectable, 5);
        in.sample.setValue(GpuField::EccCorrected, 7);
        const GpuHealth h = judgeGpuHealth(in);
        QCOMPARE(h.verdict, HealthLevel::Pass);
        QCOMPARE(
            checks(h, HealthLevel::Pass), (QStringList { "xid", "ecc", "remapped_rows", "pcie_link", "clock_events" }));
        QCOMPARE(h.summary(), QStringLiteral("healthy"));
    }

    void unknownIsSaidNotJudged()
    {
        GpuHealthInput in;
        in.sample.index = 2;
        in.xidUnknownWhy = QStringLiteral("neither dmesg nor journalctl -k could be read");
        const GpuHealth h = judgeGpuHealth(in);
        QCOMPARE(h.verdict, HealthLevel::Pass);
        QCOMPARE(h.findings.size(), 1);
        QCOMPARE(h.findings.first().message,
            QStringLiteral("Xid events not read: neither dmesg nor journalctl -k could be read"));
        // An Xid list that was not read is never judged, whatever it holds.
        in.xids = { { 79, {}, {} } };
        QCOMPARE(judgeGpuHealth(in).verdict, HealthLevel::Pass);
    }

    void worstFirst()
    {
        GpuHealthInput in = healthyH200();
        in.pcieReplays = 4;
        in.sample.setValue(GpuField::EccUncorrected, 1);
        in.sample.setValue(GpuField::RemapCorrectable, 1);
        const GpuHealth h = judgeGpuHealth(in);
        QCOMPARE(h.findings.size(), 3);
        QCOMPARE(h.findings[0].level, HealthLevel::Fail);
        QCOMPARE(h.findings[1].level, HealthLevel::Warn);
        QCOMPARE(h.findings[2].level, HealthLevel::Pass);
        QCOMPARE(worstHealth({ judgeGpuHealth(healthyH200()), h }), HealthLevel::Fail);
        QCOMPARE(h.toJson().value(QStringLiteral("findings")).toArray().size(), 3);
    }
};

QTEST_GUILESS_MAIN(TestGpuHealth)
#include "tst_gpuhealth.moc"
