// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/destination.h"

#include <QtTest>

using kf::Destination;
using kf::DestinationForm;

Q_DECLARE_METATYPE(DestinationForm)

class TestDestination : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // One row a case: what is typed, in which form, and the parts, or the words the error
    // must contain. port/path -1/"<none>" mean "not given".
    void parse_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<DestinationForm>("form");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("path");
        QTest::addColumn<QString>("error");
        const auto P = DestinationForm::Port;
        const auto F = DestinationForm::Path;
        const QString none = QStringLiteral("<none>");
        auto ok = [&](const char* name, const QString& text, DestinationForm form, const QString& user,
                      const QString& host, int port, const QString& path) {
            QTest::newRow(name) << text << form << user << host << port << path << QString();
        };
        auto bad = [&](const char* name, const QString& text, DestinationForm form, const char* error) {
            QTest::newRow(name) << text << form << QString() << QString() << -1 << none << QString::fromUtf8(error);
        };
        ok("host", "gpu1", P, "", "gpu1", -1, none);
        ok("user@host", "alice@gpu1.example.com", P, "alice", "gpu1.example.com", -1, none);
        ok("user@host:port", "alice@10.0.0.5:2222", P, "alice", "10.0.0.5", 2222, none);
        ok("host:port", "gpu1:22", P, "", "gpu1", 22, none);
        ok("[::1]:22", "[::1]:22", P, "", "::1", 22, none);
        ok("[::1] without port", "[::1]", P, "", "::1", -1, none);
        ok("user@[v6]:port", "bob@[fe80::1]:22", P, "bob", "fe80::1", 22, none);
        // OpenSSH splits on the LAST '@': the user may hold one (AD logins: user@domain@host).
        ok("a@b@host", "a@b@host", P, "a@b", "host", -1, none);
        ok("a@b@host:port", "a@b@host:2200", P, "a@b", "host", 2200, none);
        ok("a@@b", "a@@b", P, "a@", "b", -1, none);
        ok("ssh:// URI", "ssh://alice@jump:2222", P, "alice", "jump", 2222, none);
        ok("max port", "h:65535", P, "", "h", 65535, none);
        bad("empty", "", P, "missing destination");
        bad("empty user", "@host", P, "empty user name before '@'");
        bad("empty host", "alice@", P, "missing host name");
        bad("empty host with port", ":22", P, "missing host name");
        bad("empty brackets", "[]:22", P, "missing host name");
        bad("empty port", "gpu1:", P, "missing port after ':'");
        bad("port zero", "gpu1:0", P, "invalid port 0 (1-65535)");
        bad("port too big", "gpu1:70000", P, "invalid port 70000");
        bad("port 65536", "gpu1:65536", P, "invalid port 65536");
        bad("port with sign", "gpu1:+22", P, "invalid port +22");
        bad("port not a number", "gpu1:ssh", P, "invalid port ssh");
        bad("path is not a port", "alice@gpu1:/tmp", P, "invalid port /tmp");
        bad("bare IPv6 with port", "fe80::1", P, "an IPv6 address needs brackets: [fe80::1]");
        bad("unclosed bracket", "[::1:22", P, "missing ']'");
        bad("text after bracket", "[::1]x", P, "unexpected 'x' after ']'");
        bad("space in host", "alice@gpu 1", P, "whitespace in the host name");
        bad("space in user", "al ice@gpu1", P, "whitespace in the user name");
        bad("leading space", " gpu1", P, "whitespace in the host name");
        bad("no-break space", QStringLiteral("gpu\u00a01"), P, "whitespace in the host name");
        bad("newline", "gpu1\nevil", P, "control character \\n");
        bad("tab in user", "a\tb@gpu1", P, "control character \\t");
        bad("DEL", "gpu\x7f", P, "control character");
        // What slips past a regex anchored with '$', and what reads as an option.
        bad("trailing newline", "gpu1\n", P, "control character \\n");
        bad("trailing newline after port", "gpu1:22\n", P, "control character \\n");
        bad("NUL", QString::fromUtf8("gpu1\0x", 6), P, "control character \\x00");
        bad("leading dash", "-oProxyCommand=x", P, "the host name starts with '-'");
        bad("leading dash after user", "alice@-gpu1:22", P, "the host name starts with '-'");
        bad("user with leading dash", "-l@gpu1", P, "the user name starts with '-'");
        bad("slash in host", "dir/file", P, "'/' in the host name");
        bad("slash in user", "ssh://ssh://a@h", P, "'/' in the user name");

        // scp's form: a path after the first ':' outside brackets.
        ok("path", "alice@gpu1:/tmp/x", F, "alice", "gpu1", -1, "/tmp/x");
        ok("relative path", "gpu1:sglang/sgl-kernel", F, "", "gpu1", -1, "sglang/sgl-kernel");
        ok("empty path", "gpu1:", F, "", "gpu1", -1, "");
        ok("no path", "alice@gpu1", F, "alice", "gpu1", -1, none);
        ok("path with '@' and ':'", "a@b@gpu1:/p@th:x", F, "a@b", "gpu1", -1, "/p@th:x");
        ok("path with spaces", "gpu1:/a b", F, "", "gpu1", -1, "/a b");
        ok("[v6]:path", "bob@[::1]:/srv", F, "bob", "::1", -1, "/srv");
        ok("[v6] no path", "[::1]", F, "", "::1", -1, none);
        bad("newline in path", "gpu1:victim\nx", F, "control character \\n");
        bad("tab in path", "gpu1:vic\ttim", F, "control character \\t");
        bad("empty user in path form", "@gpu1:/x", F, "empty user name");
        bad("empty host in path form", "alice@:/x", F, "missing host name");
        bad("local path", "./a:b", F, "'/' in the host name");
        bad("trailing newline in path", "gpu1:victim\n", F, "control character \\n");
        bad("NUL in path", QString::fromUtf8("gpu1:a\0b", 8), F, "control character \\x00");
        bad("leading dash in path form", "-gpu1:/x", F, "the host name starts with '-'");
        ok("leading dash in the path", "gpu1:-rf", F, "", "gpu1", -1, "-rf");
    }
    void parse()
    {
        QFETCH(QString, text);
        QFETCH(DestinationForm, form);
        QFETCH(QString, user);
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, path);
        QFETCH(QString, error);
        const auto d = kf::parseDestination(text, form);
        if (!error.isEmpty()) {
            if (d.ok()) // the message reads the value only when there is one
                QFAIL(qPrintable(QStringLiteral("accepted: ") + d->host));
            QVERIFY2(d.error().contains(error), qPrintable(d.error()));
            return;
        }
        QVERIFY2(d.ok(), qPrintable(d.error()));
        QCOMPARE(d->user, user);
        QCOMPARE(d->host, host);
        QCOMPARE(d->port ? int(*d->port) : -1, port);
        QCOMPARE(d->path.value_or(QStringLiteral("<none>")), path);
    }

    void ports_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<int>("port"); // -1: refused
        QTest::newRow("1") << "1" << 1;
        QTest::newRow("22") << "22" << 22;
        QTest::newRow("leading zero") << "022" << 22;
        QTest::newRow("65535") << "65535" << 65535;
        QTest::newRow("0") << "0" << -1;
        QTest::newRow("65536") << "65536" << -1;
        QTest::newRow("huge") << "99999999999" << -1;
        QTest::newRow("sign") << "+22" << -1;
        QTest::newRow("negative") << "-1" << -1;
        QTest::newRow("space") << " 22" << -1;
        QTest::newRow("empty") << "" << -1;
        QTest::newRow("text") << "ssh" << -1;
    }
    void ports()
    {
        QFETCH(QString, text);
        QFETCH(int, port);
        const auto p = kf::parsePort(text);
        QCOMPARE(p ? int(*p) : -1, port);
    }

    void formatReadsBack_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("host") << "gpu1";
        QTest::newRow("user@host:port") << "alice@gpu1:2222";
        QTest::newRow("v6") << "bob@[fe80::1]:22";
        QTest::newRow("v6 without port") << "[::1]";
        QTest::newRow("user with @") << "a@b@host";
    }
    void formatReadsBack()
    {
        QFETCH(QString, text);
        const auto d = kf::parseDestination(text);
        QVERIFY2(d.ok(), qPrintable(d.error()));
        QCOMPARE(kf::formatDestination(*d), text);
    }

    void remoteColon_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("remote");
        QTest::newRow("host:path") << "gpu1:/x" << true;
        QTest::newRow("user@host:") << "alice@gpu1:" << true;
        QTest::newRow("v6") << "[::1]:x" << true;
        QTest::newRow("user@v6") << "a@[::1]:x" << true;
        QTest::newRow("v6 without colon after") << "[::1]" << false;
        QTest::newRow("local relative") << "tree" << false;
        QTest::newRow("slash first") << "./a:b" << false;
        QTest::newRow("absolute") << "/srv/a:b" << false;
        QTest::newRow("leading colon") << ":x" << false;
        QTest::newRow("user only") << "alice@gpu1" << false;
    }
    void remoteColon()
    {
        QFETCH(QString, text);
        QFETCH(bool, remote);
        QCOMPARE(kf::hasRemoteColon(text), remote);
    }
};

QTEST_GUILESS_MAIN(TestDestination)
#include "tst_destination.moc"
