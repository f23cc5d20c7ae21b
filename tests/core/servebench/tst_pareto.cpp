// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #35: the frontier the benchmark's Pareto chart draws: the levels no other beats on
// both throughput and per-user speed (or latency), worked out by hand.
#include "core/servebench/pareto.h"

#include <QtTest>

using namespace kf;

class TestPareto : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void perUserAxis()
    {
        // (tok/s per user, tok/s per GPU) of a sweep c = 1, 4, 16, 64, 128 and a dominated outlier.
        const QList<std::pair<double, double>> xy { { 90, 80 }, { 70, 250 }, { 40, 600 }, { 15, 900 }, { 8, 880 },
            { 30, 500 } };
        // 128 (8, 880) loses to 64 (15, 900) on both; (30, 500) loses to 16 (40, 600).
        QCOMPARE(paretoFrontier(xy, true), (QList<int> { 3, 2, 1, 0 }));
    }

    void latencyAxis()
    {
        // (TTFT ms, tok/s): lower x is better.
        const QList<std::pair<double, double>> xy { { 50, 100 }, { 80, 300 }, { 200, 280 }, { 400, 500 },
            { std::nan(""), 900 } };
        QCOMPARE(paretoFrontier(xy, false), (QList<int> { 0, 1, 3 }));
    }

    void ties()
    {
        // Equal points do not knock each other out; one better on one axis and equal on the other does.
        QCOMPARE(paretoFrontier({ { 10, 10 }, { 10, 10 } }, true), (QList<int> { 0, 1 }));
        QCOMPARE(paretoFrontier({ { 10, 10 }, { 10, 11 } }, true), (QList<int> { 1 }));
    }
};

QTEST_GUILESS_MAIN(TestPareto)
#include "tst_pareto.moc"
