// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Validates the test harness itself with OpenSSH's own client, independent of our SSH code.
#include "core/util/procfs.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QProcessEnvironment>
#include <QRegularExpression>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

#include <csignal>

using namespace kf;

class TestDemoHost : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void systemSshRunsACommand()
    {
        KF_START_DEMO_HOST(demo);
        QVERIFY(demo.port() > 0);
        const auto r = kf::test::runProgram(
            QStringLiteral("ssh"), demo.sshArguments() << QStringLiteral("echo hello; echo $HOME"));
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
        const auto r
            = kf::test::runProgram(QStringLiteral("ssh"), demo.sshArguments() << QStringLiteral("touch ") + marker);
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
        const auto r = kf::test::runProgram(QStringLiteral("ssh"),
            demo.sshArguments() << QStringLiteral("setsid sleep 6004 </dev/null >/dev/null 2>&1 & echo ok"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const auto running = [] {
            return kf::test::runProgram(
                       QStringLiteral("pgrep"), { QStringLiteral("-f"), QStringLiteral("^sleep 6004$") })
                       .exitCode
                == 0;
        };
        QTRY_VERIFY_WITH_TIMEOUT(running(), 10000);
        demo.stop();
        QTRY_VERIFY_WITH_TIMEOUT(!running(), 10000);
    }

    // `kernelforge --demo` killed outright (no destructors run): its sshd must not outlive it,
    // and the next demo host removes the folder it left in /tmp (but not a live one's).
    void killedAppLeavesNoListenerAndNoFolder()
    {
        QTemporaryDir home;
        QProcess app;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), home.filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_STATE_HOME"), home.filePath(QStringLiteral("state")));
        env.insert(QStringLiteral("XDG_DATA_HOME"), home.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_CACHE_HOME"), home.filePath(QStringLiteral("cache")));
        app.setProcessEnvironment(env);
        app.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        app.start(QStringLiteral(KF_GUI_BINARY), { QStringLiteral("--demo") });
        QVERIFY2(app.waitForStarted(10000), qPrintable(app.errorString()));
        // The demo sshd is the app's child process.
        const auto childSshd = [&]() -> qint64 {
            const QString children = QStringLiteral("/proc/%1/task/%1/children").arg(app.processId());
            QFile f(children);
            if (!f.open(QIODevice::ReadOnly))
                return 0;
            for (const QByteArray& pid : f.readAll().split(' ')) {
                QFile comm(QStringLiteral("/proc/%1/comm").arg(QString::fromLatin1(pid.trimmed())));
                if (!pid.trimmed().isEmpty() && comm.open(QIODevice::ReadOnly) && comm.readAll().trimmed() == "sshd")
                    return pid.trimmed().toLongLong();
            }
            return 0;
        };
        qint64 sshd = 0;
        QTRY_VERIFY_WITH_TIMEOUT((sshd = childSshd()) != 0, 60000);
        // "sshd: /usr/sbin/sshd -D -e -f <root>/etc/sshd_config [listener] ..." (sshd retitles itself,
        // rewriting its argv in place: a read at that moment may find it empty, so read until it says)
        const QRegularExpression rootOf(QStringLiteral("(/\\S*/kernelforge-demo-[^/\\s]+)/etc/sshd_config"));
        QString title;
        QRegularExpressionMatch m;
        const auto titled = [&] {
            QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(sshd));
            title = cmdline.open(QIODevice::ReadOnly) ? QString::fromLocal8Bit(cmdline.readAll().replace('\0', ' '))
                                                      : QString();
            m = rootOf.match(title);
            return m.hasMatch();
        };
        QTRY_VERIFY2_WITH_TIMEOUT(titled(), qPrintable(title), 10000);
        const QString leftRoot = m.captured(1);
        ::kill(pid_t(app.processId()), SIGKILL);
        QVERIFY(app.waitForFinished(10000));
        // Gone, or a zombie waiting for init to reap it.
        const auto alive = [sshd] {
            const QList<QByteArray> stat = procfs::statFields(sshd);
            return !stat.isEmpty() && stat.first() != "Z";
        };
        QTRY_VERIFY_WITH_TIMEOUT(!alive(), 10000);

        QVERIFY(QFileInfo::exists(leftRoot));
        KF_START_DEMO_HOST(first);
        KF_START_DEMO_HOST(second);
        QVERIFY2(!QFileInfo::exists(leftRoot), qPrintable(leftRoot + QStringLiteral(" is still there")));
        QVERIFY(QFileInfo::exists(first.rootDir())); // its owner, this process, is running
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
