// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The diff view says what each side is, with the file name; the unified view marks removed and
// added lines in its gutter; its text views show no caret (read-only: nothing to type).
#include "ui/common/plaintext.h"
#include "ui/diff/difftextview.h"
#include "ui/diff/diffview.h"

#include <QLabel>
#include <QTest>

using namespace kf;

class TestDiffView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sidesSayWhatTheyAre()
    {
        DiffView view;
        view.resize(900, 400);
        view.setTexts(QStringLiteral("python/sgl_kernel/flash_attn.py"), QStringLiteral("a\nb\nc\n"),
            QStringLiteral("a\nB\nc\nd\n"));
        view.show();
        QVERIFY(QTest::qWaitForWindowExposed(&view));
        auto* left = view.findChild<QLabel*>(QStringLiteral("diffLeftTitle"));
        auto* right = view.findChild<QLabel*>(QStringLiteral("diffRightTitle"));
        QVERIFY(left && right);
        QVERIFY(left->isVisible() && right->isVisible());
        QVERIFY2(left->text().contains(QLatin1String("On server now")), qPrintable(left->text()));
        QVERIFY(left->text().contains(QLatin1String("flash_attn.py")));
        QVERIFY2(right->text().contains(QLatin1String("After this patch")), qPrintable(right->text()));
        QVERIFY(right->text().contains(QLatin1String("flash_attn.py")));
        QCOMPARE(left->toolTip(), plainToolTip(QStringLiteral("python/sgl_kernel/flash_attn.py"))); // never markup

        view.setSideTitles(QStringLiteral("Before this patch"), QStringLiteral("After this patch"));
        QVERIFY(left->text().contains(QLatin1String("Before this patch")));

        // Unified: one title naming both sides by their signs.
        view.setMode(DiffView::Mode::Unified);
        QVERIFY(!right->isVisible());
        // The one column takes the whole width.
        auto* text = view.findChild<DiffTextView*>(QStringLiteral("diffLeft"));
        QTRY_VERIFY2(text->width() > view.width() * 9 / 10, qPrintable(QString::number(text->width())));
        QVERIFY(left->text().contains(QLatin1String("Before this patch")));
        QVERIFY(left->text().contains(QLatin1String("After this patch")));
        QVERIFY(left->text().contains(QLatin1String("flash_attn.py")));
    }

    void unifiedGutterMarksRemovedAndAdded()
    {
        DiffView view;
        view.setTexts(QStringLiteral("CMakeLists.txt"), QStringLiteral("a\nb\nc\n"), QStringLiteral("a\nB\nc\nd\n"));
        view.setMode(DiffView::Mode::Unified);
        auto* text = view.findChild<DiffTextView*>(QStringLiteral("diffLeft"));
        QVERIFY(text);
        // Rows: a, -b, +B, c, +d.
        QCOMPARE(text->toPlainText(), QStringLiteral("a\nb\nB\nc\nd"));
        QCOMPARE(text->gutterSigns(), QStringLiteral(" -+ +"));
        // Side by side has no sign column: the side says it.
        view.setMode(DiffView::Mode::SideBySide);
        QCOMPARE(text->gutterSigns(), QString());
    }

    void readOnlyViewsShowNoCaret()
    {
        DiffView view;
        view.setTexts(QStringLiteral("x.txt"), QStringLiteral("a\n"), QStringLiteral("b\n"));
        for (DiffTextView* text : view.findChildren<DiffTextView*>()) {
            QVERIFY(text->isReadOnly());
            // Qt draws the caret for editable text and for keyboard selection.
            QVERIFY(!(text->textInteractionFlags() & (Qt::TextEditable | Qt::TextSelectableByKeyboard)));
            QVERIFY(text->textInteractionFlags() & Qt::TextSelectableByMouse); // copying still works
            QCOMPARE(text->focusPolicy(), Qt::StrongFocus);                    // Space / a / r reach it
        }
    }
};

QTEST_MAIN(TestDiffView)
#include "tst_diffview.moc"
