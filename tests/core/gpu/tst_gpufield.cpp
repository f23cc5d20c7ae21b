// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The GPU field table: every row reaches the probe, the CSV parser, JSON and the history as
// the row says, so a new row is tested here without a new test. What one row gives is spelled
// out from the row's columns, never from the code under test.
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
            if (gpuFieldInfo(field).stream)
                expected << QString::fromLatin1(names.first());
        }
        const GpuFieldProbe all = probeGpuFields(help);
        QVERIFY(all.ok);
        QVERIFY(all.missing.isEmpty());
        QCOMPARE(all.fields, defaultGpuFields());
        QCOMPARE(all.queryNames, expected);
        for (const GpuField field : defaultGpuFields())
            QVERIFY(gpuFieldInfo(field).stream);

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
        // One header naming every field (with units, as --format=csv prints it), two GPUs.
        QList<GpuField> columns;
        QByteArray header;
        for (const GpuField field : allFields()) {
            if (spellings(field).isEmpty())
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
        const GpuCsvResult r = parseGpuCsv(data);
        QVERIFY(r.sawHeader);
        QCOMPARE(r.badLines, 0);
        QCOMPARE(r.columns, columns);
        QCOMPARE(r.samples.size(), 2);

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
            if (spellings(field).isEmpty() || gpuFieldInfo(field).kind == GpuFieldKind::Index)
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
                GpuField::ClockSm, GpuField::UtilMemory }));
        QVERIFY(GpuHistory().toCsv(0, 1).startsWith(
            "time,gpu,utilization_pct,memory_used_pct,temperature_c,power_w,sm_clock_mhz,"
            "memory_bandwidth_pct\n"));
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
