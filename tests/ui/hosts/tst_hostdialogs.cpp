// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/hostprofilestore.h"
#include "core/hosts/secretstore.h"
#include "core/hosts/serverfacts.h"
#include "core/ssh/sshtransport.h"
#include "core/transport/localtransport.h"
#include "tests/support/factsfixture.h"
#include "tests/support/testsupport.h"
#include "ui/hosts/connectdialog.h"
#include "ui/hosts/guiinteraction.h"
#include "ui/hosts/hostkeydialog.h"
#include "ui/hosts/secretdialog.h"
#include "ui/hosts/serverfactswidget.h"

#include <QApplication>
#include <QCheckBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSemaphore>
#include <QSignalSpy>
#include <QSpinBox>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThreadPool>
#include <QTimer>
#include <QVBoxLayout>
#include <QtConcurrent>
#include <QtTest>

#include <atomic>
#include <thread>

using namespace kf;

namespace {

HostKeyInfo unknownKey()
{
    HostKeyInfo i;
    i.kind = HostKeyInfo::Kind::Unknown;
    i.host = QStringLiteral("gpu1.lab.example.com");
    i.port = 2222;
    i.keyType = QStringLiteral("ssh-ed25519");
    i.fingerprint = QStringLiteral("SHA256:Q5zZ2S2r1b8mXo1mIu0W9c7l6Cw0l8n2hWJmF4b0rLk");
    i.knownHostsFile = QStringLiteral("/home/alice/.ssh/known_hosts");
    return i;
}

HostKeyInfo changedKey(HostKeyInfo::Kind kind)
{
    HostKeyInfo i = unknownKey();
    i.kind = kind;
    i.oldEntryFile = QStringLiteral("/home/alice/.ssh/known_hosts");
    i.oldEntryLine = 12;
    i.oldKeyType = QStringLiteral("ecdsa-sha2-nistp256");
    return i;
}

QStringList buttonTexts(QWidget* w)
{
    QStringList out;
    for (QPushButton* b : w->findChildren<QPushButton*>())
        if (b->isVisibleTo(w))
            out << b->text().remove(QLatin1Char('&'));
    return out;
}

void saveGrab(QWidget* w, const QString& name)
{
    // Widgets added to a visible parent are shown by a queued call in QLayout.
    QCoreApplication::processEvents();
    w->adjustSize();
    const bool ok = w->grab().save(test::screenshotPath(name));
    QVERIFY2(ok, qPrintable(name));
}

// A child widget is grabbed at the size its parent's layout gave it.
void grabCard(QWidget* w, const QString& name)
{
    QCoreApplication::processEvents();
    const bool ok = w->grab().save(test::screenshotPath(name));
    QVERIFY2(ok, qPrintable(name));
}

// The keychain as a map: the dialog's part is which keys it clears and what it says (the
// real Secret Service is exercised in tests/integration/ssh/tst_sshkeychain.cpp).
class MapSecretStore final : public SecretStore
{
public:
    QMap<QString, QByteArray> entries;
    Result<std::optional<QByteArray>> read(const QString& key) override
    {
        return entries.contains(key) ? std::optional<QByteArray>(entries.value(key)) : std::nullopt;
    }
    Result<void> write(const QString& key, const QByteArray& secret) override
    {
        entries.insert(key, secret);
        return {};
    }
    Result<void> remove(const QString& key) override
    {
        entries.remove(key);
        return {};
    }
};

// A keychain whose reads wait at a gate (a desktop's unlock prompt): says whether it was
// destroyed while a read was still inside it.
class GatedSecretStore final : public SecretStore
{
public:
    GatedSecretStore(QSemaphore* entered, QSemaphore* gate, std::atomic<int>* state)
        : m_entered(entered)
        , m_gate(gate)
        , m_state(state)
    { }
    ~GatedSecretStore() override { m_state->fetch_or(m_reading.load() ? 2 : 1); }
    Result<std::optional<QByteArray>> read(const QString&) override
    {
        m_reading = true;
        m_entered->release();
        m_gate->acquire();
        m_reading = false;
        return std::optional<QByteArray>();
    }
    Result<void> write(const QString&, const QByteArray&) override { return {}; }
    Result<void> remove(const QString&) override { return {}; }

private:
    QSemaphore* m_entered;
    QSemaphore* m_gate;
    std::atomic<int>* m_state; // 1: destroyed after its reads, 2: destroyed inside a read
    std::atomic<bool> m_reading { false };
};

} // namespace

class TestHostDialogs : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        qRegisterMetaType<kf::ServerFacts>();
    }

    void unknownHostKeyOffersThreeChoices()
    {
        HostKeyDialog d(unknownKey());
        d.show();
        QVERIFY(d.acceptOnceButton());
        QVERIFY(d.acceptAndSaveButton());
        QVERIFY(d.cancelButton());
        QCOMPARE(buttonTexts(&d).size(), 3);
        // Enter never trusts a key: Cancel is the default button.
        QVERIFY(d.cancelButton()->isDefault());
        QVERIFY(!d.acceptOnceButton()->isDefault());
        QVERIFY(!d.acceptAndSaveButton()->isDefault());
        auto* fp = d.findChild<QLineEdit*>(QStringLiteral("fingerprint"));
        QVERIFY(fp);
        QCOMPARE(fp->text(), unknownKey().fingerprint);
        QVERIFY(fp->isReadOnly());
        const QString text = d.findChild<QLabel*>(QStringLiteral("explanation"))->text();
        QVERIFY(text.contains(QLatin1String("/home/alice/.ssh/known_hosts")));
        QVERIFY(d.findChild<QLabel*>(QStringLiteral("title"))
                    ->text()
                    .contains(QLatin1String("[gpu1.lab.example.com]:2222")));
        saveGrab(&d, QStringLiteral("hostkey-unknown"));

        d.acceptAndSaveButton()->click();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QCOMPARE(d.decision(), HostKeyDecision::AcceptAndSave);
    }

    void unknownHostKeyChoices_data()
    {
        QTest::addColumn<QString>("button");
        QTest::addColumn<int>("decision");
        QTest::newRow("accept once") << "acceptOnce" << int(HostKeyDecision::AcceptOnce);
        QTest::newRow("accept and save") << "acceptAndSave" << int(HostKeyDecision::AcceptAndSave);
        QTest::newRow("cancel") << "cancel" << int(HostKeyDecision::Reject);
    }
    void unknownHostKeyChoices()
    {
        QFETCH(QString, button);
        QFETCH(int, decision);
        HostKeyDialog d(unknownKey());
        d.show();
        d.findChild<QPushButton*>(button)->click();
        QCOMPARE(int(d.decision()), decision);
        QVERIFY(!d.isVisible());
    }

    void changedOrRevokedKeyCannotBeAccepted_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<QString>("shot");
        QTest::addColumn<QString>("phrase");
        QTest::newRow("changed") << int(HostKeyInfo::Kind::Changed) << "hostkey-changed"
                                 << "has changed";
        QTest::newRow("revoked") << int(HostKeyInfo::Kind::Revoked) << "hostkey-revoked"
                                 << "@revoked";
    }
    void changedOrRevokedKeyCannotBeAccepted()
    {
        QFETCH(int, kind);
        QFETCH(QString, shot);
        QFETCH(QString, phrase);
        HostKeyDialog d(changedKey(HostKeyInfo::Kind(kind)));
        d.show();
        QVERIFY(!d.acceptOnceButton());
        QVERIFY(!d.acceptAndSaveButton());
        QVERIFY(d.cancelButton());
        // Exactly one button, and it does not accept anything.
        QCOMPARE(buttonTexts(&d), QStringList { QStringLiteral("Close") });
        const QString all = d.findChild<QLabel*>(QStringLiteral("title"))->text()
            + d.findChild<QLabel*>(QStringLiteral("explanation"))->text();
        QVERIFY2(all.contains(phrase), qPrintable(all));
        // The old entry is named by file and line, and the way out is spelled out.
        QVERIFY2(all.contains(QLatin1String("/home/alice/.ssh/known_hosts:12")), qPrintable(all));
        if (HostKeyInfo::Kind(kind) == HostKeyInfo::Kind::Changed)
            QCOMPARE(d.findChild<QLineEdit*>(QStringLiteral("removeCommand"))->text(),
                QStringLiteral("ssh-keygen -R '[gpu1.lab.example.com]:2222' -f /home/alice/.ssh/known_hosts"));
        else // a revoked key is never to be removed and re-trusted
            QVERIFY(!d.findChild<QLineEdit*>(QStringLiteral("removeCommand")));
        QVERIFY(all.contains(QLatin1String("no password, passphrase or key was sent")));
        saveGrab(&d, shot);
        // Even "accepting" the dialog programmatically decides nothing but Reject.
        d.accept();
        QCOMPARE(d.decision(), HostKeyDecision::Reject);
    }

    void secretDialog_data()
    {
        QTest::addColumn<int>("kind");
        QTest::addColumn<bool>("echo");
        QTest::addColumn<bool>("offerKeychain");
        QTest::addColumn<QString>("shot");
        QTest::newRow("password with keychain")
            << int(SecretRequest::Kind::Password) << false << true << "secret-password";
        QTest::newRow("passphrase") << int(SecretRequest::Kind::Passphrase) << false << false << "secret-passphrase";
        QTest::newRow("keyboard-interactive echo")
            << int(SecretRequest::Kind::KeyboardInteractive) << true << false << "secret-keyboard-interactive";
    }
    void secretDialog()
    {
        QFETCH(int, kind);
        QFETCH(bool, echo);
        QFETCH(bool, offerKeychain);
        QFETCH(QString, shot);
        SecretRequest r;
        r.kind = SecretRequest::Kind(kind);
        r.destination = QStringLiteral("alice@gpu1:22");
        r.keyFile = QStringLiteral("/home/alice/.ssh/id_ed25519");
        r.prompt = QStringLiteral("Verification code: ");
        r.echo = echo;
        r.offerKeychain = offerKeychain;
        SecretDialog d(r);
        d.show();
        QCOMPARE(d.secretField()->echoMode(), echo ? QLineEdit::Normal : QLineEdit::Password);
        QCOMPARE(d.keychainBox() != nullptr, offerKeychain);
        if (offerKeychain)
            QVERIFY(!d.keychainBox()->isChecked()); // never ticked by default
        const QString text = d.findChild<QLabel*>(QStringLiteral("explanation"))->text();
        QVERIFY(text.contains(QLatin1String("alice@gpu1:22")));
        if (r.kind == SecretRequest::Kind::Passphrase)
            QVERIFY(text.contains(r.keyFile));
        if (r.kind == SecretRequest::Kind::KeyboardInteractive)
            QVERIFY(!d.findChildren<QLabel*>().isEmpty());
        QTest::keyClicks(d.secretField(), QStringLiteral("s3cr"));
        d.secretField()->insert(QStringLiteral("\u00e9t")); // QTest::keyClicks types ASCII only
        saveGrab(&d, shot);
        if (offerKeychain)
            d.keychainBox()->setChecked(true);
        d.findChild<QPushButton*>(QStringLiteral("ok"))->click();
        const auto answer = d.takeAnswer();
        QVERIFY(answer.has_value());
        QCOMPARE(answer->secret, QStringLiteral("s3cr\u00e9t").toUtf8());
        QCOMPARE(answer->storeInKeychain, offerKeychain);
        QVERIFY(d.secretField()->text().isEmpty()); // taken out of the widget
        QVERIFY(!d.takeAnswer().has_value());       // and only once
    }

    void secretDialogCancel()
    {
        SecretDialog d(SecretRequest {});
        d.show();
        QTest::keyClicks(d.secretField(), QStringLiteral("typed"));
        d.findChild<QPushButton*>(QStringLiteral("cancel"))->click();
        QVERIFY(!d.takeAnswer().has_value());
    }

    // The SSH session thread asks; the dialog appears on the GUI thread; the answer goes back.
    void guiInteractionMarshalsFromAWorkerThread()
    {
        QWidget window;
        GuiInteraction gi(&window);
        int dialogsAtOnce = 0;
        int shown = 0;
        // Dialogs run their own modal loop, so the answer is given from inside it.
        connect(&gi, &GuiInteraction::questionShown, this, [&](QWidget* dialog) {
            ++shown;
            int visible = 0;
            for (QWidget* w : QApplication::topLevelWidgets())
                visible += w->isVisible() && (qobject_cast<HostKeyDialog*>(w) || qobject_cast<SecretDialog*>(w));
            dialogsAtOnce = std::max(dialogsAtOnce, visible + (dialog->isVisible() ? 0 : 1));
            QTimer::singleShot(0, dialog, [dialog] {
                QVERIFY(QThread::currentThread() == qApp->thread());
                if (auto* hk = qobject_cast<HostKeyDialog*>(dialog)) {
                    (hk->acceptOnceButton() ? hk->acceptOnceButton() : hk->cancelButton())->click();
                } else if (auto* sd = qobject_cast<SecretDialog*>(dialog)) {
                    QTest::keyClicks(sd->secretField(), QStringLiteral("hunter2"));
                    sd->findChild<QPushButton*>(QStringLiteral("ok"))->click();
                }
            });
        });

        std::atomic<int> done { 0 };
        HostKeyDecision unknownDecision = HostKeyDecision::AcceptAndSave;
        HostKeyDecision changedDecision = HostKeyDecision::AcceptAndSave;
        std::optional<SecretAnswer> secret;
        std::thread a([&] {
            unknownDecision = gi.askHostKey(unknownKey());
            ++done;
        });
        std::thread b([&] {
            changedDecision = gi.askHostKey(changedKey(HostKeyInfo::Kind::Changed));
            ++done;
        });
        std::thread c([&] {
            secret = gi.askSecret(SecretRequest {});
            ++done;
        });
        QTRY_COMPARE_WITH_TIMEOUT(done.load(), 3, 30000);
        a.join();
        b.join();
        c.join();
        QCOMPARE(shown, 3);
        QCOMPARE(dialogsAtOnce, 1); // asked one after the other, never stacked
        QCOMPARE(unknownDecision, HostKeyDecision::AcceptOnce);
        QCOMPARE(changedDecision, HostKeyDecision::Reject);
        QVERIFY(secret.has_value());
        QCOMPARE(secret->secret, QByteArray("hunter2"));
        QVERIFY(!secret->storeInKeychain);
    }

    void guiInteractionOnTheGuiThreadDoesNotDeadlock()
    {
        GuiInteraction gi;
        connect(&gi, &GuiInteraction::questionShown, this, [](QWidget* dialog) {
            QTimer::singleShot(0, dialog, [dialog] { qobject_cast<SecretDialog*>(dialog)->reject(); });
        });
        QVERIFY(!gi.askSecret(SecretRequest {}).has_value());
    }

    // End to end with the real sshd: the session thread asks, the dialog answers, and what
    // "Accept and save" wrote is accepted by OpenSSH's own client.
    void realSshUnknownKeyAcceptAndSaveThenChangedKeyRefused()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const QString kh = dir.path() + QStringLiteral("/known_hosts");
        HostProfile profile = demo.profile();
        profile.knownHostsFile = kh; // empty: the key is unknown

        GuiInteraction gi;
        QList<HostKeyInfo::Kind> asked;
        QStringList texts;
        connect(&gi, &GuiInteraction::questionShown, this, [&](QWidget* dialog) {
            QTimer::singleShot(0, dialog, [&, dialog] {
                auto* hk = qobject_cast<HostKeyDialog*>(dialog);
                QVERIFY(hk);
                texts << hk->findChild<QLabel*>(QStringLiteral("explanation"))->text();
                asked << (hk->acceptAndSaveButton() ? HostKeyInfo::Kind::Unknown : HostKeyInfo::Kind::Changed);
                if (hk->acceptAndSaveButton()) {
                    saveGrab(hk, QStringLiteral("hostkey-unknown-real"));
                    hk->acceptAndSaveButton()->click();
                } else {
                    saveGrab(hk, QStringLiteral("hostkey-changed-real"));
                    QVERIFY(!hk->acceptOnceButton());
                    hk->cancelButton()->click();
                }
            });
        });
        SshConnectOptions options;
        options.interaction = &gi;
        options.reconnect = false;
        auto connectInBackground = [&] {
            return QtConcurrent::run([profile, options] {
                auto t = SshTransport::connect(profile, options);
                return t ? QString() : t.error();
            });
        };
        QFuture<QString> first = connectInBackground();
        QTRY_VERIFY_WITH_TIMEOUT(first.isFinished(), 60000);
        QVERIFY2(first.result().isEmpty(), qPrintable(first.result()));
        QCOMPARE(asked, QList<HostKeyInfo::Kind> { HostKeyInfo::Kind::Unknown });
        QVERIFY(QFile(kh).size() > 0);
        // OpenSSH trusts the line that was appended.
        QStringList args = demo.sshArguments();
        args.replaceInStrings(
            QStringLiteral("UserKnownHostsFile=") + demo.knownHostsPath(), QStringLiteral("UserKnownHostsFile=") + kh);
        const auto ssh = test::runProgram(QStringLiteral("ssh"), args << QStringLiteral("true"));
        QVERIFY2(ssh.exitCode == 0, ssh.err.constData());

        // Same port, new host key: the dialog names the saved line and cannot accept.
        QVERIFY(demo.restart(/*newHostKey=*/true).ok());
        QFuture<QString> second = connectInBackground();
        QTRY_VERIFY_WITH_TIMEOUT(second.isFinished(), 60000);
        QVERIFY(!second.result().isEmpty());
        QCOMPARE(asked.size(), 2);
        QCOMPARE(asked.last(), HostKeyInfo::Kind::Changed);
        QVERIFY2(texts.last().contains(kh + QStringLiteral(":1")), qPrintable(texts.last()));
    }

    // The dialog reads a typed destination with the one parser (core/hosts/destination.h,
    // table-tested there): OpenSSH's last-'@' split included, errors said in the dialog.
    void connectDialogReadsDestinationsLikeOpenSsh()
    {
        ConnectDialog d(nullptr);
        d.show();
        QTest::keyClicks(d.destinationField(), QStringLiteral("ad@corp@[fe80::1]:2200"));
        QCOMPARE(d.findChild<QLineEdit*>(QStringLiteral("user"))->text(), QStringLiteral("ad@corp"));
        QCOMPARE(d.findChild<QLineEdit*>(QStringLiteral("host"))->text(), QStringLiteral("fe80::1"));
        QCOMPARE(d.findChild<QSpinBox*>(QStringLiteral("port"))->value(), 2200);
        QVERIFY(!d.messageLabel()->isVisibleTo(&d));
        d.connectButton()->click();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QCOMPARE(d.profile().user, QStringLiteral("ad@corp"));

        ConnectDialog e(nullptr);
        e.show();
        QTest::keyClicks(e.destinationField(), QStringLiteral("alice@gpu1:70000"));
        QVERIFY(e.messageLabel()->isVisibleTo(&e));
        QVERIFY2(e.messageLabel()->text().contains(QLatin1String("invalid port 70000")),
            qPrintable(e.messageLabel()->text()));
        // Fields typed one by one pass the same check.
        e.destinationField()->clear();
        e.findChild<QLineEdit*>(QStringLiteral("host"))->setText(QStringLiteral("gpu1/x"));
        e.connectButton()->click();
        QVERIFY(e.isVisible());
        QVERIFY2(e.messageLabel()->text().contains(QLatin1String("'/' in the host name")),
            qPrintable(e.messageLabel()->text()));
    }

    void connectDialogSavedImportedAndAdHoc()
    {
        QTemporaryDir dir;
        HostProfileStore store(dir.path() + QStringLiteral("/hosts.yaml"));
        HostProfile saved;
        saved.name = QStringLiteral("h200-box");
        saved.host = QStringLiteral("10.0.0.11");
        saved.user = QStringLiteral("alice");
        saved.port = 2222;
        saved.identityFiles = { QStringLiteral("~/.ssh/id_ed25519") };
        saved.proxyJump = QStringLiteral("jump@bastion");
        saved.tags = { QStringLiteral("lab") };
        QVERIFY(store.save({ saved }).ok());

        ConnectDialog d(&store);
        d.setSshHomeDir(test::dataPath(QStringLiteral("ssh_config/home")));
        d.show();
        QCOMPARE(d.profileList()->count(), 1);
        d.profileList()->setCurrentRow(0);
        QCOMPARE(d.profile(), saved);
        QCOMPARE(d.destinationField()->text(), QStringLiteral("alice@10.0.0.11:2222"));

        // Import lists the ~/.ssh/config hosts next to the saved one.
        QCOMPARE(d.importSshConfig(), 6);
        QCOMPARE(d.profileList()->count(), 7);
        QVERIFY(d.profileList()->item(1)->text().contains(QLatin1String("(from ~/.ssh/config)")));
        QVERIFY(d.messageLabel()->text().contains(QLatin1String("6 host(s) imported")));
        QCOMPARE(d.importSshConfig(), 0); // nothing new the second time
        d.profileList()->setCurrentRow(1);
        QCOMPARE(d.profile().name, QStringLiteral("work"));
        QCOMPARE(d.profile().host, QStringLiteral("work.example.com"));
        QCOMPARE(d.profile().user, QStringLiteral("worker"));
        saveGrab(&d, QStringLiteral("connect-dialog"));

        // Ad hoc: typing a destination fills the fields.
        d.profileList()->clearSelection();
        auto* name = d.findChild<QLineEdit*>(QStringLiteral("name"));
        name->clear();
        d.findChild<QPlainTextEdit*>(QStringLiteral("identityFiles"))->clear();
        d.findChild<QLineEdit*>(QStringLiteral("proxyJump"))->clear();
        d.findChild<QLineEdit*>(QStringLiteral("tags"))->setText(QStringLiteral("new, h100 "));
        d.destinationField()->clear();
        QTest::keyClicks(d.destinationField(), QStringLiteral("bob@192.168.7.9:2200"));
        QCOMPARE(d.findChild<QLineEdit*>(QStringLiteral("user"))->text(), QStringLiteral("bob"));
        QCOMPARE(d.findChild<QLineEdit*>(QStringLiteral("host"))->text(), QStringLiteral("192.168.7.9"));
        QCOMPARE(d.findChild<QSpinBox*>(QStringLiteral("port"))->value(), 2200);
        d.findChild<QCheckBox*>(QStringLiteral("save"))->setChecked(true);
        d.connectButton()->click();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        const HostProfile adHoc = d.profile();
        QCOMPARE(adHoc.name, QStringLiteral("192.168.7.9")); // default name: the host
        QCOMPARE(adHoc.tags, (QStringList { QStringLiteral("new"), QStringLiteral("h100") }));
        const auto reloaded = store.load();
        QVERIFY(reloaded.ok());
        QCOMPARE(reloaded->profiles.size(), 2);
        QCOMPARE(reloaded->profiles[1], adHoc);
    }

    // A Host of ~/.ssh/config typed as the destination (or imported) follows the file: the fields
    // show what it says now, read-only, with the file:line of each value; a saved host reads the
    // file again when shown; unticking makes the values the profile's own.
    void connectDialogFollowsSshConfig()
    {
        QTemporaryDir home;
        const QString config = home.filePath(QStringLiteral(".ssh/config"));
        QVERIFY(test::writeFile(config,
            "Host gpu1\n  HostName 10.1.0.1\n  User ml\n  ProxyJump bastion\n"
            "Host bastion\n  HostName b.example\n  User j\n"));
        HostProfileStore store(home.filePath(QStringLiteral("hosts.yaml")));
        {
            ConnectDialog d(&store);
            d.setSshHomeDir(home.path());
            d.show();
            QTest::keyClicks(d.destinationField(), QStringLiteral("gpu1"));
            QVERIFY(d.followButton()->isVisible());
            QVERIFY(d.followButton()->isChecked());
            auto* host = d.findChild<QLineEdit*>(QStringLiteral("host"));
            QCOMPARE(host->text(), QStringLiteral("10.1.0.1"));
            QVERIFY(host->isReadOnly());
            QVERIFY2(d.originsLabel()->text().contains(QStringLiteral("HostName 10.1.0.1 \u2014 ~/.ssh/config:2")),
                qPrintable(d.originsLabel()->text()));
            QVERIFY2(d.originsLabel()->text().contains(QStringLiteral("User ml \u2014 ~/.ssh/config:3")),
                qPrintable(d.originsLabel()->text()));
            QVERIFY2(d.originsLabel()->text().contains(QStringLiteral("Port 22 \u2014 default")),
                qPrintable(d.originsLabel()->text()));
            const HostProfile p = d.profile();
            QCOMPARE(p.sshConfigAlias, QStringLiteral("gpu1"));
            QCOMPARE(p.name, QStringLiteral("gpu1"));
            QCOMPARE(p.proxyJump, QStringLiteral("j@b.example:22"));
            saveGrab(&d, QStringLiteral("connect-dialog-ssh-config"));
            d.setSaveRequested(true);
            d.connectButton()->click();
            QCOMPARE(d.result(), int(QDialog::Accepted));
        }
        const auto saved = store.load();
        QVERIFY(saved.ok());
        QCOMPARE(saved->profiles.size(), 1);
        QCOMPARE(saved->profiles[0].sshConfigAlias, QStringLiteral("gpu1"));

        // The file changes; the saved host shows (and will connect to) what it says now.
        QVERIFY(test::writeFile(config, "Host gpu1\n  HostName 10.1.0.9\n  User ml\n"));
        ConnectDialog d(&store);
        d.setSshHomeDir(home.path());
        d.show();
        d.profileList()->setCurrentRow(0);
        auto* host = d.findChild<QLineEdit*>(QStringLiteral("host"));
        QCOMPARE(host->text(), QStringLiteral("10.1.0.9"));
        QVERIFY(d.profile().proxyJump.isEmpty());
        // Unticked: the fields are this profile's own, editable, and it no longer follows the file.
        d.followButton()->click();
        QVERIFY(!host->isReadOnly());
        QVERIFY(!d.originsLabel()->isVisible());
        QVERIFY(d.profile().sshConfigAlias.isEmpty());
        QCOMPARE(d.destinationField()->text(), QStringLiteral("ml@10.1.0.9"));
        d.connectButton()->click();
        QCOMPARE(d.result(), int(QDialog::Accepted));
        QCOMPARE(d.profile().host, QStringLiteral("10.1.0.9"));
        QVERIFY(d.profile().sshConfigAlias.isEmpty());
    }

    void connectDialogRefusesWithoutHost()
    {
        ConnectDialog d(nullptr);
        d.show();
        QVERIFY(!d.findChild<QCheckBox*>(QStringLiteral("save"))->isEnabled()); // nowhere to save
        d.connectButton()->click();
        QVERIFY(d.isVisible());
        QVERIFY(d.messageLabel()->isVisibleTo(&d));
        QVERIFY(d.messageLabel()->text().contains(QLatin1String("Which server?")));
        QTest::keyClicks(d.destinationField(), QStringLiteral("a b"));
        QVERIFY(d.messageLabel()->isVisibleTo(&d));
        QVERIFY(d.messageLabel()->text().contains(QLatin1String("user@host")));
        saveGrab(&d, QStringLiteral("connect-dialog-error"));
    }

    void connectDialogForgetsStoredSecrets()
    {
        ConnectDialog plain(nullptr);
        plain.show();
        QVERIFY(!plain.forgetButton()->isVisibleTo(&plain)); // no keychain: nothing to forget

        auto keychainOwner = std::make_shared<MapSecretStore>();
        MapSecretStore& keychain = *keychainOwner;
        HostProfile p;
        p.name = QStringLiteral("gpu1");
        p.host = QStringLiteral("gpu1.lab");
        p.user = QStringLiteral("alice");
        p.port = 2222;
        p.identityFiles = { QStringLiteral("/keys/id_ed25519") };
        keychain.entries.insert(QStringLiteral("alice@gpu1.lab:2222"), "pw");
        keychain.entries.insert(QStringLiteral("/keys/id_ed25519"), "phrase");
        keychain.entries.insert(QStringLiteral("bob@gpu1.lab:2222"), "other account");
        // Issue #38, item 9: nothing stored for the form's host, nothing to forget next to
        // "(no password is ever saved)".
        HostProfile other = p;
        other.user = QStringLiteral("carol");
        other.identityFiles = { QStringLiteral("/keys/none") };
        ConnectDialog empty(nullptr);
        empty.setSecretStore(keychainOwner);
        empty.setProfile(other);
        empty.show();
        QTRY_VERIFY_WITH_TIMEOUT(!empty.isCheckingStoredSecrets(), 30000);
        QVERIFY(!empty.forgetButton()->isVisibleTo(&empty));

        ConnectDialog d(nullptr);
        d.setSecretStore(keychainOwner);
        d.setProfile(p);
        d.show();
        QTRY_VERIFY_WITH_TIMEOUT(d.forgetButton()->isVisibleTo(&d), 30000);
        d.forgetButton()->click();
        QCOMPARE(keychain.entries.keys(), QStringList { QStringLiteral("bob@gpu1.lab:2222") });
        QVERIFY2(d.messageLabel()->text().contains(QLatin1String("Removed 2 stored secret(s) for alice@gpu1.lab:2222")),
            qPrintable(d.messageLabel()->text()));
        saveGrab(&d, QStringLiteral("connect-dialog-forget"));
        QCOMPARE(d.forgetStoredSecrets(), 0);
        QVERIFY(d.messageLabel()->text().contains(QLatin1String("Nothing is stored")));
        QVERIFY(d.isVisible()); // forgetting does not close the dialog
    }

    // The check runs on a worker and may wait there (an unlock prompt) after the dialog and
    // whoever set the keychain are gone: the keychain lives until the check is done. (With the
    // dialog's raw pointer, ui_hostdialogs crashed in CI reading a keychain a test had freed.)
    void aStoredSecretsCheckKeepsItsKeychain()
    {
        QSemaphore entered, gate;
        std::atomic<int> state { 0 };
        {
            auto store = std::make_shared<GatedSecretStore>(&entered, &gate, &state);
            ConnectDialog d(nullptr);
            HostProfile p;
            p.name = QStringLiteral("gpu1");
            p.host = QStringLiteral("gpu1.lab");
            d.setProfile(p);
            d.setSecretStore(store);
            QVERIFY(entered.tryAcquire(1, 30000)); // the worker is inside read()
        }                                          // the dialog and this reference are gone; the read goes on
        QCOMPARE(state.load(), 0);
        gate.release(8);
        QTRY_COMPARE_WITH_TIMEOUT(state.load(), 1, 30000); // freed after its read, never inside it
    }

    void factsCardShowsRowsAndHints()
    {
        // Embedded as in the overview: a column with the card on top and space below.
        QWidget page;
        auto* column = new QVBoxLayout(&page);
        auto* card = new ServerFactsWidget(&page);
        column->addWidget(card);
        column->addStretch(1);
        page.resize(760, 900);
        page.show();
        ServerFactsWidget& w = *card;
        w.setFacts(test::factsFixture(QStringLiteral("blackwell-8gpu.txt")));
        QVERIFY(w.hasFacts());
        auto* gpus = w.findChild<QLabel*>(QStringLiteral("value:GPUs"));
        QVERIFY(gpus);
        // Seven identical GPUs on one line, the eighth (no details from the driver) on its own.
        QCOMPARE(gpus->text(),
            QStringLiteral("0\u20136: NVIDIA RTX PRO 6000 Blackwell Server Edition (sm 12.0, 97887 MiB)\n"
                           "7: NVIDIA RTX PRO 6000 Blackwell Server Edition"));
        auto* hints = w.findChild<QLabel*>(QStringLiteral("hints"));
        QVERIFY(hints->isVisibleTo(&w));
        QVERIFY(hints->text().contains(QLatin1String("older than 3.31")));
        grabCard(&w, QStringLiteral("server-facts-blackwell"));

        w.setFacts(test::factsFixture(QStringLiteral("h200-ubuntu2404.txt")));
        QCOMPARE(w.findChild<QLabel*>(QStringLiteral("value:GPUs"))->text(),
            QStringLiteral("0: NVIDIA H200 (sm 9.0, 143771 MiB)"));
        QVERIFY(!w.findChild<QLabel*>(QStringLiteral("value:SGLang"))->isEnabled()); // "not found" is greyed
        grabCard(&w, QStringLiteral("server-facts-h200"));

        w.setError(QStringLiteral("connection lost"));
        QVERIFY(!w.hasFacts());
        QCOMPARE(w.errorText(), QStringLiteral("connection lost"));
        QVERIFY(!w.findChild<QLabel*>(QStringLiteral("value:GPUs")));
        grabCard(&w, QStringLiteral("server-facts-error"));
    }

    void factsCardLoadsThroughATransportAndDropsStaleResults()
    {
        ServerFactsWidget w;
        w.show();
        QSignalSpy loaded(&w, &ServerFactsWidget::factsLoaded);
        QSignalSpy failed(&w, &ServerFactsWidget::loadFailed);
        auto first = std::make_shared<LocalTransport>();
        auto second = std::make_shared<LocalTransport>();
        w.load(first);
        w.load(second); // supersedes the first
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 60000);
        // Let the superseded run finish and deliver: it must be dropped.
        QThreadPool::globalInstance()->waitForDone(60000);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QCOMPARE(loaded.count(), 1);
        QCOMPARE(failed.count(), 0);
        QVERIFY(w.hasFacts());
        QVERIFY(w.facts().complete);
        auto* retry = w.findChild<QPushButton*>(QStringLiteral("retry"));
        QVERIFY(retry->isEnabled());
        retry->click();
        QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 2, 60000);

        // clear() while loading: the result never shows.
        w.load(first);
        w.clear();
        QThreadPool::globalInstance()->waitForDone(60000);
        QCoreApplication::processEvents();
        QCoreApplication::processEvents();
        QCOMPARE(loaded.count(), 2);
        QVERIFY(!w.hasFacts());
    }
};

QTEST_MAIN(TestHostDialogs)
#include "tst_hostdialogs.moc"
