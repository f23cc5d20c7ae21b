// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// ElidedLabel: a long name does not widen its window; it is cut with "…" and whole in the
// tooltip, and text() stays whole.
#include "ui/common/elidedlabel.h"
#include "ui/common/plaintext.h"

#include <QHBoxLayout>
#include <QHelpEvent>
#include <QToolTip>
#include <QtTest>

using namespace kf;

class TestElidedLabel : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void elidesWithTheWholeTextInTheTooltip()
    {
        const QString name = QStringLiteral("gpu-node-017.training-cluster.example.internal");
        QWidget window;
        auto* layout = new QHBoxLayout(&window);
        auto* label = new ElidedLabel(&window);
        label->setText(name);
        layout->addWidget(label);
        QVERIFY(label->minimumSizeHint().width() < label->sizeHint().width() / 4);

        window.resize(label->sizeHint().width() + 50, 40);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QVERIFY(!label->isElided());
        QCOMPARE(label->shownText(), name);
        QVERIFY(label->effectiveToolTip().isEmpty());

        window.resize(120, 40);
        QTRY_VERIFY(label->isElided());
        QCOMPARE(label->text(), name);
        QVERIFY(label->shownText().endsWith(QStringLiteral("\u2026")));
        QCOMPARE(label->effectiveToolTip(), name);
        QHelpEvent help(QEvent::ToolTip, QPoint(5, 5), label->mapToGlobal(QPoint(5, 5)));
        QApplication::sendEvent(label, &help);
        QTRY_COMPARE(QToolTip::text(), plainToolTip(name)); // never read as markup
        // A tooltip set by the caller is kept.
        label->setToolTip(QStringLiteral("set"));
        QCOMPARE(label->effectiveToolTip(), QStringLiteral("set"));
    }
};

QTEST_MAIN(TestElidedLabel)
#include "tst_elidedlabel.moc"
