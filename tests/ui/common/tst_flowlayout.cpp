// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// FlowLayout: a row of buttons wraps onto more rows when narrow (its minimum is its widest
// item), never overlaps or leaves its rectangle, and gives a row's spare width to the
// expanding items.
#include "ui/common/flowlayout.h"

#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <QtTest>

using namespace kf;

class TestFlowLayout : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void wrapsWhenNarrow()
    {
        QWidget window;
        auto* outer = new QVBoxLayout(&window);
        auto* flow = new FlowLayout;
        QList<QPushButton*> buttons;
        for (int i = 0; i < 6; ++i) {
            buttons << new QPushButton(QStringLiteral("A rather long button %1").arg(i), &window);
            flow->addWidget(buttons.last());
        }
        auto* edit = new QLineEdit(&window);
        flow->addWidget(edit);
        outer->addLayout(flow);
        outer->addStretch(1);
        int widest = 0;
        for (QPushButton* b : buttons)
            widest = qMax(widest, b->sizeHint().width());
        QVERIFY(flow->minimumSize().width() < 2 * widest); // one item, not the whole row
        QVERIFY(flow->sizeHint().width() > 6 * widest);    // the whole row when there is room

        window.resize(flow->sizeHint().width() + 40, 300);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        const int oneRow = flow->heightForWidth(flow->geometry().width());
        QCOMPARE(buttons.first()->y(), buttons.last()->y());
        QVERIFY(edit->width() >= edit->sizeHint().width()); // expanding: the spare width

        window.resize(widest + 30, 600);
        QApplication::processEvents();
        QVERIFY(flow->heightForWidth(flow->geometry().width()) > 3 * oneRow);
        QList<QWidget*> all(buttons.cbegin(), buttons.cend());
        all << edit;
        for (int i = 0; i < all.size(); ++i) {
            QVERIFY2(flow->geometry().contains(all[i]->geometry()), qPrintable(QString::number(i)));
            QVERIFY(all[i]->width() >= all[i]->minimumSizeHint().width());
            for (int j = i + 1; j < all.size(); ++j)
                QVERIFY(!all[i]->geometry().intersects(all[j]->geometry()));
        }
        QVERIFY(buttons.last()->y() > buttons.first()->y());
    }
};

QTEST_MAIN(TestFlowLayout)
#include "tst_flowlayout.moc"
