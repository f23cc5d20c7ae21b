// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Issue #33 item 3, server logs at run time: real logs of servers that died (flashinfer's JIT at
// start, CUDA out of memory at load, no kernel image for the GPU) get their cause and hint above
// the Server tab's log; the log of a healthy server gets nothing.
#include "ui/server/serverdiagnosis.h"

#include "tests/support/testsupport.h"

#include <QSignalSpy>
#include <QtTest>

class TestServerDiagnosis : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void realServerLogs_data()
    {
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("says");
        QTest::addColumn<bool>("verification"); // the host's verification explains it
        QTest::newRow("flashinfer JIT") << "19-slime-1314-sglang-flashinfer-jit.log"
                                        << "Hint: A kernel compiled at run time" << false;
        QTest::newRow("CUDA OOM at load") << "20-vllm-28143-cuda-oom-at-load.log"
                                          << "Hint: The GPU ran out of memory" << false;
        QTest::newRow("no kernel image") << "22-sglang-18729-b200-rmsnorm-no-kernel-image.log"
                                         << "Hint: The build has no code for this GPU" << true;
        QTest::newRow("JIT link") << "12-sglang-36058-flashinfer-jit-lcuda.log"
                                  << "-lcuda is the NVIDIA driver's" << false;
    }
    void realServerLogs()
    {
        QFETCH(QString, log);
        QFETCH(QString, says);
        QFETCH(bool, verification);
        kf::ServerDiagnosis d;
        QSignalSpy changed(&d, &kf::ServerDiagnosis::changed);
        const QByteArray data = kf::test::readData(QStringLiteral("buildlogs/corpus/") + log);
        // In pieces, as a log stream comes.
        for (qsizetype i = 0; i < data.size(); i += 97)
            d.feed(data.mid(i, 97));
        QVERIFY2(d.diagnosis().contains(says), qPrintable(d.diagnosis()));
        QVERIFY(!d.isHidden());
        QCOMPARE(d.verificationExplains(), verification);
        QCOMPARE(changed.size(), 1);
        d.reset();
        QVERIFY(d.diagnosis().isEmpty() && d.isHidden());
        QVERIFY(!d.verificationExplains());
    }

    void aHealthyLogSaysNothing()
    {
        kf::ServerDiagnosis d;
        d.feed("[2026-01-04 01:42:54] INFO: Started server process [1]\n"
               "[2026-01-04 01:42:55] The server is fired up and ready to roll!\n"
               "WARNING: something deprecated\n");
        QVERIFY(d.diagnosis().isEmpty());
        QVERIFY(d.isHidden());
    }
};

QTEST_MAIN(TestServerDiagnosis)
#include "tst_serverdiagnosis.moc"
