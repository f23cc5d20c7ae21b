// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #38, items 1 and 3: the demo window at 1024x640 and 1440x900 gives the room to what a
// person reads. Patches: the tree's names get the room (every file name whole, every name whole
// in its tooltip), the Status column is as wide as its words and does not jump when a status
// changes, the host sidebar folds away (Ctrl+B) and the diff gets the width. GPUs: the process
// table shows many rows, and no part of the splitter can be crushed (nor come back crushed).
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/diff/diffview.h"
#include "ui/gpu/gpupane.h"
#include "ui/gpu/processpanel.h"

#include <QHeaderView>
#include <QListView>
#include <QSettings>
#include <QSplitter>
#include <QTableView>
#include <QTextDocument>
#include <QTreeWidget>
#include <QTreeWidgetItemIterator>
#include <QtTest>

using namespace kf;
using Tab = MainWindow::Tab;

namespace {

// The width item's text needs in the tree's first column: its indentation, check box and icon.
int neededWidth(QTreeWidget* tree, QTreeWidgetItem* item)
{
    int depth = 1; // the root is decorated
    for (QTreeWidgetItem* p = item->parent(); p; p = p->parent())
        ++depth;
    int extra = 8; // the item's margins
    if (item->data(0, Qt::CheckStateRole).isValid())
        extra += tree->style()->pixelMetric(QStyle::PM_IndicatorWidth) + 4;
    if (!item->icon(0).isNull())
        extra += tree->iconSize().width() + 4;
    return depth * tree->indentation() + extra + QFontMetrics(item->font(0)).horizontalAdvance(item->text(0));
}

} // namespace

class TestRoomWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateAppState(QStringLiteral("kernelforge-roomwindow")); }

    void patchReviewHasRoom()
    {
        KF_START_DEMO_HOST(demo);
        test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        MainWindow& w = *dw.window;
        test::waitForFactsAndPlan(w);
        if (QTest::currentTestFailed())
            return;
        QWidget* pane = w.pane(Tab::Patches);
        auto* tree = pane->findChild<QTreeWidget*>(QStringLiteral("patchTree"));
        auto* diff = pane->findChild<DiffView*>();
        QVERIFY(tree && diff);
        QHeaderView* header = tree->header();
        const int statusWords = tree->fontMetrics().horizontalAdvance(QStringLiteral("partly (1 of 2 hunks)"));

        // namesWhole: where file names fit whole (at 1024x640 with the sidebar, cut in the middle).
        auto check = [&](QSize size, bool sidebar, const QString& name, bool namesWhole) {
            w.setSidebarShown(sidebar);
            w.resize(size);
            QApplication::processEvents();
            QTRY_COMPARE_WITH_TIMEOUT(w.size(), size, 10000);
            QTRY_COMPARE_WITH_TIMEOUT(w.isSidebarShown(), sidebar, 10000);
            QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("room-patches-") + name)));
            const QString where = name
                + QStringLiteral(": name column %1 px, status %2 px, tree %3 px, diff %4 px")
                      .arg(header->sectionSize(0))
                      .arg(header->sectionSize(1))
                      .arg(tree->width())
                      .arg(diff->width());
            // The status column holds its words; the names get more than it.
            QVERIFY2(header->sectionSize(1) >= statusWords, qPrintable(where));
            QVERIFY2(header->sectionSize(0) > header->sectionSize(1), qPrintable(where));
            // Every file name whole; every name whole in its tooltip (cut in the middle on screen).
            for (int i = 0; namesWhole && i < tree->topLevelItemCount(); ++i) {
                QTreeWidgetItem* file = tree->topLevelItem(i);
                QVERIFY2(header->sectionSize(0) >= neededWidth(tree, file),
                    qPrintable(
                        where + QStringLiteral(": '%1' needs %2").arg(file->text(0)).arg(neededWidth(tree, file))));
            }
            for (QTreeWidgetItemIterator it(tree); *it; ++it) {
                QTextDocument tip; // as the tool tip shows it
                tip.setHtml((*it)->toolTip(0));
                QVERIFY2(
                    tip.toPlainText().simplified().contains((*it)->text(0).simplified()), qPrintable((*it)->text(0)));
            }
            QCOMPARE(tree->textElideMode(), Qt::ElideMiddle);
            // The diff keeps the larger part.
            QVERIFY2(diff->width() >= tree->width(), qPrintable(where));
            QVERIFY2(w.hostList()->visibleRegion().isEmpty() != sidebar, qPrintable(where));
        };
        check(QSize(1440, 900), true, QStringLiteral("1440x900"), true);
        check(QSize(1024, 640), true, QStringLiteral("1024x640"), false);
        if (QTest::currentTestFailed())
            return;
        // Ctrl+B: the sidebar folds away and the tabs, the diff with them, get its width.
        const int diffWithSidebar = diff->width();
        const int treeWithSidebar = tree->width();
        w.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&w));
        QTest::keyClick(&w, Qt::Key_B, Qt::ControlModifier);
        QTRY_VERIFY_WITH_TIMEOUT(!w.isSidebarShown(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(diff->width() > diffWithSidebar && tree->width() >= treeWithSidebar, 10000);
        check(QSize(1024, 640), false, QStringLiteral("1024x640-nosidebar"), true);
        if (QTest::currentTestFailed())
            return;

        // A decision that changes a status's words ("will apply" -> "partly (1 of 2 hunks)")
        // moves no column.
        QTreeWidgetItem* fa3 = nullptr;
        for (QTreeWidgetItemIterator it(tree); *it; ++it)
            if ((*it)->childCount() == 2 && (*it)->parent())
                fa3 = *it;
        QVERIFY(fa3);
        const int nameBefore = header->sectionSize(0);
        const int statusBefore = header->sectionSize(1);
        fa3->child(1)->setCheckState(0, Qt::Unchecked);
        QTRY_VERIFY_WITH_TIMEOUT(fa3->text(1).startsWith(QStringLiteral("partly")), 10000);
        QApplication::processEvents();
        QCOMPARE(header->sectionSize(1), statusBefore);
        QCOMPARE(header->sectionSize(0), nameBefore);
        fa3->child(1)->setCheckState(0, Qt::Checked);
        QTRY_VERIFY_WITH_TIMEOUT(!fa3->text(1).startsWith(QStringLiteral("partly")), 10000);
        QCOMPARE(header->sectionSize(1), statusBefore);
        w.setSidebarShown(true);
    }

    void gpuPartsKeepTheirRoom()
    {
        KF_START_DEMO_HOST(demo);
        test::DemoWindow dw;
        dw.open(demo);
        if (QTest::currentTestFailed())
            return;
        MainWindow& w = *dw.window;
        w.showTab(Tab::Gpus);
        auto* gpus = qobject_cast<GpuPane*>(w.pane(Tab::Gpus));
        QVERIFY(gpus);
        QTRY_COMPARE_WITH_TIMEOUT(gpus->cardCount(), 8, 60000);
        w.resize(1440, 900);
        QTRY_COMPARE_WITH_TIMEOUT(w.size(), QSize(1440, 900), 10000);
        QApplication::processEvents();
        auto* table = gpus->processPanel()->findChild<QTableView*>(QStringLiteral("gpuProcessView"));
        auto* split = gpus->findChild<QSplitter*>(QStringLiteral("gpuSplitter"));
        auto* chart = gpus->findChild<QWidget*>(QStringLiteral("gpuDetailChart"));
        QVERIFY(table && split && chart);
        QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("room-gpus-1440x900"))));
        // nvitop shows many processes: at least 8 rows fit the table.
        const int rows = table->viewport()->height() / table->verticalHeader()->defaultSectionSize();
        QVERIFY2(rows >= 8,
            qPrintable(QStringLiteral("%1 rows fit a %2 px table; splitter %3")
                           .arg(rows)
                           .arg(table->viewport()->height())
                           .arg(QStringLiteral("%1/%2/%3")
                                    .arg(split->sizes().value(0))
                                    .arg(split->sizes().value(1))
                                    .arg(split->sizes().value(2)))));

        // Dragged as far as it goes, the chart keeps room for its axis labels and legend.
        const int readable = chart->fontMetrics().height() * 8;
        split->setSizes({ 2000, 1, 2000 });
        QApplication::processEvents();
        QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("room-gpus-1440x900-chart-crushed"))));
        QVERIFY2(chart->height() >= readable, qPrintable(QStringLiteral("chart %1 px").arg(chart->height())));
        split->setSizes({ 1, 2000, 1 });
        QApplication::processEvents();
        QVERIFY2(table->viewport()->height() >= 2 * table->verticalHeader()->defaultSectionSize(),
            qPrintable(QStringLiteral("table %1 px").arg(table->viewport()->height())));
        for (int i = 0; i < split->count(); ++i)
            QVERIFY2(!split->isCollapsible(i), qPrintable(QString::number(i)));

        // A crushed chart kept from an earlier start comes back readable.
        QSettings().setValue(QStringLiteral("gpus/splitterSizes"), QVariantList { 700, 20, 100 });
        dw.showWindow();
        MainWindow& again = *dw.window;
        again.selectHost(QStringLiteral("demo-gpu-server"));
        again.showTab(Tab::Gpus);
        auto* gpus2 = qobject_cast<GpuPane*>(again.pane(Tab::Gpus));
        QVERIFY(gpus2);
        QApplication::processEvents();
        auto* chart2 = gpus2->findChild<QWidget*>(QStringLiteral("gpuDetailChart"));
        QTRY_VERIFY2_WITH_TIMEOUT(
            chart2->height() >= readable, qPrintable(QStringLiteral("chart %1 px").arg(chart2->height())), 10000);
    }
};

QTEST_MAIN(TestRoomWindow)
#include "tst_roomwindow.moc"
