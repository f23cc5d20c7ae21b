// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The GPU pane offscreen on the real H200 capture (tests/data/field-h200: nvidia-smi's stream
// under a PyTorch matmul load and its compute-apps table), replayed by the demo's nvidia-smi.
// Qt was not on the lent machine, so this is how the GUI met the real data (docs/FIELD.md).
#include "core/gpu/nvidiasmi.h"
#include "core/hosts/hostconnection.h"
#include "tests/support/gpupanefixture.h"
#include "tests/support/testsupport.h"
#include "ui/gpu/gpupane.h"

#include <QApplication>
#include <QLabel>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

using namespace kf;

class TestGpuPaneField : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("PATH", QByteArray(KF_SOURCE_DIR "/resources/demo/bin:") + qgetenv("PATH"));
    }

    void realCaptureShowsTheLoadAndItsProcess()
    {
        LocalHostConnection host(test::localProfile(QStringLiteral("H200 (field capture)")));
        host.connectToHost();
        GpuMonitor::Options options;
        options.processIntervalMs = 1000;
        options.env.insert(QStringLiteral("KF_DEMO_REPLAY"), test::dataPath(QStringLiteral("field-h200")));
        test::ShownGpuPane shown;
        shown.show(&host, options, QSize(1300, 900));
        if (QTest::currentTestFailed())
            return;
        GpuPane& pane = *shown.pane;
        QTRY_COMPARE_WITH_TIMEOUT(pane.cardCount(), 1, 30000);
        // Enough replayed seconds for the chart to show the load's shape.
        QTRY_VERIFY_WITH_TIMEOUT(pane.monitor()->blocks() >= 12, 60000);

        // Every value the pane's monitor holds is a row nvidia-smi wrote on the H200.
        const GpuSample g = pane.monitor()->latest().first();
        const GpuCsvResult capture = parseGpuCsv(test::readData(QStringLiteral("field-h200/stream.csv")), [] {
            QList<GpuField> f;
            for (const QByteArray& n :
                test::readData(QStringLiteral("field-h200/stream_fields.txt")).trimmed().split(','))
                f << gpuFieldFromName(n);
            return f;
        }());
        const bool fromCapture = std::any_of(capture.samples.begin(), capture.samples.end(), [&](const GpuSample& c) {
            return c.text(GpuField::Uuid) == g.text(GpuField::Uuid)
                && c.value(GpuField::UtilGpu) == g.value(GpuField::UtilGpu)
                && c.value(GpuField::PowerDraw) == g.value(GpuField::PowerDraw)
                && c.value(GpuField::ClockSm) == g.value(GpuField::ClockSm)
                && c.value(GpuField::TempGpu) == g.value(GpuField::TempGpu)
                && c.value(GpuField::MemUsed) == g.value(GpuField::MemUsed);
        });
        QVERIFY(fromCapture);

        // The compute-apps table names the PyTorch process with its memory.
        auto* processView = pane.findChild<QTableView*>();
        QVERIFY(processView);
        QTRY_VERIFY_WITH_TIMEOUT(processView->model()->rowCount() == 1, 30000);
        const auto m = QRegularExpression(QStringLiteral(R"(pid=(\d+))"))
                           .match(QString::fromUtf8(test::readData(QStringLiteral("field-h200/load.out"))));
        QVERIFY(m.hasMatch());
        const ComputeAppsResult apps = parseComputeApps(test::readData(QStringLiteral("field-h200/apps.txt")));
        QStringList cells;
        for (int c = 0; c < processView->model()->columnCount(); ++c)
            cells << processView->model()->index(0, c).data().toString();
        QVERIFY2(cells.contains(m.captured(1)), qPrintable(cells.join(u'|')));
        QVERIFY2(cells.contains(QStringLiteral("python3")), qPrintable(cells.join(u'|')));
        QVERIFY2(cells.join(u' ').contains(QString::number(qint64(apps.processes.first().usedMemoryMiB))),
            qPrintable(cells.join(u'|')));
        QVERIFY(pane.findChild<QLabel*>(QStringLiteral("gpuStatus"))->text().contains(QStringLiteral("1 GPU(s)")));

        pane.setMetric(GpuField::PowerDraw);
        pane.refreshChart();
        QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("gpupane-field-h200"))));
    }
};

QTEST_MAIN(TestGpuPaneField)
#include "tst_gpupanefield.moc"
