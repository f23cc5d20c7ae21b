// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The known_hosts parser and lookup against files written by OpenSSH's own tools
// (tests/data/known_hosts: keys from ssh-keygen, hashed lines from ssh-keygen -H).
#include "core/ssh/knownhosts.h"
#include "core/ssh/sshkeyfile.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

QByteArray blobOf(const QString& pubFile)
{
    const QList<QByteArray> parts = kf::test::readData(QStringLiteral("known_hosts/") + pubFile).trimmed().split(' ');
    return QByteArray::fromBase64(parts.value(1));
}

QList<KnownHostsFile> mixed()
{
    return { parseKnownHosts(
        kf::test::readData(QStringLiteral("known_hosts/mixed_known_hosts")), QStringLiteral("mixed")) };
}

} // namespace

namespace QTest {
template <> char* toString(const HostKeyLookup::Status& s)
{
    static const char* names[] = { "NotFound", "Match", "Mismatch", "Revoked" };
    return qstrdup(names[int(s)]);
}
} // namespace QTest

class TestKnownHosts : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void badLinesAreSkippedWithoutLosingLaterOnes()
    {
        const KnownHostsFile f = mixed().first();
        QList<int> errorLines;
        for (const auto& e : f.errors)
            errorLines << e.line;
        // 5: too few fields, 6: bad base64, 7: type does not match the key, 11: unknown marker
        QCOMPARE(errorLines, (QList<int> { 5, 6, 7, 11 }));
        QList<int> entryLines;
        for (const auto& e : f.entries)
            entryLines << e.line;
        QCOMPARE(entryLines, (QList<int> { 2, 4, 8, 9, 10, 12, 13, 14 }));
        QCOMPARE(f.entries.at(0).comment, QStringLiteral("gpu1 comment words"));
        QCOMPARE(
            f.entries.at(0).patterns, (QStringList { QStringLiteral("gpu1.example.com"), QStringLiteral("10.0.0.1") }));
        QCOMPARE(f.entries.at(3).marker, KnownHostEntry::Marker::Revoked);
        QCOMPARE(f.entries.at(4).marker, KnownHostEntry::Marker::CertAuthority);
        QVERIFY(f.entries.at(5).hashed);
        QCOMPARE(f.entries.at(7).comment, QStringLiteral("tab separated"));
    }

    void lookup_data()
    {
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::addColumn<QString>("pub");
        QTest::addColumn<HostKeyLookup::Status>("status");
        QTest::addColumn<int>("line");
        QTest::addColumn<QString>("oldType");
        using S = HostKeyLookup::Status;
        const QString ed = QStringLiteral("ssh-ed25519");
        const QString ec = QStringLiteral("ecdsa-sha2-nistp256");
        QTest::newRow("plain name") << "gpu1.example.com" << 22 << "ed.pub" << S::Match << 2 << ed;
        QTest::newRow("second pattern (address)") << "10.0.0.1" << 22 << "ed.pub" << S::Match << 2 << ed;
        QTest::newRow("names are case-insensitive") << "GPU1.Example.COM" << 22 << "ed.pub" << S::Match << 2 << ed;
        QTest::newRow("revoked key refused everywhere")
            << "gpu1.example.com" << 22 << "ed2.pub" << S::Revoked << 9 << ed;
        QTest::newRow("stored key of another type") << "gpu1.example.com" << 22 << "ec.pub" << S::Mismatch << 2 << ed;
        QTest::newRow("[host]:port") << "gpu1.example.com" << 2222 << "ec.pub" << S::Match << 4 << ec;
        QTest::newRow("[host]:port, other type") << "gpu1.example.com" << 2222 << "ed.pub" << S::Mismatch << 4 << ec;
        QTest::newRow("other port unknown") << "gpu1.example.com" << 2200 << "ed.pub" << S::NotFound << 0 << QString();
        QTest::newRow("wildcard") << "a.lab.example.com" << 22 << "rsa.pub" << S::Match << 8
                                  << QStringLiteral("ssh-rsa");
        QTest::newRow("negated pattern; cert-authority is no host key")
            << "secret.lab.example.com" << 22 << "rsa.pub" << S::NotFound << 0 << QString();
        QTest::newRow("hashed") << "hashme.example.com" << 22 << "ed.pub" << S::Match << 12 << ed;
        QTest::newRow("hashed [host]:port") << "hashme.example.com" << 2222 << "ec.pub" << S::Match << 13 << ec;
        QTest::newRow("hashed, other type") << "hashme.example.com" << 22 << "ec.pub" << S::Mismatch << 12 << ed;
        QTest::newRow("broken line ignored") << "gpu3.example.com" << 22 << "ed.pub" << S::NotFound << 0 << QString();
        QTest::newRow("bogus marker ignored") << "gpu5.example.com" << 22 << "ed.pub" << S::NotFound << 0 << QString();
        QTest::newRow("after the broken lines") << "gpu4.example.com" << 22 << "ed.pub" << S::Match << 14 << ed;
        QTest::newRow("unknown host") << "nowhere.example.org" << 22 << "ed.pub" << S::NotFound << 0 << QString();
    }
    void lookup()
    {
        QFETCH(QString, host);
        QFETCH(int, port);
        QFETCH(QString, pub);
        QFETCH(HostKeyLookup::Status, status);
        QFETCH(int, line);
        QFETCH(QString, oldType);
        const HostKeyLookup r = lookupHostKey(mixed(), host, quint16(port), blobOf(pub));
        QCOMPARE(r.status, status);
        QCOMPARE(r.line, line);
        if (status != HostKeyLookup::Status::NotFound) {
            QCOMPARE(r.oldKeyType, oldType);
            QCOMPARE(r.file, QStringLiteral("mixed"));
        }
    }

    void fingerprintsMatchSshKeygen_data()
    {
        QTest::addColumn<QString>("key");
        for (const char* k : { "ed", "ec", "rsa", "ed2" })
            QTest::newRow(k) << QString::fromLatin1(k);
    }
    void fingerprintsMatchSshKeygen()
    {
        QFETCH(QString, key);
        const QString expected = QString::fromLatin1(
            kf::test::readData(QStringLiteral("known_hosts/") + key + QStringLiteral(".fingerprint")).trimmed());
        QCOMPARE(sshFingerprint(blobOf(key + QStringLiteral(".pub"))), expected);
    }

    void keyTypeOfBlobRejectsGarbage()
    {
        QCOMPARE(keyTypeOfBlob(blobOf(QStringLiteral("ec.pub"))), QStringLiteral("ecdsa-sha2-nistp256"));
        QCOMPARE(keyTypeOfBlob(QByteArray()), QString());
        QCOMPARE(keyTypeOfBlob(QByteArray("\xff\xff\xff\xff"
                                          "abc",
                     7)),
            QString());
        QCOMPARE(keyTypeOfBlob(QByteArray("\0\0\0\x09"
                                          "abc",
                     7)),
            QString());
    }

    void knownKeyTypesInFileOrder()
    {
        QCOMPARE(knownKeyTypes(mixed(), QStringLiteral("gpu1.example.com"), 22),
            QStringList { QStringLiteral("ssh-ed25519") });
        QCOMPARE(knownKeyTypes(mixed(), QStringLiteral("gpu1.example.com"), 2222),
            QStringList { QStringLiteral("ecdsa-sha2-nistp256") });
        QCOMPARE(knownKeyTypes(mixed(), QStringLiteral("nowhere"), 22), QStringList());
    }

    void writtenLinesParseBack_data()
    {
        QTest::addColumn<bool>("hashed");
        QTest::addColumn<int>("port");
        QTest::newRow("plain, port 22") << false << 22;
        QTest::newRow("plain, port 2222") << false << 2222;
        QTest::newRow("hashed, port 22") << true << 22;
        QTest::newRow("hashed, port 2222") << true << 2222;
    }
    void writtenLinesParseBack()
    {
        QFETCH(bool, hashed);
        QFETCH(int, port);
        const QByteArray blob = blobOf(QStringLiteral("ed.pub"));
        const QByteArray line = knownHostsLine(QStringLiteral("New.Example.com"), quint16(port), blob, hashed);
        QVERIFY(line.endsWith('\n'));
        QCOMPARE(line.startsWith("|1|"), hashed);
        if (!hashed)
            QVERIFY(line.startsWith(port == 22 ? "new.example.com " : "[new.example.com]:2222 "));
        const KnownHostsFile f = parseKnownHosts(line);
        QVERIFY(f.errors.isEmpty());
        QCOMPARE(lookupHostKey({ f }, QStringLiteral("new.example.com"), quint16(port), blob).status,
            HostKeyLookup::Status::Match);
        QCOMPARE(lookupHostKey({ f }, QStringLiteral("new.example.com"), quint16(port + 1), blob).status,
            HostKeyLookup::Status::NotFound);
    }

    void appendKeepsTheFileAndAddsOneLine()
    {
        QTemporaryDir dir;
        const QString path = dir.path() + QStringLiteral("/sub/known_hosts"); // folder is created
        QVERIFY(
            appendKnownHostsLine(path, knownHostsLine(QStringLiteral("a"), 22, blobOf(QStringLiteral("ed.pub")))).ok());
        QCOMPARE(
            QFile::permissions(dir.path() + QStringLiteral("/sub/known_hosts")) & (QFile::ReadGroup | QFile::ReadOther),
            QFile::Permissions());
        // A file whose last line has no newline keeps that line intact.
        const QString noNl = dir.path() + QStringLiteral("/nonl");
        const QByteArray original = kf::test::readData(QStringLiteral("known_hosts/no_trailing_newline"));
        QVERIFY(!original.endsWith('\n'));
        {
            QFile f(noNl);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("# my comment\n" + original);
        }
        const QByteArray added = knownHostsLine(QStringLiteral("b"), 2222, blobOf(QStringLiteral("ec.pub")));
        QVERIFY(appendKnownHostsLine(noNl, added).ok());
        QFile f(noNl);
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), "# my comment\n" + original + '\n' + added);
        const KnownHostsFile parsed = readKnownHostsFile(noNl);
        QCOMPARE(parsed.entries.size(), 2);
        QVERIFY(parsed.errors.isEmpty());
    }

    void missingFileIsEmpty()
    {
        const KnownHostsFile f = readKnownHostsFile(QStringLiteral("/nonexistent/known_hosts"));
        QVERIFY(f.entries.isEmpty());
        QVERIFY(f.errors.isEmpty());
    }

    void garbageNeverCrashes()
    {
        // A tiny deterministic fuzz: random bytes and mutated real lines.
        QByteArray base = kf::test::readData(QStringLiteral("known_hosts/mixed_known_hosts"));
        quint32 seed = 12345;
        auto rnd = [&seed] {
            seed = seed * 1103515245u + 12345u;
            return seed >> 8;
        };
        for (int round = 0; round < 2000; ++round) {
            QByteArray text = base;
            for (int k = 0; k < 8; ++k)
                text[qsizetype(rnd() % quint32(text.size()))] = char(rnd() & 0xff);
            const KnownHostsFile f = parseKnownHosts(text);
            for (const auto& e : f.entries)
                QVERIFY(!e.keyType.isEmpty());
            lookupHostKey({ f }, QStringLiteral("gpu1.example.com"), 22, blobOf(QStringLiteral("ed.pub")));
        }
    }

    void privateKeyInspection_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("type");
        QTest::addColumn<bool>("encrypted");
        QTest::newRow("openssh ed25519 with passphrase") << "enc_ed.key"
                                                         << "ssh-ed25519" << true;
        QTest::newRow("openssh ecdsa") << "plain_ec.key"
                                       << "ecdsa-sha2-nistp256" << false;
        QTest::newRow("pem rsa") << "pem_rsa.key"
                                 << "ssh-rsa" << false;
    }
    void privateKeyInspection()
    {
        QFETCH(QString, file);
        QFETCH(QString, type);
        QFETCH(bool, encrypted);
        const SshKeyFileInfo info = inspectPrivateKey(kf::test::readData(QStringLiteral("known_hosts/") + file));
        QCOMPARE(info.keyType, type);
        QCOMPARE(info.encrypted, encrypted);
        QVERIFY(info.format != SshKeyFileInfo::Format::Unknown);
        QCOMPARE(inspectPrivateKey("not a key").format, SshKeyFileInfo::Format::Unknown);
    }
};

QTEST_GUILESS_MAIN(TestKnownHosts)
#include "tst_knownhosts.moc"
