// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The window at 1024x640 (a laptop screen with a panel): the sidebar keeps host names readable,
// elided to its width with the whole name in the tooltip, and no horizontal scrollbar shows up
// in it for a long name or "user@host:port · Disconnected", nor in any tab's empty state.
// everyTabFits: the demo window with a long host name, every tab (and the Server tab's
// Benchmark view) with its content, is 1024x640: nothing in it needs more, no horizontal
// scrollbar (but a code view's own long lines), no label or button cut.
#include "core/hosts/hostmanager.h"
#include "core/ssh/sshhostconnection.h"
#include "tests/support/testsupport.h"
#include "tests/support/windowdriver.h"
#include "ui/gpu/gpupane.h"
#include "ui/mainwindow.h"

#include <QListView>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTabWidget>
#include <QTableView>
#include <QTextEdit>
#include <QTreeWidget>
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

// The same, less the views that scroll their own content sideways at any window size: code and
// logs whose lines are not wrapped (columns line up), tables wider than their view. A layout
// (a pane, a scroll area around a pane's part) never does.
QStringList layoutHorizontalScrollBars(QWidget* root)
{
    QStringList out;
    for (const QScrollBar* bar : root->findChildren<QScrollBar*>()) {
        if (bar->orientation() != Qt::Horizontal || !bar->isVisible())
            continue;
        const QWidget* area = bar->parentWidget()->parentWidget();
        const auto* plain = qobject_cast<const QPlainTextEdit*>(area);
        const auto* rich = qobject_cast<const QTextEdit*>(area);
        if ((plain && plain->lineWrapMode() == QPlainTextEdit::NoWrap)
            || (rich && rich->lineWrapMode() == QTextEdit::NoWrap) || qobject_cast<const QTreeView*>(area)
            || qobject_cast<const QTableView*>(area))
            continue;
        out << area->objectName() + QStringLiteral("/") + QString::fromLatin1(area->metaObject()->className());
    }
    return out;
}

// The chain of widgets under root that holds its minimum size up: each step the visible child
// with the largest minimum (width or height), as "class#name WxH".
QString minimumChain(QWidget* root, Qt::Orientation o)
{
    QStringList chain;
    for (QWidget* w = root; w;) {
        const QSize m = w->minimumSizeHint().expandedTo(w->minimumSize());
        chain << QString::fromLatin1(w->metaObject()->className()) + u'#' + w->objectName()
                + QStringLiteral(" %1x%2").arg(m.width()).arg(m.height());
        QWidget* next = nullptr;
        int most = -1;
        for (QWidget* c : w->findChildren<QWidget*>(Qt::FindDirectChildrenOnly)) {
            if (!c->isVisible() || c->isWindow())
                continue;
            const QSize cm = c->minimumSizeHint().expandedTo(c->minimumSize());
            const int v = o == Qt::Horizontal ? cm.width() : cm.height();
            if (v > most) {
                most = v;
                next = c;
            }
        }
        w = next;
    }
    return chain.join(QStringLiteral(" > "));
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

    void everyTabFits()
    {
        KF_START_DEMO_HOST(demo);
        test::DemoWindow dw;
        dw.open(demo, kLongName); // the long name: titles and status lines that could widen panes
        if (QTest::currentTestFailed())
            return;
        MainWindow& w = *dw.window;
        using Tab = MainWindow::Tab;
        // The tabs with their content, as a person sees them: facts read, the patch set planned,
        // the 8 GPUs' cards.
        test::waitForFactsAndPlan(w);
        if (QTest::currentTestFailed())
            return;
        w.showTab(Tab::Gpus);
        auto* gpus = qobject_cast<GpuPane*>(w.pane(Tab::Gpus));
        QVERIFY(gpus);
        QTRY_COMPARE_WITH_TIMEOUT(gpus->cardCount(), 8, 60000);

        w.resize(1024, 640);
        const QList<std::pair<Tab, QString>> tabs = test::everyTab();
        QCOMPARE(w.tabs()->count(), tabs.size()); // a new tab is added here too
        const QSize small(1024, 640);
        auto checkFits = [&](const QString& name) {
            QApplication::processEvents();
            w.resize(small);
            QApplication::processEvents();
            QWidget* page = w.tabs()->currentWidget();
            QVERIFY2(w.minimumSizeHint().width() <= small.width() && w.width() <= small.width(),
                qPrintable(name
                    + QStringLiteral(": the window is %1 px wide (minimum %2): ")
                          .arg(w.width())
                          .arg(w.minimumSizeHint().width())
                    + minimumChain(page, Qt::Horizontal)));
            QVERIFY2(w.minimumSizeHint().height() <= small.height() && w.height() <= small.height(),
                qPrintable(name
                    + QStringLiteral(": the window is %1 px tall (minimum %2): ")
                          .arg(w.height())
                          .arg(w.minimumSizeHint().height())
                    + minimumChain(page, Qt::Vertical)));
            QVERIFY(w.grab().save(test::screenshotPath(QStringLiteral("window-1024x640-") + name)));
            QVERIFY2(layoutHorizontalScrollBars(&w).isEmpty(),
                qPrintable(name + QStringLiteral(": ") + layoutHorizontalScrollBars(&w).join(u' ')));
            const QStringList clipped = test::clippedLabels(&w);
            QVERIFY2(clipped.isEmpty(), qPrintable(name + QStringLiteral(": ") + clipped.join(QStringLiteral("; "))));
            QVERIFY2(!w.hostList()->horizontalScrollBar()->isVisible(), qPrintable(name));
            const QStringList squeezed = test::squeezedControls(&w);
            QVERIFY2(squeezed.isEmpty(), qPrintable(name + QStringLiteral(": ") + squeezed.join(QStringLiteral("; "))));
        };
        for (const auto& [tab, name] : tabs) {
            w.showTab(tab);
            checkFits(name);
            if (QTest::currentTestFailed())
                return;
        }
        // The key status lines are there and whole (checkFits found none cut).
        auto* gpuStatus = w.pane(Tab::Gpus)->findChild<QLabel*>(QStringLiteral("gpuStatus"));
        QVERIFY(gpuStatus && gpuStatus->text().contains(kLongName));
        // The Server tab's other view.
        w.showTab(Tab::Server);
        auto* views = w.pane(Tab::Server)->findChild<QTabWidget*>(QStringLiteral("serverViews"));
        QVERIFY(views);
        views->setCurrentWidget(views->findChild<QWidget*>(QStringLiteral("benchPanel")));
        checkFits(QStringLiteral("server-benchmark"));
    }
};

QTEST_MAIN(TestSmallWindow)
#include "tst_smallwindow.moc"
