// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// VerticalScrollArea: a tall part of a pane scrolls vertically and never sideways: its minimum
// width is its content's (so nothing is cut on the right), its minimum height small, and with
// room the content fills it.
#include "ui/common/verticalscrollarea.h"

#include <QLabel>
#include <QPushButton>
#include <QScrollBar>
#include <QVBoxLayout>
#include <QtTest>

using namespace kf;

class TestVerticalScrollArea : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void scrollsOnlyVertically()
    {
        auto* content = new QWidget;
        auto* layout = new QVBoxLayout(content);
        for (int i = 0; i < 30; ++i)
            layout->addWidget(new QPushButton(QStringLiteral("A wide button that must stay whole %1").arg(i)));
        QWidget window;
        auto* outer = new QVBoxLayout(&window);
        auto* area = new VerticalScrollArea(content, &window);
        outer->addWidget(area);
        QVERIFY(area->minimumSizeHint().width() >= content->minimumSizeHint().width());
        QVERIFY(area->minimumSizeHint().height() < content->minimumSizeHint().height() / 4);

        window.resize(100, 200); // narrower than the content: the window's minimum wins
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(content->width() >= content->minimumSizeHint().width());
        QVERIFY(area->viewport()->width() >= content->width());
        QVERIFY(!area->horizontalScrollBar()->isVisible());
        QVERIFY(area->verticalScrollBar()->isVisible());

        // A wider content raises the minimum (the layout asks again).
        const int before = area->minimumSizeHint().width();
        layout->addWidget(new QPushButton(QStringLiteral("An even wider button, much wider than all of the others")));
        QApplication::processEvents();
        QVERIFY(area->minimumSizeHint().width() > before);
        QTRY_VERIFY(content->width() >= content->minimumSizeHint().width());

        // With room to spare the content fills the area, no scroll bar.
        window.resize(900, 3000);
        QTRY_VERIFY(!area->verticalScrollBar()->isVisible());
        QCOMPARE(content->width(), area->viewport()->width());
    }
};

QTEST_MAIN(TestVerticalScrollArea)
#include "tst_verticalscrollarea.moc"
