// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Host-key trust against the demo sshd: unknown keys prompt, saved entries are accepted
// by OpenSSH's own ssh, hashed entries match, changed and revoked keys are refused
// before authentication.
#include "core/ssh/knownhosts.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/scriptedinteraction.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;
using kf::test::ScriptedInteraction;

namespace {

void writeAll(const QString& path, const QByteArray& data)
{
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write(data);
}

QString hostKeyFingerprint(const DemoHost& demo)
{
    const auto r = kf::test::runProgram(
        QStringLiteral("ssh-keygen"), { QStringLiteral("-lf"), demo.hostKeyPath() + QStringLiteral(".pub") });
    return QString::fromUtf8(r.out.split(' ').value(1));
}

quint16 freePort()
{
    QTcpServer s;
    return s.listen(QHostAddress::LocalHost, 0) ? s.serverPort() : 0;
}

bool answers(quint16 port)
{
    QTcpSocket sock;
    sock.connectToHost(QHostAddress::LocalHost, port);
    return sock.waitForConnected(500) && sock.waitForReadyRead(2000) && sock.readAll().startsWith("SSH-2.0-");
}

// A second sshd for the demo host's users and home with two host keys (the demo's ed25519
// and a fresh ECDSA P-256), started from a copy of the demo's sshd_config.
class TwoKeySshd
{
public:
    bool start(const DemoHost& demo, const QString& dir)
    {
        m_ecdsaKey = dir + QStringLiteral("/ssh_host_ecdsa_key");
        const auto kg = kf::test::runProgram(QStringLiteral("ssh-keygen"),
            { QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ecdsa"), QStringLiteral("-b"),
                QStringLiteral("256"), QStringLiteral("-N"), QString(), QStringLiteral("-f"), m_ecdsaKey });
        if (kg.exitCode != 0)
            return false;
        m_port = freePort();
        QStringList lines;
        for (const QByteArray& l : test::readFile(demo.rootDir() + QStringLiteral("/etc/sshd_config")).split('\n')) {
            const QString line = QString::fromUtf8(l);
            if (line.startsWith(QLatin1String("Port ")))
                lines << QStringLiteral("Port %1").arg(m_port);
            else if (line.startsWith(QLatin1String("PidFile ")))
                lines << QStringLiteral("PidFile %1/sshd.pid").arg(dir);
            else if (line.startsWith(QLatin1String("HostKey ")))
                lines << line << QStringLiteral("HostKey ") + m_ecdsaKey;
            else if (!line.isEmpty())
                lines << line;
        }
        const QString conf = dir + QStringLiteral("/sshd_config");
        writeAll(conf, lines.join(QLatin1Char('\n')).toUtf8() + '\n');
        m_sshd.setProcessChannelMode(QProcess::MergedChannels);
        m_sshd.setStandardOutputFile(dir + QStringLiteral("/sshd.log"));
        m_sshd.start(QStringLiteral("/usr/sbin/sshd"),
            { QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), conf });
        return m_sshd.waitForStarted(10000);
    }
    ~TwoKeySshd()
    {
        m_sshd.terminate();
        if (!m_sshd.waitForFinished(5000))
            m_sshd.kill();
    }
    quint16 port() const { return m_port; }
    QString ecdsaKeyPath() const { return m_ecdsaKey; }

private:
    QProcess m_sshd;
    QString m_ecdsaKey;
    quint16 m_port = 0;
};

int acceptedLogins(const DemoHost& demo)
{
    return int(demo.sshdLog().count(QLatin1String("Accepted publickey")));
}

// ssh_config files and global known_hosts in dir instead of ~/.ssh and /etc/ssh.
KnownHostsSources isolated(const QTemporaryDir& dir)
{
    KnownHostsSources s;
    s.homeDir = dir.path();
    s.userConfig = dir.path() + QStringLiteral("/ssh_config.user");
    s.systemDir = dir.path();
    return s;
}

// The demo host's known_hosts line ("[127.0.0.1]:PORT ssh-ed25519 AAAA...").
QByteArray demoKeyLine(const DemoHost& demo)
{
    return test::readFile(demo.knownHostsPath()).trimmed() + '\n';
}

} // namespace

class TestSshHostKeys : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qunsetenv("SSH_AUTH_SOCK"); }

    void unknownKeyPromptsWithTypeAndFingerprint_data()
    {
        QTest::addColumn<HostKeyDecision>("decision");
        QTest::newRow("reject") << HostKeyDecision::Reject;
        QTest::newRow("accept once") << HostKeyDecision::AcceptOnce;
        QTest::newRow("accept and save") << HostKeyDecision::AcceptAndSave;
    }
    void unknownKeyPromptsWithTypeAndFingerprint()
    {
        QFETCH(HostKeyDecision, decision);
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        HostProfile p = demo.profile();
        p.knownHostsFile = dir.path() + QStringLiteral("/known_hosts");
        writeAll(p.knownHostsFile, "# mine\n");
        ScriptedInteraction ui(decision);
        SshConnectOptions o;
        o.interaction = &ui;
        o.knownHostsSources = isolated(dir); // plain entries whatever /etc/ssh/ssh_config says
        auto t = SshTransport::connect(p, o);
        QCOMPARE(ui.hostKeysAsked.size(), 1);
        const HostKeyInfo& info = ui.hostKeysAsked.first();
        QCOMPARE(info.kind, HostKeyInfo::Kind::Unknown);
        QCOMPARE(info.keyType, QStringLiteral("ssh-ed25519"));
        QCOMPARE(info.fingerprint, hostKeyFingerprint(demo));
        QCOMPARE(info.knownHostsFile, p.knownHostsFile);
        const QByteArray after = test::readFile(p.knownHostsFile);
        switch (decision) {
        case HostKeyDecision::Reject:
            QVERIFY(!t.ok());
            QVERIFY2(t.error().contains(QLatin1String("not accepted")), qPrintable(t.error()));
            QCOMPARE(after, QByteArray("# mine\n"));
            QCOMPARE(acceptedLogins(demo), 0);
            break;
        case HostKeyDecision::AcceptOnce:
            QVERIFY2(t.ok(), qPrintable(t.error()));
            QCOMPARE(after, QByteArray("# mine\n"));
            break;
        case HostKeyDecision::AcceptAndSave: {
            QVERIFY2(t.ok(), qPrintable(t.error()));
            QVERIFY(after.startsWith("# mine\n["));
            QCOMPARE(after.count('\n'), 2);
            // OpenSSH's own client trusts what we wrote, with strict checking.
            QStringList args = demo.sshArguments();
            args.replaceInStrings(QRegularExpression(QStringLiteral("^UserKnownHostsFile=.*")),
                QStringLiteral("UserKnownHostsFile=") + p.knownHostsFile);
            const auto r = kf::test::runProgram(QStringLiteral("ssh"), args << QStringLiteral("echo openssh-ok"));
            QVERIFY2(r.exitCode == 0, r.err.constData());
            QCOMPARE(r.out.trimmed(), QByteArray("openssh-ok"));
            // And so do we, without asking again.
            ScriptedInteraction again(HostKeyDecision::Reject);
            o.interaction = &again;
            QVERIFY(SshTransport::connect(p, o).ok());
            QVERIFY(again.hostKeysAsked.isEmpty());
            break;
        }
        }
    }

    void strictWithoutInteractionAndAcceptNew()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        HostProfile p = demo.profile();
        p.knownHostsFile = dir.path() + QStringLiteral("/kh");
        auto refused = SshTransport::connect(p);
        QVERIFY(!refused.ok());
        QVERIFY2(
            refused.error().contains(QLatin1String("not known")) && refused.error().contains(hostKeyFingerprint(demo)),
            qPrintable(refused.error()));
        QVERIFY(!QFile::exists(p.knownHostsFile));
        SshConnectOptions o;
        o.acceptNewHostKey = true;
        QVERIFY(SshTransport::connect(p, o).ok());
        QVERIFY(
            lookupHostKey({ readKnownHostsFile(p.knownHostsFile) }, p.host, p.port,
                QByteArray::fromBase64(test::readFile(demo.hostKeyPath() + QStringLiteral(".pub")).split(' ').value(1)))
                .status
            == HostKeyLookup::Status::Match);
    }

    void hashedEntryMatches()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        HostProfile p = demo.profile();
        p.knownHostsFile = dir.path() + QStringLiteral("/kh");
        QFile::copy(demo.knownHostsPath(), p.knownHostsFile);
        const auto h = kf::test::runProgram(
            QStringLiteral("ssh-keygen"), { QStringLiteral("-H"), QStringLiteral("-f"), p.knownHostsFile });
        QVERIFY2(h.exitCode == 0, h.err.constData());
        QVERIFY(test::readFile(p.knownHostsFile).startsWith("|1|"));
        auto t = SshTransport::connect(p);
        QVERIFY2(t.ok(), qPrintable(t.error()));
    }

    void changedKeyIsRefusedBeforeAuthentication()
    {
        KF_START_DEMO_HOST(demo);
        QVERIFY(demo.restart(/*newHostKey=*/true).ok());
        const QString marker = demo.homeDir() + QStringLiteral("/marker");
        ScriptedInteraction ui(HostKeyDecision::AcceptAndSave); // ignored for a changed key
        SshConnectOptions o;
        o.interaction = &ui;
        o.acceptNewHostKey = true; // ... and so is this
        auto t = SshTransport::connect(demo.profile(), o);
        QVERIFY(!t.ok());
        QVERIFY2(t.error().contains(QLatin1String("HOST KEY CHANGED")), qPrintable(t.error()));
        QVERIFY2(t.error().contains(demo.knownHostsPath() + QStringLiteral(":1")), qPrintable(t.error()));
        QCOMPARE(ui.hostKeysAsked.size(), 1);
        QCOMPARE(ui.hostKeysAsked.first().kind, HostKeyInfo::Kind::Changed);
        QCOMPARE(ui.hostKeysAsked.first().oldEntryLine, 1);
        QCOMPARE(ui.hostKeysAsked.first().oldEntryFile, demo.knownHostsPath());
        // Nothing ran and no login happened; the known_hosts file is untouched.
        QVERIFY(!QFile::exists(marker));
        QCOMPARE(acceptedLogins(demo), 0);
        QCOMPARE(test::readFile(demo.knownHostsPath()).count('\n'), 1);
    }

    // A server with ed25519 and ECDSA host keys: whichever type known_hosts holds is the one
    // asked for (libssh2_session_method_pref), so the login needs no prompt either way.
    void knownKeyTypeIsNegotiated_data()
    {
        QTest::addColumn<QString>("known");
        QTest::newRow("ecdsa known") << QStringLiteral("ecdsa-sha2-nistp256");
        QTest::newRow("ed25519 known") << QStringLiteral("ssh-ed25519");
    }
    void knownKeyTypeIsNegotiated()
    {
        QFETCH(QString, known);
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        TwoKeySshd sshd;
        QVERIFY(sshd.start(demo, dir.path()));
        QTRY_VERIFY_WITH_TIMEOUT(answers(sshd.port()), 20000);
        const QString pubPath = (known == QLatin1String("ssh-ed25519") ? demo.hostKeyPath() : sshd.ecdsaKeyPath())
            + QStringLiteral(".pub");
        const QList<QByteArray> pub = test::readFile(pubPath).trimmed().split(' ');
        QCOMPARE(QString::fromLatin1(pub.value(0)), known);
        HostProfile p = demo.profile();
        p.port = sshd.port();
        p.knownHostsFile = dir.path() + QStringLiteral("/kh");
        writeAll(
            p.knownHostsFile, knownHostsName(p.host, p.port).toUtf8() + ' ' + pub.value(0) + ' ' + pub.value(1) + '\n');
        ScriptedInteraction ui(HostKeyDecision::Reject); // a prompt would fail the login
        SshConnectOptions o;
        o.interaction = &ui;
        auto t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QCOMPARE(ui.hostKeysAsked.size(), 0);
        QCOMPARE(t.value()->session()->verifiedHostKey(), QByteArray::fromBase64(pub.value(1)));
        QCOMPARE(t.value()->exec({ QStringLiteral("echo two-keys") }, 30000).stdOut, QByteArray("two-keys\n"));
        QCOMPARE(test::readFile(p.knownHostsFile).count('\n'), 1); // nothing added
    }

    void storedKeyOfAnotherTypeIsAMismatch()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        HostProfile p = demo.profile();
        p.knownHostsFile = dir.path() + QStringLiteral("/kh");
        const QByteArray ec = kf::test::readData(QStringLiteral("known_hosts/ec.pub")).trimmed();
        writeAll(p.knownHostsFile,
            knownHostsName(p.host, p.port).toUtf8() + ' ' + ec.split(' ').value(0) + ' ' + ec.split(' ').value(1)
                + '\n');
        auto t = SshTransport::connect(p);
        QVERIFY(!t.ok());
        QVERIFY2(t.error().contains(QLatin1String("HOST KEY CHANGED"))
                && t.error().contains(QLatin1String("ecdsa-sha2-nistp256")),
            qPrintable(t.error()));
        QCOMPARE(acceptedLogins(demo), 0);
    }

    // Every file OpenSSH reads: the global files (with @revoked) and a UserKnownHostsFile list.
    void globalAndListedKnownHostsFiles()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const KnownHostsSources src = isolated(dir);
        HostProfile p = demo.profile();
        p.knownHostsFile.clear(); // as OpenSSH: the files come from the configuration
        SshConnectOptions o;
        o.knownHostsSources = src;
        // Nothing known anywhere: refused.
        QVERIFY(!SshTransport::connect(p, o).ok());
        // Known from /etc/ssh/ssh_known_hosts (here: dir/ssh_known_hosts) only.
        writeAll(dir.filePath(QStringLiteral("ssh_known_hosts")), demoKeyLine(demo));
        auto t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        // @revoked in the second global file wins.
        const QList<QByteArray> pub = test::readFile(demo.hostKeyPath() + QStringLiteral(".pub")).trimmed().split(' ');
        writeAll(
            dir.filePath(QStringLiteral("ssh_known_hosts2")), "@revoked * " + pub.value(0) + ' ' + pub.value(1) + '\n');
        t = SshTransport::connect(p, o);
        QVERIFY(!t.ok());
        QVERIFY2(t.error().contains(QLatin1String("revoked"))
                && t.error().contains(dir.filePath(QStringLiteral("ssh_known_hosts2:1"))),
            qPrintable(t.error()));
        QFile::remove(dir.filePath(QStringLiteral("ssh_known_hosts")));
        QFile::remove(dir.filePath(QStringLiteral("ssh_known_hosts2")));
        // UserKnownHostsFile with two files: the key in the second one counts.
        writeAll(src.userConfig,
            QStringLiteral("Host *\n  UserKnownHostsFile %1/first %1/second\n").arg(dir.path()).toUtf8());
        writeAll(dir.filePath(QStringLiteral("second")), demoKeyLine(demo));
        t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        // GlobalKnownHostsFile from the config replaces the defaults.
        writeAll(src.userConfig,
            QStringLiteral("Host *\n  UserKnownHostsFile %1/first\n  GlobalKnownHostsFile %1/global\n")
                .arg(dir.path())
                .toUtf8());
        QVERIFY(!SshTransport::connect(p, o).ok());
        QFile::rename(dir.filePath(QStringLiteral("second")), dir.filePath(QStringLiteral("global")));
        t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
    }

    // HashKnownHosts yes (Debian's /etc/ssh/ssh_config) makes new entries hashed; the user's
    // own "no" wins over the system's "yes". OpenSSH's ssh accepts what we wrote.
    void newEntriesHashedWhenConfigured()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const KnownHostsSources src = isolated(dir);
        writeAll(dir.filePath(QStringLiteral("ssh_config")), "Host *\n    HashKnownHosts yes\n");
        HostProfile p = demo.profile();
        p.knownHostsFile = dir.filePath(QStringLiteral("kh"));
        SshConnectOptions o;
        o.acceptNewHostKey = true;
        o.knownHostsSources = src;
        QVERIFY(SshTransport::connect(p, o).ok());
        const QByteArray saved = test::readFile(p.knownHostsFile);
        QVERIFY2(saved.startsWith("|1|") && !saved.contains("127.0.0.1"), saved.constData());
        QStringList args = demo.sshArguments();
        args.replaceInStrings(QRegularExpression(QStringLiteral("^UserKnownHostsFile=.*")),
            QStringLiteral("UserKnownHostsFile=") + p.knownHostsFile);
        const auto r = kf::test::runProgram(QStringLiteral("ssh"), args << QStringLiteral("echo openssh-ok"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
        // The user's config says no: plain.
        QFile::remove(p.knownHostsFile);
        writeAll(src.userConfig, "HashKnownHosts no\n");
        QVERIFY(SshTransport::connect(p, o).ok());
        QVERIFY(test::readFile(p.knownHostsFile).startsWith("[127.0.0.1]:"));
    }

    // With a UserKnownHostsFile list, an accepted key goes to the first file, hashed when
    // HashKnownHosts yes applies; the other files are left as they are; ssh reads it back.
    void newKeyGoesToTheFirstListedFileHashed()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        const KnownHostsSources src = isolated(dir);
        writeAll(dir.filePath(QStringLiteral("ssh_config")), "Host *\n    HashKnownHosts yes\n");
        writeAll(src.userConfig,
            QStringLiteral("Host *\n  UserKnownHostsFile %1/first %1/second\n").arg(dir.path()).toUtf8());
        const QList<QByteArray> otherKey
            = test::readFile(test::makeKey(dir.path()) + QStringLiteral(".pub")).split(' ');
        const QByteArray other = "otherhost " + otherKey.value(0) + ' ' + otherKey.value(1) + '\n';
        writeAll(dir.filePath(QStringLiteral("second")), other);
        HostProfile p = demo.profile();
        p.knownHostsFile.clear(); // the files come from the configuration
        SshConnectOptions o;
        o.knownHostsSources = src;
        QVERIFY(!SshTransport::connect(p, o).ok()); // unknown, and not accepted
        o.acceptNewHostKey = true;
        auto t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        const QByteArray first = test::readFile(dir.filePath(QStringLiteral("first")));
        QVERIFY2(first.startsWith("|1|") && !first.contains("127.0.0.1") && first.count('\n') == 1, first.constData());
        QCOMPARE(test::readFile(dir.filePath(QStringLiteral("second"))), other);
        // Known now, without accepting anything.
        o.acceptNewHostKey = false;
        t = SshTransport::connect(p, o);
        QVERIFY2(t.ok(), qPrintable(t.error()));
        QCOMPARE(test::readFile(dir.filePath(QStringLiteral("first"))), first);
        QStringList args = demo.sshArguments();
        args.replaceInStrings(QRegularExpression(QStringLiteral("^UserKnownHostsFile=.*")),
            QStringLiteral("UserKnownHostsFile=") + dir.filePath(QStringLiteral("first")));
        const auto r = kf::test::runProgram(QStringLiteral("ssh"), args << QStringLiteral("echo openssh-ok"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }

    void revokedKeyIsRefused()
    {
        KF_START_DEMO_HOST(demo);
        QTemporaryDir dir;
        HostProfile p = demo.profile();
        p.knownHostsFile = dir.path() + QStringLiteral("/kh");
        const QList<QByteArray> pub = test::readFile(demo.hostKeyPath() + QStringLiteral(".pub")).trimmed().split(' ');
        writeAll(p.knownHostsFile,
            test::readFile(demo.knownHostsPath()) + "@revoked * " + pub.value(0) + ' ' + pub.value(1) + '\n');
        auto t = SshTransport::connect(p);
        QVERIFY(!t.ok());
        QVERIFY2(t.error().contains(
                     QStringLiteral("is marked @revoked in %1:2. Refusing to connect.").arg(p.knownHostsFile)),
            qPrintable(t.error()));
        QCOMPARE(acceptedLogins(demo), 0);
    }
};

QTEST_GUILESS_MAIN(TestSshHostKeys)
#include "tst_sshhostkeys.moc"
