// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Key install (core/hosts/keyinstall.h) against the real sshd: a password-only user gets a
// key and then logs in with it, a second install adds nothing, a home sshd's StrictModes would
// reject is refused with nothing written, existing lines are kept, and an RSA-only user (whose
// key libssh2 1.10 cannot sign with) installs through the system's ssh; installations at once
// keep every key, and a lock left behind is refused with what to do.
#include "core/hosts/keyinstall.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/scriptedinteraction.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QtConcurrent>
#include <QtTest>

#include <sys/stat.h>

using namespace kf;
using kf::test::ScriptedInteraction;

namespace {

const QString kUser = QStringLiteral("kfkeypw");
const QByteArray kPassword = "keys are better 7";

QString runEcho(const std::shared_ptr<SshTransport>& t)
{
    const ExecResult r = t->exec({ QStringLiteral("echo authenticated") }, 30000);
    return QString::fromUtf8(r.stdOut.trimmed());
}

// How often the key's blob appears in the file.
int countKey(const QString& file, const QByteArray& publicLine)
{
    return int(test::readFile(file).count(publicLine.split(' ').value(1)));
}

quint32 modeOf(const QString& path)
{
    struct stat st
    { };
    return ::stat(QFile::encodeName(path).constData(), &st) == 0 ? (st.st_mode & 07777) : 0;
}

} // namespace

class TestKeyInstall : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        qunsetenv("SSH_AUTH_SOCK"); // only the keys and passwords a test names may help
        m_pool.setMaxThreadCount(8);
        if (test::isRoot())
            QCOMPARE(test::ensureSystemUser(kUser, QStringLiteral("/bin/sh")), QString());
    }
    void cleanupTestCase() { test::removeSystemUser(kUser); }

    void ensureKeyMakesThenReuses()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/sub/kernelforge_ed25519");
        const auto made = keyinstall::ensureKey(path);
        QVERIFY2(made.ok(), qPrintable(made.error()));
        QVERIFY(made->created);
        QVERIFY(made->publicKeyLine.startsWith("ssh-ed25519 AAAA"));
        const auto again = keyinstall::ensureKey(path);
        QVERIFY2(again.ok(), qPrintable(again.error()));
        QVERIFY(!again->created);
        QCOMPARE(again->publicKeyLine, made->publicKeyLine);
        // Without the .pub file, the public half is derived from the private key.
        QVERIFY(QFile::remove(path + QStringLiteral(".pub")));
        const auto derived = keyinstall::ensureKey(path);
        QVERIFY2(derived.ok(), qPrintable(derived.error()));
        QCOMPARE(derived->publicKeyLine.split(' ').value(1), made->publicKeyLine.split(' ').value(1));
        QVERIFY(!keyinstall::checkPublicKeyLine("ssh-ed25519 AAAA x\nssh-rsa AAAA").ok());
        QVERIFY(!keyinstall::checkPublicKeyLine("rm -rf ~").ok());
    }

    void passwordOnlyUserGetsKeyLogin()
    {
        if (!test::isRoot())
            QSKIP("a password-only user needs root");
        DemoHost::Options opts;
        opts.user = kUser;
        KF_START_DEMO_HOST(demo, opts);
        QVERIFY(demo.addPasswordUser(kUser, QString::fromUtf8(kPassword)).ok());
        QTemporaryDir dir;
        const auto key = keyinstall::ensureKey(dir.path() + QStringLiteral("/kernelforge_ed25519"));
        QVERIFY2(key.ok(), qPrintable(key.error()));

        HostProfile byKey = demo.profile();
        byKey.identityFiles = { key->privateKeyPath };
        QVERIFY(!SshTransport::connect(byKey).ok()); // not authorized yet: only the password works

        HostProfile byPassword = demo.profile();
        byPassword.identityFiles = {};
        ScriptedInteraction ui;
        ui.repeatLast = true;
        ui.answers = { kPassword };
        SshConnectOptions o;
        o.interaction = &ui;
        auto t = SshTransport::connect(byPassword, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QCOMPARE(ui.asked.last().kind, SecretRequest::Kind::Password);

        const auto first = keyinstall::installKey(*t.value(), key->publicKeyLine);
        QVERIFY2(first.ok(), qPrintable(first.error()));
        QVERIFY(first->added);
        const QString ak = demo.homeDir() + QStringLiteral("/.ssh/authorized_keys");
        QCOMPARE(modeOf(demo.homeDir() + QStringLiteral("/.ssh")), 0700u);
        QCOMPARE(modeOf(ak), 0600u);
        QCOMPARE(QFileInfo(ak).owner(), kUser);
        QCOMPARE(countKey(ak, key->publicKeyLine), 1);

        const auto second = keyinstall::installKey(*t.value(), key->publicKeyLine);
        QVERIFY2(second.ok(), qPrintable(second.error()));
        QVERIFY(!second->added);
        QVERIFY2(second->message.contains(QLatin1String("already")), qPrintable(second->message));
        QCOMPARE(countKey(ak, key->publicKeyLine), 1);

        auto withKey = SshTransport::connect(byKey);
        QVERIFY2(withKey.ok(), qPrintable(withKey.error()));
        QCOMPARE(runEcho(withKey.value()), QStringLiteral("authenticated"));
        // No temporary file is left behind.
        QCOMPARE(QDir(demo.homeDir() + QStringLiteral("/.ssh")).entryList(QDir::Files | QDir::Hidden),
            QStringList { QStringLiteral("authorized_keys") });
    }

    void keepsLinesAndRefusesWhatSshdWouldIgnore()
    {
        KF_START_DEMO_HOST(demo);
        auto t = SshTransport::connect(demo.profile());
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QTemporaryDir dir;
        const auto key = keyinstall::ensureKey(dir.path() + QStringLiteral("/k"));
        QVERIFY2(key.ok(), qPrintable(key.error()));
        const QString sshDir = demo.homeDir() + QStringLiteral("/.ssh");
        const QString ak = sshDir + QStringLiteral("/authorized_keys");

        // A home writable by the group: sshd would ignore the keys, so nothing is written.
        QVERIFY(::chmod(QFile::encodeName(demo.homeDir()).constData(), 0775) == 0);
        const auto refused = keyinstall::installKey(*t.value(), key->publicKeyLine);
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().contains(QLatin1String("writable by group or others"))
                && refused.error().contains(QLatin1String("chmod go-w ~")),
            qPrintable(refused.error()));
        QVERIFY(!QFileInfo::exists(sshDir));
        QVERIFY(::chmod(QFile::encodeName(demo.homeDir()).constData(), 0755) == 0);

        // A world-writable ~/.ssh is refused the same way.
        QVERIFY(QDir().mkpath(sshDir));
        QVERIFY(::chmod(QFile::encodeName(sshDir).constData(), 0777) == 0);
        const auto refusedDir = keyinstall::installKey(*t.value(), key->publicKeyLine);
        QVERIFY(!refusedDir.ok());
        QVERIFY2(refusedDir.error().contains(QLatin1String("~/.ssh is writable")), qPrintable(refusedDir.error()));
        QVERIFY(::chmod(QFile::encodeName(sshDir).constData(), 0700) == 0);

        // Existing lines stay (a last line without its newline too); a commented-out copy of the
        // key does not count as installed; the file keeps its mode.
        const QByteArray before = "# " + key->publicKeyLine + "\nssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOther other";
        QVERIFY(test::writeFile(ak, before));
        QVERIFY(::chmod(QFile::encodeName(ak).constData(), 0640) == 0);
        const auto added = keyinstall::installKey(*t.value(), key->publicKeyLine);
        QVERIFY2(added.ok(), qPrintable(added.error()));
        QVERIFY(added->added);
        QCOMPARE(test::readFile(ak), before + '\n' + key->publicKeyLine + '\n');
        QCOMPARE(modeOf(ak), 0640u);

        // A symlinked authorized_keys is refused (the rename would replace the link).
        QVERIFY(QFile::rename(ak, sshDir + QStringLiteral("/real")));
        QVERIFY(QFile::link(sshDir + QStringLiteral("/real"), ak));
        const auto link = keyinstall::installKey(*t.value(), "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAINew new");
        QVERIFY(!link.ok());
        QVERIFY2(link.error().contains(QLatin1String("symbolic link")), qPrintable(link.error()));
    }

    // Installations at once (two windows, a script and the GUI) each keep their key: without
    // the lock each copied the file and the last rename dropped the others' keys.
    void concurrentInstallsKeepEveryKey()
    {
        KF_START_DEMO_HOST(demo);
        auto t = SshTransport::connect(demo.profile());
        QVERIFY2(t.ok(), qPrintable(t.error()));
        const QString ak = demo.homeDir() + QStringLiteral("/.ssh/authorized_keys");
        // The demo home starts without ~/.ssh: the installs race to make it as well (one lost
        // that race with "cannot create ~/.ssh" before mkdir accepted a folder made meanwhile).
        QVERIFY(!QFileInfo::exists(demo.homeDir() + QStringLiteral("/.ssh")));
        const QByteArray before = test::readFile(ak);
        QList<QByteArray> keys;
        for (int i = 0; i < 8; ++i)
            keys << "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIConcurrent" + QByteArray::number(i) + " k"
                    + QByteArray::number(i);
        std::shared_ptr<Transport> transport = t.value();
        QList<QFuture<Result<keyinstall::InstallReport>>> runs;
        for (const QByteArray& k : keys)
            runs << QtConcurrent::run(&m_pool, [transport, k] { return keyinstall::installKey(*transport, k); });
        for (auto& run : runs) {
            const Result<keyinstall::InstallReport> r = run.result();
            QVERIFY2(r.ok() && r->added, qPrintable(r.ok() ? r->message : r.error()));
        }
        const QByteArray after = test::readFile(ak);
        QVERIFY(after.startsWith(before));
        for (const QByteArray& k : keys)
            QVERIFY2(after.count(QByteArray(k.split(' ').value(1) + ' ')) == 1, after.constData());
        QVERIFY(!QFileInfo::exists(demo.homeDir() + QStringLiteral("/.ssh/.kf-authorized_keys.lock")));

        // A lock left behind by an installation that was killed: refused with what to do, nothing written.
        QVERIFY(QDir().mkpath(demo.homeDir() + QStringLiteral("/.ssh/.kf-authorized_keys.lock")));
        const auto stuck = keyinstall::installKey(*transport, "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIStuck s");
        QVERIFY(!stuck.ok());
        QVERIFY2(
            stuck.error().contains(QLatin1String("if none is running, remove that folder")), qPrintable(stuck.error()));
        QCOMPARE(test::readFile(ak), after);
    }

    void rsaOnlyUserInstallsThroughSystemSsh()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString rsa = test::makeKey(dir.path(), QStringLiteral("rsa"));
        QFile ak(demo.authorizedKeysPath()); // only the RSA key is authorized
        QVERIFY(ak.open(QIODevice::WriteOnly | QIODevice::Truncate));
        ak.write(test::readFile(rsa + QStringLiteral(".pub")));
        ak.close();
        HostProfile p = demo.profile();
        p.identityFiles = { rsa };
#ifndef KF_LIBSSH2_HAS_RSA_SHA2
        const auto direct = SshTransport::connect(p);
        QVERIFY(!direct.ok());
        QVERIFY2(direct.error().contains(QLatin1String("RSA keys need libssh2")), qPrintable(direct.error()));
#endif
        const auto key = keyinstall::ensureKey(dir.path() + QStringLiteral("/kernelforge_ed25519"));
        QVERIFY2(key.ok(), qPrintable(key.error()));
        keyinstall::SystemSshOptions o;
        o.program = QStringLiteral("/usr/bin/ssh");
        const auto installed = keyinstall::installKeyWithSystemSsh(p, key->publicKeyLine, o);
        QVERIFY2(installed.ok(), qPrintable(installed.error() + QStringLiteral("\nsshd log:\n") + demo.sshdLog()));
        QVERIFY(installed->added);
        QCOMPARE(installed->carrier, QStringLiteral("system ssh"));

        HostProfile byKey = demo.profile();
        byKey.identityFiles = { key->privateKeyPath };
        auto t = SshTransport::connect(byKey);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QCOMPARE(runEcho(t.value()), QStringLiteral("authenticated"));

        const auto again = keyinstall::installKeyWithSystemSsh(p, key->publicKeyLine, o);
        QVERIFY2(again.ok(), qPrintable(again.error()));
        QVERIFY(!again->added);

        // ssh's own failure reaches the message (a key the server does not take).
        HostProfile stranger = p;
        stranger.identityFiles = { test::makeKey(dir.path(), QStringLiteral("ecdsa")) };
        const auto denied = keyinstall::installKeyWithSystemSsh(stranger, key->publicKeyLine, o);
        QVERIFY(!denied.ok());
        QVERIFY2(denied.error().contains(QLatin1String("Permission denied")), qPrintable(denied.error()));
    }

private:
    QThreadPool m_pool; // the installations at once run here, never in Qt's global pool
};

QTEST_GUILESS_MAIN(TestKeyInstall)
#include "tst_keyinstall.moc"
