// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/result.h"

#include <QCoreApplication>
#include <QProcess>
#include <QTest>

using namespace kf;

class TestResult : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void valueAndError()
    {
        const Result<int> good = 7;
        QVERIFY(good.ok());
        QCOMPARE(good.value(), 7);
        QCOMPARE(*good, 7);
        const Result<int> bad = Result<int>::failure(QStringLiteral("no"), ErrorKind::NotFound);
        QVERIFY(!bad);
        QCOMPARE(bad.error(), "no");
        QCOMPARE(bad.kind(), ErrorKind::NotFound);
        QCOMPARE(Result<int>::failure({}).error(), "unknown error");
        const Result<void> propagated = bad.withoutValue();
        QCOMPARE(propagated.error(), "no");
    }
    void readingAFailuresValueStopsTheProgram()
    {
        // The child: reads the value of a failure (undefined behaviour before; now it stops).
        if (qEnvironmentVariableIsSet("KF_TEST_READ_FAILED_VALUE")) {
            const Result<QString> bad = Result<QString>::failure(QStringLiteral("no"));
            QTest::qWait(0);
            qInfo("read: %s", qPrintable(bad.value()));
            return; // not reached
        }
        QProcess child;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("KF_TEST_READ_FAILED_VALUE"), QStringLiteral("1"));
        child.setProcessEnvironment(env);
        child.setProcessChannelMode(QProcess::MergedChannels);
        child.start(
            QCoreApplication::applicationFilePath(), { QStringLiteral("readingAFailuresValueStopsTheProgram") });
        QVERIFY(child.waitForFinished(60000));
        const QByteArray out = child.readAll();
        QVERIFY2(child.exitStatus() == QProcess::CrashExit, out.constData());
        QVERIFY2(out.contains("the value of a failure was read"), out.constData());
        QVERIFY2(!out.contains("read: "), out.constData());
    }
};

QTEST_GUILESS_MAIN(TestResult)
#include "tst_result.moc"
