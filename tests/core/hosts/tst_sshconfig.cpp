// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/sshconfig.h"
#include "tests/support/testsupport.h"

#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

QStringList L(std::initializer_list<const char*> items)
{
    QStringList out;
    for (const char* s : items)
        out << QString::fromUtf8(s);
    return out;
}

SshLocalContext fixedLocal()
{
    SshLocalContext c;
    c.user = QStringLiteral("tester");
    c.homeDir = QStringLiteral("/home/tester");
    c.hostName = QStringLiteral("workstation.lan");
    c.uid = 1000;
    return c;
}

SshConfig parseData(const QString& name)
{
    return parseSshConfig(test::readData(QStringLiteral("ssh_config/") + name), name);
}

QString notesText(const QList<SshConfigNote>& notes)
{
    QStringList s;
    for (const auto& n : notes)
        s << n.toString();
    return s.join(QLatin1Char('\n'));
}

// An in-memory filesystem for Include, so include semantics are tested without files.
SshConfigIncludeReader memoryReader(const QMap<QString, QByteArray>& files)
{
    SshConfigIncludeReader r;
    r.homeDir = QStringLiteral("/h");
    r.glob = [files](const QString& pattern) {
        QStringList out;
        for (auto it = files.begin(); it != files.end(); ++it)
            if (sshPatternMatches(pattern, it.key()))
                out << it.key();
        return out;
    };
    r.read = [files](const QString& path) -> std::optional<QByteArray> {
        if (!files.contains(path))
            return std::nullopt;
        return files.value(path);
    };
    return r;
}

} // namespace

class TestSshConfig : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void patterns_data()
    {
        QTest::addColumn<QString>("pattern");
        QTest::addColumn<QString>("name");
        QTest::addColumn<bool>("matches");
        QTest::newRow("literal") << "gpu1"
                                 << "gpu1" << true;
        QTest::newRow("literal differs") << "gpu1"
                                         << "gpu2" << false;
        QTest::newRow("case sensitive like ssh") << "GPU1"
                                                 << "gpu1" << false;
        QTest::newRow("star all") << "*"
                                  << "anything.example" << true;
        QTest::newRow("star empty") << "gpu*"
                                    << "gpu" << true;
        QTest::newRow("star suffix") << "*.lab"
                                     << "gpu2.lab" << true;
        QTest::newRow("star suffix no") << "*.lab"
                                        << "gpu2.labs" << false;
        QTest::newRow("question one") << "h100-??"
                                      << "h100-07" << true;
        QTest::newRow("question too short") << "h100-??"
                                            << "h100-7" << false;
        QTest::newRow("question too long") << "h100-??"
                                           << "h100-107" << false;
        QTest::newRow("two stars backtrack") << "*a*b"
                                             << "xxaxxaxxb" << true;
        QTest::newRow("two stars fail") << "*a*b"
                                        << "xxaxxaxxc" << false;
        QTest::newRow("empty name") << "*"
                                    << "" << true;
        QTest::newRow("empty pattern") << ""
                                       << "x" << false;
    }
    void patterns()
    {
        QFETCH(QString, pattern);
        QFETCH(QString, name);
        QFETCH(bool, matches);
        QCOMPARE(sshPatternMatches(pattern, name), matches);
    }

    void resolve_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("alias");
        QTest::addColumn<QString>("hostName");
        QTest::addColumn<QString>("user");
        QTest::addColumn<int>("port");
        QTest::addColumn<QStringList>("identityFiles");
        QTest::addColumn<QString>("proxyJump");
        QTest::addColumn<QStringList>("knownHosts");

        const QString idDefault = QStringLiteral("/home/tester/.ssh/id_ed25519");
        QTest::newRow("gpu1: own settings, defaults appended")
            << "basic.conf"
            << "gpu1"
            << "10.0.0.11"
            << "alice" << 22 << (L({ "/home/tester/.ssh/id_ed25519_gpu" }) << idDefault) << "" << QStringList {};
        QTest::newRow("gpu2: port and jump, user from Host *")
            << "basic.conf"
            << "gpu2"
            << "gpu2.lab.example.com"
            << "defaultuser" << 2222 << QStringList { idDefault } << "bastion" << QStringList {};
        QTest::newRow("gpu2.lab: second alias, then *.lab gives the user")
            << "basic.conf"
            << "gpu2.lab"
            << "gpu2.lab.example.com"
            << "labuser" << 2222 << QStringList { idDefault } << "bastion" << QStringList {};
        QTest::newRow("other.lab: wildcard block")
            << "basic.conf"
            << "other.lab"
            << "other.lab"
            << "labuser" << 22 << QStringList { idDefault } << "bastion" << QStringList {};
        QTest::newRow("bastion.lab: negated, no jump")
            << "basic.conf"
            << "bastion.lab"
            << "bastion.lab"
            << "defaultuser" << 22 << QStringList { idDefault } << "" << QStringList {};
        QTest::newRow("h100-07: %h in HostName, %r %h in IdentityFile")
            << "basic.conf"
            << "h100-07"
            << "h100-07.cluster.example.com"
            << "trainer" << 22 << (L({ "/home/tester/.ssh/cluster_trainer_h100-07.cluster.example.com" }) << idDefault)
            << "" << L({ "/home/tester/.ssh/known_hosts.cluster" });
        QTest::newRow("unknown alias: only Host *")
            << "basic.conf"
            << "elsewhere"
            << "elsewhere"
            << "defaultuser" << 22 << QStringList { idDefault } << "" << QStringList {};
        QTest::newRow("HostName is lower-cased like ssh")
            << "basic.conf"
            << "MixedCase"
            << "mixedcase"
            << "defaultuser" << 22 << QStringList { idDefault } << "" << QStringList {};

        QTest::newRow("quotes, = and case-insensitive keywords")
            << "syntax.conf"
            << "quoted"
            << "quoted.example.com"
            << "bob" << 2200
            << L({ "/home/tester/.ssh/key with spaces", "/opt/keys/single quoted", "/opt/keys/escaped space" }) << ""
            << L({ "/home/tester/.ssh/kh1", "/tmp/kh 2" });
        QTest::newRow("every token") << "syntax.conf"
                                     << "percent"
                                     << "percent.example.org"
                                     << "" << 22
                                     << L({ "/keys/tester/tester@percent.example.org:22/percent/%//home/tester/1000/"
                                            "workstation.lan/workstation" })
                                     << "" << QStringList {};
        QTest::newRow("ProxyJump none wins over a later value") << "syntax.conf"
                                                                << "jumpnone"
                                                                << "jumpnone"
                                                                << "" << 22 << QStringList {} << "" << QStringList {};
        QTest::newRow("ProxyCommand first excludes a later ProxyJump")
            << "syntax.conf"
            << "proxycmd"
            << "proxycmd"
            << "" << 22 << QStringList {} << "" << QStringList {};
        QTest::newRow("duplicate identity files once")
            << "syntax.conf"
            << "dup"
            << "dup"
            << "" << 22 << L({ "/home/tester/.ssh/a", "/home/tester/.ssh/b" }) << "" << QStringList {};
        QTest::newRow("CRLF line ends") << "crlf.conf"
                                        << "crlf"
                                        << "crlf.example.com"
                                        << "crlfuser" << 22 << QStringList {} << "" << QStringList {};

        QTest::newRow("Match block skipped") << "match.conf"
                                             << "x.internal"
                                             << "x.internal"
                                             << "" << 4444 << QStringList {} << "" << QStringList {};
        QTest::newRow("Host after Match applies") << "match.conf"
                                                  << "after"
                                                  << "after.example.com"
                                                  << "" << 4444 << QStringList {} << "" << QStringList {};
        QTest::newRow("Host before Match applies") << "match.conf"
                                                   << "before"
                                                   << "before"
                                                   << "beforeuser" << 4444 << QStringList {} << "" << QStringList {};
    }
    void resolve()
    {
        QFETCH(QString, file);
        QFETCH(QString, alias);
        QFETCH(QString, hostName);
        QFETCH(QString, user);
        QFETCH(int, port);
        QFETCH(QStringList, identityFiles);
        QFETCH(QString, proxyJump);
        QFETCH(QStringList, knownHosts);

        const SshConfig config = parseData(file);
        QVERIFY2(config.ok(), qPrintable(notesText(config.errors)));
        const auto r = resolveSshHost(config, alias, fixedLocal());
        QVERIFY2(r.ok(), qPrintable(r.error()));
        QCOMPARE(r->alias, alias);
        QCOMPARE(r->hostName, hostName);
        QCOMPARE(r->user, user);
        QCOMPARE(int(r->port), port);
        QCOMPARE(r->identityFiles, identityFiles);
        QCOMPARE(r->proxyJump, proxyJump);
        QCOMPARE(r->userKnownHostsFiles, knownHosts);

        const HostProfile p = r->toProfile();
        QCOMPARE(p.name, alias);
        QCOMPARE(p.host, hostName);
        QCOMPARE(int(p.port), port);
        QCOMPARE(p.identityFiles, identityFiles);
        QCOMPARE(p.knownHostsFile, knownHosts.value(0));
    }

    void proxyCommandIsReported()
    {
        const auto r
            = resolveSshHost(parseData(QStringLiteral("syntax.conf")), QStringLiteral("proxycmd"), fixedLocal());
        QVERIFY(r.ok());
        QCOMPARE(r->proxyCommand, QStringLiteral("ssh -W %h:%p gateway"));
        QVERIFY2(notesText(r->notes).contains(QLatin1String("ProxyCommand is not supported")),
            qPrintable(notesText(r->notes)));
    }

    // Match blocks are evaluated; `exec` is never run (its block does not apply), which the
    // resolution notes with the line. Parsing notes nothing.
    void matchExecIsNotedWithItsLine()
    {
        const SshConfig config = parseData(QStringLiteral("match.conf"));
        QVERIFY(config.ok());
        QVERIFY(config.notes.isEmpty());
        const auto r = resolveSshHost(config, QStringLiteral("x.internal"), fixedLocal());
        QCOMPARE(r->notes.size(), 1);
        QCOMPARE(r->notes.first().line, 4);
        QVERIFY(r->notes.first().message.contains(QLatin1String("\"Match exec\" is not run")));
        // An earlier criterion that fails means ssh would not run the command either: no note.
        QVERIFY(resolveSshHost(config, QStringLiteral("before"), fixedLocal())->notes.isEmpty());
    }

    void matchCriteria_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<QString>("alias");
        QTest::addColumn<int>("port");
        const QByteArray tail = "\nMatch all\n  Port 1\n";
        const QByteArray finalTail = "\nMatch final all\n  Port 1\n"; // a fallback of the final pass only
        QTest::newRow("host list, case-insensitive")
            << "Match host A.example,b.example\n  Port 2" + tail << "a.EXAMPLE" << 2;
        QTest::newRow("negated host in list")
            << "Match host *.example,!bad.example\n  Port 2" + tail << "bad.example" << 1;
        QTest::newRow("host sees HostName")
            << "Host al\n  HostName real.example\nMatch host real.example\n  Port 2" + tail << "al" << 2;
        QTest::newRow("originalhost sees the alias")
            << "Host al\n  HostName real.example\nMatch originalhost al\n  Port 2" + tail << "al" << 2;
        QTest::newRow("user defaults to the local user") << "Match user tester\n  Port 2" + tail << "h" << 2;
        QTest::newRow("negated localuser") << "Match !localuser tester\n  Port 2" + tail << "h" << 1;
        QTest::newRow("all criteria must hold") << "Match host h user nobody\n  Port 2" + tail << "h" << 1;
        QTest::newRow("final pass: Host sees the final name")
            << "Host al\n  HostName Final.Example\nMatch final\n\nHost final.example\n  Port 2" + finalTail << "al"
            << 2;
        QTest::newRow("canonical only in the final pass") << "Match canonical\n  Port 2" + tail << "h" << 1;
        QTest::newRow("canonical with a final pass")
            << "Match canonical\n  Port 2\nMatch final\n" + finalTail << "h" << 2;
        // A `Match all` before the final pass sets the port in the first pass already.
        QTest::newRow("the first pass sets values first")
            << "Host al\n  HostName Final.Example\nMatch final\n\nHost final.example\n  Port 2" + tail << "al" << 1;
        QTest::newRow("a malformed Match never applies") << "Match host\n  Port 2" + tail << "h" << 1;
        QTest::newRow("all with another criterion is malformed") << "Match host h all x\n  Port 2" + tail << "h" << 1;
    }
    void matchCriteria()
    {
        QFETCH(QByteArray, text);
        QFETCH(QString, alias);
        QFETCH(int, port);
        const auto r = resolveSshHost(parseSshConfig(text, QStringLiteral("t.conf")), alias, fixedLocal());
        QVERIFY2(r.ok(), qPrintable(r.error()));
        QCOMPARE(int(r->port), port);
    }

    // What was typed wins over every file, and each value says where it came from.
    void commandLineWinsAndOriginsNameTheLine()
    {
        const QByteArray text = "Host gpu\n  HostName 10.0.0.1\n  User cfg\n  Port 2222\n  IdentityFile ~/k\n"
                                "  ProxyJump bastion\n";
        const SshConfig config = parseSshConfig(text, QStringLiteral("c.conf"));
        const auto plain = resolveSshHost(config, QStringLiteral("gpu"), fixedLocal());
        QVERIFY(plain.ok());
        QCOMPARE(plain->origins.value(QStringLiteral("hostname")).place(), QStringLiteral("c.conf:2"));
        QCOMPARE(plain->origins.value(QStringLiteral("user")).place(), QStringLiteral("c.conf:3"));
        QCOMPARE(plain->origins.value(QStringLiteral("port")).place(), QStringLiteral("c.conf:4"));
        QCOMPARE(plain->identityOrigins.value(0).place(), QStringLiteral("c.conf:5"));
        QCOMPARE(plain->identityFilesAsWritten, QStringList { QStringLiteral("~/k") });
        QCOMPARE(plain->identityFiles, QStringList { QStringLiteral("/home/tester/k") });
        SshCommandLine typed;
        typed.user = QStringLiteral("me");
        typed.port = 22;
        typed.proxyJump = QStringLiteral("none");
        typed.identityFiles = { QStringLiteral("/typed") };
        const auto r = resolveSshHost(config, QStringLiteral("gpu"), fixedLocal(), typed);
        QVERIFY(r.ok());
        QCOMPARE(r->user, QStringLiteral("me"));
        QCOMPARE(int(r->port), 22);
        QVERIFY(r->proxyJump.isEmpty());
        QCOMPARE(r->identityFiles, (QStringList { QStringLiteral("/typed"), QStringLiteral("/home/tester/k") }));
        QCOMPARE(r->origins.value(QStringLiteral("user")).place(), QStringLiteral("command line"));
    }

    // Names are lower-cased as ssh does; addresses are not.
    void addressesKeepTheirCase()
    {
        const SshConfig config = parseSshConfig("Host v6\n  HostName 2001:DB8::1\n", QStringLiteral("a.conf"));
        QCOMPARE(resolveSshHost(config, QStringLiteral("v6"), fixedLocal())->hostName, QStringLiteral("2001:DB8::1"));
        QCOMPARE(resolveSshHost(config, QStringLiteral("Name.Example"), fixedLocal())->hostName,
            QStringLiteral("name.example"));
    }

    // An imported host follows the file: resolved again, an edit counts; its ProxyJump alias is
    // resolved through the same file, and the jump host's key is tried too.
    void followedProfilesReadTheFileAsItIsNow()
    {
        HostProfile imported;
        imported.name = QStringLiteral("gpu");
        imported.sshConfigAlias = QStringLiteral("gpu");
        imported.host = QStringLiteral("stale.example");
        const QByteArray before = "Host gpu\n  HostName 10.0.0.1\n  ProxyJump bastion\n  IdentityFile /k/gpu\n"
                                  "Host bastion\n  HostName jump.example\n  User hop\n  Port 2200\n"
                                  "  IdentityFile /k/jump\n";
        auto f = followSshConfig(imported, { parseSshConfig(before, QStringLiteral("c")) }, fixedLocal());
        QVERIFY2(f.ok(), qPrintable(f.error()));
        QCOMPARE(f->profile.host, QStringLiteral("10.0.0.1"));
        QCOMPARE(f->profile.proxyJump, QStringLiteral("hop@jump.example:2200"));
        QCOMPARE(f->profile.identityFiles, (QStringList { QStringLiteral("/k/gpu"), QStringLiteral("/k/jump") }));
        QByteArray after = before;
        after.replace("10.0.0.1", "10.0.0.2");
        f = followSshConfig(imported, { parseSshConfig(after, QStringLiteral("c")) }, fixedLocal());
        QCOMPARE(f->profile.host, QStringLiteral("10.0.0.2"));
        // A profile of KernelForge's own is left as it is.
        HostProfile own = imported;
        own.sshConfigAlias.clear();
        QCOMPARE(followSshConfig(own, { parseSshConfig(after, QStringLiteral("c")) }, fixedLocal())->profile, own);
    }

    void errorsCarryFileAndLine()
    {
        const SshConfig config = parseData(QStringLiteral("errors.conf"));
        QVERIFY(!config.ok());
        QStringList got;
        for (const auto& e : config.errors)
            got << e.toString();
        const QStringList expected {
            QStringLiteral("errors.conf:4: bad port '0'"),
            QStringLiteral("errors.conf:5: unterminated quote"),
            QStringLiteral("errors.conf:6: no argument after keyword \"hostname\""),
            QStringLiteral("errors.conf:7: bad port '70000'"),
            QStringLiteral("errors.conf:8: keyword user has extra arguments at the end of the line"),
        };
        QCOMPARE(got, expected);
        // What could be read still resolves: the good lines are kept.
        const auto good = resolveSshHost(config, QStringLiteral("good"), fixedLocal());
        QCOMPARE(good->hostName, QStringLiteral("good.example.com"));
        const auto bad = resolveSshHost(config, QStringLiteral("bad"), fixedLocal());
        QCOMPARE(int(bad->port), 2022);
    }

    void unknownTokenIsAnError()
    {
        const SshConfig config = parseSshConfig("Host x\n  IdentityFile ~/.ssh/%q\n", QStringLiteral("t.conf"));
        QVERIFY(config.ok());
        const auto r = resolveSshHost(config, QStringLiteral("x"), fixedLocal());
        QVERIFY(!r.ok());
        QCOMPARE(r.error(), QStringLiteral("t.conf:2: IdentityFile ~/.ssh/%q: unknown token %q"));
        const auto trailing = resolveSshHost(
            parseSshConfig("IdentityFile /k%\n", QStringLiteral("t")), QStringLiteral("x"), fixedLocal());
        QVERIFY(!trailing.ok());
    }

    void importableAliases()
    {
        QCOMPARE(importableSshHosts(parseData(QStringLiteral("basic.conf"))),
            (L({ "gpu1", "gpu2", "gpu2.lab", "bastion" })));
        QCOMPARE(importableSshHosts(parseData(QStringLiteral("match.conf"))), (L({ "before", "after" })));
    }

    void includeFromTheFileSystem()
    {
        const QString home = test::dataPath(QStringLiteral("ssh_config/home"));
        const auto loaded = loadSshConfig(home + QStringLiteral("/.ssh/config"), home);
        QVERIFY2(loaded.ok(), qPrintable(loaded.error()));
        const SshConfig& config = loaded.value();
        QVERIFY2(config.ok(), qPrintable(notesText(config.errors)));
        // Fragments come in glob (sorted) order, before the rest of the main file.
        QCOMPARE(importableSshHosts(config), (L({ "work", "homebox", "main", "scoped", "never", "afterscoped" })));

        SshLocalContext local = fixedLocal();
        local.homeDir = home;
        // First value wins across files: 10-work.conf says worker, 20-home.conf says notme.
        QCOMPARE(resolveSshHost(config, QStringLiteral("work"), local)->user, QStringLiteral("worker"));
        QCOMPARE(resolveSshHost(config, QStringLiteral("homebox"), local)->hostName, QStringLiteral("192.168.1.5"));
        // An Include inside a Host block: its top lines apply to that host only, the block
        // continues after it (Port 2020), and its own Host lines never match.
        const auto scoped = resolveSshHost(config, QStringLiteral("scoped"), local);
        QCOMPARE(scoped->user, QStringLiteral("scopeduser"));
        QCOMPARE(int(scoped->port), 2020);
        QCOMPARE(resolveSshHost(config, QStringLiteral("never"), local)->user, QString());
        QCOMPARE(resolveSshHost(config, QStringLiteral("afterscoped"), local)->hostName,
            QStringLiteral("afterscoped.example.com"));
        QCOMPARE(resolveSshHost(config, QStringLiteral("afterscoped"), local)->user, QString());
    }

    void includeRecursionIsLimited()
    {
        const QString home = test::dataPath(QStringLiteral("ssh_config/home"));
        const auto loaded = loadSshConfig(home + QStringLiteral("/.ssh/loop.conf"), home);
        QVERIFY(loaded.ok());
        QCOMPARE(loaded->errors.size(), 1);
        QVERIFY(loaded->errors.first().message.contains(QLatin1String("nested too deeply")));
        QVERIFY(loaded->errors.first().file.endsWith(QLatin1String("loop.conf")));
        QCOMPARE(loaded->errors.first().line, 3);
    }

    void includeSelfThreeTimesStopsAtDepth16()
    {
        // Three self-includes: every level read three times over was 3^16 files (3.8 GB).
        // OpenSSH stops at depth 16; so do we, once, with a clear error.
        int reads = 0;
        SshConfigIncludeReader reader = memoryReader({
            { QStringLiteral("/h/.ssh/config"), "Include config\nInclude config\nInclude config\nHost a\n" },
        });
        const auto inner = reader.read;
        reader.read = [&reads, inner](const QString& path) -> std::optional<QByteArray> {
            // Give up after a while so that the code before the fix ends too (and fails below).
            if (++reads > 1000)
                return std::nullopt;
            return inner(path);
        };
        const SshConfig config = parseSshConfig("Include config\nHost b\n", QStringLiteral("/h/.ssh/config"), &reader);
        QCOMPARE(reads, 16);
        QCOMPARE(config.errors.size(), 1);
        QVERIFY2(config.errors.first().message.contains(QLatin1String("nested too deeply (more than 16 levels")),
            qPrintable(config.errors.first().message));
        QVERIFY(config.errors.first().message.contains(QLatin1String("/h/.ssh/config includes itself")));
        QCOMPARE(importableSshHosts(config), (QStringList { QStringLiteral("a"), QStringLiteral("b") }));
    }

    void includeFanOutIsBounded()
    {
        // No loop, but 8 files each including the next one 8 times: 8^7 reads without a cap.
        QMap<QString, QByteArray> files;
        for (int i = 0; i < 8; ++i) {
            QByteArray text;
            for (int k = 0; k < 8; ++k)
                text += "Include f" + QByteArray::number(i + 1) + "\n";
            files.insert(QStringLiteral("/h/.ssh/f%1").arg(i), i < 7 ? text : QByteArray("Host leaf\n"));
        }
        int reads = 0;
        SshConfigIncludeReader reader = memoryReader(files);
        const auto inner = reader.read;
        reader.read = [&reads, inner](const QString& path) {
            ++reads;
            return inner(path);
        };
        const SshConfig config = parseSshConfig("Include f0\n", QStringLiteral("/h/.ssh/config"), &reader);
        QCOMPARE(reads, 4096);
        QCOMPARE(config.errors.size(), 1);
        QVERIFY(config.errors.first().message.contains(QLatin1String("more than 4096 included files")));
    }

    void includeInMemory_data()
    {
        QTest::addColumn<QString>("alias");
        QTest::addColumn<QString>("user");
        QTest::addColumn<int>("port");
        QTest::newRow("top of included file applies to all") << "any"
                                                             << "u-inc" << 22;
        QTest::newRow("host in included file") << "inc"
                                               << "u-inc" << 3000;
        QTest::newRow("host after the include") << "late"
                                                << "u-inc" << 4000;
    }
    void includeInMemory()
    {
        QFETCH(QString, alias);
        QFETCH(QString, user);
        QFETCH(int, port);
        const auto reader = memoryReader({
            { QStringLiteral("/h/.ssh/a.conf"), "User u-inc\nHost inc\n Port 3000\n" },
            { QStringLiteral("/h/.ssh/b.conf"), "Host late\n Port 4000\n" },
        });
        const SshConfig config
            = parseSshConfig("Include a.conf\nInclude ~/.ssh/b.conf\nUser u-main\n", QStringLiteral("main"), &reader);
        QVERIFY(config.ok());
        const auto r = resolveSshHost(config, alias, fixedLocal());
        QCOMPARE(r->user, user);
        QCOMPARE(int(r->port), port);
    }

    void includeWithoutReaderIsNoted()
    {
        const SshConfig config = parseSshConfig("Include other\nHost x\n", QStringLiteral("c"));
        QVERIFY(config.ok());
        QCOMPARE(config.notes.size(), 1);
        QCOMPARE(config.statements.first().kind, SshConfigStatement::Kind::Include);
    }

    // OpenSSH itself as the oracle: `ssh -G` prints what it would use.
    void agreesWithOpenSsh_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("alias");
        for (const char* alias :
            { "gpu1", "gpu2", "gpu2.lab", "other.lab", "bastion.lab", "bastion", "h100-07", "elsewhere", "MixedCase" })
            QTest::newRow(qPrintable(QStringLiteral("basic ") + QLatin1String(alias))) << "basic.conf" << alias;
        for (const char* alias : { "quoted", "percent", "jumpnone", "dup" })
            QTest::newRow(qPrintable(QStringLiteral("syntax ") + QLatin1String(alias))) << "syntax.conf" << alias;
        QTest::newRow("crlf") << "crlf.conf"
                              << "crlf";
        QTest::newRow("match after") << "match.conf"
                                     << "after";
    }
    void agreesWithOpenSsh()
    {
        QFETCH(QString, file);
        QFETCH(QString, alias);
        if (QStandardPaths::findExecutable(QStringLiteral("ssh")).isEmpty())
            QSKIP("OpenSSH client not installed");
        const auto out = test::runProgram(QStringLiteral("ssh"),
            { QStringLiteral("-G"), QStringLiteral("-F"), test::dataPath(QStringLiteral("ssh_config/") + file),
                alias });
        QVERIFY2(out.exitCode == 0, out.err.constData());
        QMap<QString, QString> ssh;
        for (const QByteArray& line : out.out.split('\n')) {
            const qsizetype sp = line.indexOf(' ');
            if (sp > 0 && !ssh.contains(QString::fromUtf8(line.left(sp))))
                ssh.insert(QString::fromUtf8(line.left(sp)), QString::fromUtf8(line.mid(sp + 1)));
        }
        const SshLocalContext local = SshLocalContext::current();
        const auto r = resolveSshHost(parseData(file), alias, local);
        QVERIFY2(r.ok(), qPrintable(r.error()));
        QCOMPARE(r->hostName, ssh.value(QStringLiteral("hostname")));
        QCOMPARE(QString::number(r->port), ssh.value(QStringLiteral("port")));
        QCOMPARE(r->user.isEmpty() ? local.user : r->user, ssh.value(QStringLiteral("user")));
        QCOMPARE(r->proxyJump, ssh.value(QStringLiteral("proxyjump")));
    }
};

QTEST_GUILESS_MAIN(TestSshConfig)
#include "tst_sshconfig.moc"
