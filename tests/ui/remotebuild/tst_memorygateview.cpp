// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The Build pane's memory gate view offscreen: what the gate's ledger says, in words and rows.
#include "ui/remotebuild/memorygateview.h"

#include "tests/support/testsupport.h"

#include <QLabel>
#include <QTreeWidget>
#include <QtTest>

using namespace kf;

class TestMemoryGateView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void showsWaitingRunningAndFinishedUnits()
    {
        GateStatus s;
        s.present = true;
        s.updatedMs = 100000;
        s.done = 7;
        s.retried = 1;
        s.limitKb = 4 << 20;
        s.availableKb = 1 << 20;
        s.reserveKb = 200 << 10;
        s.source = QStringLiteral("cgroup v2 /user.slice/user-1000.slice");
        s.running = { { QStringLiteral("CMakeFiles/k.dir/gemm.cu.o"), QStringLiteral("nvcc"), 3 << 20, 2 << 20, 5 << 19,
            88000 } };
        s.waiting = { { QStringLiteral("CMakeFiles/k.dir/moe.cu.o"), QStringLiteral("nvcc"), 3 << 20, -1, -1, 95500 },
            { QStringLiteral("CMakeFiles/k.dir/big.cu.o"), QStringLiteral("nvcc"), 9 << 20, -1, -1, 99000, true } };
        s.recent
            = { { QStringLiteral("a.o"), QStringLiteral("cxx"), 0, -1, 700 << 10, 0, false, 4200, QStringLiteral("0") },
                  { QStringLiteral("b.o"), QStringLiteral("cxx"), 0, -1, 900 << 10, 0, false, 300,
                      QStringLiteral("signal 9") } };
        MemoryGateView view;
        view.resize(720, 320);
        view.setStatus(s);
        QCOMPARE(view.summary()->text(),
            QStringLiteral("Memory gate: 1 compiling, 2 waiting for memory, 7 done, 1 run again alone after the OOM "
                           "killer stopped them. 1024 MB of 4096 MB available (cgroup v2 "
                           "/user.slice/user-1000.slice), 200 MB kept in reserve."));
        QTreeWidget* t = view.units();
        QCOMPARE(t->topLevelItemCount(), 5);
        auto row = [&](int i) {
            QStringList cells;
            for (int c = 0; c < t->columnCount(); ++c)
                cells << t->topLevelItem(i)->text(c);
            return cells.join(QLatin1Char('|'));
        };
        QCOMPARE(row(0), QStringLiteral("CMakeFiles/k.dir/gemm.cu.o|compiling|3072 MB|2048 MB|2560 MB|12.0 s"));
        QCOMPARE(row(1), QStringLiteral("CMakeFiles/k.dir/moe.cu.o|waiting for memory|3072 MB|–|–|4.5 s"));
        QCOMPARE(row(2), QStringLiteral("CMakeFiles/k.dir/big.cu.o|waiting to run alone|9216 MB|–|–|1.0 s"));
        QCOMPARE(row(3), QStringLiteral("b.o|killed (signal 9)|–|–|900 MB|0.3 s")); // newest first
        QCOMPARE(row(4), QStringLiteral("a.o|done|–|–|700 MB|4.2 s"));
        QVERIFY(view.grab().save(test::screenshotPath(QStringLiteral("memorygateview"))));

        view.setStatus(GateStatus {});
        QCOMPARE(t->topLevelItemCount(), 0);
        QVERIFY(view.summary()->text().contains(QStringLiteral("memory_gate: false")));
    }
};

QTEST_MAIN(TestMemoryGateView)
#include "tst_memorygateview.moc"
