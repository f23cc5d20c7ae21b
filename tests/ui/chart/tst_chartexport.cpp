// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #20: every chart's window bar and export. The bar opens with the preferred window;
// Export writes the CSV of the charts' whole history (not the window drawn) and a PNG of
// them as drawn, through the file dialog, and says where the file went.
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/chart/chartexport.h"
#include "ui/chart/chartwindowbar.h"
#include "ui/chart/timechart.h"
#include "ui/common/preferences.h"

#include <QApplication>
#include <QImage>
#include <QMainWindow>
#include <QMenu>
#include <QMessageBox>
#include <QSettings>
#include <QStatusBar>
#include <QTemporaryDir>
#include <QToolButton>
#include <QVBoxLayout>
#include <QtTest>

#include <cmath>

using namespace kf;

namespace {

constexpr qint64 kT0 = 1'764'673'697'000LL; // 2025-12-02T11:08:17Z

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

} // namespace

class TestChartExport : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("kernelforge-test"));
        QApplication::setApplicationName(QStringLiteral("kernelforge-chartexport"));
        QSettings().clear();
    }

    void barOpensWithThePreferredWindow()
    {
        QCOMPARE(ChartWindowBar().windowMs(), 5LL * 60 * 1000); // the default: 300 s
        Preferences p;
        p.chartWindowSeconds = 0;
        p.save();
        QCOMPARE(ChartWindowBar().windowMs(), qint64(0)); // all
        p.chartWindowSeconds = 6 * 3600;
        p.save();
        QCOMPARE(ChartWindowBar().windowMs(), 6LL * 3600 * 1000);
        p.chartWindowSeconds = 2 * 3600; // not offered: the nearest that is
        p.save();
        QCOMPARE(ChartWindowBar().windowMs(), 3600LL * 1000);
        p.chartWindowSeconds = 300;
        p.save();
        ChartWindowBar bar;
        QStringList labels;
        for (const auto& w : ChartWindowBar::windows())
            labels << w.first;
        QCOMPARE(labels, (QStringList { "5 min", "1 h", "6 h", "24 h", "All" }));
        QSignalSpy changed(&bar, &ChartWindowBar::windowChanged);
        bar.setWindowIndex(3);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.first().first().toLongLong(), 24LL * 3600 * 1000);
    }

    // Without a source a chart's history is the points it holds; with one, what the source
    // says (a pane's SeriesBuffer behind the decimated window).
    void historyIsTheSourceOrThePoints()
    {
        TimeChart chart;
        chart.setTitle(QStringLiteral("Requests"));
        chart.addSeries(QStringLiteral("running"));
        chart.addSeries(QStringLiteral("queued"));
        chart.setSeriesData(0, { QPointF(kT0, 1), QPointF(kT0 + 1000, std::nan("")), QPointF(kT0 + 2000, 3) });
        QList<CsvSeries> h = chart.history();
        QCOMPARE(h.size(), 2);
        QCOMPARE(h[0].title, QStringLiteral("Requests"));
        QCOMPARE(h[0].name, QStringLiteral("running"));
        QCOMPARE(h[0].points.size(), 3);
        QVERIFY(h[1].points.isEmpty());
        chart.setHistorySource([] {
            return QList<CsvSeries> { { {}, QStringLiteral("all"), {}, { QPointF(1, 2) } } };
        });
        h = chart.history();
        QCOMPARE(h.size(), 1);
        QCOMPARE(h[0].name, QStringLiteral("all"));
    }

    void exportFromTheBarThroughTheDialog()
    {
        QTemporaryDir dir;
        QMainWindow window;
        auto* page = new QWidget(&window);
        auto* layout = new QVBoxLayout(page);
        auto* bar = new ChartWindowBar(page);
        auto* area = new QWidget(page);
        auto* areaLayout = new QVBoxLayout(area);
        auto* tokens = new TimeChart(area);
        tokens->setTitle(QStringLiteral("Generation throughput"));
        tokens->setUnit(QStringLiteral("tok/s"));
        tokens->addSeries(QStringLiteral("tokens/s"));
        auto* kv = new TimeChart(area);
        kv->setTitle(QStringLiteral("KV cache used"));
        kv->setUnit(QStringLiteral("%"));
        kv->addSeries(QString());
        areaLayout->addWidget(tokens);
        areaLayout->addWidget(kv);
        layout->addWidget(bar);
        layout->addWidget(area, 1);
        window.setCentralWidget(page);
        window.resize(900, 600);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        // Ten minutes of history, a 5 min window drawn: the CSV has all ten minutes.
        QList<QPointF> all;
        for (int i = 0; i <= 600; ++i)
            all.append(QPointF(double(kT0 + i * 1000LL), i == 300 ? std::nan("") : 1000.0 + i));
        tokens->setHistorySource([&] {
            return QList<CsvSeries> { { tokens->title(), tokens->seriesName(0), tokens->unit(), all } };
        });
        const auto [from, to] = bar->range(kT0, kT0 + 600000);
        QCOMPARE(from, kT0 + 300000);
        tokens->setTimeWindow(from, to);
        tokens->setSeriesData(0, all.mid(300));
        kv->setTimeWindow(from, to);
        kv->setSeriesData(0, { QPointF(kT0 + 600000, 42.5) });
        bar->setCharts({ tokens, kv }, area, QStringLiteral("server"));

        auto* button = bar->findChild<QToolButton*>(QStringLiteral("chartExport"));
        QVERIFY(button && button->isVisible());
        QAction* csvAction = bar->exportMenu()->findChild<QAction*>(QStringLiteral("chartExportCsv"));
        QAction* pngAction = bar->exportMenu()->findChild<QAction*>(QStringLiteral("chartExportPng"));
        QVERIFY(csvAction && pngAction);

        const QString csvPath = dir.filePath(QStringLiteral("server.csv"));
        QString title;
        test::saveThroughNextFileDialog(csvPath, &title);
        csvAction->trigger();
        QVERIFY(title.contains(QStringLiteral("CSV")));
        const QList<QByteArray> lines = readAll(csvPath).split('\n');
        QCOMPARE(
            lines.first(), QByteArray("time_utc,epoch_ms,Generation throughput: tokens/s (tok/s),KV cache used (%)\r"));
        QCOMPARE(lines.size(), 1 + 601 + 1); // every second of the ten minutes, then the empty rest
        QCOMPARE(lines[1], QByteArray("2025-12-02T11:08:17.000Z,1764673697000,1000,\r"));
        QCOMPARE(lines[301], QByteArray("2025-12-02T11:13:17.000Z,1764673997000,,\r")); // the gap: no value, not 0
        QCOMPARE(lines[601], QByteArray("2025-12-02T11:18:17.000Z,1764674297000,1600,42.5\r"));
        QVERIFY2(
            window.statusBar()->currentMessage().contains(csvPath), qPrintable(window.statusBar()->currentMessage()));

        const QString pngPath = dir.filePath(QStringLiteral("server.png"));
        test::saveThroughNextFileDialog(pngPath);
        pngAction->trigger();
        const QImage png(pngPath);
        QVERIFY(!png.isNull());
        QCOMPARE(png.size(), area->size() * area->devicePixelRatioF());
        QVERIFY(window.statusBar()->currentMessage().contains(pngPath));

        // Cancelled: nothing written, nothing said.
        window.statusBar()->clearMessage();
        QTimer::singleShot(200, [] {
            if (auto* d = qobject_cast<QDialog*>(QApplication::activeModalWidget()))
                d->reject();
        });
        QCOMPARE(bar->exportCsv(), QString());
        QVERIFY(window.statusBar()->currentMessage().isEmpty());
    }

    // A chart alone (its context menu's export) outside a main window: a message says where.
    void exportOneChartOutsideAMainWindow()
    {
        QTemporaryDir dir;
        TimeChart chart;
        chart.setTitle(QStringLiteral("GPU utilization"));
        chart.setUnit(QStringLiteral("%"));
        chart.addSeries(QStringLiteral("GPU 0"));
        chart.setTimeWindow(kT0, kT0 + 2000);
        chart.setSeriesData(0, { QPointF(kT0, 10), QPointF(kT0 + 1000, 20) });
        chart.resize(500, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        const QString path = dir.filePath(QStringLiteral("gpu.csv"));
        test::saveThroughNextFileDialog(path);
        QCOMPARE(
            chartexport::exportCsv(&chart, chart.history(), chartexport::suggestedName(chart.title(), "csv")), path);
        QCOMPARE(readAll(path),
            QByteArray("time_utc,epoch_ms,GPU utilization: GPU 0 (%)\r\n"
                       "2025-12-02T11:08:17.000Z,1764673697000,10\r\n2025-12-02T11:08:18.000Z,1764673698000,20\r\n"));
        QMessageBox* box = nullptr;
        QTRY_VERIFY((box = chart.findChild<QMessageBox*>(QStringLiteral("chartExportMessage"))) != nullptr);
        QVERIFY(box->text().contains(path));
        box->close();
        QVERIFY(chartexport::suggestedName(QStringLiteral("GPU utilization"), QStringLiteral("png"))
                    .startsWith(QStringLiteral("gpu-utilization-")));
        // An unwritable place fails with why, and writes nothing.
        const Result<void> bad
            = chartexport::writeCsv(dir.filePath(QStringLiteral("no/such/dir/x.csv")), chart.history());
        QVERIFY(!bad);
        QVERIFY(bad.error().contains(QStringLiteral("cannot write")));
    }
};

QTEST_MAIN(TestChartExport)
#include "tst_chartexport.moc"
