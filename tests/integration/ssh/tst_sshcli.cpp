// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli exec / get / put against the demo sshd (the real binary).
#include "tests/support/testsupport.h"

#include <QCryptographicHash>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

QStringList sshOptions(const DemoHost& demo)
{
    return { QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("-i"), demo.clientKeyPath(),
        QStringLiteral("--known-hosts"), demo.knownHostsPath() };
}

QString destination(const DemoHost& demo)
{
    return demo.user() + QLatin1Char('@') + demo.host();
}

} // namespace

class TestSshCli : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        qunsetenv("SSH_AUTH_SOCK");
        QVERIFY2(QFile::exists(QStringLiteral(KF_CLI_BINARY)), "build kernelforge-cli first");
    }

    void execMirrorsStreamsAndExitStatus()
    {
        KF_START_DEMO_HOST(demo);
        const auto r = kf::test::runProgram(QStringLiteral(KF_CLI_BINARY),
            QStringList { QStringLiteral("exec") } << sshOptions(demo) << destination(demo) << QStringLiteral("--")
                                                   << QStringLiteral("echo out; echo err >&2; cat; exit 7"),
            60000, "piped\n");
        QCOMPARE(r.exitCode, 7);
        QCOMPARE(r.out, QByteArray("out\npiped\n"));
        QCOMPARE(r.err, QByteArray("err\n"));
        const auto sig = kf::test::runCli(QStringList { QStringLiteral("exec") }
            << sshOptions(demo) << destination(demo) << QStringLiteral("--") << QStringLiteral("kill -TERM $$"));
        QCOMPARE(sig.exitCode, 128 + 15);
    }

    void connectionFailuresExit255WithOneLine_data()
    {
        QTest::addColumn<QString>("what");
        QTest::addColumn<QString>("expected");
        QTest::newRow("unknown host key") << "unknown"
                                          << "not known";
        QTest::newRow("changed host key") << "changed"
                                          << "HOST KEY CHANGED";
        QTest::newRow("no such port") << "port"
                                      << "cannot connect";
        QTest::newRow("wrong key") << "key"
                                   << "Permission denied";
    }
    void connectionFailuresExit255WithOneLine()
    {
        QFETCH(QString, what);
        QFETCH(QString, expected);
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        QStringList opts = sshOptions(demo);
        if (what == QLatin1String("unknown")) {
            opts[5] = dir.path() + QStringLiteral("/empty_known_hosts");
        } else if (what == QLatin1String("changed")) {
            QVERIFY(demo.restart(true).ok());
        } else if (what == QLatin1String("port")) {
            demo.stop();
        } else {
            opts[3] = dir.path() + QStringLiteral("/nokey");
            kf::test::runProgram(QStringLiteral("ssh-keygen"),
                { QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
                    QString(), QStringLiteral("-f"), opts[3] });
        }
        const QString marker = demo.homeDir() + QStringLiteral("/marker");
        const auto r = kf::test::runCli(QStringList { QStringLiteral("exec") }
            << opts << destination(demo) << QStringLiteral("--") << QStringLiteral("touch ") + marker);
        QCOMPARE(r.exitCode, 255);
        QCOMPARE(r.err.count('\n'), 1);
        QVERIFY2(r.err.contains(expected.toUtf8()), r.err.constData());
        QVERIFY(!QFile::exists(marker));
    }

    void acceptNewSavesTheKey()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        QStringList opts = sshOptions(demo);
        opts[5] = dir.path() + QStringLiteral("/kh");
        const auto r = kf::test::runCli(QStringList { QStringLiteral("exec") }
            << opts << QStringLiteral("--accept-new") << destination(demo) << QStringLiteral("--")
            << QStringLiteral("true"));
        QCOMPARE(r.exitCode, 0);
        QVERIFY(QFile(opts[5]).size() > 0);
        const auto again = kf::test::runCli(QStringList { QStringLiteral("exec") }
            << opts << destination(demo) << QStringLiteral("--") << QStringLiteral("true"));
        QCOMPARE(again.exitCode, 0);
    }

    void putAndGetRoundTrip()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString local = dir.path() + QStringLiteral("/payload.bin");
        QByteArray data(3 * 1024 * 1024 + 17, Qt::Uninitialized);
        for (qsizetype i = 0; i < data.size(); ++i)
            data[i] = char((i * 7919) >> 3);
        {
            QFile f(local);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(data);
        }
        QFile::setPermissions(local, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const auto put = kf::test::runCli(QStringList { QStringLiteral("put") }
            << sshOptions(demo) << local << destination(demo) + QStringLiteral(":up/"));
        QVERIFY2(put.exitCode != 0, "the remote folder does not exist yet");
        QDir(demo.homeDir()).mkpath(QStringLiteral("up"));
        const auto put2 = kf::test::runCli(QStringList { QStringLiteral("put") }
            << QStringLiteral("--sessions") << QStringLiteral("2") << sshOptions(demo) << local
            << destination(demo) + QStringLiteral(":up/"));
        QVERIFY2(put2.exitCode == 0, put2.err.constData());
        // One chunk (16 MiB) of a 3 MiB file: one connection used; nothing left beside it.
        const QByteArray summary = "3.0 MiB sent, 0.0 MiB resumed, over 1 connection; SHA-256 "
            + QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex();
        QVERIFY2(put2.out.contains(summary), put2.out.constData());
        QCOMPARE(QDir(demo.homeDir() + QStringLiteral("/up")).entryList(QDir::Files | QDir::Hidden),
            QStringList { QStringLiteral("payload.bin") });
        const auto badSessions = kf::test::runCli(QStringList { QStringLiteral("put") }
            << QStringLiteral("--sessions") << QStringLiteral("0") << sshOptions(demo) << local
            << destination(demo) + QStringLiteral(":up/"));
        QCOMPARE(badSessions.exitCode, 2);
        const QString remote = demo.homeDir() + QStringLiteral("/up/payload.bin");
        QFile rf(remote);
        QVERIFY(rf.open(QIODevice::ReadOnly));
        QCOMPARE(rf.readAll(), data);
        QCOMPARE(QFile::permissions(remote) & QFile::Permissions(0x7077),
            QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QString back = dir.path() + QStringLiteral("/back.bin");
        const auto get = kf::test::runCli(QStringList { QStringLiteral("get") }
            << sshOptions(demo) << destination(demo) + QStringLiteral(":~/up/payload.bin") << back);
        QVERIFY2(get.exitCode == 0, get.err.constData());
        QFile bf(back);
        QVERIFY(bf.open(QIODevice::ReadOnly));
        QCOMPARE(QCryptographicHash::hash(bf.readAll(), QCryptographicHash::Sha256),
            QCryptographicHash::hash(data, QCryptographicHash::Sha256));
    }
};

QTEST_GUILESS_MAIN(TestSshCli)
#include "tst_sshcli.moc"
