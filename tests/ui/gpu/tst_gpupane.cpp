// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The GPU pane on this machine (LocalHostConnection) with the replaying nvidia-smi on PATH.
#include "core/hosts/hostconnection.h"
#include "tests/support/gpupanefixture.h"
#include "tests/support/testsupport.h"
#include "ui/chart/timechart.h"
#include "ui/common/emptystate.h"
#include "ui/gpu/gpucard.h"
#include "ui/gpu/gpupane.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QStackedWidget>
#include <QStandardPaths>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>

using namespace kf;

namespace {
// Connects this machine, shows its pane with these options and waits for its cards.
void showLocal(test::ShownGpuPane& shown, LocalHostConnection& host, const GpuMonitor::Options& options, int cards)
{
    host.connectToHost();
    shown.show(&host, options, QSize(1100, 800));
    if (QTest::currentTestFailed())
        return;
    QTRY_COMPARE_WITH_TIMEOUT(shown.pane->cardCount(), cards, 30000);
}
} // namespace

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
        // The replay's made-up processes (no demo server runs here to own the GPUs).
        options.env.insert(QStringLiteral("KF_DEMO_MADE_UP_PROCESSES"), QStringLiteral("1"));
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
        // Issue #38 (item 8): the list replaces the empty state once there is an alert.
        QCOMPARE(pane.findChild<QStackedWidget*>(QStringLiteral("gpuAlertStack"))->currentWidget(),
            static_cast<QWidget*>(alerts));

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

    // Issue #38 (item 8): the Alerts tab was blank with nothing to say; it says there are none
    // and what would be listed.
    void alertsTabSaysWhenThereAreNone()
    {
        LocalHostConnection host(test::localProfile()); // never connected: no sample, no alert
        GpuMonitorHub hub;
        AppContext ctx;
        ctx.gpuMonitors = &hub;
        GpuPane pane(ctx, &host);
        pane.resize(1024, 640);
        pane.show();
        QVERIFY(QTest::qWaitForWindowExposed(&pane));
        auto* stack = pane.findChild<QStackedWidget*>(QStringLiteral("gpuAlertStack"));
        QVERIFY(stack);
        auto* tabs = qobject_cast<QTabWidget*>(stack->parentWidget()->parentWidget());
        QVERIFY(tabs);
        tabs->setCurrentWidget(stack);
        auto* empty = pane.findChild<EmptyState*>(QStringLiteral("gpuNoAlerts"));
        QVERIFY(empty);
        QCOMPARE(stack->currentWidget(), static_cast<QWidget*>(empty));
        QTRY_VERIFY_WITH_TIMEOUT(empty->isVisible(), 10000);
        QStringList said;
        for (const QLabel* l : empty->findChildren<QLabel*>())
            said << l->text();
        QVERIFY2(said.contains(QStringLiteral("No alerts")), qPrintable(said.join(u'|')));
        QVERIFY2(said.join(u' ').contains(QStringLiteral("too hot")), qPrintable(said.join(u'|')));
        QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("gpupane-no-alerts"))));
    }

    // GPM streams beside the query (the demo's dmon models it): the cards' GPM line, the detail
    // chart's GPM metrics and the CSV export's columns.
    void gpmOnCardsChartAndExport()
    {
        LocalHostConnection host(test::localProfile());
        GpuMonitor::Options options;
        options.processIntervalMs = 0;
        options.env.insert(QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("2"));
        test::ShownGpuPane shown;
        showLocal(shown, host, options, 2);
        if (QTest::currentTestFailed())
            return;
        GpuPane& pane = *shown.pane;
        auto* card = pane.findChild<GpuCard*>(QStringLiteral("gpuCard0"));
        QVERIFY(card);
        QTRY_VERIFY_WITH_TIMEOUT(card->gpmText().startsWith(QStringLiteral("GPM: SM ")), 60000);
        QVERIFY2(card->gpmText().contains(QStringLiteral(" · tensor "))
                && card->gpmText().contains(QStringLiteral(" · DRAM ")),
            qPrintable(card->gpmText()));
        QVERIFY2(pane.gpmStatusText().startsWith(QStringLiteral("GPM through nvidia-smi dmon every 1 s (SM active, "
                                                                "SM occupancy, Tensor active, DRAM active")),
            qPrintable(pane.gpmStatusText()));
        QTRY_VERIFY_WITH_TIMEOUT(pane.monitor()->history().series(0, GpuField::TensorActive)
                && pane.monitor()->history().series(0, GpuField::TensorActive)->levelSize(0) >= 2,
            30000);
        pane.setMetric(GpuField::TensorActive);
        pane.setWindowIndex(0);
        pane.refreshChart();
        QCOMPARE(pane.detailChart()->seriesCount(), 2);
        QVERIFY(pane.detailChart()->pointCount() >= 2);
        QTemporaryDir dir;
        const QString csv = dir.filePath(QStringLiteral("gpus.csv"));
        QCOMPARE(pane.exportCsv(csv), QString());
        QFile f(csv);
        QVERIFY(f.open(QIODevice::ReadOnly));
        const QList<QByteArray> rows = f.readAll().trimmed().split('\n');
        const QList<QByteArray> header = rows.first().split(',');
        const qsizetype tensor = header.indexOf("tensor_active_pct");
        QVERIFY(tensor > 0);
        QVERIFY(std::any_of(rows.cbegin() + 1, rows.cend(),
            [&](const QByteArray& r) { return !r.split(',').value(tensor).isEmpty(); }));
        QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("gpupane-gpm"))));
    }

    // The second demo mode: Ampere GPUs without GPM. The pane says why, the cards say n/a, and
    // the health tab lists the hot GPU's faults with its verdict on its card.
    void gpmUnavailableSaysWhyAndHealthIsShown()
    {
        LocalHostConnection host(test::localProfile());
        GpuMonitor::Options options;
        options.processIntervalMs = 0;
        options.env.insert(QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("2"));
        options.env.insert(QStringLiteral("KF_DEMO_GPU_MODELS"), QStringLiteral("NVIDIA A100-SXM4-80GB=8.0"));
        options.env.insert(QStringLiteral("KF_DEMO_HOT_GPU"), QStringLiteral("1"));
        options.healthIntervalMs = 10 * 60 * 1000; // as the app's hub has it
        test::ShownGpuPane shown;
        showLocal(shown, host, options, 2);
        if (QTest::currentTestFailed())
            return;
        GpuPane& pane = *shown.pane;
        QTRY_VERIFY_WITH_TIMEOUT(pane.monitor()->gpm().phase == GpuMonitor::GpmStatus::Phase::Unavailable, 60000);
        QCOMPARE(pane.gpmStatusText(),
            QStringLiteral("GPM not available: GPUs 0, 1: NVIDIA A100-SXM4-80GB, compute capability 8.0, predates "
                           "Hopper: GPM needs compute capability 9.0 or newer"));
        auto* card = pane.findChild<GpuCard*>(QStringLiteral("gpuCard1"));
        QVERIFY(card);
        QTRY_COMPARE_WITH_TIMEOUT(card->gpmText(), QStringLiteral("GPM: n/a"), 10000);
        QVERIFY(!pane.monitor()->history().series(0, GpuField::SmActive)); // nothing charted, nothing held

        QTRY_VERIFY_WITH_TIMEOUT(pane.monitor()->hasHealth(), 60000);
        QVERIFY2(card->healthText().startsWith(QStringLiteral("Health: unhealthy: ")), qPrintable(card->healthText()));
        QVERIFY(card->healthText().contains(QStringLiteral("Xid 48 (double-bit ECC error)")));
        QCOMPARE(pane.findChild<GpuCard*>(QStringLiteral("gpuCard0"))->healthText(), QStringLiteral("Health: healthy"));
        QListWidget* health = pane.healthList();
        QVERIFY(health->count() >= 3);
        QVERIFY2(health->item(0)->text().contains(QStringLiteral("2 GPU(s): 1 healthy, 1 unhealthy")),
            qPrintable(health->item(0)->text()));
        QVERIFY(health->findItems(QStringLiteral("GPU 1  fail  rows are pending remapping"), Qt::MatchStartsWith).size()
            == 1);
        QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("gpupane-nogpm-health"))));
    }
};

QTEST_MAIN(TestGpuPane)
#include "tst_gpupane.moc"
