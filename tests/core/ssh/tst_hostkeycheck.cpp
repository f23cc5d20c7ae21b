// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The host-key decision without a server: real keys (tests/data/known_hosts, from
// ssh-keygen), real known_hosts files in a temp home, a scripted person.
#include "core/ssh/hostkeycheck.h"
#include "tests/support/scriptedinteraction.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;
using kf::ssh::HostKeyCheck;
using kf::test::readData;
using kf::test::ScriptedInteraction;

namespace {

QByteArray blobOf(const QString& pubFile)
{
    const QList<QByteArray> parts = readData(QStringLiteral("known_hosts/") + pubFile).trimmed().split(' ');
    return QByteArray::fromBase64(parts.value(1));
}

QByteArray readAll(const QString& path)
{
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
}

bool writeFile(const QString& path, const QByteArray& text)
{
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) == text.size();
}

// A home with no config and no system files: only <home>/known_hosts counts.
struct Home
{
    QTemporaryDir dir;
    QString knownHosts() const { return dir.path() + QStringLiteral("/known_hosts"); }
    SshSessionOptions options(UserInteraction* ui = nullptr) const
    {
        SshSessionOptions o;
        o.profile.host = QStringLiteral("gpu1.example.org");
        o.profile.port = 2222;
        o.profile.knownHostsFile = knownHosts();
        o.interaction = ui;
        o.knownHostsSources.homeDir = dir.path();
        o.knownHostsSources.systemDir = dir.path() + QStringLiteral("/etc-ssh"); // does not exist
        return o;
    }
};

} // namespace

class TestHostKeyCheck : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void unknownKeyWithNobodyToAskIsRefused()
    {
        Home home;
        HostKeyCheck check(home.options());
        const Result<void> r = check.check(blobOf(QStringLiteral("ed.pub")));
        QVERIFY(!r.ok());
        QCOMPARE(r.kind(), ErrorKind::Permanent);
        QVERIFY2(r.error().contains(QLatin1String("is not known")) && r.error().contains(QLatin1String("--accept-new")),
            qPrintable(r.error()));
        QVERIFY(r.error().contains(readData(QStringLiteral("known_hosts/ed.fingerprint")).trimmed()));
        QVERIFY(!QFile::exists(home.knownHosts()));
    }

    void acceptNewSavesTheKeyAndTheNextLoginMatches()
    {
        Home home;
        SshSessionOptions o = home.options();
        o.acceptNewHostKey = true;
        QVERIFY(HostKeyCheck(o).check(blobOf(QStringLiteral("ed.pub"))).ok());
        QVERIFY2(readAll(home.knownHosts()).startsWith("[gpu1.example.org]:2222 ssh-ed25519 "),
            readAll(home.knownHosts()).constData());
        ScriptedInteraction ui(HostKeyDecision::Reject);
        HostKeyCheck later(home.options(&ui));
        QVERIFY(later.check(blobOf(QStringLiteral("ed.pub"))).ok());
        QVERIFY(ui.hostKeysAsked.isEmpty());
        QCOMPARE(later.knownKeyTypes(), QStringList { QStringLiteral("ssh-ed25519") });
    }

    void changedKeyIsRefusedWhateverTheOptionsSay()
    {
        Home home;
        const QByteArray stored = "[gpu1.example.org]:2222 " + readData(QStringLiteral("known_hosts/ed.pub"));
        QVERIFY(writeFile(home.knownHosts(), "# kept\n" + stored));
        ScriptedInteraction ui(HostKeyDecision::AcceptAndSave);
        SshSessionOptions o = home.options(&ui);
        o.acceptNewHostKey = true;
        o.trustedHostKey = blobOf(QStringLiteral("ed2.pub"));
        const Result<void> r = HostKeyCheck(o).check(blobOf(QStringLiteral("ed2.pub")));
        QVERIFY(!r.ok());
        QCOMPARE(r.kind(), ErrorKind::Permanent);
        QVERIFY2(r.error().contains(QLatin1String("HOST KEY CHANGED")), qPrintable(r.error()));
        // The person is shown the old entry, and nothing is written.
        QCOMPARE(ui.hostKeysAsked.size(), 1);
        QCOMPARE(ui.hostKeysAsked.first().kind, HostKeyInfo::Kind::Changed);
        QCOMPARE(ui.hostKeysAsked.first().oldEntryFile, home.knownHosts());
        QCOMPARE(ui.hostKeysAsked.first().oldEntryLine, 2);
        QCOMPARE(readAll(home.knownHosts()), "# kept\n" + stored);
    }

    void revokedKeyIsRefused()
    {
        Home home;
        QVERIFY(writeFile(home.knownHosts(), "@revoked * " + readData(QStringLiteral("known_hosts/ed.pub"))));
        ScriptedInteraction ui(HostKeyDecision::AcceptOnce);
        const Result<void> r = HostKeyCheck(home.options(&ui)).check(blobOf(QStringLiteral("ed.pub")));
        QCOMPARE(r.kind(), ErrorKind::Permanent);
        QVERIFY2(r.error().contains(QLatin1String("@revoked")), qPrintable(r.error()));
        QCOMPARE(ui.hostKeysAsked.size(), 1);
        QCOMPARE(ui.hostKeysAsked.first().kind, HostKeyInfo::Kind::Revoked);
    }

    void acceptOnceHoldsForThisSessionOnly()
    {
        Home home;
        ScriptedInteraction ui(HostKeyDecision::AcceptOnce);
        HostKeyCheck check(home.options(&ui));
        QStringList reasons;
        const auto asking = [&reasons](const QString& reason) { reasons << reason; };
        QVERIFY(check.check(blobOf(QStringLiteral("ed.pub")), asking).ok());
        QCOMPARE(ui.hostKeysAsked.size(), 1);
        QCOMPARE(ui.hostKeysAsked.first().kind, HostKeyInfo::Kind::Unknown);
        QCOMPARE(ui.hostKeysAsked.first().knownHostsFile, home.knownHosts());
        QCOMPARE(reasons.size(), 1);
        QVERIFY2(reasons.first().startsWith(QLatin1String("unknown host key ssh-ed25519 SHA256:")),
            qPrintable(reasons.first()));
        // A reconnect of the same session: no question; another key: refused, no question.
        QVERIFY(check.check(blobOf(QStringLiteral("ed.pub")), asking).ok());
        const Result<void> changed = check.check(blobOf(QStringLiteral("ed2.pub")), asking);
        QCOMPARE(changed.kind(), ErrorKind::Permanent);
        QVERIFY2(changed.error().contains(QLatin1String("since it was accepted in this session")),
            qPrintable(changed.error()));
        QCOMPARE(ui.hostKeysAsked.size(), 1);
        QVERIFY(!QFile::exists(home.knownHosts()));
        // A new session asks again.
        QVERIFY(HostKeyCheck(home.options(&ui)).check(blobOf(QStringLiteral("ed.pub"))).ok());
        QCOMPARE(ui.hostKeysAsked.size(), 2);
    }

    void keyVerifiedByAnotherSessionNeedsNoQuestion()
    {
        Home home;
        SshSessionOptions o = home.options();
        o.trustedHostKey = blobOf(QStringLiteral("ed.pub"));
        HostKeyCheck check(o);
        QVERIFY(check.check(blobOf(QStringLiteral("ed.pub"))).ok());
        QCOMPARE(check.check(blobOf(QStringLiteral("ed2.pub"))).kind(), ErrorKind::Permanent);
    }

    void promptOffAndRejectAndNowhereToSaveAreRefused()
    {
        Home home;
        ScriptedInteraction ui(HostKeyDecision::AcceptAndSave);
        SshSessionOptions noPrompt = home.options(&ui);
        noPrompt.promptForHostKeys = false; // StrictHostKeyChecking=yes
        QCOMPARE(HostKeyCheck(noPrompt).check(blobOf(QStringLiteral("ed.pub"))).kind(), ErrorKind::Permanent);
        QVERIFY(ui.hostKeysAsked.isEmpty());

        ui.hostKeyAnswer = HostKeyDecision::Reject;
        const Result<void> rejected = HostKeyCheck(home.options(&ui)).check(blobOf(QStringLiteral("ed.pub")));
        QCOMPARE(rejected.kind(), ErrorKind::Permanent);
        QVERIFY2(rejected.error().contains(QLatin1String("was not accepted")), qPrintable(rejected.error()));

        // UserKnownHostsFile none: nowhere to save.
        QVERIFY(QDir(home.dir.path()).mkpath(QStringLiteral(".ssh")));
        QVERIFY(writeFile(home.dir.path() + QStringLiteral("/.ssh/config"), "UserKnownHostsFile none\n"));
        ui.hostKeyAnswer = HostKeyDecision::AcceptAndSave;
        SshSessionOptions none = home.options(&ui);
        none.profile.knownHostsFile.clear();
        const Result<void> unsaved = HostKeyCheck(none).check(blobOf(QStringLiteral("ed.pub")));
        QCOMPARE(unsaved.kind(), ErrorKind::Permanent);
        QVERIFY2(
            unsaved.error().contains(QLatin1String("UserKnownHostsFile is \"none\"")), qPrintable(unsaved.error()));
    }
};

QTEST_GUILESS_MAIN(TestHostKeyCheck)
#include "tst_hostkeycheck.moc"
