// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #20: charts in the real window with two real demo hosts (each a private sshd with its
// own nvidia-smi stream). A host's chart keeps its history while another host is shown; the
// window bar picks how much of it is drawn; Export writes the chart's whole history as CSV
// and the chart as drawn as PNG, through the file dialog, and the status bar says where.
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/chart/chartwindowbar.h"
#include "ui/chart/timechart.h"
#include "ui/gpu/gpupane.h"

#include <QImage>
#include <QMenu>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace kf;
using test::shown;
using test::showTab;

namespace {

// The oldest time a chart draws.
double firstTime(const TimeChart* chart)
{
    double first = 0;
    for (int i = 0; i < chart->seriesCount(); ++i) {
        const QList<QPointF> points = chart->seriesData(i);
        if (!points.isEmpty() && (first == 0 || points.first().x() < first))
            first = points.first().x();
    }
    return first;
}

} // namespace

class TestChartsWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateAppState(QStringLiteral("kernelforge-chartswindow"), m_db.path()); }

    void historyPerHostWindowAndExport()
    {
        KF_START_DEMO_HOST(demoA);
        KF_START_DEMO_HOST(demoB);
        test::DemoWindow dw;
        dw.open(demoA, QStringLiteral("gpu-a"));
        if (QTest::currentTestFailed())
            return;
        MainWindow& w = *dw.window;
        HostConnection* b = dw.hosts.add(demoB.profile(QStringLiteral("gpu-b")));
        QVERIFY(b);
        b->connectToHost();
        QTRY_VERIFY2_WITH_TIMEOUT(b->state() == ConnectionState::Ready, qPrintable(b->stateReason()), 30000);

        // Host A: a few seconds of samples in its chart.
        QWidget* gpuTab = showTab(w.tabs(), QStringLiteral("GPUs"));
        auto* paneA = shown<GpuPane>(gpuTab);
        QVERIFY(paneA);
        QTRY_VERIFY_WITH_TIMEOUT(paneA->monitor() && paneA->monitor()->blocks() >= 3, 30000);
        paneA->refreshChart();
        QVERIFY(paneA->detailChart()->pointCount() >= 8 * 3);
        const double firstA = firstTime(paneA->detailChart());
        QVERIFY(firstA > 0);
        const qsizetype pointsA = paneA->detailChart()->pointCount();
        const int blocksA = paneA->monitor()->blocks();

        // Host B: its own pane, chart and stream.
        w.selectHost(QStringLiteral("gpu-b"));
        auto* paneB = shown<GpuPane>(gpuTab);
        QVERIFY(paneB && paneB != paneA);
        QTRY_VERIFY_WITH_TIMEOUT(paneB->monitor() && paneB->monitor()->blocks() >= 3, 30000);
        QVERIFY(paneB->monitor() != paneA->monitor());
        paneB->refreshChart();
        QVERIFY(paneB->detailChart()->pointCount() > 0);
        QVERIFY(firstTime(paneB->detailChart()) > 0);
        // A's stream goes on while B is shown.
        QTRY_VERIFY_WITH_TIMEOUT(paneA->monitor()->blocks() > blocksA + 1, 30000);

        // Back on A: the earlier points are still there, and more after them.
        w.selectHost(QStringLiteral("gpu-a"));
        QCOMPARE(shown<GpuPane>(gpuTab), paneA);
        paneA->refreshChart();
        QCOMPARE(firstTime(paneA->detailChart()), firstA);
        QVERIFY(paneA->detailChart()->pointCount() > pointsA);
        const qint64 startA = qint64(paneA->detailChart()->geometry().xToTime(paneA->detailChart()->plotRect().left()));

        // The window bar: 5 min by default (Preferences), "All" is the history from its first sample.
        ChartWindowBar* bar = shown<ChartWindowBar>(gpuTab);
        QVERIFY(bar);
        QCOMPARE(bar->windowMs(), 5LL * 60 * 1000);
        QCOMPARE(paneA->windowMs(), 5LL * 60 * 1000);
        QVERIFY(startA < firstA - 60000); // five minutes back: most of the plot is before the data
        bar->setWindowIndex(int(ChartWindowBar::windows().size()) - 1); // All
        QCOMPARE(paneA->windowMs(), qint64(0));
        const ChartGeometry g = paneA->detailChart()->geometry();
        // From the first sample (or 10 s back for a history younger than that) to the last.
        const double left = g.xToTime(g.plot().left());
        QVERIFY2(left >= firstA - 10000 - 1000 && left <= firstA + 1000, qPrintable(QString::number(left - firstA)));
        QCOMPARE(firstTime(paneA->detailChart()), firstA);

        // Export: the CSV holds the chart's field for every GPU over the whole history.
        QTemporaryDir dir;
        const QString csvPath = dir.filePath(QStringLiteral("gpu-a.csv"));
        test::saveThroughNextFileDialog(csvPath);
        QCOMPARE(bar->exportCsv(), csvPath);
        QFile csv(csvPath);
        QVERIFY(csv.open(QIODevice::ReadOnly));
        const QList<QByteArray> lines = csv.readAll().split('\n');
        QVERIFY2(lines.first().startsWith("time_utc,epoch_ms,Utilization: GPU 0 (%),Utilization: GPU 1 (%)"),
            lines.first().constData());
        QCOMPARE(lines.first().count(','), qsizetype(1 + 8));
        QVERIFY(lines.size() >= 2 + 3);
        const QList<QByteArray> firstRow = lines[1].trimmed().split(',');
        QCOMPARE(firstRow[1].toLongLong(), qint64(firstA));
        QVERIFY(firstRow[0].endsWith('Z'));
        bool ok = false;
        const double util = firstRow[2].toDouble(&ok);
        QVERIFY2(ok && util >= 0 && util <= 100, lines[1].constData());
        QVERIFY(w.statusBar()->currentMessage().contains(csvPath));

        const QString pngPath = dir.filePath(QStringLiteral("gpu-a.png"));
        test::saveThroughNextFileDialog(pngPath);
        QCOMPARE(bar->exportPng(), pngPath);
        const QImage png(pngPath);
        QVERIFY(!png.isNull());
        QCOMPARE(png.size(), paneA->detailChart()->size() * paneA->detailChart()->devicePixelRatioF());
        QVERIFY(w.statusBar()->currentMessage().contains(pngPath));
        QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("charts-gpu-all"))));
    }

private:
    QTemporaryDir m_db;
};

QTEST_MAIN(TestChartsWindow)
#include "tst_chartswindow.moc"
