// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Logging in to the demo sshd: key types, passphrases, the agent, passwords,
// keyboard-interactive and the RSA explanation for libssh2 < 1.11.
#include "core/ssh/sshtransport.h"
#include "core/util/secretregistry.h"
#include "tests/support/scriptedinteraction.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;
using kf::test::ScriptedInteraction;

namespace {

QString runEcho(const std::shared_ptr<SshTransport>& t)
{
    const ExecResult r = t->exec({ QStringLiteral("echo authenticated") }, 30000);
    return QString::fromUtf8(r.stdOut.trimmed());
}

} // namespace

class TestSshAuth : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        // Only the agent test uses an agent; an agent of the person running the tests must not help.
        qunsetenv("SSH_AUTH_SOCK");
    }

    void keyTypes_data()
    {
        QTest::addColumn<QString>("type");
        QTest::newRow("ed25519") << QStringLiteral("ed25519");
        QTest::newRow("ecdsa") << QStringLiteral("ecdsa");
    }
    void keyTypes()
    {
        QFETCH(QString, type);
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString key = test::makeKey(dir.path(), type);
        QVERIFY(test::authorizeKey(demo, key));
        HostProfile p = demo.profile();
        p.identityFiles = { key };
        auto t = SshTransport::connect(p);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QCOMPARE(runEcho(t.value()), QStringLiteral("authenticated"));
    }

    void passphraseKey()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString key = test::makeKey(dir.path(), QStringLiteral("ed25519"), QStringLiteral("open sesame"));
        QVERIFY(test::authorizeKey(demo, key));
        HostProfile p = demo.profile();
        p.identityFiles = { key };

        // No way to ask: a clear error, no attempt.
        auto none = SshTransport::connect(p);
        QVERIFY(!none.ok());
        QVERIFY2(none.error().contains(QLatin1String("needs a passphrase")), qPrintable(none.error()));

        // A wrong passphrase first, then the right one.
        ScriptedInteraction ui;
        ui.repeatLast = true;
        ui.answers = { "wrong guess", "open sesame" };
        SshConnectOptions o;
        o.interaction = &ui;
        auto t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QCOMPARE(ui.asked.size(), 2);
        QCOMPARE(ui.asked.first().kind, SecretRequest::Kind::Passphrase);
        QCOMPARE(ui.asked.first().keyFile, key);
        QCOMPARE(runEcho(t.value()), QStringLiteral("authenticated"));
        // The passphrase never reaches a log line.
        QCOMPARE(QString::fromStdString(SecretRegistry::redact("x open sesame y")), QStringLiteral("x *** y"));
    }

    void agent()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString key = test::makeKey(dir.path(), QStringLiteral("ed25519"));
        QVERIFY(test::authorizeKey(demo, key));
        const QString sock = dir.path() + QStringLiteral("/agent.sock");
        QProcess agent;
        agent.start(QStringLiteral("ssh-agent"), { QStringLiteral("-D"), QStringLiteral("-a"), sock });
        QVERIFY(agent.waitForStarted());
        // The socket file appears at bind(), a moment before the agent listens: wait until
        // `ssh-add -l` reaches it (exit 2: could not connect).
        const QStringList env { QStringLiteral("SSH_AUTH_SOCK=") + sock };
        QTRY_VERIFY_WITH_TIMEOUT(
            kf::test::runProgram(QStringLiteral("ssh-add"), { QStringLiteral("-l") }, 30000, {}, env).exitCode != 2,
            30000);
        const auto add = kf::test::runProgram(QStringLiteral("ssh-add"), { key }, 30000, {}, env);
        QVERIFY2(add.exitCode == 0, add.err.constData());
        qputenv("SSH_AUTH_SOCK", sock.toLocal8Bit());
        HostProfile p = demo.profile();
        p.identityFiles = { dir.path() + QStringLiteral("/does-not-exist") }; // only the agent can help
        auto t = SshTransport::connect(p);
        qunsetenv("SSH_AUTH_SOCK");
        agent.kill();
        agent.waitForFinished();
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QCOMPARE(runEcho(t.value()), QStringLiteral("authenticated"));
        QVERIFY(demo.sshdLog().contains(QLatin1String("Accepted publickey")));
    }

    void rsaKeyIsExplained()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString key = test::makeKey(dir.path(), QStringLiteral("rsa"));
        QVERIFY(test::authorizeKey(demo, key));
        HostProfile p = demo.profile();
        p.identityFiles = { key };
        auto t = SshTransport::connect(p);
#ifdef KF_LIBSSH2_HAS_RSA_SHA2
        QVERIFY2(t.ok(), qPrintable(t.error()));
#else
        QVERIFY(!t.ok());
        QVERIFY2(t.error().contains(QLatin1String("RSA keys need libssh2 >= 1.11; use an ed25519 or ECDSA key")),
            qPrintable(t.error()));
#endif
    }

    void unauthorizedKeyIsPermissionDenied()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        HostProfile p = demo.profile();
        p.identityFiles = { test::makeKey(dir.path(), QStringLiteral("ed25519")) }; // not in authorized_keys
        auto t = SshTransport::connect(p);
        QVERIFY(!t.ok());
        QVERIFY2(t.error().contains(QLatin1String("Permission denied")), qPrintable(t.error()));
        QVERIFY2(t.error().contains(QLatin1String("refused key")), qPrintable(t.error()));
    }

    void password()
    {
        if (!kf::test::isRoot())
            QSKIP("password logins need a local user with a password (root only)");
        KF_START_DEMO_HOST(demo);
        QVERIFY(demo.addPasswordUser(QStringLiteral("kftestpw"), QStringLiteral("correct horse battery")).ok());
        HostProfile p = demo.profile();
        p.user = QStringLiteral("kftestpw");
        p.identityFiles = {};
        ScriptedInteraction ui;
        ui.repeatLast = true;
        ui.answers = { "correct horse battery" };
        SshConnectOptions o;
        o.interaction = &ui;
        auto t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QVERIFY(!ui.asked.isEmpty());
        QCOMPARE(ui.asked.last().kind, SecretRequest::Kind::Password);
        QCOMPARE(runEcho(t.value()), QStringLiteral("authenticated"));

        ScriptedInteraction wrong;

        wrong.repeatLast = true;
        wrong.answers = { "not the password" };
        o.interaction = &wrong;
        auto bad = SshTransport::connect(p, o);
        QVERIFY(!bad.ok());
        QVERIFY2(bad.error().contains(QLatin1String("Permission denied"))
                && bad.error().contains(QLatin1String("wrong password")),
            qPrintable(bad.error()));
        QVERIFY(!bad.error().contains(QLatin1String("not the password")));
    }

    void keyboardInteractive()
    {
        if (!kf::test::isRoot())
            QSKIP("keyboard-interactive needs PAM and a local user with a password (root only)");
        DemoHost::Options opts;
        opts.usePam = true;
        KF_START_DEMO_HOST(demo, opts);
        QVERIFY(demo.addPasswordUser(QStringLiteral("kftestkbd"), QStringLiteral("kbd secret 42")).ok());
        HostProfile p = demo.profile();
        p.user = QStringLiteral("kftestkbd");
        p.identityFiles = {};
        ScriptedInteraction ui;
        ui.repeatLast = true;
        ui.answers = { "kbd secret 42" };
        SshConnectOptions o;
        o.interaction = &ui;
        auto t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QVERIFY(!ui.asked.isEmpty());
        QCOMPARE(ui.asked.first().kind, SecretRequest::Kind::KeyboardInteractive);
        QVERIFY2(ui.asked.first().prompt.contains(QLatin1String("assword")), qPrintable(ui.asked.first().prompt));
        QCOMPARE(runEcho(t.value()), QStringLiteral("authenticated"));
    }
};

QTEST_GUILESS_MAIN(TestSshAuth)
#include "tst_sshauth.moc"
