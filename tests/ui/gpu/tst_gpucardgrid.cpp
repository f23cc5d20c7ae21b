// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The card grid reflows: fewer columns in a narrow pane, never a horizontal scrollbar or a
// clipped card (the GPU pane at 1600x1000, at 1024x640, and at the width a 1024 px window
// leaves it next to the sidebar; the grid alone down to one column).
#include "core/hosts/hostconnection.h"
#include "tests/support/gpupanefixture.h"
#include "tests/support/testsupport.h"
#include "ui/gpu/gpucard.h"
#include "ui/gpu/gpucardgrid.h"
#include "ui/gpu/gpupane.h"

#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QtTest>

using namespace kf;

class TestGpuCardGrid : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qputenv("PATH", QByteArray(KF_SOURCE_DIR "/resources/demo/bin:") + qgetenv("PATH"));
    }

    void paneAtWindowSizes_data()
    {
        QTest::addColumn<QSize>("size");
        QTest::addColumn<int>("columns");
        QTest::newRow("1600x1000") << QSize(1600, 1000) << 4;
        QTest::newRow("1024x640") << QSize(1024, 640) << 4;
        QTest::newRow("800x640 (a 1024 window's pane)") << QSize(800, 640) << 3;
    }

    void paneAtWindowSizes()
    {
        QFETCH(QSize, size);
        QFETCH(int, columns);
        LocalHostConnection host(test::localProfile());
        host.connectToHost();
        GpuMonitor::Options options;
        options.processIntervalMs = 0;
        test::ShownGpuPane shown;
        shown.show(&host, options, size);
        if (QTest::currentTestFailed())
            return;
        GpuPane& pane = *shown.pane;
        QTRY_COMPARE_WITH_TIMEOUT(pane.cardCount(), 8, 30000);
        auto* grid = pane.findChild<GpuCardGrid*>();
        auto* scroll = pane.findChild<QScrollArea*>(QStringLiteral("gpuCardScroll"));
        QVERIFY(grid && scroll);
        QTRY_COMPARE(grid->columns(), columns);
        QVERIFY(!scroll->horizontalScrollBar()->isVisible());
        // Every card lies inside the viewport's width: none is clipped at the right.
        const int viewportWidth = scroll->viewport()->width();
        for (const GpuCard* card : pane.findChildren<GpuCard*>()) {
            const QRect r(card->mapTo(scroll->viewport(), QPoint(0, 0)), card->size());
            QVERIFY2(r.left() >= 0 && r.right() < viewportWidth,
                qPrintable(QStringLiteral("%1 at %2..%3, viewport %4")
                               .arg(card->objectName())
                               .arg(r.left())
                               .arg(r.right())
                               .arg(viewportWidth)));
            QVERIFY(card->width() >= GpuCard::kMinimumWidth);
        }
        QVERIFY(pane.grab().save(
            test::screenshotPath(QStringLiteral("gpupane-%1x%2").arg(size.width()).arg(size.height()))));
    }

    void narrowGridTakesFewerColumns()
    {
        QScrollArea scroll;
        scroll.setWidgetResizable(true);
        scroll.setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
        auto* grid = new GpuCardGrid;
        scroll.setWidget(grid);
        QList<GpuCard*> cards;
        for (int i = 0; i < 8; ++i) {
            auto* card = new GpuCard(i, grid);
            GpuSample s;
            s.index = i;
            s.setText(GpuField::Name, QStringLiteral("NVIDIA H200"));
            card->setSample(s, false);
            cards << card;
        }
        grid->setCards(cards);
        scroll.resize(1200, 600);
        scroll.show();
        QVERIFY(QTest::qWaitForWindowExposed(&scroll));
        const std::pair<int, int> widths[] = { { 1200, 4 }, { 760, 3 }, { 520, 2 }, { 300, 1 }, { 1000, 4 } };
        for (const auto& [width, columns] : widths) {
            scroll.resize(width, 600);
            QTRY_COMPARE(grid->columns(), columns);
            for (const GpuCard* card : std::as_const(cards))
                QTRY_VERIFY(card->mapTo(scroll.viewport(), QPoint(card->width(), 0)).x() <= scroll.viewport()->width());
        }
    }
};

QTEST_MAIN(TestGpuCardGrid)
#include "tst_gpucardgrid.moc"
