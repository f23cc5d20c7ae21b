// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The GPUs an SGLang command line uses, as SGLang's launch assigns them (engine.py,
// data_parallel_controller.py), and what is refused as not a number.
#include "core/server/servergpus.h"
#include "core/util/shellquote.h"

#include <QtTest>

using namespace kf;

class TestServerGpus : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void assigned_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("gpus");
        QTest::newRow("default: TP 1 on GPU 0") << "python -m sglang.launch_server --model-path m"
                                                << "0";
        QTest::newRow("TP 8") << "python -m sglang.launch_server --model-path m --tp 8"
                              << "0-7";
        QTest::newRow("tp-size, = form") << "x --tp-size=4"
                                         << "0-3";
        QTest::newRow("tensor-parallel-size") << "x --tensor-parallel-size 2"
                                              << "0-1";
        QTest::newRow("base gpu id") << "x --tp 4 --base-gpu-id 4"
                                     << "4-7";
        QTest::newRow("step") << "x --tp 4 --gpu-id-step 2"
                              << "0, 2, 4, 6";
        QTest::newRow("the last one wins") << "x --tp 8 --port 1 --tp 2"
                                           << "0-1";
        QTest::newRow("DP replicas follow each other") << "x --tp 2 --dp 2 --base-gpu-id 1"
                                                       << "1-4";
        QTest::newRow("DP attention stays in the TP group") << "x --tp 8 --dp 8 --enable-dp-attention"
                                                            << "0-7";
        QTest::newRow("pipeline stages") << "x --tp 2 --pp-size 2"
                                         << "0-3";
        QTest::newRow("two nodes: half the TP here") << "x --tp 16 --nnodes 2"
                                                     << "0-7";
        QTest::newRow("the demo profile") << "sglang-demo-server --model-path 'a b' --tp 8 --port 30000"
                                          << "0-7";
    }
    void assigned()
    {
        QFETCH(QString, command);
        QFETCH(QString, gpus);
        const auto used = serverGpus(shellSplit(command));
        QVERIFY2(used, qPrintable(used.error()));
        QCOMPARE(gpuRangeText(*used), gpus);
    }

    void refused_data()
    {
        QTest::addColumn<QString>("command");
        QTest::addColumn<QString>("error");
        QTest::newRow("not a number") << "x --tp eight"
                                      << "--tp eight: not a whole number from 1 to 4096";
        QTest::newRow("zero") << "x --tp-size=0"
                              << "--tp-size 0: not a whole number from 1 to 4096";
        QTest::newRow("negative base") << "x --base-gpu-id -1"
                                       << "--base-gpu-id -1: not a whole number from 0 to 4095";
        QTest::newRow("no value") << "x --tp"
                                  << "--tp has no value";
        QTest::newRow("too many") << "x --tp 4096 --dp 4096"
                                  << "the server would use 16777216 GPUs on one host";
        QTest::newRow("past the last GPU") << "x --tp 8 --base-gpu-id 4095"
                                           << "the server would use GPU 4096, past the last a host can have";
    }
    void refused()
    {
        QFETCH(QString, command);
        QFETCH(QString, error);
        const auto used = serverGpus(shellSplit(command));
        QVERIFY(!used);
        QCOMPARE(used.error(), error);
    }

    void profile()
    {
        ServerLaunchProfile p = ServerLaunchProfile::demoProfile();
        p.tp = 2;
        p.extraArgs = { QStringLiteral("--base-gpu-id"), QStringLiteral("6") };
        QCOMPARE(*serverGpus(p), QList<int>({ 6, 7 }));
        QCOMPARE(gpuRangeText({}), QStringLiteral("none"));
        QCOMPARE(gpuRangeText({ 3 }), QStringLiteral("3"));
        QCOMPARE(gpuRangeText({ 0, 1, 3, 5, 6, 7 }), QStringLiteral("0-1, 3, 5-7"));
    }
};

QTEST_GUILESS_MAIN(TestServerGpus)
#include "tst_servergpus.moc"
