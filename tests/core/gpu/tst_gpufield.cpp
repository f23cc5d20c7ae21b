// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The GPU field table: every row reaches the probe, the CSV parser, JSON and the history as
// the row says, so a new row is tested here without a new test. What one row gives is spelled
// out from the row's columns, never from the code under test.
#include "core/gpu/gpmdmon.h"
#include "core/gpu/gpufield.h"
#include "core/gpu/gpuhistory.h"
#include "core/gpu/nvidiasmi.h"

#include <QJsonArray>
#include <QtTest>

using namespace kf;

namespace {

QList<QByteArray> spellings(GpuField field)
{
    QList<QByteArray> out = QByteArray(gpuFieldInfo(field).names).split(' ');
    out.removeAll(QByteArray());
    return out;
}

QList<GpuField> allFields()
{
    QList<GpuField> out;
    for (int i = 0; i < kGpuFieldCount; ++i)
        out.append(GpuField(i));
    return out;
}

bool queried(GpuField field)
{
    return gpuFieldInfo(field).source == GpuFieldSource::Query;
}

// A value nvidia-smi could print for the field, with its unit when it has one.
QByteArray csvValue(GpuField field, int row)
{
    const GpuFieldInfo& info = gpuFieldInfo(field);
    switch (info.kind) {
    case GpuFieldKind::Number:
        return QByteArray::number(10.5 + int(field) + row) + (*info.unit ? QByteArray(" ") + info.unit : QByteArray());
    case GpuFieldKind::Text: return "text " + QByteArray::number(int(field)) + '-' + QByteArray::number(row);
    case GpuFieldKind::Index: return QByteArray::number(row);
    case GpuFieldKind::Time: return "2026/11/29 15:24:2" + QByteArray::number(row) + ".581";
    case GpuFieldKind::Mask: return "0x0000000000000004";
    case GpuFieldKind::Derived: break;
    }
    return {};
}

} // namespace

class TestGpuField : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void everySpellingNamesItsRow()
    {
        for (const GpuField field : allFields()) {
            const QList<QByteArray> names = spellings(field);
            QCOMPARE(gpuFieldQueryName(field), QString::fromLatin1(names.value(0)));
            if (!queried(field)) {
                // A Dmon row: its GPM metric id, then dmon's column names; never a --query-gpu name.
                QVERIFY(gpmMetricId(field) > 0);
                QCOMPARE(QByteArray::number(gpmMetricId(field)), names.first());
                QVERIFY(names.size() >= 2);
                for (const QByteArray& name : names) {
                    QCOMPARE(gpuFieldFromName(name), GpuField::Unknown);
                    if (name != names.first())
                        QCOMPARE(gpmFieldFromColumn(name.toUpper()), field);
                }
                QVERIFY(gpuFieldInfo(field).stream);
                continue;
            }
            QCOMPARE(gpmMetricId(field), 0);
            for (const QByteArray& name : names) {
                QCOMPARE(gpuFieldFromName(name), field);
                QCOMPARE(gpuFieldFromName(QByteArray(name.toUpper() + " [" + gpuFieldInfo(field).unit + ']')), field);
            }
            // Derived rows are never a column.
            QCOMPARE(names.isEmpty(), gpuFieldInfo(field).kind == GpuFieldKind::Derived);
        }
        QCOMPARE(gpuFieldFromName(""), GpuField::Unknown);
        QCOMPARE(gpuFieldFromName("power.min_limit [W]"), GpuField::Unknown);
    }

    void probeAsksForEveryStreamRow()
    {
        // A driver that lists every spelling: the first one is asked for, in table order.
        QByteArray help = "List of valid properties to query for the switch \"--query-gpu=\":\n\n";
        QStringList expected;
        for (const GpuField field : allFields()) {
            const QList<QByteArray> names = spellings(field);
            if (names.isEmpty())
                continue;
            help += '"' + names.join("\" or \"") + "\"\nSome text.\n\n";
            if (gpuFieldInfo(field).stream && queried(field))
                expected << QString::fromLatin1(names.first());
        }
        const GpuFieldProbe all = probeGpuFields(help);
        QVERIFY(all.ok);
        QVERIFY(all.missing.isEmpty());
        QCOMPARE(all.fields, defaultGpuFields());
        QCOMPARE(all.queryNames, expected);
        for (const GpuField field : defaultGpuFields())
            QVERIFY(gpuFieldInfo(field).stream && queried(field));
        for (const GpuField field : gpmGpuFields())
            QVERIFY(gpuFieldInfo(field).stream && !queried(field));
        QCOMPARE(defaultGpuFields().size() + gpmGpuFields().size(),
            gpuFieldsWhere([](const GpuFieldInfo& f) { return f.stream; }).size());

        // A driver that knows only the last spelling of each: that one is asked for.
        QByteArray lastOnly;
        for (const GpuField field : defaultGpuFields())
            lastOnly += '"' + spellings(field).last() + "\"\n";
        const GpuFieldProbe last = probeGpuFields(lastOnly);
        QCOMPARE(last.fields, defaultGpuFields());
        for (qsizetype i = 0; i < last.fields.size(); ++i)
            QCOMPARE(last.queryNames[i], QString::fromLatin1(spellings(last.fields[i]).last()));
    }

    void everyRowParsesAndReachesJsonAndHistory()
    {
        // One header naming every --query-gpu field (with units, as --format=csv prints it), and
        // one dmon header naming every GPM column (values as dmon prints them: no unit); two GPUs.
        QList<GpuField> columns;
        QByteArray header;
        QByteArray dmon = "# gpu";
        for (const GpuField field : gpmGpuFields())
            dmon += ' ' + spellings(field).at(1);
        dmon += '\n';
        for (int row = 0; row < 2; ++row) {
            dmon += QByteArray::number(row);
            for (const GpuField field : gpmGpuFields())
                dmon += ' ' + QByteArray::number(10.5 + int(field) + row);
            dmon += '\n';
        }
        const DmonResult gpm = parseDmon(dmon);
        QCOMPARE(gpm.samples.size(), 2);
        QCOMPARE(gpm.badLines, 0);
        for (const GpuField field : allFields()) {
            if (spellings(field).isEmpty() || !queried(field))
                continue;
            columns << field;
            header += (header.isEmpty() ? "" : ", ") + spellings(field).first();
            if (*gpuFieldInfo(field).unit)
                header += QByteArray(" [") + gpuFieldInfo(field).unit + ']';
        }
        QByteArray data = header + '\n';
        for (int row = 0; row < 2; ++row) {
            QByteArrayList values;
            for (const GpuField field : std::as_const(columns))
                values << csvValue(field, row);
            data += values.join(", ") + '\n';
        }
        GpuCsvResult r = parseGpuCsv(data);
        QVERIFY(r.sawHeader);
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.columns, columns);
        QCOMPARE(r.samples.size(), 2);
        // The GPM values join the query's samples by GPU, as GpuMonitor does.
        for (int row = 0; row < 2; ++row)
            for (const GpuField field : gpmGpuFields())
                r.samples[row].setValue(field, gpm.samples[row].value(field));

        GpuHistory history;
        history.append(1000, r.samples);
        for (int row = 0; row < 2; ++row) {
            const GpuSample& s = r.samples[row];
            const QJsonObject json = toJson(s);
            for (const GpuField field : allFields()) {
                const GpuFieldInfo& info = gpuFieldInfo(field);
                const QString key = QLatin1String(info.json);
                QJsonValue expected;
                switch (info.kind) {
                case GpuFieldKind::Number:
                    QCOMPARE(s.value(field), 10.5 + int(field) + row);
                    expected = s.value(field);
                    break;
                case GpuFieldKind::Text:
                    QCOMPARE(s.text(field), QStringLiteral("text %1-%2").arg(int(field)).arg(row));
                    expected = s.text(field);
                    break;
                case GpuFieldKind::Index:
                    QCOMPARE(s.index, row);
                    expected = row;
                    break;
                case GpuFieldKind::Time:
                    QCOMPARE(s.timeMs,
                        QDateTime(QDate(2026, 11, 29), QTime(15, 24, 20 + row, 581), Qt::UTC).toMSecsSinceEpoch());
                    expected = QStringLiteral("2026-11-29T15:24:2%1.581Z").arg(row);
                    break;
                case GpuFieldKind::Mask:
                    QVERIFY(s.hasReasons);
                    QCOMPARE(s.reasons, kReasonSwPowerCap);
                    expected = QJsonArray { QStringLiteral("sw_power_cap") };
                    break;
                case GpuFieldKind::Derived:
                    QVERIFY(hasValue(s.value(field)));
                    expected = s.value(field);
                    break;
                }
                if (key.isEmpty())
                    QVERIFY(!json.contains(key));
                else
                    QVERIFY2(json.value(key) == expected, qPrintable(key));
                const SeriesBuffer* series = history.series(row, field);
                QCOMPARE(series != nullptr, info.chart > 0);
                if (series) // SeriesBuffer keeps floats
                    QCOMPARE(series->points(0, 0, 2000).at(0).min, float(s.value(field)));
            }
            QCOMPARE(json.size(), gpuJsonKeys().size());
        }
    }

    void noValueIsNullInJson()
    {
        // A sample nvidia-smi filled with [N/A]: every key is there, and null.
        QByteArray header, values;
        for (const GpuField field : allFields()) {
            if (spellings(field).isEmpty() || gpuFieldInfo(field).kind == GpuFieldKind::Index || !queried(field))
                continue;
            header += (header.isEmpty() ? "" : ", ") + spellings(field).first();
            values += QByteArray(values.isEmpty() ? "" : ", ") + "[N/A]";
        }
        const GpuCsvResult r = parseGpuCsv(QByteArray(header + '\n' + values + '\n'));
        QCOMPARE(r.samples.size(), 1);
        const QJsonObject json = toJson(r.samples.first());
        QCOMPARE(json.size(), gpuJsonKeys().size());
        for (auto it = json.begin(); it != json.end(); ++it)
            QVERIFY2(it.value().isNull(), qPrintable(it.key()));
        for (const GpuField field : allFields())
            QVERIFY(!hasValue(r.samples.first().value(field)));
    }

    void chartFieldsInMenuOrder()
    {
        // The metric menu and the CSV export keep their order: place 1 first.
        const QList<GpuField> charted = gpuChartFields();
        QCOMPARE(charted.size(), kGpuChartCount);
        for (qsizetype i = 0; i < charted.size(); ++i)
            QCOMPARE(gpuFieldInfo(charted[i]).chart, int(i) + 1);
        QCOMPARE(charted,
            (QList<GpuField> { GpuField::UtilGpu, GpuField::MemUsedPercent, GpuField::TempGpu, GpuField::PowerDraw,
                GpuField::ClockSm, GpuField::UtilMemory, GpuField::SmActive, GpuField::SmOccupancy,
                GpuField::TensorActive, GpuField::DramActive, GpuField::PcieTx, GpuField::PcieRx, GpuField::NvlinkTx,
                GpuField::NvlinkRx }));
        QVERIFY(GpuHistory().toCsv(0, 1).startsWith(
            "time,gpu,utilization_pct,memory_used_pct,temperature_c,power_w,sm_clock_mhz,"
            "memory_bandwidth_pct,sm_active_pct,sm_occupancy_pct,tensor_active_pct,dram_active_pct,pcie_tx_mib_s,"
            "pcie_rx_mib_s,nvlink_tx_mib_s,nvlink_rx_mib_s\n"));
    }

    void gpmSeriesStartWithTheFirstGpmValue()
    {
        // A host without GPM pays nothing for its series; once values come they line up in the CSV.
        GpuHistory history;
        GpuSample g;
        g.index = 0;
        g.setValue(GpuField::UtilGpu, 10);
        history.append(1000, { g });
        QVERIFY(history.series(0, GpuField::UtilGpu));
        QVERIFY(!history.series(0, GpuField::SmActive));
        const size_t without = history.memoryBytes();
        g.setValue(GpuField::UtilGpu, 20);
        g.setValue(GpuField::TensorActive, 70);
        history.append(2000, { g });
        QVERIFY(history.series(0, GpuField::SmActive)); // every GPM series of the GPU, at once
        QVERIFY(history.memoryBytes() > without);
        g.setValue(GpuField::UtilGpu, 30);
        g.setValue(GpuField::TensorActive, 90);
        history.append(3000, { g });
        const QList<QByteArray> rows = history.toCsv(0, 4000).trimmed().split('\n');
        QCOMPARE(rows.size(), 4);
        QVERIFY2(rows[1].startsWith("1970-01-01T00:00:01.000Z,0,10,"), rows[1].constData());
        QCOMPARE(rows[1].split(',').at(10), QByteArray()); // tensor_active_pct: none yet
        QCOMPARE(rows[2].split(',').at(10), QByteArray("70"));
        QCOMPARE(rows[3].split(',').at(10), QByteArray("90"));
        QCOMPARE(rows[3].split(',').at(2), QByteArray("30"));
        QCOMPARE(history.mean(0, GpuField::TensorActive, 0, 4000), 80.0);
        QCOMPARE(history.mean(0, GpuField::UtilGpu, 1500, 4000), 25.0);
        QVERIFY(!hasValue(history.mean(0, GpuField::NvlinkRx, 0, 4000)));
        QVERIFY(!hasValue(history.mean(3, GpuField::UtilGpu, 0, 4000)));
    }

    void memoryUsedPercentIsDerived()
    {
        GpuSample s;
        QVERIFY(!hasValue(s.value(GpuField::MemUsedPercent)));
        s.setValue(GpuField::MemUsed, 35942.75);
        QVERIFY(!hasValue(s.value(GpuField::MemUsedPercent)));
        s.setValue(GpuField::MemTotal, 143771);
        QCOMPARE(s.value(GpuField::MemUsedPercent), 35942.75 / 143771 * 100);
        QCOMPARE(s.memFraction(), 35942.75 / 143771);
    }
};

QTEST_GUILESS_MAIN(TestGpuField)
#include "tst_gpufield.moc"
