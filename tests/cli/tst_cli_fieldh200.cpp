// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli gpu watch on the stream nvidia-smi wrote on a lent H200 (tests/data/field-h200),
// replayed by the demo's nvidia-smi (KF_DEMO_REPLAY): every value the CLI prints is the one
// nvidia-smi printed in that row.
#include "core/gpu/nvidiasmi.h"
#include "tests/support/testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

class TestCliFieldH200 : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void watchPrintsTheCapturedValues()
    {
        const int count = 8;
        const auto r = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("watch"), QStringLiteral("--local"),
                                            QStringLiteral("--json"), QStringLiteral("--count"), QString::number(count),
                                            QStringLiteral("--interval"), QStringLiteral("200") },
            60000,
            { QStringLiteral("PATH=" KF_SOURCE_DIR "/resources/demo/bin:") + qEnvironmentVariable("PATH"),
                QStringLiteral("KF_DEMO_REPLAY=") + kf::test::dataPath(QStringLiteral("field-h200")) });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> out = r.out.trimmed().split('\n');
        QCOMPARE(out.size(), count);
        const QStringList names
            = QString::fromUtf8(kf::test::readData(QStringLiteral("field-h200/stream_fields.txt")).trimmed())
                  .split(u',');
        const QList<QByteArray> rows
            = kf::test::readData(QStringLiteral("field-h200/stream.csv")).trimmed().split('\n');
        for (int i = 0; i < count; ++i) {
            // The replay sends one captured block (one GPU here) per sample, in order.
            const QStringList cols = QString::fromUtf8(rows[i]).split(QStringLiteral(", "));
            QCOMPARE(cols.size(), names.size());
            auto raw = [&](const char* name) { return cols[names.indexOf(QLatin1String(name))].trimmed(); };
            const QJsonArray gpus = QJsonDocument::fromJson(out[i]).object().value(QStringLiteral("gpus")).toArray();
            QCOMPARE(gpus.size(), 1);
            const QJsonObject g = gpus.first().toObject();
            const QByteArray where = "row " + QByteArray::number(i + 1) + ": " + rows[i];
            QVERIFY2(g.value(QStringLiteral("uuid")).toString() == raw("uuid"), where.constData());
            QCOMPARE(g.value(QStringLiteral("name")).toString(), raw("name"));
            QCOMPARE(g.value(QStringLiteral("pstate")).toString(), raw("pstate"));
            QCOMPARE(g.value(QStringLiteral("util")).toDouble(), raw("utilization.gpu").toDouble());
            QCOMPARE(g.value(QStringLiteral("mem_used_mib")).toDouble(), raw("memory.used").toDouble());
            QCOMPARE(g.value(QStringLiteral("mem_total_mib")).toDouble(), raw("memory.total").toDouble());
            QCOMPARE(g.value(QStringLiteral("temp_c")).toDouble(), raw("temperature.gpu").toDouble());
            QCOMPARE(g.value(QStringLiteral("power_w")).toDouble(), raw("power.draw").toDouble());
            QCOMPARE(g.value(QStringLiteral("power_limit_w")).toDouble(), raw("power.limit").toDouble());
            QCOMPARE(g.value(QStringLiteral("sm_clock_mhz")).toDouble(), raw("clocks.sm").toDouble());
            bool ok = false;
            const quint64 mask = raw("clocks_throttle_reasons.active").toULongLong(&ok, 16);
            QVERIFY(ok);
            QStringList words;
            for (const auto& w : g.value(QStringLiteral("reasons")).toArray())
                words << w.toString();
            QCOMPARE(words, kf::reasonWords(mask));
        }
    }

    void parseReadsTheDirectQueryWithUnits()
    {
        // direct.csv was written by nvidia-smi --format=csv (header with renamed fields, units).
        const QString file = kf::test::dataPath(QStringLiteral("field-h200/direct.csv"));
        const auto r
            = kf::test::runCli({ QStringLiteral("gpu"), QStringLiteral("parse"), file, QStringLiteral("--json") });
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out).object();
        QCOMPARE(o.value(QStringLiteral("bad_lines")).toInt(), 0);
        QVERIFY(o.value(QStringLiteral("header")).toBool());
        const QList<QByteArray> rows
            = kf::test::readData(QStringLiteral("field-h200/direct.csv")).trimmed().split('\n');
        const QJsonArray gpus = o.value(QStringLiteral("gpus")).toArray();
        QCOMPARE(gpus.size(), rows.size() - 1);
        for (qsizetype i = 1; i < rows.size(); ++i) {
            // timestamp, index, uuid, name, util [%], memory.used [MiB], memory.total [MiB], temperature.gpu,
            // power.draw [W], power.limit [W], clocks.current.sm [MHz], pstate, clocks_event_reasons.active
            const QList<QByteArray> c = rows[i].split(',');
            const QJsonObject g = gpus.at(i - 1).toObject();
            QCOMPARE(g.value(QStringLiteral("util")).toDouble(), c[4].trimmed().split(' ').first().toDouble());
            QCOMPARE(g.value(QStringLiteral("mem_used_mib")).toDouble(), c[5].trimmed().split(' ').first().toDouble());
            QCOMPARE(g.value(QStringLiteral("power_w")).toDouble(), c[8].trimmed().split(' ').first().toDouble());
            QCOMPARE(g.value(QStringLiteral("sm_clock_mhz")).toDouble(), c[10].trimmed().split(' ').first().toDouble());
            QCOMPARE(g.value(QStringLiteral("pstate")).toString(), QString::fromUtf8(c[11].trimmed()));
        }
    }
};

QTEST_GUILESS_MAIN(TestCliFieldH200)
#include "tst_cli_fieldh200.moc"
