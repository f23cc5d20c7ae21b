// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Destinations are resolved as OpenSSH resolves them (core/hosts/destinationresolver.h): the real
// kernelforge-cli against the system's `ssh -G` over a corpus of configurations, and connections
// made through ~/.ssh/config (Host alias, ProxyJump through another alias) and saved host names.
#include "core/hosts/hostprofilestore.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QDirIterator>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

// The lines both tools print that the comparison covers, in order.
QStringList effectiveLines(const QByteArray& output)
{
    static const QStringList keys { QStringLiteral("user"), QStringLiteral("hostname"), QStringLiteral("port"),
        QStringLiteral("identityfile"), QStringLiteral("proxyjump") };
    QStringList out;
    for (const QByteArray& line : output.split('\n')) {
        const QString l = QString::fromUtf8(line);
        if (keys.contains(l.section(QLatin1Char(' '), 0, 0)))
            out << l;
    }
    return out;
}

// Copies tests/data/ssh_config/resolve to dir, with @DIR@ replaced by dir (Include paths).
bool copyCorpus(const QString& dir)
{
    const QString from = test::dataPath(QStringLiteral("ssh_config/resolve"));
    QDirIterator it(from, QDir::Files, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        const QString path = it.next();
        QByteArray text = test::readFile(path);
        text.replace("@DIR@", dir.toUtf8());
        if (!test::writeFile(dir + path.mid(from.size()), text))
            return false;
    }
    return true;
}

} // namespace

class TestCliHostsResolve : public QObject
{
    Q_OBJECT
    QTemporaryDir m_home;
    QStringList env() const
    {
        return { QStringLiteral("HOME=") + m_home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
    }

private Q_SLOTS:
    void initTestCase() { qunsetenv("SSH_AUTH_SOCK"); }

    void sameAsSshG_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QStringList>("args");
        const QByteArray cases = test::readData(QStringLiteral("ssh_config/resolve/cases.txt"));
        QVERIFY(!cases.isEmpty());
        int n = 0;
        for (const QByteArray& line : cases.split('\n')) {
            const QString l = QString::fromUtf8(line).trimmed();
            if (l.isEmpty() || l.startsWith(QLatin1Char('#')))
                continue;
            QStringList words = l.split(QLatin1Char(' '), Qt::SkipEmptyParts);
            const QString file = words.takeFirst();
            QTest::newRow(qPrintable(l)) << file << words;
            ++n;
        }
        QVERIFY(n >= 40);
    }
    void sameAsSshG()
    {
        QFETCH(QString, file);
        QFETCH(QStringList, args);
        QTemporaryDir dir;
        QVERIFY(copyCorpus(dir.path()));
        const QString config = dir.filePath(file);
        const auto ssh = test::runProgram(
            QStringLiteral("ssh"), QStringList { QStringLiteral("-F"), config, QStringLiteral("-G") } + args);
        QVERIFY2(ssh.exitCode == 0, ssh.err.constData());
        const auto ours = test::runCli(
            QStringList { QStringLiteral("hosts"), QStringLiteral("resolve"), QStringLiteral("-F"), config } + args,
            60000, env());
        QVERIFY2(ours.exitCode == 0, ours.err.constData());
        const QStringList expected = effectiveLines(ssh.out);
        QVERIFY(expected.size() >= 4);
        QCOMPARE(effectiveLines(ours.out), expected);
    }

    // --explain names the file and line each value came from; a value typed on the command line
    // says so; one nobody set is ssh's default.
    void explainNamesTheOrigins()
    {
        QTemporaryDir dir;
        QVERIFY(copyCorpus(dir.path()));
        const QString config = dir.filePath(QStringLiteral("bastions.conf"));
        const auto r = test::runCli(
            { QStringLiteral("hosts"), QStringLiteral("resolve"), QStringLiteral("-F"), config,
                QStringLiteral("--explain"), QStringLiteral("-p"), QStringLiteral("2200"), QStringLiteral("gpu-01") },
            60000, env());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        const QString out = QString::fromUtf8(r.out);
        QVERIFY2(out.contains(QStringLiteral("user ml    # %1:9").arg(config)), r.out.constData());
        QVERIFY2(out.contains(QStringLiteral("hostname 10.1.0.1    # %1:13").arg(config)), r.out.constData());
        QVERIFY2(out.contains(QStringLiteral("port 2200    # command line")), r.out.constData());
        QVERIFY2(out.contains(QStringLiteral("proxyjump bastion    # %1:8").arg(config)), r.out.constData());
        QVERIFY2(out.contains(QStringLiteral("# jump hops as KernelForge connects: jump@bastion.example.com:22")),
            r.out.constData());
        const auto json = test::runCli({ QStringLiteral("hosts"), QStringLiteral("resolve"), QStringLiteral("-F"),
                                           config, QStringLiteral("--json"), QStringLiteral("gpu-01") },
            60000, env());
        QVERIFY2(json.exitCode == 0, json.err.constData());
        const QJsonObject o = QJsonDocument::fromJson(json.out).object();
        QCOMPARE(o.value(QStringLiteral("hostname")).toString(), QStringLiteral("10.1.0.1"));
        QCOMPARE(o.value(QStringLiteral("proxyJump")).toString(), QStringLiteral("jump@bastion.example.com:22"));
        QCOMPARE(o.value(QStringLiteral("followsSshConfig")).toBool(), true);
        QCOMPARE(o.value(QStringLiteral("origins")).toObject().value(QStringLiteral("port")).toString(),
            QStringLiteral("default"));
    }

    // `Match exec` is never run: the block does not apply, and stderr says so.
    void matchExecIsNotRun()
    {
        QTemporaryDir dir;
        const QString marker = dir.filePath(QStringLiteral("ran"));
        const QString config = dir.filePath(QStringLiteral("exec.conf"));
        QVERIFY(test::writeFile(config, "Match exec \"touch " + marker.toUtf8() + "\"\n  Port 1234\n"));
        const auto r = test::runCli(
            { QStringLiteral("hosts"), QStringLiteral("resolve"), QStringLiteral("-F"), config, QStringLiteral("h") },
            60000, env());
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QVERIFY2(r.out.contains("port 22\n"), r.out.constData());
        QVERIFY2(r.err.contains("\"Match exec\" is not run by KernelForge"), r.err.constData());
        QVERIFY(!QFile::exists(marker));
    }

    void aMissingConfigFileIsAUsageError()
    {
        const auto r = test::runCli({ QStringLiteral("hosts"), QStringLiteral("resolve"), QStringLiteral("-F"),
                                        m_home.filePath(QStringLiteral("nope")), QStringLiteral("h") },
            60000, env());
        QCOMPARE(r.exitCode, 2);
        QVERIFY2(r.err.contains("cannot read"), r.err.constData());
    }

    // The reported defect: `ssh gpu1` worked and `kernelforge-cli exec gpu1 -- true` said
    // "cannot resolve gpu1". Now the alias is read from ~/.ssh/config, with its ProxyJump going
    // through another alias of the same file.
    void execThroughSshConfigAliasAndJump()
    {
        KF_START_DEMO_HOST(jump);
        KF_START_DEMO_HOST(target);
        QTemporaryDir home;
        const QString kh = home.filePath(QStringLiteral("kh"));
        QVERIFY(test::writeFile(kh, test::readFile(jump.knownHostsPath()) + test::readFile(target.knownHostsPath())));
        const QByteArray config = "Host bastion\n  HostName 127.0.0.1\n  Port " + QByteArray::number(jump.port())
            + "\n  User " + jump.user().toUtf8() + "\n  IdentityFile " + jump.clientKeyPath().toUtf8()
            + "\n\nHost gpu1\n  HostName 127.0.0.1\n  Port " + QByteArray::number(target.port()) + "\n  User "
            + target.user().toUtf8() + "\n  IdentityFile " + target.clientKeyPath().toUtf8()
            + "\n  ProxyJump bastion\n  UserKnownHostsFile " + kh.toUtf8() + "\n";
        QVERIFY(test::writeFile(home.filePath(QStringLiteral(".ssh/config")), config));
        const QStringList env { QStringLiteral("HOME=") + home.path(), QStringLiteral("XDG_CONFIG_HOME="),
            QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
        const int jumpLogins = int(jump.sshdLog().count(QLatin1String("Accepted publickey")));
        const auto r = test::runCli({ QStringLiteral("exec"), QStringLiteral("gpu1"), QStringLiteral("--"),
                                        QStringLiteral("echo"), QStringLiteral("$HOME") },
            120000, env);
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(QString::fromUtf8(r.out.trimmed()), target.homeDir());
        QCOMPARE(int(jump.sshdLog().count(QLatin1String("Accepted publickey"))), jumpLogins + 1);

        // A saved host's name is a destination too (after the ssh configuration).
        HostProfile saved = target.profile();
        saved.name = QStringLiteral("mybox");
        saved.isDemo = false; // a host of the user's own (the demo is never saved)
        saved.knownHostsFile = target.knownHostsPath();
        QVERIFY(HostProfileStore(home.filePath(QStringLiteral(".config/kernelforge/hosts.yaml"))).save({ saved }));
        const auto byName = test::runCli(
            { QStringLiteral("exec"), QStringLiteral("mybox"), QStringLiteral("--"), QStringLiteral("echo ok") },
            120000, env);
        QVERIFY2(byName.exitCode == 0, byName.err.constData());
        QCOMPARE(byName.out, QByteArray("ok\n"));
    }
};

QTEST_GUILESS_MAIN(TestCliHostsResolve)
#include "tst_cli_hostsresolve.moc"
