// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The window's keys, pressed as a person presses them (offscreen): Ctrl+1..Ctrl+N show the tabs
// in the order shown, Ctrl+Tab / Ctrl+Shift+Tab cycle them even from the sidebar, and Help >
// Keyboard Shortcuts lists every shortcut an action of the window has, plus the views' own keys.
#include "core/hosts/hostmanager.h"
#include "tests/support/testsupport.h"
#include "ui/common/shortcutinfo.h"
#include "ui/mainwindow.h"

#include <QAction>
#include <QApplication>
#include <QListView>
#include <QMenuBar>
#include <QShortcut>
#include <QTabWidget>
#include <QTimer>
#include <QTreeWidget>
#include <QtTest>

using namespace kf;

class TestKeyboard : public QObject
{
    Q_OBJECT
    HostManager m_hosts;
    std::unique_ptr<MainWindow> m_window;

private Q_SLOTS:
    void initTestCase()
    {
        test::isolateAppState(QStringLiteral("kernelforge-keyboard"));
        HostProfile local;
        local.name = QStringLiteral("This machine");
        local.isLocal = true;
        m_hosts.add(local)->connectToHost();
        AppContext ctx;
        ctx.hosts = &m_hosts;
        m_window = std::make_unique<MainWindow>(ctx);
        m_window->resize(1400, 850);
        m_window->show();
        m_window->activateWindow(); // X without a window manager activates nothing by itself
        QVERIFY(QTest::qWaitForWindowActive(m_window.get()));
        m_window->selectHost(QStringLiteral("This machine"));
    }
    void cleanupTestCase() { m_window.reset(); }

    void ctrlDigitShowsTheTabsInOrder()
    {
        QTabWidget* tabs = m_window->tabs();
        QVERIFY(tabs->count() >= 6);
        for (int i = tabs->count() - 1; i >= 0; --i) {
            QTest::keyClick(m_window.get(), Qt::Key(Qt::Key_1 + i), Qt::ControlModifier);
            QCOMPARE(tabs->currentIndex(), i);
        }
        // The order is the one shown, named by the one tab-name table.
        QTest::keyClick(m_window.get(), Qt::Key_4, Qt::ControlModifier);
        QCOMPARE(tabs->currentWidget(), m_window->tab(MainWindow::Tab::Gpus));
    }

    void ctrlTabCyclesFromTheSidebar()
    {
        QTabWidget* tabs = m_window->tabs();
        QListView* list = m_window->hostList();
        m_window->showTab(MainWindow::Tab::Overview);
        list->setFocus();
        QTRY_VERIFY(list->hasFocus());
        QTest::keyClick(list, Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(tabs->currentWidget(), m_window->tab(MainWindow::Tab::Patches));
        QVERIFY(list->hasFocus()); // the sidebar keeps the focus
        QTest::keyClick(list, Qt::Key_Tab, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(tabs->currentWidget(), m_window->tab(MainWindow::Tab::Overview));
        // Backwards from the first wraps to the last; X11 sends Ctrl+Shift+Tab as Backtab.
        QTest::keyClick(list, Qt::Key_Backtab, Qt::ControlModifier | Qt::ShiftModifier);
        QCOMPARE(tabs->currentIndex(), tabs->count() - 1);
        QTest::keyClick(list, Qt::Key_Tab, Qt::ControlModifier);
        QCOMPARE(tabs->currentIndex(), 0);
    }

    void shortcutListNamesEveryShortcut()
    {
        // Every action of the window that has a shortcut, found independently of the list's code.
        QStringList expected;
        for (const QAction* a : m_window->findChildren<QAction*>())
            for (const QKeySequence& k : a->shortcuts())
                if (!a->menu())
                    expected << k.toString(QKeySequence::NativeText);
        // And the views' QShortcuts (the review's n / p: the Patches pane of the selected host).
        m_window->showTab(MainWindow::Tab::Patches);
        const QList<QShortcut*> viewKeys = m_window->findChildren<QShortcut*>();
        QVERIFY(!viewKeys.isEmpty());
        for (const QShortcut* s : viewKeys)
            for (const QKeySequence& k : s->keys())
                expected << k.toString(QKeySequence::NativeText);
        QVERIFY(expected.size() >= 12); // Ctrl+1..7, next/previous tab, preferences, quit, connect, delete

        QStringList keys, actions;
        QTimer::singleShot(0, qApp, [&] {
            QWidget* dialog = QApplication::activeModalWidget();
            QVERIFY(dialog);
            QCOMPARE(dialog->objectName(), QStringLiteral("shortcutsDialog"));
            auto* list = dialog->findChild<QTreeWidget*>(QStringLiteral("shortcutList"));
            QVERIFY(list);
            for (int i = 0; i < list->topLevelItemCount(); ++i) {
                keys << list->topLevelItem(i)->text(0).split(QStringLiteral(", "));
                actions << list->topLevelItem(i)->text(1);
            }
            dialog->resize(720, 640);
            dialog->grab().save(test::screenshotPath(QStringLiteral("keyboard-shortcuts")));
            QTest::keyClick(dialog, Qt::Key_Escape);
        });
        m_window->findChild<QAction*>(QStringLiteral("keyboardShortcuts"))->trigger();
        for (const QString& k : expected)
            QVERIFY2(keys.contains(k), qPrintable(k + QStringLiteral(" is not listed: ") + keys.join(u'|')));
        // The tabs by their names, and the review's own keys.
        QVERIFY(actions.contains(QStringLiteral("GPUs")));
        QVERIFY(actions.contains(QStringLiteral("Next Tab")));
        for (const char* k : { "Ctrl+1", "Ctrl+Tab", "N", "F7", "Shift+F7", "Space", "A", "R" })
            QVERIFY2(keys.contains(QString::fromLatin1(k)), k);
    }
};

QTEST_MAIN(TestKeyboard)
#include "tst_keyboard.moc"
