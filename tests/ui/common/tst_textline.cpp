// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// markLine: the log view's search hit and the file viewer's diagnostic line are shown the same
// way: the cursor on the line, the line marked across the view's width, optionally selected.
#include "ui/common/textline.h"

#include <QPlainTextEdit>
#include <QTextBlock>
#include <QtTest>

using namespace kf;

class TestTextLine : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void marksTheLine()
    {
        QPlainTextEdit view;
        QStringList lines;
        for (int i = 0; i < 500; ++i)
            lines << QStringLiteral("line %1").arg(i);
        view.setPlainText(lines.join(u'\n'));
        view.resize(400, 200);
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));

        const QColor pink(255, 220, 220);
        QTextCursor c = markLine(&view, 321, pink);
        QCOMPARE(c.blockNumber(), 321);
        QCOMPARE(view.textCursor().blockNumber(), 321);
        QVERIFY(!view.textCursor().hasSelection());
        QCOMPARE(view.extraSelections().size(), 1);
        const QTextEdit::ExtraSelection mark = view.extraSelections().first();
        QCOMPARE(mark.cursor.blockNumber(), 321);
        QCOMPARE(mark.format.background().color(), pink);
        QVERIFY(mark.format.property(QTextFormat::FullWidthSelection).toBool());
        // Scrolled to it: the line is on screen.
        QVERIFY(view.viewport()->rect().contains(view.cursorRect().center()));

        const QColor yellow(255, 235, 130);
        c = markLine(&view, 7, yellow, true);
        QCOMPARE(view.textCursor().selectedText(), QStringLiteral("line 7"));
        QCOMPARE(view.extraSelections().size(), 1); // the old mark is gone
        QCOMPARE(view.extraSelections().first().format.background().color(), yellow);
    }
};

QTEST_MAIN(TestTextLine)
#include "tst_textline.moc"
