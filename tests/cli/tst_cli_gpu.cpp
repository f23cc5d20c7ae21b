// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

namespace {
QStringList demoPath(const QStringList& more = {})
{
    return QStringList { QStringLiteral("PATH=" KF_SOURCE_DIR "/resources/demo/bin:") + qEnvironmentVariable("PATH") }
    + more;
}
} // namespace

class TestCliGpu : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void watchJsonLines()
    {
        const auto r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("watch"), QStringLiteral("--local"),
                                            QStringLiteral("--json"), QStringLiteral("--count"), QStringLiteral("2") },
            60000, demoPath({ QStringLiteral("KF_DEMO_GPUS=8") }));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        for (const QByteArray& line : lines) {
            QJsonParseError error;
            const QJsonObject o = QJsonDocument::fromJson(line, &error).object();
            QCOMPARE(error.error, QJsonParseError::NoError);
            QCOMPARE(o.value(QStringLiteral("host")).toString(), QStringLiteral("local"));
            QVERIFY(!o.value(QStringLiteral("time")).toString().isEmpty());
            const QJsonArray gpus = o.value(QStringLiteral("gpus")).toArray();
            QCOMPARE(gpus.size(), 8);
            const QJsonObject g = gpus.at(7).toObject();
            QCOMPARE(g.value(QStringLiteral("index")).toInt(), 7);
            QCOMPARE(g.value(QStringLiteral("name")).toString(), QStringLiteral("NVIDIA H200"));
            QCOMPARE(g.value(QStringLiteral("mem_total_mib")).toDouble(), 143771.0);
            for (const char* key : { "uuid", "util", "mem_used_mib", "temp_c", "power_w", "power_limit_w",
                     "sm_clock_mhz", "pstate", "reasons" })
                QVERIFY2(g.contains(QLatin1String(key)), key);
            QVERIFY(g.value(QStringLiteral("reasons")).isArray());
        }
    }

    void watchOverTheDemoSshd()
    {
        KF_START_DEMO_HOST(demo);
        const auto r = kf::test::runCli(QStringList { QStringLiteral("gpu"), QStringLiteral("watch") }
                + kf::test::cliSshTarget(demo)
                + QStringList { QStringLiteral("--json"), QStringLiteral("--count"), QStringLiteral("2") },
            90000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 2);
        const QJsonObject o = QJsonDocument::fromJson(lines.last()).object();
        QCOMPARE(o.value(QStringLiteral("host")).toString(), QStringLiteral("127.0.0.1"));
        QCOMPARE(o.value(QStringLiteral("gpus")).toArray().size(), 8);
    }

    void watchStreamsGpmAndSaysWhyNot()
    {
        // The demo's dmon has GPM: a few seconds in, the GPUs carry it and gpm says what streams.
        auto r = kf::test::runCli(
            { QStringLiteral("gpu"), QStringLiteral("watch"), QStringLiteral("--local"), QStringLiteral("--json"),
                QStringLiteral("--count"), QStringLiteral("60"), QStringLiteral("--interval"), QStringLiteral("500") },
            120000, demoPath({ QStringLiteral("KF_DEMO_GPUS=2") }));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.size(), 60);
        const QJsonObject last = QJsonDocument::fromJson(lines.last()).object();
        QCOMPARE(last.value(QStringLiteral("gpm")).toObject().value(QStringLiteral("state")).toString(),
            QStringLiteral("streaming"));
        const QJsonObject g = last.value(QStringLiteral("gpus")).toArray().at(1).toObject();
        for (const char* key : { "sm_active", "sm_occupancy", "tensor_active", "dram_active", "pcie_tx_mib_s",
                 "pcie_rx_mib_s", "nvlink_tx_mib_s", "nvlink_rx_mib_s" })
            QVERIFY2(g.value(QLatin1String(key)).isDouble(), key);
        QVERIFY(g.value(QStringLiteral("sm_active")).toDouble() <= 100);

        // An A100 host: no GPM, and why; the keys are there, null.
        r = kf::test::runCli(
            { QStringLiteral("gpu"), QStringLiteral("watch"), QStringLiteral("--local"), QStringLiteral("--json"),
                QStringLiteral("--count"), QStringLiteral("40"), QStringLiteral("--interval"), QStringLiteral("500") },
            120000,
            demoPath(
                { QStringLiteral("KF_DEMO_GPUS=1"), QStringLiteral("KF_DEMO_GPU_MODELS=NVIDIA A100-SXM4-80GB=8.0") }));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        lines = r.out.trimmed().split('\n');
        const QJsonObject none = QJsonDocument::fromJson(lines.last()).object();
        const QJsonObject gpm = none.value(QStringLiteral("gpm")).toObject();
        QCOMPARE(gpm.value(QStringLiteral("state")).toString(), QStringLiteral("unavailable"));
        QVERIFY2(gpm.value(QStringLiteral("text"))
                     .toString()
                     .contains(QStringLiteral("compute capability 8.0, predates Hopper")),
            qPrintable(gpm.value(QStringLiteral("text")).toString()));
        QVERIFY(
            none.value(QStringLiteral("gpus")).toArray().at(0).toObject().value(QStringLiteral("sm_active")).isNull());

        // The table gets a GPM part once values come.
        r = kf::test::runCli(
            { QStringLiteral("gpu"), QStringLiteral("watch"), QStringLiteral("--local"), QStringLiteral("--count"),
                QStringLiteral("40"), QStringLiteral("--interval"), QStringLiteral("500") },
            120000, demoPath({ QStringLiteral("KF_DEMO_GPUS=1") }));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("GPM  SM ACTIVE (%)  SM OCCUPANCY (%)  TENSOR ACTIVE (%)  DRAM ACTIVE (%)"),
            r.out.right(2000).constData());
    }

    void healthVerdictsAndExitStatus()
    {
        auto r = kf::test::runCli(
            { QStringLiteral("gpu"), QStringLiteral("health"), QStringLiteral("--local"), QStringLiteral("--json") },
            120000, demoPath({ QStringLiteral("KF_DEMO_GPUS=2"), QStringLiteral("KF_DEMO_HOT_GPU=1") }));
        QCOMPARE(r.exitCode, 1); // a GPU fails
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("verdict")).toString(), QStringLiteral("fail"));
        QCOMPARE(o.value(QStringLiteral("host")).toString(), QStringLiteral("local"));
        QCOMPARE(o.value(QStringLiteral("xid_source")).toString(), QStringLiteral("dmesg"));
        const QJsonArray gpus = o.value(QStringLiteral("gpus")).toArray();
        QCOMPARE(gpus.size(), 2);
        QCOMPARE(gpus.at(0).toObject().value(QStringLiteral("verdict")).toString(), QStringLiteral("pass"));
        const QJsonObject hot = gpus.at(1).toObject();
        QCOMPARE(hot.value(QStringLiteral("verdict")).toString(), QStringLiteral("fail"));
        QStringList checks;
        for (const auto& f : hot.value(QStringLiteral("findings")).toArray())
            if (f.toObject().value(QStringLiteral("level")).toString() == QLatin1String("fail"))
                checks << f.toObject().value(QStringLiteral("check")).toString();
        QCOMPARE(checks, (QStringList { "xid", "ecc", "remapped_rows" }));

        r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("health"), QStringLiteral("--local") }, 120000,
            demoPath({ QStringLiteral("KF_DEMO_GPUS=2") }));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.startsWith("GPU  NAME         VERDICT  FINDINGS\n0    NVIDIA H200  pass"), r.out.constData());
        QVERIFY(r.out.contains("local: 2 GPU(s): 2 healthy\n"));
        // Usage errors exit 2 before anything runs.
        QCOMPARE(
            kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("health"), QStringLiteral("--bogus") }).exitCode,
            2);
    }

    void watchFailsOnNvmlMismatch()
    {
        const auto r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("watch"), QStringLiteral("--local"),
                                            QStringLiteral("--count"), QStringLiteral("1") },
            60000, demoPath({ QStringLiteral("KF_DEMO_NVML_FAIL=1") }));
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("Driver/library version mismatch"));
    }

    void parseSavedFiles_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<int>("gpus");
        QTest::addColumn<double>("power0");
        QTest::newRow("units with header")
            << QStringLiteral("nvidia-smi/h200-driver580/query_csv_units.txt") << 1 << 79.19;
        QTest::newRow("noheader nounits")
            << QStringLiteral("nvidia-smi/h200-driver580/query_csv_nounits.txt") << 1 << 79.19;
        QTest::newRow("stream with timestamps")
            << QStringLiteral("nvidia-smi/h200-driver580/stream_lms500.txt") << 69 << 79.15;
        QTest::newRow("8 GPUs, MIG and N/A")
            << QStringLiteral("nvidia-smi/synthetic/eight_gpus_units.csv") << 8 << 600.5;
        // Every one of the 198 fields driver 580's --help-query-gpu lists, our own H200 capture.
        QTest::newRow("all fields, H200 idle")
            << QStringLiteral("nvidia-smi/h200-driver580/query_gpu_all_fields_idle.csv") << 1 << 80.97;
        QTest::newRow("all fields, H200 under load")
            << QStringLiteral("nvidia-smi/h200-driver580/query_gpu_all_fields_load.csv") << 1 << 683.47;
        // 212 columns (every field of --help-query-gpu, driver 590, H100 in MIG mode).
        QTest::newRow("all fields from an exporter")
            << QStringLiteral("nvidia-smi/h100-mig-driver590/query_gpu_all_fields.csv") << 1 << 71.15;
    }
    void parseSavedFiles()
    {
        QFETCH(QString, file);
        QFETCH(int, gpus);
        QFETCH(double, power0);
        const auto r = kf::test::runCli(
            { QStringLiteral("gpu"), QStringLiteral("parse"), kf::test::dataPath(file), QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        const QJsonArray arr = o.value(QStringLiteral("gpus")).toArray();
        QCOMPARE(arr.size(), gpus);
        QCOMPARE(arr.at(0).toObject().value(QStringLiteral("power_w")).toDouble(), power0);
        QCOMPARE(o.value(QStringLiteral("bad_lines")).toInt(), 0);
    }

    void noValueIsNullAndADash()
    {
        // [N/A], [Not Supported], [Unknown Error], [Insufficient Permissions] and a column the
        // query lacks are no value: null in JSON (never "" or []), a bare "-" in the table.
        auto r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("parse"),
            kf::test::dataPath(QStringLiteral("nvidia-smi/synthetic/vgpu_guest_crlf.csv")), QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QJsonObject g
            = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("gpus")).toArray().at(1).toObject();
        for (const char* key : { "util", "temp_c", "power_w", "sm_clock_mhz", "reasons" })
            QVERIFY2(g.value(QLatin1String(key)).isNull(), key);
        QCOMPARE(g.value(QStringLiteral("pstate")).toString(), QStringLiteral("P0"));
        r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("parse"),
            kf::test::dataPath(QStringLiteral("nvidia-smi/synthetic/vgpu_guest_crlf.csv")) });
        QCOMPARE(r.exitCode, 0);
        const QList<QByteArray> rows = r.out.trimmed().split('\n');
        QCOMPARE(rows.size(), 3);
        QCOMPARE(rows[2].simplified(), QByteArray("1 GRID A100-4C - 512/4096 - -/- - P0 -"));

        // No name, uuid or pstate column at all (a public-issue capture).
        const QString gtx = kf::test::dataPath(QStringLiteral("nvidia-smi/public-issues/gtx_na_noheader_nounits.csv"));
        const QString fields = QStringLiteral(
            "memory.total,memory.free,memory.used,temperature.gpu,fan.speed,utilization.gpu,utilization.memory");
        r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("parse"), gtx, QStringLiteral("--json"),
            QStringLiteral("--fields"), fields });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        g = QJsonDocument::fromJson(r.out).object().value(QStringLiteral("gpus")).toArray().at(0).toObject();
        for (const char* key : { "index", "uuid", "name", "pstate", "reasons", "power_w" })
            QVERIFY2(g.value(QLatin1String(key)).isNull(), key);
        QCOMPARE(g.value(QStringLiteral("mem_total_mib")).toDouble(), 2004.0);
        r = kf::test::runCli(
            { QStringLiteral("gpu"), QStringLiteral("parse"), gtx, QStringLiteral("--fields"), fields });
        QCOMPARE(r.exitCode, 0);
        QCOMPARE(r.out.trimmed().split('\n').value(1).simplified(), QByteArray("- - 0% 0/2004 44C -/- - - -"));
    }

    // Skipped lines go to stderr with their line numbers and reasons; stdout stays the table
    // (or the JSON, which lists them too). --fields names every column, or "-" for one to ignore.
    void skippedLinesAndUnknownFields()
    {
        QTemporaryDir dir;
        const QString file = dir.filePath(QStringLiteral("cut.csv"));
        QVERIFY(kf::test::writeFile(file,
            "index, name, power.draw [W]\n"
            "0, NVIDIA H200, 120.5 W\n"
            "1, NVIDIA H200\n"
            "\n"
            "x, NVIDIA H200, 99 W\n"
            "2, NVIDIA H200, 130 W\n"));
        auto r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("parse"), file });
        QCOMPARE(r.exitCode, 0);
        QVERIFY2(!r.out.contains("skipped"), r.out.constData());
        QVERIFY2(r.err.contains("gpu parse: 2 lines skipped\n"
                                "  line 3: 2 columns, the layout has 3\n"
                                "  line 5: the GPU index is not a whole number from 0 to 4096\n"),
            r.err.constData());
        r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("parse"), file, QStringLiteral("--json") });
        QCOMPARE(r.exitCode, 0);
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("bad_lines")).toInt(), 2);
        QCOMPARE(o.value(QStringLiteral("skipped")).toArray().at(0).toString(),
            QStringLiteral("line 3: 2 columns, the layout has 3"));

        const QString bare = dir.filePath(QStringLiteral("bare.csv"));
        QVERIFY(kf::test::writeFile(bare, "0, 17, 120.5\n"));
        r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("parse"), bare, QStringLiteral("--fields"),
            QStringLiteral("index,powr.draw,power.draw") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("unknown field 'powr.draw' in --fields"), r.err.constData());
        r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("parse"), bare, QStringLiteral("--json"),
            QStringLiteral("--fields"), QStringLiteral("index,-,power.draw") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QJsonDocument::fromJson(r.out)
                     .object()
                     .value(QStringLiteral("gpus"))
                     .toArray()
                     .at(0)
                     .toObject()
                     .value(QStringLiteral("power_w"))
                     .toDouble(),
            120.5);
        r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("parse") });
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("which FILE?"), r.err.constData());
    }

    void parseTableAndErrors()
    {
        auto r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("parse"),
            kf::test::dataPath(QStringLiteral("nvidia-smi/synthetic/eight_gpus_units.csv")) });
        QCOMPARE(r.exitCode, 0);
        // Reasons in words in the table (nvidia-smi's names stay in --json).
        QVERIFY2(r.out.contains("HW slowdown, HW thermal slowdown"), r.out.constData());
        QVERIFY(!r.out.contains("hw_slowdown"));
        r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("parse"),
            kf::test::dataPath(QStringLiteral("nvidia-smi/synthetic/nvml_mismatch.txt")) });
        QCOMPARE(r.exitCode, 1);
        QVERIFY(r.err.contains("Driver/library version mismatch"));
        // An unreachable host is a connection failure: 255, like ssh.
        r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("watch"), QStringLiteral("-p"),
            QStringLiteral("1"), QStringLiteral("alice@127.0.0.1") });
        QCOMPARE(r.exitCode, 255);
        r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("watch") });
        QCOMPARE(r.exitCode, 2);
        r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("frobnicate") });
        QCOMPARE(r.exitCode, 2);
    }
};

QTEST_GUILESS_MAIN(TestCliGpu)
#include "tst_cli_gpu.moc"
