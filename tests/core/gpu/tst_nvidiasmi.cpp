// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// nvidia-smi CSV parsers against real H200 captures (driver 580) and synthetic multi-GPU rows.
#include "core/gpu/nvidiasmi.h"
#include "tests/support/testsupport.h"

#include <QtTest>

using namespace kf;

namespace {
// The field list F of tests/data/nvidia-smi/h200-driver580/README.md, in order.
QList<GpuField> captureFields()
{
    QList<GpuField> f;
    for (const char* n : { "index", "uuid", "name", "pci.bus_id", "driver_version", "pstate", "temperature.gpu",
             "temperature.memory", "utilization.gpu", "utilization.memory", "memory.total", "memory.used",
             "memory.free", "power.draw", "power.limit", "clocks.sm", "clocks.mem", "clocks.max.sm", "fan.speed",
             "ecc.errors.uncorrected.volatile.total", "clocks_throttle_reasons.active", "compute_mode",
             "mig.mode.current" })
        f.append(gpuFieldFromName(QByteArrayView(n)));
    return f;
}
} // namespace

class TestNvidiaSmi : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void fieldNames_data()
    {
        QTest::addColumn<QByteArray>("name");
        QTest::addColumn<int>("field");
        QTest::newRow("plain") << QByteArray("utilization.gpu") << int(GpuField::UtilGpu);
        QTest::newRow("with unit") << QByteArray("utilization.gpu [%]") << int(GpuField::UtilGpu);
        QTest::newRow("renamed reasons") << QByteArray("clocks_event_reasons.active") << int(GpuField::EventReasons);
        QTest::newRow("old reasons") << QByteArray("clocks_throttle_reasons.active") << int(GpuField::EventReasons);
        QTest::newRow("renamed sm clock") << QByteArray(" clocks.current.sm [MHz]") << int(GpuField::ClockSm);
        QTest::newRow("alias uuid") << QByteArray("gpu_uuid") << int(GpuField::Uuid);
        QTest::newRow("unknown") << QByteArray("0") << int(GpuField::Unknown);
        QTest::newRow("value not name") << QByteArray("NVIDIA H200") << int(GpuField::Unknown);
    }
    void fieldNames()
    {
        QFETCH(QByteArray, name);
        QFETCH(int, field);
        QCOMPARE(int(gpuFieldFromName(name)), field);
    }

    void realCaptures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<bool>("header");
        QTest::newRow("units with renamed header") << QStringLiteral("query_csv_units.txt") << true;
        QTest::newRow("noheader nounits") << QStringLiteral("query_csv_nounits.txt") << false;
    }
    void realCaptures()
    {
        QFETCH(QString, file);
        QFETCH(bool, header);
        const auto r
            = parseGpuCsv(test::readData(QStringLiteral("nvidia-smi/h200-driver580/") + file), captureFields());
        QCOMPARE(r.sawHeader, header);
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.samples.size(), 1);
        const GpuSample& s = r.samples.first();
        QCOMPARE(s.index, 0);
        QCOMPARE(s.text(GpuField::Uuid), QStringLiteral("GPU-3b439167-c6d1-b01d-3fb1-c3ce7921e9cc"));
        QCOMPARE(s.text(GpuField::Name), QStringLiteral("NVIDIA H200"));
        QCOMPARE(s.text(GpuField::BusId), QStringLiteral("00000000:00:06.0"));
        QCOMPARE(s.text(GpuField::DriverVersion), QStringLiteral("580.159.04"));
        QCOMPARE(s.text(GpuField::Pstate), QStringLiteral("P0"));
        QCOMPARE(s.value(GpuField::TempGpu), 37.0);
        QCOMPARE(s.value(GpuField::TempMemory), 41.0);
        QCOMPARE(s.value(GpuField::UtilGpu), 0.0);
        QCOMPARE(s.value(GpuField::MemTotal), 143771.0);
        QCOMPARE(s.value(GpuField::MemUsed), 0.0);
        QCOMPARE(s.value(GpuField::MemFree), 143156.0);
        QCOMPARE(s.value(GpuField::PowerDraw), 79.19);
        QCOMPARE(s.value(GpuField::PowerLimit), 700.0);
        QCOMPARE(s.value(GpuField::ClockSm), 345.0);
        QCOMPARE(s.value(GpuField::ClockMem), 3201.0);
        QCOMPARE(s.value(GpuField::ClockMaxSm), 1980.0);
        QVERIFY(!hasValue(s.value(GpuField::FanSpeed))); // [N/A] on the passively cooled board
        QCOMPARE(s.value(GpuField::EccUncorrected), 0.0);
        QVERIFY(s.hasReasons);
        QCOMPARE(s.reasons, quint64(0x1));
        QCOMPARE(reasonWords(s.reasons), QStringList { QStringLiteral("gpu_idle") });
        QCOMPARE(s.text(GpuField::ComputeMode), QStringLiteral("Default"));
        QCOMPARE(s.text(GpuField::MigMode), QStringLiteral("Disabled"));
        if (header) {
            QCOMPARE(r.columns.value(15), GpuField::ClockSm);
            QCOMPARE(r.columns.value(20), GpuField::EventReasons);
        }
    }

    void headerWinsOverRequestedOrder()
    {
        // Asked in one order, the header says another: trust the header.
        const QByteArray data = "utilization.gpu [%], index\n55 %, 3\n";
        const auto r = parseGpuCsv(data, { GpuField::Index, GpuField::UtilGpu });
        QCOMPARE(r.samples.size(), 1);
        QCOMPARE(r.samples[0].index, 3);
        QCOMPARE(r.samples[0].value(GpuField::UtilGpu), 55.0);
    }

    void loadStreamWithTimestamps()
    {
        QList<GpuField> fields = captureFields();
        fields.prepend(GpuField::Timestamp);
        const auto r
            = parseGpuCsv(test::readData(QStringLiteral("nvidia-smi/h200-driver580/stream_lms500.txt")), fields);
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.samples.size(), 69);
        // 2026/11/29 15:24:25.581
        QCOMPARE(r.samples.first().timeMs,
            QDateTime(QDate(2026, 11, 29), QTime(15, 24, 25, 581), Qt::UTC).toMSecsSinceEpoch());
        double maxPower = 0, maxUtil = 0, maxMem = 0;
        bool sawPowerCap = false;
        qint64 previous = 0;
        for (const auto& s : r.samples) {
            maxPower = qMax(maxPower, s.value(GpuField::PowerDraw));
            maxUtil = qMax(maxUtil, s.value(GpuField::UtilGpu));
            maxMem = qMax(maxMem, s.value(GpuField::MemUsed));
            sawPowerCap |= (s.reasons & kReasonSwPowerCap) != 0;
            QVERIFY(s.timeMs > previous);
            previous = s.timeMs;
        }
        QVERIFY(maxPower > 680 && maxPower < 700);
        QCOMPARE(maxUtil, 100.0);
        QVERIFY(maxMem > 58000);
        QVERIFY(sawPowerCap);
    }

    void eightGpusMigAndNotSupported()
    {
        const auto r = parseGpuCsv(test::readData(QStringLiteral("nvidia-smi/synthetic/eight_gpus_units.csv")));
        QVERIFY(r.sawHeader);
        QCOMPARE(r.samples.size(), 8);
        for (int i = 0; i < 8; ++i)
            QCOMPARE(r.samples[i].index, i);
        QVERIFY(!hasValue(r.samples[3].value(GpuField::UtilGpu)));
        QVERIFY(!hasValue(r.samples[3].value(GpuField::UtilMemory)));
        QCOMPARE(r.samples[3].text(GpuField::MigMode), QStringLiteral("Enabled"));
        QVERIFY(!hasValue(r.samples[6].value(GpuField::PowerDraw)));
        QCOMPARE(r.samples[6].value(GpuField::PowerLimit), 700.0);
        QCOMPARE(r.samples[5].value(GpuField::EccUncorrected), 2.0);
        QCOMPARE(r.samples[7].value(GpuField::MemUsed), 65000.0);
        QCOMPARE(reasonWords(r.samples[7].reasons),
            (QStringList { QStringLiteral("hw_slowdown"), QStringLiteral("hw_thermal_slowdown") }));
        QCOMPARE(r.samples[0].value(GpuField::PowerDraw), 600.5);
    }

    void garbageAndTruncatedLines()
    {
        const QList<GpuField> fields { GpuField::Index, GpuField::Uuid, GpuField::Name, GpuField::UtilGpu,
            GpuField::MemUsed, GpuField::MemTotal };
        const auto r = parseGpuCsv(test::readData(QStringLiteral("nvidia-smi/synthetic/garbage_noheader.csv")), fields);
        QCOMPARE(r.samples.size(), 3);
        QCOMPARE(r.badLines, 5);
        QCOMPARE(r.samples[2].value(GpuField::UtilGpu), 21.0);
        QCOMPARE(r.samples[2].text(GpuField::Uuid), QStringLiteral("GPU-b"));
        QVERIFY(r.fatal.isEmpty());
    }

    void sentinels_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<bool>("present");
        QTest::newRow("[N/A]") << QByteArray("[N/A]") << false;
        QTest::newRow("[Not Supported]") << QByteArray("[Not Supported]") << false;
        QTest::newRow("[Unknown Error]") << QByteArray("[Unknown Error]") << false;
        QTest::newRow("[GPU requires reset]") << QByteArray("[GPU requires reset]") << false;
        QTest::newRow("N/A") << QByteArray("N/A") << false;
        QTest::newRow("dash") << QByteArray("-") << false;
        QTest::newRow("empty") << QByteArray("") << false;
        QTest::newRow("word") << QByteArray("abc") << false;
        QTest::newRow("zero") << QByteArray("0") << true;
        QTest::newRow("unit") << QByteArray("12.5 W") << true;
        // from_chars reads these: a tool that prints them has no value to give (no inf W, no alert).
        QTest::newRow("inf") << QByteArray("inf") << false;
        QTest::newRow("+infinity") << QByteArray("+infinity W") << false;
        QTest::newRow("-inf") << QByteArray("-inf") << false;
        QTest::newRow("nan") << QByteArray("nan") << false;
        QTest::newRow("huge") << QByteArray("1e999") << false;
    }
    void sentinels()
    {
        QFETCH(QByteArray, value);
        QFETCH(bool, present);
        const auto r
            = parseGpuCsv(QByteArray(QByteArray("0, ") + value + "\n"), { GpuField::Index, GpuField::PowerDraw });
        QCOMPARE(r.samples.size(), 1);
        QCOMPARE(hasValue(r.samples[0].value(GpuField::PowerDraw)), present);
    }

    void gpusAppearAndDisappear()
    {
        // A GPU falls off the bus between two blocks; another appears later.
        const QByteArray data = "0, GPU-a, 10\n1, GPU-b, 20\n0, GPU-a, 11\n0, GPU-a, 12\n1, GPU-b, 22\n2, GPU-c, 5\n";
        const auto r = parseGpuCsv(data, { GpuField::Index, GpuField::Uuid, GpuField::UtilGpu });
        QCOMPARE(r.samples.size(), 6);
        QCOMPARE(r.samples[5].index, 2);
        QCOMPARE(r.samples[5].text(GpuField::Uuid), QStringLiteral("GPU-c"));
    }

    void nvmlMismatchIsFatal()
    {
        const auto r
            = parseGpuCsv(test::readData(QStringLiteral("nvidia-smi/synthetic/nvml_mismatch.txt")), defaultGpuFields());
        QVERIFY(r.samples.isEmpty());
        QCOMPARE(r.fatal, QStringLiteral("Failed to initialize NVML: Driver/library version mismatch"));
        QCOMPARE(r.messages.size(), 2);
    }

    void reasonWordsUnknownBits()
    {
        QCOMPARE(reasonWords(0), QStringList());
        QCOMPARE(reasonWords(0x84),
            (QStringList { QStringLiteral("sw_power_cap"), QStringLiteral("hw_power_brake_slowdown") }));
        QCOMPARE(reasonWords(0x1000), QStringList { QStringLiteral("0x1000") });
    }

    void probeFromHelpQueryGpu()
    {
        const auto help = test::readData(QStringLiteral("nvidia-smi/h200-driver580/help_query_gpu.txt"));
        QList<GpuField> wanted = defaultGpuFields();
        const auto probe = probeGpuFields(help, wanted);
        QVERIFY(probe.ok);
        QVERIFY2(probe.missing.isEmpty(), qPrintable(probe.missing.join(u',')));
        QCOMPARE(probe.fields, wanted);
        QVERIFY(probe.queryNames.contains(QStringLiteral("clocks_throttle_reasons.active")));
        // A driver that only knows the new name: we ask for that one.
        const auto newOnly = probeGpuFields(QByteArray("\"index\"\n\"clocks_event_reasons.active\"\n"),
            { GpuField::Index, GpuField::EventReasons, GpuField::FanSpeed });
        QCOMPARE(newOnly.queryNames,
            (QStringList { QStringLiteral("index"), QStringLiteral("clocks_event_reasons.active") }));
        QCOMPARE(newOnly.missing, QStringList { QStringLiteral("fan.speed") });
        QVERIFY(!probeGpuFields(QByteArray("Failed to initialize NVML: Driver/library version mismatch\n")).ok);
    }

    void computeApps_data()
    {
        QTest::addColumn<QByteArray>("data");
        QTest::addColumn<int>("count");
        QTest::addColumn<qint64>("pid");
        QTest::addColumn<QString>("name");
        QTest::addColumn<double>("mem");
        QTest::newRow("idle capture") << test::readData(QStringLiteral("nvidia-smi/h200-driver580/apps_idle.txt")) << 0
                                      << qint64(0) << QString() << 0.0;
        QTest::newRow("load capture") << test::readData(QStringLiteral("nvidia-smi/h200-driver580/apps_load.txt")) << 1
                                      << qint64(560) << QStringLiteral("python3") << 58352.0;
        QTest::newRow("load capture, 2026-12-02")
            << test::readData(QStringLiteral("nvidia-smi/h200-driver580/apps_load_2026-12-02.txt")) << 1 << qint64(492)
            << QStringLiteral("python3") << 1642.0;
        QTest::newRow("noheader nounits")
            << QByteArray("77, /usr/bin/python3 -m sglang.launch_server, 1200, GPU-x\n") << 1 << qint64(77)
            << QStringLiteral("/usr/bin/python3 -m sglang.launch_server") << 1200.0;
        QTest::newRow("comma in name") << QByteArray("9, a, b, 5 MiB, GPU-x\n") << 1 << qint64(9)
                                       << QStringLiteral("a, b") << 5.0;
        QTest::newRow("no processes line")
            << QByteArray("No running processes found\n") << 0 << qint64(0) << QString() << 0.0;
        QTest::newRow("memory N/A") << QByteArray("12, python, [N/A], GPU-x\n") << 1 << qint64(12)
                                    << QStringLiteral("python") << -1.0;
    }
    void computeApps()
    {
        QFETCH(QByteArray, data);
        QFETCH(int, count);
        QFETCH(qint64, pid);
        QFETCH(QString, name);
        QFETCH(double, mem);
        const auto r = parseComputeApps(data);
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.processes.size(), count);
        if (count) {
            QCOMPARE(r.processes[0].pid, pid);
            QCOMPARE(r.processes[0].name, name);
            if (mem < 0)
                QVERIFY(!hasValue(r.processes[0].usedMemoryMiB));
            else
                QCOMPARE(r.processes[0].usedMemoryMiB, mem);
        }
    }

    void computeAppsHeaderWithFewerColumns()
    {
        // A header naming fewer columns than the default layout (pid,name,memory,uuid) used to
        // leave the default indexes in place: reads past the row (ASan SEGV, release crash).
        const auto r = parseComputeApps(QByteArray("pid,x\n1,a\n"));
        QCOMPARE(r.processes.size(), 1);
        QCOMPARE(r.processes[0].pid, qint64(1));
        QVERIFY(r.processes[0].name.isEmpty());
        QVERIFY(!hasValue(r.processes[0].usedMemoryMiB));
        QVERIFY(r.processes[0].gpuUuid.isEmpty());
        // Only a memory column: still no read outside the row, and the name stays empty.
        const auto m = parseComputeApps(QByteArray("used_gpu_memory [MiB], pid\n5 MiB, 7\n"));
        QCOMPARE(m.processes.size(), 1);
        QCOMPARE(m.processes[0].pid, qint64(7));
        QCOMPARE(m.processes[0].usedMemoryMiB, 5.0);
        // No pid column: nothing to report, every row is a bad line.
        const auto none = parseComputeApps(QByteArray("process_name, used_memory\npython, 3\n"));
        QVERIFY(none.processes.isEmpty());
        QCOMPARE(none.badLines, 1);
    }

    void computeAppsAnyHeader()
    {
        // Real capture (H100, MIG, driver 590): an exporter's field order, pid in column 6.
        const auto r
            = parseComputeApps(test::readData(QStringLiteral("nvidia-smi/h100-mig-driver590/compute_apps_load.csv")));
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.processes.size(), 3);
        QCOMPARE(r.processes[0].pid, qint64(21180));
        QCOMPARE(r.processes[0].name, QStringLiteral("/root/tools/memhog"));
        QCOMPARE(r.processes[0].usedMemoryMiB, 2296.0);
        QCOMPARE(r.processes[0].gpuUuid, QStringLiteral("GPU-00000000-0000-0000-0000-000000000000"));
        QCOMPARE(r.processes[2].name, QStringLiteral("./gpu_burn"));
        QCOMPARE(r.processes[2].usedMemoryMiB, 7484.0);
    }

    void everyFieldHeaderFromAnotherTool()
    {
        // 212 columns: every field --help-query-gpu lists (driver 590, H100 in MIG mode), as a
        // Prometheus exporter asks for them. Unknown fields are ignored, units stripped, the
        // MIG [N/A] and "[Requested functionality has been deprecated]" are no value.
        const QByteArray data
            = test::readData(QStringLiteral("nvidia-smi/h100-mig-driver590/query_gpu_all_fields.csv"));
        QCOMPARE(data.left(data.indexOf('\n')).count(',') + 1, 212);
        const auto r = parseGpuCsv(data);
        QVERIFY(r.sawHeader);
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.columns.size(), 212);
        QCOMPARE(r.samples.size(), 1);
        const GpuSample& s = r.samples.first();
        QCOMPARE(s.index, 0);
        QCOMPARE(s.text(GpuField::Name), QStringLiteral("NVIDIA H100 80GB HBM3"));
        QCOMPARE(s.text(GpuField::Uuid), QStringLiteral("GPU-00000000-0000-0000-0000-000000000000"));
        QCOMPARE(s.text(GpuField::BusId), QStringLiteral("00000000:00:09.0"));
        QCOMPARE(s.text(GpuField::DriverVersion), QStringLiteral("590.48.01"));
        QCOMPARE(s.text(GpuField::Pstate), QStringLiteral("P0"));
        QCOMPARE(s.text(GpuField::MigMode), QStringLiteral("Enabled"));
        QCOMPARE(s.text(GpuField::ComputeCap), QStringLiteral("9.0"));
        QVERIFY(!hasValue(s.value(GpuField::UtilGpu)));
        QVERIFY(!hasValue(s.value(GpuField::UtilMemory)));
        QVERIFY(!hasValue(s.value(GpuField::FanSpeed)));
        QCOMPARE(s.value(GpuField::MemTotal), 81559.0);
        QCOMPARE(s.value(GpuField::MemUsed), 59.0);
        QCOMPARE(s.value(GpuField::MemFree), 81022.0);
        QCOMPARE(s.value(GpuField::TempGpu), 42.0);
        QCOMPARE(s.value(GpuField::TempMemory), 48.0);
        QCOMPARE(s.value(GpuField::PowerDraw), 71.15);
        QCOMPARE(s.value(GpuField::PowerLimit), 700.0);
        QCOMPARE(s.value(GpuField::ClockSm), 345.0);
        QCOMPARE(s.value(GpuField::ClockMem), 2619.0);
        QCOMPARE(s.value(GpuField::ClockMaxSm), 1980.0);
        QCOMPARE(s.value(GpuField::EccUncorrected), 0.0);
        QVERIFY(s.hasReasons);
        QCOMPARE(s.reasons, kReasonIdle);
        QCOMPARE(s.text(GpuField::ComputeMode), QStringLiteral("Default"));
        QCOMPARE(s.timeMs, QDateTime(QDate(2026, 7, 14), QTime(9, 0, 27, 792), Qt::UTC).toMSecsSinceEpoch());
    }

    void headerWithUnknownFields()
    {
        // One known field is enough; the others (any name, with units) are ignored.
        const auto r = parseGpuCsv(QByteArray("index, power.min_limit [W], vbios_version, pcie.link.width.max\n"
                                              "0, 200.00 W, 96.00.A5.00.01, 16\n1, 200.00 W, 96.00.A5.00.01, 16\n"),
            defaultGpuFields());
        QVERIFY(r.sawHeader);
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.samples.size(), 2);
        QCOMPARE(r.samples[1].index, 1);
        QVERIFY(!hasValue(r.samples[1].value(GpuField::PowerDraw)));
    }

    void repeatedHeadersCrlfAndBom()
    {
        // Two saved real captures concatenated by another tool on Windows: BOM, CRLF, the
        // header twice.
        QByteArray one = test::readData(QStringLiteral("nvidia-smi/h200-driver580/query_csv_units.txt"));
        one.replace("\n", "\r\n");
        const QByteArray data = "\xEF\xBB\xBF" + one + one;
        const auto r = parseGpuCsv(data);
        QVERIFY(r.sawHeader);
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.samples.size(), 2);
        QCOMPARE(r.samples[1].value(GpuField::PowerDraw), 79.19);
        QCOMPARE(r.samples[1].text(GpuField::Name), QStringLiteral("NVIDIA H200"));
    }

    void vgpuGuestTokensAreNull()
    {
        const auto r = parseGpuCsv(test::readData(QStringLiteral("nvidia-smi/synthetic/vgpu_guest_crlf.csv")));
        QVERIFY(r.sawHeader);
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.samples.size(), 2);
        QCOMPARE(r.samples[0].text(GpuField::Name), QStringLiteral("GRID A100-4C"));
        QCOMPARE(r.samples[0].value(GpuField::UtilGpu), 37.0);
        QVERIFY(!hasValue(r.samples[0].value(GpuField::PowerDraw))); // [Insufficient Permissions]
        QVERIFY(!hasValue(r.samples[0].value(GpuField::TempGpu)));   // [Not Supported]
        QVERIFY(r.samples[0].text(GpuField::Pstate).isEmpty());      // [Unknown Error]
        QVERIFY(!hasValue(r.samples[1].value(GpuField::UtilGpu)));   // [Unknown Error]
        QCOMPARE(r.samples[1].text(GpuField::Pstate), QStringLiteral("P0"));
        QCOMPARE(r.samples[1].value(GpuField::MemTotal), 4096.0);
    }

    void publicIssueCaptures()
    {
        // noheader,nounits from other drivers: the caller names the fields (unknown ones too).
        QList<GpuField> rtx;
        for (const char* n : { "power.limit", "power.min_limit", "power.max_limit", "memory.total", "vbios_version",
                 "driver_version", "name", "gpu_uuid", "power.draw", "temperature.gpu", "temperature.memory",
                 "clocks.current.graphics", "clocks.sm", "clocks.mem", "utilization.gpu", "utilization.memory",
                 "fan.speed", "pcie.link.width.current", "pstate" })
            rtx.append(gpuFieldFromName(QByteArrayView(n)));
        const auto r = parseGpuCsv(
            test::readData(QStringLiteral("nvidia-smi/public-issues/rtx2080_driver440_noheader_nounits.csv")), rtx);
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.samples.size(), 1);
        QCOMPARE(r.samples[0].text(GpuField::Name), QStringLiteral("GeForce RTX 2080"));
        QCOMPARE(r.samples[0].value(GpuField::PowerDraw), 176.98);
        QCOMPARE(r.samples[0].value(GpuField::PowerLimit), 200.0);
        QVERIFY(!hasValue(r.samples[0].value(GpuField::TempMemory))); // bare N/A
        QCOMPARE(r.samples[0].value(GpuField::ClockSm), 1965.0);
        QCOMPARE(r.samples[0].text(GpuField::Pstate), QStringLiteral("P2"));
        const QList<GpuField> gtx { GpuField::MemTotal, GpuField::MemFree, GpuField::MemUsed, GpuField::TempGpu,
            GpuField::FanSpeed, GpuField::UtilGpu, GpuField::UtilMemory };
        for (const char* f : { "gtx_na_noheader_nounits.csv", "gtx_not_supported_noheader_nounits.csv" }) {
            const auto g
                = parseGpuCsv(test::readData(QStringLiteral("nvidia-smi/public-issues/") + QLatin1String(f)), gtx);
            QCOMPARE(g.samples.size(), 1);
            QCOMPARE(g.samples[0].value(GpuField::MemTotal), 2004.0);
            QCOMPARE(g.samples[0].value(GpuField::TempGpu), 44.0);
            QVERIFY(!hasValue(g.samples[0].value(GpuField::FanSpeed)));
        }
    }

    void joinByUuid()
    {
        const auto gpus
            = parseGpuCsv(test::readData(QStringLiteral("nvidia-smi/h200-driver580/query_csv_units.txt"))).samples;
        auto apps
            = parseComputeApps(test::readData(QStringLiteral("nvidia-smi/h200-driver580/apps_load.txt"))).processes;
        apps.append(GpuProcess { 1, QStringLiteral("other"), 1, QStringLiteral("GPU-elsewhere") });
        joinProcessesToGpus(apps, gpus);
        QCOMPARE(apps[0].gpuIndex, 0);
        QCOMPARE(apps[1].gpuIndex, -1);
    }
};

QTEST_GUILESS_MAIN(TestNvidiaSmi)
#include "tst_nvidiasmi.moc"
