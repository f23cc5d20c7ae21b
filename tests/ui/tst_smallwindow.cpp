// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The window at 1024x640 (a laptop screen with a panel): the sidebar keeps host names readable,
// elided to its width with the whole name in the tooltip, and no horizontal scrollbar shows up
// in it for a long name or "user@host:port · Disconnected", nor in any tab's empty state.
#include "core/hosts/hostmanager.h"
#include "core/ssh/sshhostconnection.h"
#include "tests/support/testsupport.h"
#include "ui/mainwindow.h"

#include <QListView>
#include <QScrollBar>
#include <QTabWidget>
#include <QtTest>

using namespace kf;

namespace {

const QString kLongName = QStringLiteral("gpu-node-017.training-cluster.example.internal");

// The visible horizontal scrollbars under `root`, named by their parent for the message.
QStringList visibleHorizontalScrollBars(QWidget* root)
{
    QStringList out;
    for (const QScrollBar* bar : root->findChildren<QScrollBar*>())
        if (bar->orientation() == Qt::Horizontal && bar->isVisible())
            out << bar->parentWidget()->parentWidget()->objectName() + QStringLiteral("/")
                    + QString::fromLatin1(bar->parentWidget()->parentWidget()->metaObject()->className());
    return out;
}

} // namespace

class TestSmallWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { test::isolateAppState(QStringLiteral("kernelforge-smallwindow")); }

    void sidebarAndEmptyStatesFit()
    {
        HostManager hosts;
        hosts.setFactory(SshHostConnection::factory(nullptr));
        HostProfile local;
        local.name = QStringLiteral("This machine");
        local.isLocal = true;
        hosts.add(local);
        HostProfile far;
        far.name = kLongName;
        far.host = QStringLiteral("gpu-node-017.training-cluster.example.internal");
        far.user = QStringLiteral("researcher");
        far.port = 2222;
        hosts.add(far); // never connected: "Disconnected"
        AppContext ctx;
        ctx.hosts = &hosts;
        MainWindow w(ctx);
        w.resize(1024, 640);
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QListView* list = w.hostList();

        // Nothing selected: every tab shows its empty state, and nothing scrolls sideways.
        list->setCurrentIndex(QModelIndex());
        QCOMPARE(w.currentHost(), nullptr);
        for (int i = 0; i < w.tabs()->count(); ++i) {
            w.tabs()->setCurrentIndex(i);
            QApplication::processEvents();
            QVERIFY2(visibleHorizontalScrollBars(&w).isEmpty(),
                qPrintable(w.tabs()->tabText(i) + QStringLiteral(": ") + visibleHorizontalScrollBars(&w).join(u' ')));
        }
        QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("window-1024x640-first"))));

        // The long, disconnected host selected.
        w.selectHost(kLongName);
        w.showTab(MainWindow::Tab::Overview);
        QApplication::processEvents();
        QVERIFY2(!list->horizontalScrollBar()->isVisible(), "the sidebar scrolls sideways");
        for (int row = 0; row < list->model()->rowCount(); ++row) {
            const QModelIndex index = list->model()->index(row, 0);
            // Rows fit the list; the name is whole in the tooltip.
            QVERIFY2(list->visualRect(index).right() <= list->viewport()->width(),
                qPrintable(QStringLiteral("row %1 is %2 px wide in a %3 px list")
                               .arg(row)
                               .arg(list->visualRect(index).width())
                               .arg(list->viewport()->width())));
            const QString name = index.data(Qt::DisplayRole).toString().section(u'\n', 0, 0);
            QVERIFY2(index.data(Qt::ToolTipRole).toString().contains(name),
                qPrintable(index.data(Qt::ToolTipRole).toString()));
        }
        const QModelIndex far_ = list->model()->index(1, 0);
        QVERIFY(far_.data(Qt::ToolTipRole).toString().contains(kLongName));
        QVERIFY(far_.data(Qt::ToolTipRole).toString().contains(QStringLiteral("researcher@")));
        QVERIFY(far_.data(Qt::ToolTipRole).toString().contains(QStringLiteral("Disconnected")));
        // The sidebar keeps a readable width.
        QVERIFY2(list->width() >= 150, qPrintable(QString::number(list->width())));
        for (int i = 0; i < w.tabs()->count(); ++i) {
            w.tabs()->setCurrentIndex(i);
            QApplication::processEvents();
            QVERIFY2(!list->horizontalScrollBar()->isVisible(), qPrintable(w.tabs()->tabText(i)));
        }
        w.showTab(MainWindow::Tab::Overview);
        QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("window-1024x640-disconnected"))));
    }
};

QTEST_MAIN(TestSmallWindow)
#include "tst_smallwindow.moc"
