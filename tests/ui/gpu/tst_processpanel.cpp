// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The GPUs tab's process table on the demo host (a real sshd; the demo nvidia-smi lists one
// real worker process of the SSH user per GPU): columns filled, filter by card, sort, and
// Terminate… with its confirmations, the process really gone on the host.
#include "core/ssh/sshhostconnection.h"
#include "tests/support/gpupanefixture.h"
#include "tests/support/testsupport.h"
#include "ui/gpu/gpucard.h"
#include "ui/gpu/gpupane.h"
#include "ui/gpu/processmodel.h"
#include "ui/gpu/processpanel.h"
#include "ui/gpu/usagebar.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QLabel>
#include <QPushButton>
#include <QStandardPaths>
#include <QTableView>
#include <QtTest>

#include <csignal>

using namespace kf;

namespace {

QString cell(const QAbstractItemModel* m, int row, int column)
{
    return m->index(row, column).data().toString();
}

} // namespace

class TestProcessPanel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { QStandardPaths::setTestModeEnabled(true); }

    void demoHostProcessesFilterSortAndTerminate()
    {
        kf::DemoHost::Options withWorkers; // a worker on every GPU, no server needed
        withWorkers.standingGpuWorkers = true;
        KF_START_DEMO_HOST(demo, withWorkers);
        SshHostConnection host(demo.profile(), nullptr);
        host.connectToHost();
        QTRY_VERIFY_WITH_TIMEOUT(host.state() == ConnectionState::Ready, 60000);
        GpuMonitor::Options options;
        options.processIntervalMs = 1000;
        test::ShownGpuPane shown;
        shown.show(&host, options, QSize(1600, 1000));
        if (QTest::currentTestFailed())
            return;
        GpuPane& pane = *shown.pane;
        QTRY_COMPARE_WITH_TIMEOUT(pane.cardCount(), 8, 60000);
        ProcessPanel* panel = pane.processPanel();
        QVERIFY(panel);
        QTableView* view = panel->view();
        QAbstractItemModel* model = view->model();
        QAbstractItemModelTester tester(model, QAbstractItemModelTester::FailureReportingMode::QtTest);
        // One worker per GPU, each a real process of the SSH user, with every column filled.
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 8, 60000);
        QTRY_VERIFY_WITH_TIMEOUT(cell(model, 0, ProcessModel::Sm).endsWith(u'%'), 30000);
        for (int r = 0; r < 8; ++r) {
            QCOMPARE(cell(model, r, ProcessModel::User), demo.user());
            QVERIFY2(cell(model, r, ProcessModel::Command).contains(QStringLiteral("sglang-demo-worker --tp-rank")),
                qPrintable(cell(model, r, ProcessModel::Command)));
            QVERIFY(cell(model, r, ProcessModel::Memory).endsWith(QStringLiteral("MiB")));
            QVERIFY(cell(model, r, ProcessModel::Cpu).endsWith(u'%'));
            QVERIFY(cell(model, r, ProcessModel::Rss).endsWith(QStringLiteral("MiB")));
            QVERIFY(!test::processGone(cell(model, r, ProcessModel::Pid).toLongLong()));
        }
        QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("gpupane-processes"))));

        // Sort by any column: numbers as numbers.
        view->sortByColumn(ProcessModel::Memory, Qt::DescendingOrder);
        for (int r = 1; r < model->rowCount(); ++r)
            QVERIFY(model->index(r - 1, ProcessModel::Memory).data(ProcessModel::SortRole).toDouble()
                >= model->index(r, ProcessModel::Memory).data(ProcessModel::SortRole).toDouble());
        view->sortByColumn(ProcessModel::Pid, Qt::AscendingOrder);
        for (int r = 1; r < model->rowCount(); ++r)
            QVERIFY(
                cell(model, r - 1, ProcessModel::Pid).toLongLong() < cell(model, r, ProcessModel::Pid).toLongLong());
        view->sortByColumn(ProcessModel::Gpu, Qt::DescendingOrder);
        QCOMPARE(cell(model, 0, ProcessModel::Gpu), QStringLiteral("7"));

        // A click on card 2 highlights it and filters the table; Show all GPUs shows every row.
        auto* card2 = pane.findChild<GpuCard*>(QStringLiteral("gpuCard2"));
        QVERIFY(card2);
        QTest::mouseClick(card2, Qt::LeftButton);
        QCOMPARE(pane.selectedGpu(), 2);
        QVERIFY(card2->isSelected());
        QVERIFY(!pane.findChild<GpuCard*>(QStringLiteral("gpuCard3"))->isSelected());
        QCOMPARE(model->rowCount(), 1);
        QCOMPARE(cell(model, 0, ProcessModel::Gpu), QStringLiteral("2"));
        QVERIFY(pane.grab().save(test::screenshotPath(QStringLiteral("gpupane-gpu2-selected"))));
        auto* showAll = pane.findChild<QPushButton*>(QStringLiteral("gpuProcessShowAll"));
        QVERIFY(showAll && showAll->isVisible());
        showAll->click();
        QCOMPARE(model->rowCount(), 8);
        QCOMPARE(pane.selectedGpu(), -1);
        QVERIFY(!card2->isSelected());

        // Terminate GPU 0's worker: one confirmation naming PID, user and command; TERM ends it.
        panel->setGraceMs(1500);
        QStringList asked;
        panel->setConfirm([&](const QString& title, const QString& text) {
            asked << title + u'\n' + text;
            return true;
        });
        pane.selectGpu(0);
        QCOMPARE(model->rowCount(), 1);
        view->selectRow(0);
        const qint64 pid0 = cell(model, 0, ProcessModel::Pid).toLongLong();
        auto* terminate = pane.findChild<QPushButton*>(QStringLiteral("gpuProcessTerminate"));
        QVERIFY(terminate->isEnabled());
        terminate->click();
        QCOMPARE(asked.size(), 1);
        QVERIFY(asked[0].contains(QStringLiteral("PID %1").arg(pid0)));
        QVERIFY(asked[0].contains(demo.user()));
        QVERIFY(asked[0].contains(QStringLiteral("sglang-demo-worker --tp-rank 0")));
        auto* result = pane.findChild<QLabel*>(QStringLiteral("gpuProcessResult"));
        QTRY_VERIFY_WITH_TIMEOUT(test::processGone(pid0), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(result->text().contains(QStringLiteral("ended after TERM")), 30000);
        QCOMPARE(asked.size(), 1); // no KILL offered: it ended

        // GPU 7's worker ignores TERM: after the grace period KILL is offered (and accepted).
        pane.selectGpu(7);
        QCOMPARE(model->rowCount(), 1);
        view->selectRow(0);
        const qint64 pid7 = cell(model, 0, ProcessModel::Pid).toLongLong();
        terminate->click();
        QTRY_COMPARE_WITH_TIMEOUT(asked.size(), 2 + 1, 30000);
        QVERIFY(asked[2].startsWith(QStringLiteral("Kill process")));
        QVERIFY(asked[2].contains(QStringLiteral("PID %1").arg(pid7)));
        QTRY_VERIFY_WITH_TIMEOUT(test::processGone(pid7), 30000);
        QTRY_VERIFY_WITH_TIMEOUT(result->text().contains(QStringLiteral("sent KILL")), 30000);
        // The next polls list the six workers left.
        pane.selectGpu(-1);
        QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 6, 30000);
        host.disconnectFromHost();
    }

    void othersProcessesSayWhyNot()
    {
        // ps says root owns it; the SSH user is uid 1000: no Terminate, and why.
        ProcessPanel panel(nullptr);
        GpuProcess p;
        p.pid = 4242;
        p.gpuIndex = 0;
        p.uid = 0;
        p.user = QStringLiteral("root");
        p.commandLine = QStringLiteral("python3 -m sglang.launch_server");
        GpuProcessList poll;
        poll.myUid = 1000;
        poll.pmonAvailable = false;
        poll.pmonError = QStringLiteral("pmon is not supported");
        panel.setProcesses({ p }, poll);
        panel.view()->selectRow(0);
        auto* terminate = panel.findChild<QPushButton*>(QStringLiteral("gpuProcessTerminate"));
        QVERIFY(!terminate->isEnabled());
        QVERIFY2(
            terminate->toolTip().contains(QStringLiteral("owned by root (uid 0)")), qPrintable(terminate->toolTip()));
        QVERIFY(panel.findChild<QLabel*>(QStringLiteral("gpuProcessResult"))->text().contains(QStringLiteral("4242")));
        // Without pmon SM % is unknown, not 0.
        QCOMPARE(panel.view()->model()->index(0, ProcessModel::Sm).data().toString(), QStringLiteral("unknown"));
        // The same user may.
        poll.myUid = 0;
        panel.setProcesses({ p }, poll);
        QVERIFY(terminate->isEnabled());
    }

    // nvitop's host line over the table: the CPU's busy share of N CPUs once two polls gave
    // one, and the memory in use of the total; nothing shown for what the poll did not say.
    void hostLineShowsCpuAndMemory()
    {
        ProcessPanel panel(nullptr);
        panel.resize(1000, 400);
        panel.show();
        GpuProcessList poll;
        panel.setProcesses({}, poll);
        QVERIFY(panel.hostCpuBar()->isHidden());
        QVERIFY(panel.hostMemoryBar()->isHidden());
        poll.host.cpus = 64;
        poll.host.memTotalKiB = 512.0 * 1024 * 1024;
        poll.host.memAvailableKiB = 384.0 * 1024 * 1024;
        panel.setProcesses({}, poll);
        QVERIFY2(panel.hostCpuBar()->isHidden(), "one poll has no CPU share yet");
        QVERIFY(!panel.hostMemoryBar()->isHidden());
        QCOMPARE(panel.hostMemoryBar()->text(), QStringLiteral("Host memory 128.0 of 512.0 GiB in use"));
        QCOMPARE(panel.hostMemoryBar()->value(), 250);
        poll.host.cpuPercent = 37.5;
        panel.setProcesses({}, poll);
        QVERIFY(!panel.hostCpuBar()->isHidden());
        QCOMPARE(panel.hostCpuBar()->text(), QStringLiteral("Host CPU 37.5 % of 64 CPUs"));
        QCOMPARE(panel.hostCpuBar()->value(), 375);
    }
};

QTEST_MAIN(TestProcessPanel)
#include "tst_processpanel.moc"
