// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/exporterfields.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <cmath>
#include <limits>

using namespace kf;

class TestExporterFields : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rowsAreConsistent()
    {
        const QRegularExpression plain(QStringLiteral("^[A-Za-z_]+$")); // PromQL regexes take them unescaped
        QSet<QString> seen;
        for (const ExporterField& f : kExporterFields) {
            const QString name = QLatin1String(f.name);
            QVERIFY2(plain.match(name).hasMatch(), f.name);
            QVERIFY2(!seen.contains(name), f.name);
            seen.insert(name);
            QVERIFY2(name.startsWith(f.exporter == GpuExporter::Dcgm ? u"DCGM_FI_" : u"nvidia_smi_"), f.name);
            const bool row = f.value == ExporterValue::Number || f.value == ExporterValue::Flag;
            QVERIFY2(row == (f.field != GpuField::Unknown), f.name);
            QVERIFY2(f.scale > 0, f.name);
            if (*f.help) // `gpu export` writes only what it can fill
                QVERIFY2(f.exporter == GpuExporter::Dcgm
                        && (f.value == ExporterValue::Number || f.value == ExporterValue::Reasons),
                    f.name);
            QCOMPARE(exporterField(name), &f);
        }
        QVERIFY(!exporterField(u"DCGM_FI_DEV_NO_SUCH_FIELD"));
    }
    void unitsAndSentinels()
    {
        const ExporterField* sm = exporterField(u"DCGM_FI_PROF_SM_ACTIVE");
        QCOMPARE(exporterNumber(*sm, 0.5), 50.0); // DCGM's ratio into the GPM row's %
        const ExporterField* tx = exporterField(u"DCGM_FI_PROF_PCIE_TX_BYTES");
        QCOMPARE(exporterNumber(*tx, 2.0 * 1048576), 2.0); // bytes/s into MiB/s
        const ExporterField* clock = exporterFieldFor(GpuExporter::NvidiaSmi, GpuField::ClockSm);
        QCOMPARE(exporterNumber(*clock, 1.98e9), 1980.0); // Hz into MHz
        const ExporterField* memTemp = exporterField(u"DCGM_FI_DEV_MEMORY_TEMP");
        QVERIFY(std::isnan(exporterNumber(*memTemp, 9223372036854775794.0))); // DCGM's blank
        QVERIFY(std::isnan(exporterNumber(*memTemp, -1)));
        QVERIFY(std::isnan(exporterNumber(*memTemp, std::numeric_limits<double>::infinity())));
        QCOMPARE(exporterFieldFor(GpuExporter::Dcgm, GpuField::MemTotal), nullptr); // dcgm-exporter has none
        QCOMPARE(exporterNameRegex({ ExporterValue::Info }), "nvidia_smi_gpu_info");
    }
};

QTEST_GUILESS_MAIN(TestExporterFields)
#include "tst_exporterfields.moc"
