// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The shared option parsing of the real kernelforge-cli (app/cli/flagtable.h, sshoptions.h): usage
// errors exit 2 before anything connects, connection failures 255; a command's own flags are
// taken before the destination; destinations are read as OpenSSH reads them.
#include "tests/support/testsupport.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

class TestCliOptions : public QObject
{
    Q_OBJECT
    QTemporaryDir m_home;
    QStringList env() const
    {
        return { QStringLiteral("HOME=") + m_home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME=") };
    }

private Q_SLOTS:
    void initTestCase() { qunsetenv("SSH_AUTH_SOCK"); }

    // `build` used to take usage errors of its ssh options and destination for connection
    // failures: 255, as if the server were unreachable. They are usage errors: 2.
    void buildUsageErrorsExit2_data()
    {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("error");
        QTest::newRow("no destination") << QStringList { "list" } << "missing destination";
        QTest::newRow("port 0") << QStringList { "list", "-p", "0", "gpu1" } << "invalid port: 0";
        QTest::newRow("port without value") << QStringList { "list", "gpu1", "-p" } << "option -p needs a value";
        QTest::newRow("bad timeout") << QStringList { "status", "20260101-000000-abcd", "--timeout", "0", "gpu1" }
                                     << "--timeout needs a number of seconds > 0: 0";
        QTest::newRow("empty user") << QStringList { "cancel", "20260101-000000-abcd", "@gpu1" }
                                    << "empty user name before '@'";
        QTest::newRow("a path is not a port") << QStringList { "list", "gpu1:2222" } << "a destination takes no :PATH";
        QTest::newRow("bad --from") << QStringList { "attach", "20260101-000000-abcd", "--from", "-5", "gpu1" }
                                    << "--from needs a byte offset: -5";
        QTest::newRow("flag of another subcommand")
            << QStringList { "list", "--command", "make", "--local" } << "unexpected arguments: --command make";
        QTest::newRow("stray word") << QStringList { "list", "--local", "extra" } << "unexpected arguments: extra";
        QTest::newRow("preflight without profile")
            << QStringList { "preflight", "gpu1" } << "--profile NAME is required";
        QTest::newRow("start without command")
            << QStringList { "start", "gpu1" } << "--profile NAME or --command CMD is required";
    }
    void buildUsageErrorsExit2()
    {
        QFETCH(QStringList, args);
        QFETCH(QString, error);
        const auto r = test::runCli(QStringList { QStringLiteral("build") } + args, 60000, env());
        QVERIFY2(r.exitCode == 2, r.err.constData());
        QVERIFY2(r.err.contains(error.toUtf8()), r.err.constData());
        QCOMPARE(r.err.count("kernelforge-cli build"), 1);
    }

    void buildConnectionFailureStays255()
    {
        const auto r = test::runCli({ QStringLiteral("build"), QStringLiteral("list"), QStringLiteral("-p"),
                                        QStringLiteral("1"), QStringLiteral("alice@127.0.0.1") },
            60000, env());
        QCOMPARE(r.exitCode, 255);
        QCOMPARE(r.err.count('\n'), 1);
    }

    // --name=value works for every long flag that takes a value, as it did for --timeout.
    void buildFlagsWithEquals()
    {
        const auto start = test::runCli({ QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--local"),
                                            QStringLiteral("--command=echo joined"),
                                            QStringLiteral("--dir=") + m_home.path(), QStringLiteral("--json") },
            60000, env());
        QVERIFY2(start.exitCode == 0, start.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(start.out).object();
        QCOMPARE(o.value(QStringLiteral("command")).toString(), QStringLiteral("echo joined"));
        QCOMPARE(o.value(QStringLiteral("dir")).toString(), m_home.path());
    }

    // `gpu watch --count 1 HOST` took "1", the value of --count, for the destination (the
    // target's options were read before the command's own flags) and failed to connect.
    void gpuWatchFlagsBeforeAPlainHostName()
    {
        KF_START_DEMO_HOST(demo);
        const auto r = test::runCli(QStringList { QStringLiteral("gpu"), QStringLiteral("watch"),
                                        QStringLiteral("--count"), QStringLiteral("1"), QStringLiteral("--json") }
                + kf::test::cliSshOptions(demo) + QStringList { demo.host() },
            90000);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(r.out.trimmed()).object();
        QCOMPARE(o.value(QStringLiteral("host")).toString(), demo.host());
    }

    // The same for `server status --port N HOST`: nothing listens on port 1, so the server is
    // "not reachable" (1), where the old order tried to log in to a host named "1" (255).
    void serverStatusPortBeforeAPlainHostName()
    {
        KF_START_DEMO_HOST(demo);
        const auto r = test::runCli(QStringList { QStringLiteral("server"), QStringLiteral("status"),
                                        QStringLiteral("--port"), QStringLiteral("1") }
                + kf::test::cliSshOptions(demo) + QStringList { demo.host() },
            90000);
        QVERIFY2(r.exitCode == 1, r.err.constData());
        QVERIFY2(r.out.contains(QByteArray(demo.host().toUtf8() + ":1: not reachable")), r.out.constData());
    }

    // OpenSSH splits user@host on the LAST '@' (ssh a@b@host logs in "a@b"); the CLI split on
    // the first and looked up a host named "x@127.0.0.1".
    void destinationSplitsOnTheLastAt()
    {
        KF_START_DEMO_HOST(demo);
        const auto r = test::runCli(QStringList { QStringLiteral("exec") } + kf::test::cliSshOptions(demo)
                + QStringList { QStringLiteral("nosuch@x@") + demo.host(), QStringLiteral("--"),
                    QStringLiteral("true") },
            90000);
        QCOMPARE(r.exitCode, 255); // no such user: refused by the server
        QVERIFY2(r.err.contains(QByteArray("nosuch@x@" + demo.host().toUtf8() + ':')), r.err.constData());
        QVERIFY2(!r.err.contains("cannot resolve"), r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliOptions)
#include "tst_cli_options.moc"
