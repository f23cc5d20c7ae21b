// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli key install, the real binary against the real sshd: the password asked on a
// terminal (a pty from script(1)) and never an argument, a second run that adds nothing, an
// RSA-only login through the system ssh, and usage errors (exit 2).
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

const QString kUser = QStringLiteral("kfclikey");

QStringList demoOptions(const DemoHost& demo)
{
    return { QStringLiteral("-p"), QString::number(demo.port()), QStringLiteral("--known-hosts"),
        demo.knownHostsPath() };
}

} // namespace

class TestCliKey : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qunsetenv("SSH_AUTH_SOCK"); }
    void cleanupTestCase() { test::removeSystemUser(kUser); }

    void usageErrors()
    {
        QCOMPARE(test::runCli({ QStringLiteral("key") }).exitCode, 2);
        QCOMPARE(test::runCli({ QStringLiteral("key"), QStringLiteral("frob") }).exitCode, 2);
        QCOMPARE(test::runCli({ QStringLiteral("key"), QStringLiteral("install") }).exitCode, 2);
        QCOMPARE(test::runCli(
                     { QStringLiteral("key"), QStringLiteral("install"), QStringLiteral("h"), QStringLiteral("--key") })
                     .exitCode,
            2);
        QCOMPARE(
            test::runCli({ QStringLiteral("key"), QStringLiteral("install"), QStringLiteral("h:/tmp") }).exitCode, 2);
        const auto help = test::runCli({ QStringLiteral("key"), QStringLiteral("install"), QStringLiteral("--help") });
        QCOMPARE(help.exitCode, 0);
        QVERIFY(help.out.contains("--via-system-ssh"));
    }

    void passwordOnTheTerminal()
    {
        if (!test::isRoot())
            QSKIP("a password-only user needs root");
        QCOMPARE(test::ensureSystemUser(kUser, QStringLiteral("/bin/sh")), QString());
        DemoHost::Options opts;
        opts.user = kUser;
        KF_START_DEMO_HOST(demo, opts);
        const QByteArray password = "terminal only 31";
        QVERIFY(demo.addPasswordUser(kUser, QString::fromUtf8(password)).ok());
        QTemporaryDir home;
        const QString key = home.path() + QStringLiteral("/kernelforge_ed25519");
        QStringList cli { QStringLiteral(KF_CLI_BINARY), QStringLiteral("key"), QStringLiteral("install") };
        cli << demoOptions(demo) << QStringLiteral("--key") << key << kUser + QStringLiteral("@127.0.0.1");

        // script(1) gives the CLI a terminal; the password is typed once the prompt is shown.
        auto install = [&](QByteArray* output) {
            QProcess p;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("HOME"), home.path());
            p.setProcessEnvironment(env);
            p.setProcessChannelMode(QProcess::MergedChannels);
            QStringList quoted;
            for (const QString& a : cli)
                quoted << QStringLiteral("'") + a + QStringLiteral("'");
            p.start(QStringLiteral("script"),
                { QStringLiteral("-qefc"), quoted.join(QLatin1Char(' ')), QStringLiteral("/dev/null") });
            QVERIFY(p.waitForStarted());
            QElapsedTimer t;
            t.start();
            while (!output->contains("assword") && p.state() == QProcess::Running && t.elapsed() < 60000) {
                p.waitForReadyRead(200);
                *output += p.readAll();
            }
            if (output->contains("assword"))
                p.write(password + '\n');
            QVERIFY(p.waitForFinished(60000));
            *output += p.readAll();
            QVERIFY2(p.exitCode() == 0, output->constData());
        };
        QByteArray first;
        install(&first);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(first.contains(QByteArray(QByteArray("made the key ") + key.toUtf8())), first.constData());
        QVERIFY2(first.contains("added the key to ~/.ssh/authorized_keys"), first.constData());
        QVERIFY(!first.contains(password)); // not echoed, not printed

        const auto login
            = test::runCli(QStringList { QStringLiteral("exec"), QStringLiteral("-i"), key } + demoOptions(demo)
                + QStringList { kUser + QStringLiteral("@127.0.0.1"), QStringLiteral("--"), QStringLiteral("echo"),
                    QStringLiteral("by-key") });
        QVERIFY2(login.exitCode == 0 && login.out.trimmed() == "by-key", login.err.constData());

        QByteArray second;
        install(&second);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(second.contains("using the key") && second.contains("already in ~/.ssh/authorized_keys"),
            second.constData());
        const QByteArray blob = test::readFile(key + QStringLiteral(".pub")).split(' ').value(1);
        QCOMPARE(test::readFile(demo.homeDir() + QStringLiteral("/.ssh/authorized_keys")).count(blob), 1);
    }

    void rsaThroughSystemSsh()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString rsa = test::makeKey(dir.path(), QStringLiteral("rsa"));
        QVERIFY(test::writeFile(demo.authorizedKeysPath(), test::readFile(rsa + QStringLiteral(".pub"))));
        const QString key = dir.path() + QStringLiteral("/kernelforge_ed25519");
        const QString dest = demo.user() + QStringLiteral("@127.0.0.1");
        const QStringList common = QStringList { QStringLiteral("key"), QStringLiteral("install"), QStringLiteral("-i"),
            rsa, QStringLiteral("--key"), key }
            + demoOptions(demo) + QStringList { dest };
#ifndef KF_LIBSSH2_HAS_RSA_SHA2
        // libssh2 cannot sign with the RSA key: the error says what to do.
        const auto stuck = test::runCli(common);
        QCOMPARE(stuck.exitCode, 255);
        QVERIFY2(stuck.err.contains("--via-system-ssh"), stuck.err.constData());
#endif
        const auto viaSsh = test::runCli(common + QStringList { QStringLiteral("--via-system-ssh") });
        QVERIFY2(viaSsh.exitCode == 0, viaSsh.err.constData());
        QVERIFY2(viaSsh.out.contains("through system ssh"), viaSsh.out.constData());
        const auto login
            = test::runCli(QStringList { QStringLiteral("exec"), QStringLiteral("-i"), key } + demoOptions(demo)
                + QStringList { dest, QStringLiteral("--"), QStringLiteral("echo"), QStringLiteral("ed25519") });
        QVERIFY2(login.exitCode == 0 && login.out.trimmed() == "ed25519", login.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCliKey)
#include "tst_cli_key.moc"
