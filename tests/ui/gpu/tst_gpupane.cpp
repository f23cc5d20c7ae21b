// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The GPU pane on this machine (LocalHostConnection) with the replaying nvidia-smi on PATH.
#include "core/hosts/hostconnection.h"
#include "tests/support/gpupanefixture.h"
#include "tests/support/testsupport.h"
#include "ui/chart/timechart.h"
#include "ui/gpu/gpucard.h"
#include "ui/gpu/gpupane.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QStandardPaths>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

class TestGpuPane : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("PATH", QByteArray(KF_SOURCE_DIR "/resources/demo/bin:") + qgetenv("PATH"));
    }

    void eightCardsChartProcessesAndExport()
    {
        LocalHostConnection host(test::localProfile());
        host.connectToHost();
        GpuMonitor::Options options;
        options.processIntervalMs = 1000;
        options.env.insert(QStringLiteral("KF_DEMO_HOT_GPU"), QStringLiteral("5"));
        // The replay's GPUs run a process only in the loaded part of their 150 s cycle, which
        // can be a minute away: three times faster, one comes within the test's timeouts.
        options.env.insert(QStringLiteral("KF_DEMO_TIME_SCALE"), QStringLiteral("3"));
        test::ShownGpuPane shown;
        shown.show(&host, options, QSize(1300, 900));
        if (QTest::currentTestFailed())
            return;
        GpuPane& pane = *shown.pane;
        QTRY_COMPARE_WITH_TIMEOUT(pane.cardCount(), 8, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(pane.monitor()->blocks() >= 4, 30000);
        auto* processView = pane.findChild<QTableView*>();
        QVERIFY(processView);
        QAbstractItemModelTester tester(processView->model(), QAbstractItemModelTester::FailureReportingMode::QtTest);
        QTRY_VERIFY_WITH_TIMEOUT(processView->model()->rowCount() > 0, 30000);
        // The hot GPU shows up in the alert list.
        auto* alerts = pane.findChild<QListWidget*>(QStringLiteral("gpuAlerts"));
        QVERIFY(alerts);
        QTRY_VERIFY_WITH_TIMEOUT(alerts->count() > 0, 10000);
        QVERIFY(alerts->item(alerts->count() - 1)->text().contains(QStringLiteral("GPU 5")));

        pane.setMetric(GpuField::PowerDraw);
        pane.setWindowIndex(0);
        pane.refreshChart();
        QCOMPARE(pane.detailChart()->seriesCount(), 8);
        QVERIFY(pane.detailChart()->pointCount() >= 8 * 3);
        QVERIFY(pane.detailChart()->pointCount() <= 8 * 2 * pane.detailChart()->columns());
        QVERIFY(pane.findChild<QLabel*>(QStringLiteral("gpuStatus"))->text().contains(QStringLiteral("8 GPU(s)")));

        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("gpus.csv"));
        QCOMPARE(pane.exportCsv(csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QByteArray text = f.readAll();
        QVERIFY(text.startsWith("time,gpu,"));
        QVERIFY(text.count('\n') > 8 * 3);

        QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("gpupane"))));
        // The host goes away: the cards keep their last samples, greyed and dated.
        host.disconnectFromHost();
        const auto cards = pane.findChildren<GpuCard*>();
        QCOMPARE(cards.size(), 8);
        for (const GpuCard* card : cards)
            QVERIFY(card->isStale());
        QVERIFY(pane.findChild<QLabel*>(QStringLiteral("gpuStatus"))->text().contains(QStringLiteral("Disconnected")));
    }
};

QTEST_MAIN(TestGpuPane)
#include "tst_gpupane.moc"
