// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// `build attach` over SSH (the real CLI against the demo host's real sshd): it exits after
// jobs that end at once, and says "no such job" for ids that name none.
#include "tests/support/testsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
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
    static QStringList ssh(const kf::DemoHost& demo)
    {
        return { QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("-i"), demo.clientKeyPath(),
            QStringLiteral("--known-hosts"), demo.knownHostsPath(), demo.user() + QStringLiteral("@127.0.0.1") };
    }

private Q_SLOTS:
    void attachExitsAfterJobsThatEndAtOnce()
    {
        KF_START_DEMO_HOST(demo);
        for (int i = 0; i < 50; ++i) {
            const auto start = kf::test::runCli(QStringList { QStringLiteral("build"), QStringLiteral("start"),
                                                    QStringLiteral("--command"), QStringLiteral("echo run %1").arg(i) }
                    + ssh(demo),
                60000, env());
            QVERIFY2(start.exitCode == 0, start.err.constData());
            const QString id = QString::fromUtf8(start.out.trimmed());
            // Generous: a hung attach is killed at 60 s and fails the test.
            const auto attach = kf::test::runCli(
                QStringList { QStringLiteral("build"), QStringLiteral("attach"), id, QStringLiteral("--json") }
                    + ssh(demo),
                60000, env());
            QVERIFY2(!attach.crashed,
                qPrintable(QStringLiteral("attach %1 (#%2) did not exit: %3")
                               .arg(id)
                               .arg(i)
                               .arg(QString::fromUtf8(attach.out + attach.err))));
            QCOMPARE(attach.exitCode, 0);
            const QList<QByteArray> lines = attach.out.trimmed().split('\n');
            QCOMPARE(QJsonDocument::fromJson(lines.last()).object().value(QStringLiteral("event")).toString(),
                QStringLiteral("finished"));
            QVERIFY(attach.out.contains(QStringLiteral("run %1\\n").arg(i).toUtf8()));
        }
    }

    void attachToNoSuchJob_data()
    {
        QTest::addColumn<QString>("id");
        QTest::newRow("empty") << QString();
        QTest::newRow("unknown") << QStringLiteral("20260101-000000-dead");
        QTest::newRow("path") << QStringLiteral("../jobs");
    }
    void attachToNoSuchJob()
    {
        QFETCH(QString, id);
        KF_START_DEMO_HOST(demo);
        const auto attach = kf::test::runCli(
            QStringList { QStringLiteral("build"), QStringLiteral("attach"), id } + ssh(demo), 60000, env());
        QVERIFY2(!attach.crashed, attach.err.constData()); // no reconnect loop
        QCOMPARE(attach.exitCode, 1);
        QVERIFY2(attach.err.contains("no such job"), attach.err.constData());
        QVERIFY(!attach.err.contains("reconnecting"));
    }
};

QTEST_GUILESS_MAIN(TestCliBuildAttach)
#include "tst_cli_buildattach.moc"
