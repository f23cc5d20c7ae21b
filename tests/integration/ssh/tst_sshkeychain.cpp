// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// "Remember in the system keychain" against a real Secret Service: the test starts its own
// session bus (dbus-daemon) and an unlocked gnome-keyring-daemon with a private data folder,
// then logs in to the demo sshd with key passphrases (and, as root, passwords): nothing is
// stored unless the box is ticked, a stored secret is used without a prompt, a refused one is
// removed and the person is asked again (told so), and "forget" removes what is stored.
#include "core/hosts/secretstore.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "core/util/secretregistry.h"
#include "tests/support/scriptedinteraction.h"
#include "tests/support/testsupport.h"

#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;
using kf::test::ScriptedInteraction;

namespace {

std::optional<QByteArray> stored(SecretStore& store, const QString& key)
{
    auto r = store.read(key);
    if (!r) {
        qWarning("keychain read failed: %s", qPrintable(r.error()));
        return std::nullopt;
    }
    return r.value();
}

} // namespace

class TestSshKeychain : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        qunsetenv("SSH_AUTH_SOCK");
#ifndef KF_HAVE_QTKEYCHAIN
        QVERIFY(!SecretStore::createSystem()); // the box is not offered without qtkeychain
        QSKIP("built without qtkeychain: there is no keychain to test");
#else
        QVERIFY(m_dir.isValid());
        if (QStandardPaths::findExecutable(QStringLiteral("dbus-daemon")).isEmpty()
            || QStandardPaths::findExecutable(QStringLiteral("gnome-keyring-daemon")).isEmpty())
            QSKIP("needs dbus-daemon and gnome-keyring-daemon (scripts/bootstrap installs them)");
        // A private session bus without service activation (an activated keyring would be a
        // locked one) and an unlocked gnome-keyring on it, both with folders of their own:
        // nothing of the person's keyring is touched. They run detached and end after this
        // process: GDBus raises SIGTERM in a process whose session bus goes away.
        QFile conf(m_dir.filePath(QStringLiteral("bus.conf")));
        QVERIFY(conf.open(QIODevice::WriteOnly));
        conf.write("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN\"\n"
                   " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                   "<busconfig><type>session</type><listen>unix:dir="
            + QFile::encodeName(m_dir.path())
            + "</listen>"
              "<auth>EXTERNAL</auth><policy context=\"default\"><allow send_destination=\"*\" eavesdrop=\"true\"/>"
              "<allow eavesdrop=\"true\"/><allow own=\"*\"/></policy></busconfig>\n");
        conf.close();
        QDir(m_dir.path()).mkpath(QStringLiteral("run"));
        QFile::setPermissions(
            m_dir.filePath(QStringLiteral("run")), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        const QString addressFile = m_dir.filePath(QStringLiteral("bus-address"));
        const QString script
            = QStringLiteral("dbus-daemon --config-file=\"$1\" --nofork --print-address=1 > \"$2.tmp\" & bus=$!\n"
                             "n=0; while [ ! -s \"$2.tmp\" ] && [ $n -lt 200 ]; do sleep 0.1; n=$((n+1)); done\n"
                             "DBUS_SESSION_BUS_ADDRESS=$(head -n1 \"$2.tmp\"); export DBUS_SESSION_BUS_ADDRESS\n"
                             "printf %s keyring-test-password | gnome-keyring-daemon --foreground --unlock "
                             "--components=secrets 2>\"$2.log\" & ring=$!\n"
                             "mv \"$2.tmp\" \"$2\"\n"
                             "while kill -0 \"$3\" 2>/dev/null; do sleep 0.5; done\n"
                             "kill $ring $bus\n");
        QProcess daemons;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_dir.path());
        env.insert(QStringLiteral("XDG_DATA_HOME"), m_dir.filePath(QStringLiteral("data")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir.filePath(QStringLiteral("run")));
        daemons.setProcessEnvironment(env);
        daemons.setProgram(QStringLiteral("sh"));
        daemons.setArguments({ QStringLiteral("-c"), script, QStringLiteral("sh"), conf.fileName(), addressFile,
            QString::number(QCoreApplication::applicationPid()) });
        QVERIFY(daemons.startDetached());
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(addressFile), 30000);
        QFile af(addressFile);
        QVERIFY(af.open(QIODevice::ReadOnly));
        const QByteArray address = af.readLine().trimmed();
        if (address.isEmpty())
            QSKIP("dbus-daemon printed no address: the private session bus did not start");
        // Before the first D-Bus connection of this process (the keychain thread's).
        qputenv("DBUS_SESSION_BUS_ADDRESS", address);
        m_keyringLog = addressFile + QStringLiteral(".log");

        m_store = SecretStore::createSystem(20000);
        QVERIFY(m_store);
        // The daemon takes the bus name asynchronously: wait until a write goes through. (Not
        // QTRY_*: it counts iterations, and one failing write takes up to the store's timeout.)
        Result<void> probe = Result<void>::failure(QStringLiteral("not tried"));
        for (QDeadlineTimer deadline(30000); !deadline.hasExpired();) {
            probe = m_store->write(QStringLiteral("kf-probe"), "probe");
            if (probe.ok())
                break;
            QTest::qWait(200);
        }
        if (!probe.ok())
            QSKIP(qPrintable(QStringLiteral("the Secret Service did not come up: ") + probe.error() + QLatin1Char(' ')
                + QString::fromLocal8Bit(test::readFile(m_keyringLog))));
        QVERIFY(m_store->remove(QStringLiteral("kf-probe")).ok());
#endif
    }

    void storeRoundTrip()
    {
        const QString key = QStringLiteral("alice@gpu1:2222");
        QCOMPARE(stored(*m_store, key), std::optional<QByteArray>());
        QVERIFY(m_store->write(key, QByteArray("s3cret \x01\xff bytes", 16)).ok());
        QCOMPARE(stored(*m_store, key), std::optional<QByteArray>(QByteArray("s3cret \x01\xff bytes", 16)));
        QVERIFY(m_store->write(key, "replaced").ok());
        QCOMPARE(stored(*m_store, key), std::optional<QByteArray>("replaced"));
        QVERIFY(m_store->remove(key).ok());
        QCOMPARE(stored(*m_store, key), std::optional<QByteArray>());
        QVERIFY(m_store->remove(key).ok()); // nothing stored: still fine
    }

    void passphraseRememberedOnlyWhenTicked()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString key = test::makeKey(dir.path(), QStringLiteral("ed25519"), QStringLiteral("keychain passphrase"));
        QVERIFY(test::authorizeKey(demo, key));
        HostProfile p = demo.profile();
        p.identityFiles = { key };
        SshConnectOptions o;

        // Not ticked: asked, logged in, nothing stored.
        ScriptedInteraction first(HostKeyDecision::Reject, m_store);
        first.answers = { "keychain passphrase" };
        o.interaction = &first;
        auto t1 = SshTransport::connect(p, o);
        QVERIFY2(t1.ok(), qPrintable(t1.error()));
        QCOMPARE(first.asked.size(), 1);
        QVERIFY(first.asked.first().offerKeychain);
        QCOMPARE(stored(*m_store, SecretStore::passphraseKey(key)), std::optional<QByteArray>());

        // Ticked: stored under the key file's path.
        ScriptedInteraction second(HostKeyDecision::Reject, m_store);
        second.answers = { "keychain passphrase" };
        second.storeInKeychain = true;
        o.interaction = &second;
        auto t2 = SshTransport::connect(p, o);
        QVERIFY2(t2.ok(), qPrintable(t2.error()));
        QCOMPARE(second.asked.size(), 1);
        QCOMPARE(stored(*m_store, SecretStore::passphraseKey(key)), std::optional<QByteArray>("keychain passphrase"));

        // Next login: no prompt at all.
        ScriptedInteraction third(HostKeyDecision::Reject, m_store);
        o.interaction = &third;
        auto t3 = SshTransport::connect(p, o);
        QVERIFY2(t3.ok(), qPrintable(t3.error()));
        QCOMPARE(third.asked.size(), 0);
        QCOMPARE(t3.value()->exec({ QStringLiteral("echo via-keychain") }, 30000).stdOut, QByteArray("via-keychain\n"));
        QVERIFY(t3.value()->session()->loggedInWithoutPrompt());
        // The stored secret is registered for redaction like a typed one.
        QCOMPARE(redact(QStringLiteral("x keychain passphrase y")), QStringLiteral("x *** y"));

        // Forget: removed, and the next login asks again.
        const Result<int> removed = forgetStoredSecrets(*m_store, p);
        QVERIFY2(removed.ok(), qPrintable(removed.error()));
        QCOMPARE(removed.value(), 1);
        QCOMPARE(stored(*m_store, SecretStore::passphraseKey(key)), std::optional<QByteArray>());
        QCOMPARE(forgetStoredSecrets(*m_store, p).value(), 0);
        ScriptedInteraction fourth(HostKeyDecision::Reject, m_store);
        o.interaction = &fourth;
        QVERIFY(!SshTransport::connect(p, o).ok()); // no answer given: refused
        QCOMPARE(fourth.asked.size(), 1);
    }

    void refusedStoredPassphraseIsRemovedAndAskedAgain()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString key = test::makeKey(dir.path(), QStringLiteral("ed25519"), QStringLiteral("the real one"));
        QVERIFY(test::authorizeKey(demo, key));
        HostProfile p = demo.profile();
        p.identityFiles = { key };
        QVERIFY(m_store->write(SecretStore::passphraseKey(key), "an old passphrase").ok());
        ScriptedInteraction ui(HostKeyDecision::Reject, m_store);
        ui.answers = { "the real one" };
        SshConnectOptions o;
        o.interaction = &ui;
        auto t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QCOMPARE(ui.asked.size(), 1);
        QVERIFY2(ui.asked.first().prompt.contains(QLatin1String("stored in the keychain"))
                && ui.asked.first().prompt.contains(QLatin1String("removed")),
            qPrintable(ui.asked.first().prompt));
        QCOMPARE(
            stored(*m_store, SecretStore::passphraseKey(key)), std::optional<QByteArray>()); // not ticked this time
    }

    void passwordRememberedAndForgotten()
    {
        if (!test::isRoot())
            QSKIP("password logins need a local user with a password (root only)");
        KF_START_DEMO_HOST(demo);
        QVERIFY(demo.addPasswordUser(QStringLiteral("kftestkc"), QStringLiteral("keychain login pw")).ok());
        HostProfile p = demo.profile();
        p.user = QStringLiteral("kftestkc");
        p.identityFiles = {};
        const QString storeKey = SecretStore::passwordKey(p.user, p.host, p.port);
        QCOMPARE(storedSecretKeys(p).first(), storeKey);
        SshConnectOptions o;

        ScriptedInteraction ask(HostKeyDecision::Reject, m_store);
        ask.answers = { "keychain login pw" };
        ask.storeInKeychain = true;
        o.interaction = &ask;
        auto t1 = SshTransport::connect(p, o);
        QVERIFY2(t1.ok(), qPrintable(t1.error()));
        QCOMPARE(ask.asked.size(), 1);
        QCOMPARE(ask.asked.first().kind, SecretRequest::Kind::Password);
        QVERIFY(ask.asked.first().offerKeychain);
        QCOMPARE(stored(*m_store, storeKey), std::optional<QByteArray>("keychain login pw"));

        ScriptedInteraction quiet(HostKeyDecision::Reject, m_store);
        o.interaction = &quiet;
        auto t2 = SshTransport::connect(p, o);
        QVERIFY2(t2.ok(), qPrintable(t2.error()));
        QCOMPARE(quiet.asked.size(), 0);

        // The password changed on the server: the stored one is refused, removed, asked again.
        QVERIFY(m_store->write(storeKey, "an outdated password").ok());
        ScriptedInteraction again(HostKeyDecision::Reject, m_store);
        again.answers = { "keychain login pw" };
        o.interaction = &again;
        auto t3 = SshTransport::connect(p, o);
        QVERIFY2(t3.ok(), qPrintable(t3.error()));
        QCOMPARE(again.asked.size(), 1);
        QVERIFY2(again.asked.first().prompt.contains(QLatin1String("password stored in the keychain")),
            qPrintable(again.asked.first().prompt));
        QCOMPARE(stored(*m_store, storeKey), std::optional<QByteArray>());
    }

private:
    QTemporaryDir m_dir;
    QString m_keyringLog;
    std::shared_ptr<SecretStore> m_store;
};

QTEST_GUILESS_MAIN(TestSshKeychain)
#include "tst_sshkeychain.moc"
