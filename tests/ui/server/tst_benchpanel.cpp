// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #17: the Server pane's Benchmark tab in the real window on the demo host (a real sshd,
// every request a direct-tcpip channel) against the demo SGLang server. A sweep fills the
// chart and the table, is stored (and so on the host's timeline) and shows the published
// result that matches its workload only; two stored runs compare side by side; Cancel
// leaves no request running on the server; a run is removed.
#include "core/servebench/benchstore.h"
#include "core/servebench/servebench.h"
#include "core/store/database.h"
#include "core/timeline/eventstore.h"
#include "core/timeline/hostkey.h"
#include "tests/support/demosglangserver.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/chart/sweepchart.h"
#include "ui/server/benchpanel.h"
#include "ui/server/benchresultview.h"
#include "ui/server/serverpane.h"

#include <QAbstractScrollArea>
#include <QApplication>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QScrollBar>
#include <QSettings>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QTreeWidget>
#include <QtTest>

using namespace kf;
using test::shown;
using test::showTab;

namespace {

// Shown without scrolling: inside the viewport of its scroll area as that stands, unscrolled,
// and inside the window.
bool inViewWithoutScrolling(QWidget* w)
{
    if (!w->isVisible())
        return false;
    QAbstractScrollArea* area = nullptr;
    for (QWidget* p = w->parentWidget(); p && !area; p = p->parentWidget())
        area = qobject_cast<QAbstractScrollArea*>(p);
    const QRect inWindow(w->mapTo(w->window(), QPoint(0, 0)), w->size());
    if (!w->window()->rect().contains(inWindow))
        return false;
    if (!area)
        return true;
    const QRect inView(w->mapTo(area->viewport(), QPoint(0, 0)), w->size());
    return area->verticalScrollBar()->value() == 0 && area->viewport()->rect().contains(inView);
}

void setField(BenchPanel* panel, const char* name, int value)
{
    panel->findChild<QSpinBox*>(QString::fromLatin1(name))->setValue(value);
}

BenchRun runSweep(BenchPanel* panel)
{
    QSignalSpy finished(panel, &BenchPanel::runFinished);
    QSignalSpy listed(panel, &BenchPanel::runsListed);
    auto* start = panel->findChild<QPushButton*>(QStringLiteral("startBench"));
    if (!start->isEnabled())
        return {};
    QTest::mouseClick(start, Qt::LeftButton);
    if (!finished.wait(240000))
        return {};
    const BenchRun run = finished.first().first().value<BenchRun>();
    // The stored runs are read again once it is stored.
    if (!listed.wait(30000))
        return {};
    return run;
}

} // namespace

class TestBenchPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        QApplication::setOrganizationName(QStringLiteral("kernelforge-test"));
        QApplication::setApplicationName(QStringLiteral("kernelforge-benchpanel"));
        QSettings().clear();
        store::setDatabasePath(m_dir.filePath(QStringLiteral("history.sqlite")));
        // A published result that matches the sweep below at concurrency 4 only (the user's copy).
        qputenv("XDG_CONFIG_HOME", m_dir.filePath(QStringLiteral("config")).toUtf8());
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("config"))));
        QFile refs(userReferencePath());
        QVERIFY(refs.open(QIODevice::WriteOnly));
        refs.write("results:\n"
                   "  - model: Qwen3.5 397B\n    gpu: H200\n    gpus: 8\n    precision: FP4\n"
                   "    server: SGLang 0.5.6\n    input_len: 32\n    output_len: 12\n    concurrency: 4\n"
                   "    throughput: output\n    tok_s: 1600\n    source: https://example.org/qwen-h200\n");
    }

    void sweepStoreCompareCancelRemove()
    {
        test::DemoSglangServer server;
        QVERIFY(server.start(
            QStringList { QStringLiteral("--tp"), QStringLiteral("8") } + test::DemoSglangServer::kQuietArgs));
        QVERIFY(server.waitHealthy());
        KF_START_DEMO_HOST(demo);
        test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        QWidget* tab = showTab(dw.window->tabs(), QStringLiteral("Server"));
        auto* pane = shown<ServerPane>(tab);
        QVERIFY(pane);
        ServerLaunchProfile profile = pane->profile();
        profile.port = server.port();
        pane->setProfile(profile);
        auto* views = pane->findChild<QTabWidget*>(QStringLiteral("serverViews"));
        QVERIFY(views);
        views->setCurrentWidget(pane->benchPanel());
        BenchPanel* panel = shown<BenchPanel>(tab);
        QVERIFY(panel);
        BenchResultView* view = panel->resultView();

        // A bad concurrency list is refused at the field.
        panel->findChild<QLineEdit*>(QStringLiteral("benchConcurrency"))->setText(QStringLiteral("1,x"));
        QVERIFY(!panel->findChild<QPushButton*>(QStringLiteral("startBench"))->isEnabled());
        QVERIFY(shown<QLabel>(tab, QStringLiteral("benchHint"))->text().contains(QStringLiteral("'x'")));

        // A small sweep: concurrency 1 and 4, 6 requests each, short prompts and outputs.
        panel->findChild<QLineEdit*>(QStringLiteral("benchConcurrency"))->setText(QStringLiteral("1, 4"));
        setField(panel, "benchRequests", 6);
        setField(panel, "benchInputLen", 32);
        setField(panel, "benchOutputLen", 12);
        const BenchRun first = runSweep(panel);
        QVERIFY2(first.status == QLatin1String("completed"), qPrintable(first.status + u' ' + first.error));
        QCOMPARE(first.params.serverPort, server.port()); // the pane's port
        QCOMPARE(first.levels.size(), 2);
        QVERIFY(first.id > 0);
        QCOMPARE(view->chart()->pointCount(), 2);
        QCOMPARE(view->table()->columnCount(), 2);
        QCOMPARE(view->table()->item(0, 1)->text(), QStringLiteral("6 / 6"));
        const QString tokS = view->table()->item(1, 1)->text(); // output tok/s at c=4
        QVERIFY2(tokS.toDouble() > 0, qPrintable(tokS));
        QVERIFY(view->header()->text().contains(QStringLiteral("completed")));
        QVERIFY(view->notes()->text().contains(QStringLiteral("the server's own")));
        // The matching published result next to c=4, and none next to c=1.
        const QString refs = view->references()->text();
        QVERIFY2(refs.contains(QStringLiteral("c=4: <b>Qwen3.5 397B</b>")), qPrintable(refs));
        QVERIFY(!refs.contains(QStringLiteral("c=1:")));
        QVERIFY(refs.contains(QStringLiteral("1600 output tok/s (200 per GPU)")));
        // Stored under the host's key, listed, and on the host's timeline.
        const QString host = timeline::hostKey(dw.host->profile());
        QCOMPARE(first.host, host);
        QCOMPARE(panel->listedRuns(), (QList<qint64> { first.id }));
        timeline::Query q;
        q.host = host;
        q.kinds = { timeline::kind::BenchRun };
        const auto events = timeline::events(q);
        QVERIFY2(events, qPrintable(events.error()));
        QCOMPARE(events->size(), 1);
        const QString summary = events->first().summary;
        QVERIFY2(summary.startsWith(QStringLiteral("Serving benchmark #%1 completed: Qwen/Qwen3.5-397B-A17B-NVFP4, 2 "
                                                   "levels, up to ")
                                        .arg(first.id)),
            qPrintable(summary));
        // Issue #38 (item 7): at 1440x900 the stored runs' buttons are in view, no scrolling.
        QCOMPARE(dw.window->size(), QSize(1440, 900));
        for (const char* name : { "compareBenchRuns", "replayBenchRun", "removeBenchRuns" })
            QVERIFY2(inViewWithoutScrolling(shown<QPushButton>(tab, QString::fromLatin1(name))), name);
        // Issue #35: the analysis and the context are said; the chart is per GPU against per user.
        QVERIFY2(view->notes()->text().contains(QStringLiteral("<b>Context</b>: KernelForge")),
            qPrintable(view->notes()->text()));
        QVERIFY(view->notes()->text().contains(QStringLiteral("steady")));
        QCOMPARE(view->yAxis()->currentData().toByteArray(), QByteArray("output_tok_s_per_gpu"));
        QCOMPARE(view->xAxis()->currentData().toByteArray(), QByteArray("output_tok_s_per_user"));
        QVERIFY(dw.window->grab().save(test::screenshotPath(QStringLiteral("server-benchmark"))));
        // The README's picture of the tab (docs/images/server-benchmark.png is this one).
        QVERIFY(panel->grab().save(test::screenshotPath(QStringLiteral("benchpanel"))));

        // A second run of the same workload; the two side by side.
        const BenchRun second = runSweep(panel);
        QVERIFY2(second.status == QLatin1String("completed"), qPrintable(second.error));
        QCOMPARE(panel->listedRuns(), (QList<qint64> { second.id, first.id }));
        auto* runs = shown<QTreeWidget>(tab, QStringLiteral("benchRuns"));
        runs->clearSelection();
        runs->topLevelItem(0)->setSelected(true);
        runs->topLevelItem(1)->setSelected(true);
        QSignalSpy compared(panel, &BenchPanel::comparisonShown);
        QTest::mouseClick(shown<QPushButton>(tab, QStringLiteral("compareBenchRuns")), Qt::LeftButton);
        QVERIFY(compared.wait(30000));
        QCOMPARE(compared.first().at(0).toLongLong(), first.id); // the older is A
        QCOMPARE(view->chart()->curves().size(), 2);
        QCOMPARE(view->chart()->pointCount(), 4);
        QCOMPARE(view->table()->columnCount(), 6); // A, B and the change per level
        QCOMPARE(view->table()->horizontalHeaderItem(3)->text(), QStringLiteral("c=4 A"));
        QVERIFY2(view->header()->text().contains(QStringLiteral("Same workload")), qPrintable(view->header()->text()));
        QVERIFY(dw.window->grab().save(test::screenshotPath(QStringLiteral("server-benchmark-compare"))));

        // Replay the first run: its workload again, on this host's server, stored as a replay.
        runs->clearSelection();
        runs->topLevelItem(1)->setSelected(true);
        QSignalSpy replayed(panel, &BenchPanel::runFinished);
        QSignalSpy relisted(panel, &BenchPanel::runsListed);
        auto* replay = shown<QPushButton>(tab, QStringLiteral("replayBenchRun"));
        QVERIFY(replay->isEnabled());
        QTest::mouseClick(replay, Qt::LeftButton);
        QVERIFY(replayed.wait(240000));
        const BenchRun again = replayed.first().first().value<BenchRun>();
        QVERIFY2(again.status == QLatin1String("completed"), qPrintable(again.error));
        QCOMPARE(again.params.replayOf, first.id);
        QCOMPARE(again.params.concurrencies, first.params.concurrencies);
        QCOMPARE(again.params.requests, 6);
        QVERIFY(relisted.wait(30000));
        QCOMPARE(panel->listedRuns().size(), 3);

        // Cancel while every request is in flight: none is left running on the server.
        panel->findChild<QLineEdit*>(QStringLiteral("benchConcurrency"))->setText(QStringLiteral("6"));
        setField(panel, "benchRequests", 30);
        setField(panel, "benchOutputLen", 20000);
        const double abortedBefore = server.aborted();
        QSignalSpy finished(panel, &BenchPanel::runFinished);
        QTest::mouseClick(shown<QPushButton>(tab, QStringLiteral("startBench")), Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(server.running(), 6.0, 60000);
        auto* cancel = shown<QPushButton>(tab, QStringLiteral("cancelBench"));
        QVERIFY(cancel->isEnabled());
        QTest::mouseClick(cancel, Qt::LeftButton);
        QVERIFY(finished.wait(60000));
        const BenchRun cancelled = finished.first().first().value<BenchRun>();
        QCOMPARE(cancelled.status, QStringLiteral("cancelled"));
        QTRY_COMPARE_WITH_TIMEOUT(server.running(), 0.0, 30000);
        QTRY_VERIFY_WITH_TIMEOUT(server.aborted() >= abortedBefore + 6, 30000);
        QVERIFY(shown<QLabel>(tab, QStringLiteral("benchState"))->text().startsWith(QStringLiteral("Cancelled")));
        QVERIFY(!cancel->isEnabled());
        QTRY_COMPARE_WITH_TIMEOUT(panel->listedRuns().size(), 4, 30000);

        // Remove the cancelled run: gone from the list and the history.
        QString question;
        panel->setConfirmHandler([&question](const QString& q) {
            question = q;
            return true;
        });
        runs->clearSelection();
        runs->topLevelItem(0)->setSelected(true);
        QSignalSpy listed(panel, &BenchPanel::runsListed);
        QTest::mouseClick(shown<QPushButton>(tab, QStringLiteral("removeBenchRuns")), Qt::LeftButton);
        QVERIFY(question.contains(QString::number(cancelled.id)));
        QVERIFY(listed.wait(30000));
        QCOMPARE(panel->listedRuns(), (QList<qint64> { again.id, second.id, first.id }));
        QVERIFY(!benchstore::load(cancelled.id, false));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestBenchPanel)
#include "tst_benchpanel.moc"
