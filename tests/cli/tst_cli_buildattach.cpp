// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// `build attach` over SSH (the real CLI against the demo host's real sshd): it exits after
// jobs that end at once, ending its own SSH connection, and says "no such job" for ids that
// name none.
#include "tests/support/testsupport.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

class TestCliBuildAttach : public QObject
{
    Q_OBJECT
    QTemporaryDir m_home;
    QStringList env() const
    {
        return { QStringLiteral("HOME=") + m_home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
    }
    static QJsonObject lastJson(const QByteArray& out)
    {
        return QJsonDocument::fromJson(out.trimmed().split('\n').last()).object();
    }

private Q_SLOTS:
    // `--json` attach polls the server's memory on a worker thread from its first moment. The
    // demo's `sed` answers that poll (its read of the job's memview.start, buildmemory.h) only once
    // the client has gone, so every JSON attach gets `finished` while the poll is still in flight:
    // attach must still exit with the job's status, and end its SSH connection itself (sshd reads
    // our disconnect message) rather than leave the session thread running when the application
    // object goes away.
    void attachExitsAfterJobsThatEndAtOnce()
    {
        KF_START_DEMO_HOST(demo);
        {
            QFile sed(demo.binDir() + QStringLiteral("/sed"));
            QVERIFY(sed.open(QIODevice::WriteOnly | QIODevice::Truncate));
            sed.write(
                "#!/bin/sh\n"
                "for a; do last=$a; done\n"
                "case \"$last\" in */memview.start)\n"
                "  i=0; while [ $i -lt 600 ] && kill -0 \"$PPID\" 2>/dev/null; do sleep 0.1; i=$((i+1)); done ;;\n"
                "esac\n"
                "exec /bin/sed \"$@\"\n");
            sed.close();
            QVERIFY(sed.setPermissions(sed.permissions() | QFileDevice::ExeOwner | QFileDevice::ExeGroup));
        }
        static const QRegularExpression accepted(QStringLiteral("Accepted publickey for \\S+ from \\S+ port (\\d+)"));
        for (int i = 0; i < 50; ++i) {
            const bool json = i % 5 != 4;
            const bool endsDuringAttach = i % 2 == 1; // else it has finished before attach starts
            const int status = i % 3 == 2 ? 3 : 0;
            const QString command = QStringLiteral("%1echo run %2; exit %3")
                                        .arg(endsDuringAttach ? QStringLiteral("sleep 0.3; ") : QString())
                                        .arg(i)
                                        .arg(status);
            const auto start = kf::test::runCli(
                QStringList { QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--command"), command }
                    + kf::test::cliSshTarget(demo),
                60000, env());
            QVERIFY2(start.exitCode == 0, start.err.constData());
            const QString id = QString::fromUtf8(start.out.trimmed());
            if (!endsDuringAttach) { // the runner writes rc last (core/jobs/jobfolder.cpp)
                const QString rc
                    = demo.homeDir() + QStringLiteral("/.cache/kernelforge/jobs/") + id + QStringLiteral("/rc");
                QVERIFY2(QTest::qWaitFor([&] { return QFile::exists(rc); }, 60000), qPrintable(rc));
            }

            const qsizetype logBefore = demo.sshdLog().size();
            QStringList args { QStringLiteral("build"), QStringLiteral("attach"), id };
            if (json)
                args << QStringLiteral("--json");
            // Generous: a hung attach is killed at 30 s and fails the test.
            const auto attach = kf::test::runCli(args + kf::test::cliSshTarget(demo), 30000, env());
            const QString what
                = QStringLiteral("attach %1 (#%2, %3, %4): ")
                      .arg(id)
                      .arg(i)
                      .arg(json ? QStringLiteral("json") : QStringLiteral("text"),
                          endsDuringAttach ? QStringLiteral("ends during attach") : QStringLiteral("already finished"));
            QVERIFY2(!attach.crashed,
                qPrintable(what + QStringLiteral("did not exit: ") + QString::fromUtf8(attach.out + attach.err)));
            QVERIFY2(attach.exitCode == status,
                qPrintable(
                    what + QStringLiteral("exit status %1").arg(attach.exitCode) + QString::fromUtf8(attach.err)));
            QVERIFY2(attach.out.contains(QStringLiteral("run %1").arg(i).toUtf8()), qPrintable(what));
            if (json) {
                const QJsonObject last = lastJson(attach.out);
                QCOMPARE(last.value(QStringLiteral("event")).toString(), QStringLiteral("finished"));
                QCOMPARE(last.value(QStringLiteral("exit_status")).toInt(), status);
            } else {
                QVERIFY2(attach.err.contains(QStringLiteral("finished: exit status %1").arg(status).toUtf8()),
                    qPrintable(what + QString::fromUtf8(attach.err)));
            }

            // Its one connection: sshd logs how it ended once the per-connection sshd is gone.
            const QString log = demo.sshdLog().mid(logBefore);
            const auto m = accepted.match(log);
            QVERIFY2(m.hasMatch(), qPrintable(what + log));
            const QString port = m.captured(1);
            const QRegularExpression ended(
                QStringLiteral("(Disconnected from|Closing connection to|Connection closed by|Connection reset by)"
                               ".* port %1\\b")
                    .arg(port));
            QVERIFY2(QTest::qWaitFor([&] { return ended.match(demo.sshdLog().mid(logBefore)).hasMatch(); }, 30000),
                qPrintable(what + demo.sshdLog().mid(logBefore)));
            QVERIFY2(demo.sshdLog().mid(logBefore).contains(
                         QStringLiteral("Received disconnect from %1 port %2:").arg(QStringLiteral("127.0.0.1"), port)),
                qPrintable(what + QStringLiteral("the connection was not ended by a disconnect message:\n")
                    + demo.sshdLog().mid(logBefore)));
        }
    }

    void attachToNoSuchJob_data()
    {
        QTest::addColumn<QString>("id");
        QTest::newRow("empty") << QString();
        QTest::newRow("unknown") << QStringLiteral("20260101-000000-dead");
        QTest::newRow("path") << QStringLiteral("../jobs");
    }
    // The answer "no such job" comes in the same event that ends the log stream: the stream's
    // handle, released with deleteLater() in attach's event loop, must still let go of the
    // session before the process exits (a session thread still running at exit crashed the CLI
    // now and then, racing OpenSSL's atexit cleanup).
    void attachToNoSuchJob()
    {
        QFETCH(QString, id);
        KF_START_DEMO_HOST(demo);
        const auto attach = kf::test::runCli(
            QStringList { QStringLiteral("--verbose"), QStringLiteral("build"), QStringLiteral("attach"), id }
                + kf::test::cliSshTarget(demo),
            60000, env());
        QVERIFY2(!attach.crashed, attach.err.constData()); // no reconnect loop
        QCOMPARE(attach.exitCode, 1);
        QVERIFY2(attach.err.contains("no such job"), attach.err.constData());
        QVERIFY(!attach.err.contains("reconnecting"));
        if (!id.isEmpty() && id != QLatin1String("../jobs")) // the others never connect
            QVERIFY2(attach.err.contains("session closed, its thread joined"), attach.err.constData());
        QVERIFY2(!attach.err.contains("still in use as the command ends"), attach.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliBuildAttach)
#include "tst_cli_buildattach.moc"
