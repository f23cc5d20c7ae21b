// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// `gpu export`'s page: GPM as DCGM's profiling fields (ratios, bytes per second), read back by
// the fleet's Prometheus path into the same rows; a value the stream did not give is left out.
#include "core/fleet/fleethost.h"
#include "core/fleet/gpuexport.h"
#include "core/gpu/exporterfields.h"
#include "core/server/prometheustext.h"

#include <QRegularExpression>
#include <QTest>

using namespace kf;
using namespace kf::fleet;

namespace {
GpuSample h200(int index)
{
    GpuSample g;
    g.index = index;
    g.setText(GpuField::Uuid, QStringLiteral("GPU-%1").arg(index));
    g.setText(GpuField::Name, QStringLiteral("NVIDIA H200"));
    g.setValue(GpuField::UtilGpu, 98);
    return g;
}
// The page's samples as Prometheus answers the fleet's "gpu" query, from one exporter address.
QHash<QString, PromQueryResult> asTheGpuQueryAnswers(const PromText& page)
{
    QHash<QString, PromQueryResult> answers;
    for (const auto& m : page.samples) {
        PromSeries s;
        for (const auto& [k, v] : m.labels)
            s.metric.insert(k, v);
        s.metric.insert(QStringLiteral("__name__"), m.name);
        s.metric.insert(QStringLiteral("instance"), QStringLiteral("10.0.0.5:9400"));
        s.value = m.value;
        answers[QStringLiteral("gpu")].series.append(s);
    }
    return answers;
}
} // namespace

class TestGpuExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void gpmAsDcgmProfilingFields()
    {
        GpuSample a = h200(0);
        a.setValue(GpuField::SmActive, 93);
        a.setValue(GpuField::SmOccupancy, 31);
        a.setValue(GpuField::TensorActive, 71);
        a.setValue(GpuField::DramActive, 42);
        a.setValue(GpuField::PcieTx, 44);
        a.setValue(GpuField::PcieRx, 187);
        a.setValue(GpuField::NvlinkTx, 21034);
        a.setValue(GpuField::NvlinkRx, 20511);
        const GpuSample b = h200(1); // no GPM on this one
        const PromText page = parsePrometheusText(dcgmExposition({ a, b }, QStringLiteral("gpu1")));
        QCOMPARE(page.badLines, 0);
        auto value = [&](const char* name) {
            const auto found = page.find(QString::fromLatin1(name));
            return found.size() == 1 ? found.first()->value : -1.0;
        };
        QCOMPARE(value("DCGM_FI_PROF_SM_ACTIVE"), 0.93);
        QCOMPARE(value("DCGM_FI_PROF_SM_OCCUPANCY"), 0.31);
        QCOMPARE(value("DCGM_FI_PROF_PIPE_TENSOR_ACTIVE"), 0.71);
        QCOMPARE(value("DCGM_FI_PROF_DRAM_ACTIVE"), 0.42);
        QCOMPARE(value("DCGM_FI_PROF_PCIE_TX_BYTES"), 44.0 * 1048576);
        QCOMPARE(value("DCGM_FI_PROF_PCIE_RX_BYTES"), 187.0 * 1048576);
        QCOMPARE(value("DCGM_FI_PROF_NVLINK_TX_BYTES"), 21034.0 * 1048576);
        QCOMPARE(value("DCGM_FI_PROF_NVLINK_RX_BYTES"), 20511.0 * 1048576);
        QCOMPARE(page.find(u"DCGM_FI_DEV_GPU_UTIL").size(), 2);

        // A GPU without GPM has no PROF line, and a host without GPM no PROF family at all.
        const QByteArray none = dcgmExposition({ b }, QStringLiteral("gpu1"));
        QVERIFY(!none.contains("DCGM_FI_PROF_"));

        // Read back as the fleet reads Prometheus: the same values in the same rows.
        const QHash<QString, PromQueryResult> answers = asTheGpuQueryAnswers(page);
        AssembleOptions o;
        const FleetSnapshot snap = assembleFleet(answers, o);
        QCOMPARE(snap.hosts.size(), 1);
        const GpuSample& back = snap.hosts.first().gpus.first();
        for (const GpuField f : gpmGpuFields())
            QVERIFY2(qAbs(back.value(f) - a.value(f)) < 1e-9, qPrintable(gpuFieldLabel(f)));
        QVERIFY(!hasValue(snap.hosts.first().gpus.at(1).value(GpuField::SmActive)));
    }
    void everyWrittenNameIsAskedForAndReadBack()
    {
        // One table (core/gpu/exporterfields.h): what `gpu export` writes, the fleet's query asks
        // for and its reader puts back into the same row (the memory clock was written and
        // never read before the table).
        GpuSample a = h200(0);
        double v = 10;
        for (const ExporterField& f : kExporterFields)
            if (f.exporter == GpuExporter::Dcgm && *f.help && f.value == ExporterValue::Number)
                a.setValue(f.field, v += 7);
        a.reasons = 0x40;
        a.hasReasons = true;
        const PromText page = parsePrometheusText(dcgmExposition({ a }, QStringLiteral("gpu1")));
        QCOMPARE(page.badLines, 0);
        QString gpuQuery;
        for (const FleetQuery& q : fleetQueries())
            if (q.family == u"gpu")
                gpuQuery = q.promql;
        const auto names = QRegularExpression(QStringLiteral("__name__=~\"([^\"]+)\"")).match(gpuQuery);
        QVERIFY2(names.hasMatch(), qPrintable(gpuQuery));
        const QRegularExpression asked(QRegularExpression::anchoredPattern(names.captured(1)));
        for (const auto& m : page.samples)
            QVERIFY2(asked.match(m.name).hasMatch(), qPrintable(m.name + QStringLiteral(" is written, not asked for")));
        QVERIFY(page.samples.size() >= 19);
        const QHash<QString, PromQueryResult> answers = asTheGpuQueryAnswers(page);
        const FleetSnapshot snap = assembleFleet(answers, AssembleOptions());
        QCOMPARE(snap.hosts.size(), 1);
        const GpuSample& back = snap.hosts.first().gpus.first();
        for (const ExporterField& f : kExporterFields)
            if (f.exporter == GpuExporter::Dcgm && *f.help && f.value == ExporterValue::Number)
                QVERIFY2(qAbs(back.value(f.field) - a.value(f.field)) < 1e-9, f.name);
        QVERIFY(back.hasReasons);
        QCOMPARE(back.reasons, quint64(0x40));
    }
};

QTEST_GUILESS_MAIN(TestGpuExport)
#include "tst_gpuexport.moc"
