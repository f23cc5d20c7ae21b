// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/versioncompare.h"

#include <QtTest>

// The one version comparison behind the sgl-kernel rules (tool versions, CUDA releases,
// compute capabilities).
class TestVersionCompare : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void compare_data()
    {
        QTest::addColumn<QString>("a");
        QTest::addColumn<QString>("b");
        QTest::addColumn<int>("sign");
        QTest::newRow("numeric not text") << "3.9"
                                          << "3.31" << -1;
        QTest::newRow("equal padded") << "13"
                                      << "13.0" << 0;
        QTest::newRow("equal with zero") << "3.31"
                                         << "3.31.0" << 0;
        QTest::newRow("less") << "3.28.3"
                              << "3.31" << -1;
        QTest::newRow("suffix ignored") << "3.31.0-rc1"
                                        << "3.31" << 0;
        QTest::newRow("torch nightly") << "2.10.0.dev2025+cu130"
                                       << "2.9" << 1;
        QTest::newRow("greater") << "4.4.3"
                                 << "3.31" << 1;
        QTest::newRow("nvcc") << "12.4.131"
                              << "12.8" << -1;
        QTest::newRow("cuda release") << "12.4"
                                      << "12.8" << -1;
        QTest::newRow("compute capability") << "10.0"
                                            << "9.0" << 1;
        QTest::newRow("empty is oldest") << ""
                                         << "0.1" << -1;
    }
    void compare()
    {
        QFETCH(QString, a);
        QFETCH(QString, b);
        QFETCH(int, sign);
        const int c = kf::compareVersions(a, b);
        QCOMPARE(c < 0 ? -1 : c > 0 ? 1 : 0, sign);
    }
};

QTEST_GUILESS_MAIN(TestVersionCompare)
#include "tst_versioncompare.moc"
