// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Validates the test harness itself with OpenSSH's own client, independent of our SSH code.
#include "tests/support/testsupport.h"

#include <QFile>
#include <QTcpSocket>
#include <QtTest>

class TestDemoHost : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void systemSshRunsACommand()
    {
        KF_START_DEMO_HOST(demo);
        QVERIFY(demo.port() > 0);
        const auto r = kf::test::runProgram(QStringLiteral("ssh"), demo.sshArguments() << QStringLiteral("echo hello; echo $HOME"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QList<QByteArray> lines = r.out.trimmed().split('\n');
        QCOMPARE(lines.value(0), QByteArray("hello"));
        // The session's HOME is the demo's private home, never the real one.
        QCOMPARE(QString::fromUtf8(lines.value(1)), demo.homeDir());
    }

    void remotePathStartsWithDemoBin()
    {
        KF_START_DEMO_HOST(demo);
        const auto r = kf::test::runProgram(QStringLiteral("ssh"), demo.sshArguments() << QStringLiteral("echo $PATH"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY(r.out.startsWith(QByteArray(demo.binDir().toUtf8() + ':')));
    }

    void listensOnLoopbackOnly()
    {
        KF_START_DEMO_HOST(demo);
        QFile cfg(demo.rootDir() + QStringLiteral("/etc/sshd_config"));
        QVERIFY(cfg.open(QIODevice::ReadOnly));
        const QByteArray text = cfg.readAll();
        QVERIFY(text.contains("ListenAddress 127.0.0.1\n"));
        QVERIFY(!text.contains("0.0.0.0"));
        QVERIFY(text.contains("UsePAM no"));
        QVERIFY(text.contains("internal-sftp"));
    }

    void changedHostKeyIsRefusedBySystemSsh()
    {
        KF_START_DEMO_HOST(demo);
        const quint16 port = demo.port();
        const auto s = demo.restart(/*newHostKey=*/true);
        QVERIFY2(s.ok(), qPrintable(s.error()));
        QCOMPARE(demo.port(), port);
        const QString marker = demo.homeDir() + QStringLiteral("/marker");
        const auto r = kf::test::runProgram(QStringLiteral("ssh"), demo.sshArguments() << QStringLiteral("touch ") + marker);
        QCOMPARE(r.exitCode, 255);
        QVERIFY2(r.err.contains("REMOTE HOST IDENTIFICATION HAS CHANGED"), r.err.constData());
        QVERIFY(!QFile::exists(marker));
    }

    void dropConnectionsKillsLiveSessions()
    {
        KF_START_DEMO_HOST(demo);
        QProcess ssh;
        ssh.start(QStringLiteral("ssh"), demo.sshArguments() << QStringLiteral("echo up; sleep 60"));
        QVERIFY(ssh.waitForReadyRead(20000));
        QCOMPARE(ssh.readAllStandardOutput().trimmed(), QByteArray("up"));
        QVERIFY(demo.dropConnections() >= 1);
        QVERIFY(ssh.waitForFinished(10000));
        QCOMPARE(ssh.exitCode(), 255);
        QVERIFY(demo.isRunning()); // the listener stays
        const auto again = kf::test::runProgram(QStringLiteral("ssh"), demo.sshArguments() << QStringLiteral("true"));
        QCOMPARE(again.exitCode, 0);
    }

    void stopEndsDetachedJobsToo()
    {
        KF_START_DEMO_HOST(demo);
        const auto r = kf::test::runProgram(QStringLiteral("ssh"), demo.sshArguments() << QStringLiteral("setsid sleep 6004 </dev/null >/dev/null 2>&1 & echo ok"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto running = [] {
            return kf::test::runProgram(QStringLiteral("pgrep"), {QStringLiteral("-f"), QStringLiteral("^sleep 6004$")}).exitCode == 0;
        };
        QTRY_VERIFY_WITH_TIMEOUT(running(), 10000);
        demo.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!running(), 10000);
    }

    void passwordUserNeedsRoot()
    {
        if (!kf::test::isRoot())
            QSKIP("adding a password user needs root; this test runs as an ordinary user");
        KF_START_DEMO_HOST(demo);
        const auto s = demo.addPasswordUser(QStringLiteral("kftestpw"), QStringLiteral("correct horse battery"));
        QVERIFY2(s.ok(), qPrintable(s.error()));
        QVERIFY(QFile(demo.rootDir() + QStringLiteral("/etc/sshd_config")).open(QIODevice::ReadOnly));
    }
};

QTEST_GUILESS_MAIN(TestDemoHost)
#include "tst_demohost.moc"
