// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/hostprofilestore.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

HostProfile gpu1()
{
    HostProfile p;
    p.name = QStringLiteral("gpu1");
    p.host = QStringLiteral("10.0.0.11");
    p.port = 2222;
    p.user = QStringLiteral("alice");
    p.identityFiles = { QStringLiteral("~/.ssh/id_ed25519"), QStringLiteral("/keys/with space: and #hash") };
    p.proxyJump = QStringLiteral("jump@bastion:22022,second");
    p.tags = { QStringLiteral("lab"), QStringLiteral("h100") };
    p.knownHostsFile = QStringLiteral("~/.ssh/known_hosts.lab");
    return p;
}

HostProfile minimal(const QString& name)
{
    HostProfile p;
    p.name = name;
    p.host = name + QStringLiteral(".example.com");
    return p;
}

} // namespace

class TestHostProfileStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip()
    {
        HostProfile local;
        local.name = QStringLiteral("this machine");
        local.isLocal = true;
        HostProfile unicode = minimal(QStringLiteral("grüße-box"));
        unicode.user = QStringLiteral("ünïcode");
        unicode.tags = { QStringLiteral("yes"), QStringLiteral("null"),
            QStringLiteral("123") }; // YAML-special words stay strings
        const QList<HostProfile> profiles { gpu1(), minimal(QStringLiteral("plain")), local, unicode };
        const QByteArray yaml = serializeHostProfiles(profiles);
        const auto parsed = parseHostProfiles(yaml, QStringLiteral("hosts.yaml"));
        QVERIFY2(parsed.ok(), qPrintable(parsed.error()));
        QVERIFY2(parsed->warnings.isEmpty(), qPrintable(parsed->warnings.join(QLatin1Char('\n'))));
        QCOMPARE(parsed->profiles, profiles);
        QVERIFY(yaml.startsWith("# KernelForge host profiles."));
    }

    void demoProfileIsNotSaved()
    {
        HostProfile demo = minimal(QStringLiteral("demo"));
        demo.isDemo = true;
        const auto parsed = parseHostProfiles(serializeHostProfiles({ demo, gpu1() }), QStringLiteral("h"));
        QCOMPARE(parsed->profiles.size(), 1);
        QCOMPARE(parsed->profiles.first().name, QStringLiteral("gpu1"));
    }

    void readsHandWrittenFile()
    {
        const QByteArray yaml = "version: 1\n"
                                "hosts:\n"
                                "  - name: a\n"
                                "    host: a.example.com\n"
                                "    identityFiles: ~/.ssh/single_scalar_is_a_list\n"
                                "  - {name: b, host: b.example.com, port: 2200, tags: [x]}\n";
        const auto parsed = parseHostProfiles(yaml, QStringLiteral("hosts.yaml"));
        QVERIFY2(parsed.ok(), qPrintable(parsed.error()));
        QCOMPARE(parsed->profiles.size(), 2);
        QCOMPARE(parsed->profiles[0].identityFiles, QStringList { QStringLiteral("~/.ssh/single_scalar_is_a_list") });
        QCOMPARE(parsed->profiles[0].port, quint16(22));
        QCOMPARE(parsed->profiles[1].port, quint16(2200));
        QCOMPARE(parsed->profiles[1].tags, QStringList { QStringLiteral("x") });
    }

    void emptyDocuments_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("comment only") << QByteArray("# nothing\n");
        QTest::newRow("no hosts") << QByteArray("version: 1\n");
        QTest::newRow("null hosts") << QByteArray("version: 1\nhosts:\n");
    }
    void emptyDocuments()
    {
        QFETCH(QByteArray, yaml);
        const auto parsed = parseHostProfiles(yaml, QStringLiteral("h"));
        QVERIFY2(parsed.ok(), qPrintable(parsed.error()));
        QVERIFY(parsed->profiles.isEmpty());
    }

    void errorsNameTheLine_data()
    {
        QTest::addColumn<QByteArray>("yaml");
        QTest::addColumn<QString>("error");
        QTest::newRow("syntax") << QByteArray("hosts:\n  - name: a\n    host: [unclosed\n")
                                << "hosts.yaml:4: invalid YAML: end of sequence flow not found";
        QTest::newRow("root is a list") << QByteArray("- a\n- b\n")
                                        << "hosts.yaml:1: expected a mapping with 'version' and 'hosts'";
        QTest::newRow("hosts not a list")
            << QByteArray("version: 1\nhosts: nope\n") << "hosts.yaml:2: hosts: must be a list";
        QTest::newRow("host not a map") << QByteArray("hosts:\n  - just-a-string\n")
                                        << "hosts.yaml:2: hosts[0]: each host must be a mapping";
        QTest::newRow("bad port") << QByteArray("hosts:\n  - name: a\n    host: h\n    port: 70000\n")
                                  << "hosts.yaml:4: hosts[0].port: must be a whole number from 1 to 65535, not '70000'";
        QTest::newRow("port not a number")
            << QByteArray("hosts:\n  - name: a\n    host: h\n    port: ssh\n")
            << "hosts.yaml:4: hosts[0].port: must be a whole number from 1 to 65535, not 'ssh'";
        QTest::newRow("missing name") << QByteArray("hosts:\n  - host: h\n")
                                      << "hosts.yaml:2: hosts[0].name: is required";
        QTest::newRow("missing host") << QByteArray("hosts:\n  - name: a\n")
                                      << "hosts.yaml:2: hosts[0].host: is required (or local: true)";
        QTest::newRow("duplicate") << QByteArray("hosts:\n  - {name: a, host: h}\n  - {name: a, host: g}\n")
                                   << "hosts.yaml:3: hosts[1].name: duplicate host name 'a'";
        QTest::newRow("name is a map") << QByteArray("hosts:\n  - name: {x: 1}\n    host: h\n")
                                       << "hosts.yaml:2: hosts[0].name: must be a single value";
        QTest::newRow("tags nested") << QByteArray("hosts:\n  - name: a\n    host: h\n    tags: [[x]]\n")
                                     << "hosts.yaml:4: hosts[0].tags[0]: must be a single value";
        QTest::newRow("local not bool") << QByteArray("hosts:\n  - name: a\n    local: maybe\n")
                                        << "hosts.yaml:3: hosts[0].local: must be true or false, not 'maybe'";
        QTest::newRow("version text") << QByteArray("version: one\n")
                                      << "hosts.yaml:1: version: must be a whole number from 0 to 1048576, not 'one'";
        // yaml-cpp would take the first, every other YAML tool the last.
        QTest::newRow("a key twice") << QByteArray("hosts:\n  - name: a\n    host: good\n    host: evil\n")
                                     << "hosts.yaml:4: host: duplicate key (first at line 3)";
        QTest::newRow("hosts twice") << QByteArray("hosts: []\nhosts:\n  - {name: a, host: h}\n")
                                     << "hosts.yaml:2: hosts: duplicate key (first at line 1)";
        // hosts.yaml never holds a control character (a line break would end an inventory line).
        QTest::newRow("newline in a name")
            << QByteArray("hosts:\n  - name: \"n1\\nh2 ansible_host=evil\"\n    host: h\n")
            << "hosts.yaml:2: hosts[0]: host 'n1\\nh2 ansible_host=evil': 'name' has the control character \\n";
        QTest::newRow("escape in a tag") << QByteArray("hosts:\n  - {name: a, host: h, tags: [\"x\\e[2K\"]}\n")
                                         << "hosts.yaml:2: hosts[0]: host 'a': 'tags' has the control character \\x1b";
    }
    void errorsNameTheLine()
    {
        QFETCH(QByteArray, yaml);
        QFETCH(QString, error);
        const auto parsed = parseHostProfiles(yaml, QStringLiteral("hosts.yaml"));
        QVERIFY(!parsed.ok());
        QCOMPARE(parsed.error(), error);
    }

    void secretsAndUnknownKeysAreNotLoaded()
    {
        const QByteArray yaml = "version: 1\n"
                                "colour: blue\n"
                                "hosts:\n"
                                "  - name: a\n"
                                "    host: h\n"
                                "    password: hunter2\n"
                                "    keyPassphrase: hunter3\n"
                                "    flavour: x\n";
        const auto parsed = parseHostProfiles(yaml, QStringLiteral("hosts.yaml"));
        QVERIFY2(parsed.ok(), qPrintable(parsed.error()));
        QCOMPARE(parsed->profiles.size(), 1);
        const QStringList w = parsed->warnings;
        QCOMPARE(w.size(), 4);
        QCOMPARE(w[0], QStringLiteral("hosts.yaml:2: colour: unknown key ignored"));
        QVERIFY(w[1].startsWith(QLatin1String("hosts.yaml:6: hosts[0].password: ignored: secrets are never")));
        QVERIFY(w[2].startsWith(QLatin1String("hosts.yaml:7: hosts[0].keyPassphrase: ignored")));
        QCOMPARE(w[3], QStringLiteral("hosts.yaml:8: hosts[0].flavour: unknown key ignored"));
        // Saving what was loaded drops them for good.
        const QByteArray again = serializeHostProfiles(parsed->profiles);
        QVERIFY(!again.contains("hunter"));
        QVERIFY(!again.contains("password"));
    }

    void newerVersionWarns()
    {
        const auto parsed = parseHostProfiles("version: 7\nhosts: []\n", QStringLiteral("h"));
        QVERIFY(parsed.ok());
        QCOMPARE(parsed->warnings.size(), 1);
        QVERIFY(parsed->warnings.first().contains(QLatin1String("newer")));
    }

    void saveIsAtomicAndPrivate()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/sub/hosts.yaml");
        HostProfileStore store(path);
        auto loaded = store.load();
        QVERIFY(loaded.ok()); // missing file: empty
        QVERIFY(loaded->profiles.isEmpty());

        QVERIFY(store.save({ gpu1() }).ok());
        QCOMPARE(QFile::permissions(path) & 0x7077,
            QFile::ReadOwner | QFile::WriteOwner); // 0600: owner rw, group and others nothing
        QVERIFY(store.upsert(minimal(QStringLiteral("b"))).ok());
        HostProfile changed = gpu1();
        changed.port = 22;
        QVERIFY(store.upsert(changed).ok());
        loaded = store.load();
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->profiles.size(), 2);
        QCOMPARE(loaded->profiles[0], changed);
        QCOMPARE(loaded->profiles[1].name, QStringLiteral("b"));
        QCOMPARE(QFile::permissions(path) & 0x7077,
            QFile::ReadOwner | QFile::WriteOwner); // 0600: owner rw, group and others nothing

        // A refused save leaves the file exactly as it was.
        const QByteArray before = test::readFile(path);
        const Result<void> dup = store.save({ minimal(QStringLiteral("x")), minimal(QStringLiteral("x")) });
        QVERIFY(!dup.ok());
        QCOMPARE(dup.error(), QStringLiteral("duplicate host name 'x'"));
        QCOMPARE(test::readFile(path), before);

        // Nor does a save write a control character.
        HostProfile hostile = minimal(QStringLiteral("y"));
        hostile.host = QStringLiteral("10.0.0.1\tansible_ssh_common_args=-oProxyCommand=x");
        const Result<void> refused = store.save({ hostile });
        QVERIFY(!refused.ok());
        QCOMPARE(refused.error(), QStringLiteral("host 'y': 'host' has the control character \\t"));
        QCOMPARE(test::readFile(path), before);

        QVERIFY(store.remove(QStringLiteral("gpu1")).ok());
        QCOMPARE(store.load()->profiles.size(), 1);
        // QSaveFile leaves no temporary files next to the original.
        QCOMPARE(QDir(dir.path() + QStringLiteral("/sub")).entryList(QDir::Files | QDir::Hidden),
            QStringList { QStringLiteral("hosts.yaml") });
    }

    void loadReportsTheFileName()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/hosts.yaml");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("hosts:\n  - name: a\n    host: h\n    port: 0\n");
        f.close();
        const auto loaded = HostProfileStore(path).load();
        QVERIFY(!loaded.ok());
        QCOMPARE(loaded.error(),
            path + QStringLiteral(":4: hosts[0].port: must be a whole number from 1 to 65535, not '0'"));
    }

    void defaultPathIsInTheConfigDir()
    {
        QTemporaryDir home;
        const QByteArray oldHome = qgetenv("HOME");
        qputenv("HOME", home.path().toUtf8());
        QStandardPaths::setTestModeEnabled(true);
        const QString path = HostProfileStore::defaultPath();
        QStandardPaths::setTestModeEnabled(false);
        qputenv("HOME", oldHome);
        QVERIFY2(path.startsWith(home.path()), qPrintable(path));
        QVERIFY(path.endsWith(QLatin1String("/kernelforge/hosts.yaml")));
    }

    void importFromSshConfig()
    {
        const QString home = test::dataPath(QStringLiteral("ssh_config/home"));
        const auto imported = HostProfileStore::importFromSshConfig(home);
        QVERIFY2(imported.ok(), qPrintable(imported.error()));
        QStringList names;
        for (const HostProfile& p : imported->profiles)
            names << p.name;
        QCOMPARE(names,
            (QStringList { QStringLiteral("work"), QStringLiteral("homebox"), QStringLiteral("main"),
                QStringLiteral("scoped"), QStringLiteral("never"), QStringLiteral("afterscoped") }));
        QCOMPARE(imported->profiles[0].host, QStringLiteral("work.example.com"));
        QCOMPARE(imported->profiles[0].user, QStringLiteral("worker"));
        QCOMPARE(imported->profiles[3].port, quint16(2020));
        QVERIFY(imported->problems.isEmpty());
        // And they survive a save/load.
        QTemporaryDir dir;
        HostProfileStore store(dir.path() + QStringLiteral("/hosts.yaml"));
        QVERIFY(store.save(imported->profiles).ok());
        QCOMPARE(store.load()->profiles, imported->profiles);
    }

    void importReportsProblems()
    {
        const SshConfig config = parseSshConfig("Host a\n  Port 0\nHost b\n  ProxyCommand nc %h %p\n"
                                                "Host c\n  IdentityFile ~/%Q\nMatch user x\n  Port 1\n",
            QStringLiteral("cfg"));
        SshLocalContext local;
        local.user = QStringLiteral("me");
        local.homeDir = QStringLiteral("/home/me");
        const SshImport imported = importSshHosts(config, local);
        QCOMPARE(imported.profiles.size(), 2); // a and b; c has a bad token
        const QString all = imported.problems.join(QLatin1Char('\n'));
        QVERIFY2(all.contains(QLatin1String("cfg:2: bad port '0'")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("b: ProxyCommand is not supported")), qPrintable(all));
        QVERIFY2(all.contains(QLatin1String("c: cfg:6: IdentityFile ~/%Q: unknown token %Q")), qPrintable(all));
        // Match blocks are read as ssh reads them when a host is resolved (sshconfig.h), so they are
        // no problem of the import any more (issue #38 item 10).
        QVERIFY2(!all.contains(QLatin1String("Match")), qPrintable(all));
    }

    void missingSshConfigImportsNothing()
    {
        QTemporaryDir home;
        const auto imported = HostProfileStore::importFromSshConfig(home.path());
        QVERIFY(imported.ok());
        QVERIFY(imported->profiles.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestHostProfileStore)
#include "tst_hostprofilestore.moc"
