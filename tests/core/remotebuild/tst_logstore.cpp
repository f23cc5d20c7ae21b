// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// LogStore's sparse line index against a plain split of the same bytes: every window of
// lines, appends in odd chunk sizes, an unterminated last line, empty lines, and reopening
// a file that is already there.
#include "core/remotebuild/logstore.h"

#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QtTest>

namespace {

QByteArrayList reference(const QByteArray& bytes)
{
    QByteArrayList lines = bytes.split('\n');
    if (bytes.endsWith('\n') || bytes.isEmpty())
        lines.removeLast();
    return lines;
}

QByteArray randomLog(int lines, quint32 seed, bool terminated)
{
    QRandomGenerator rng(seed);
    QByteArray out;
    for (int i = 0; i < lines; ++i) {
        const int len = rng.bounded(4) == 0 ? 0 : int(rng.bounded(120));
        out += "L" + QByteArray::number(i) + ' ' + QByteArray(len, char('a' + i % 26));
        if (i + 1 < lines || terminated)
            out += '\n';
    }
    return out;
}

} // namespace

class TestLogStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void matchesASplit_data()
    {
        QTest::addColumn<int>("lines");
        QTest::addColumn<bool>("terminated");
        QTest::addColumn<int>("chunk");
        QTest::newRow("empty") << 0 << true << 7;
        QTest::newRow("one unterminated") << 1 << false << 3;
        QTest::newRow("one") << 1 << true << 1000;
        QTest::newRow("stride - 1") << 63 << true << 50;
        QTest::newRow("stride") << 64 << true << 4096;
        QTest::newRow("stride + 1, unterminated") << 65 << false << 1;
        QTest::newRow("many, odd chunks") << 5000 << false << 777;
        QTest::newRow("many, one chunk") << 5000 << true << (1 << 30);
    }
    void matchesASplit()
    {
        QFETCH(int, lines);
        QFETCH(bool, terminated);
        QFETCH(int, chunk);
        const QByteArray bytes = randomLog(lines, quint32(lines * 31 + chunk), terminated);
        const QByteArrayList ref = reference(bytes);
        QTemporaryDir dir;
        kf::LogStore store;
        QVERIFY(store.open(dir.filePath(QStringLiteral("build.log"))).ok());
        for (qsizetype at = 0; at < bytes.size(); at += chunk)
            QVERIFY(store.append(bytes.mid(at, chunk)).ok());
        QCOMPARE(store.size(), bytes.size());
        QCOMPARE(store.lineCount(), ref.size());
        // Every window start near the index's strides, and windows running past the end.
        for (qint64 first : { 0, 1, 62, 63, 64, 65, 127, 128, 129, 4095, 4999 }) {
            for (qint64 count : { 1, 2, 63, 64, 65, 200, 100000 }) {
                if (first >= ref.size())
                    continue;
                QCOMPARE(store.lines(first, count), ref.mid(first, count));
            }
        }
        QVERIFY(store.lines(ref.size(), 5).isEmpty());
        QVERIFY(store.lines(-1, 5).isEmpty());
        // Reopening indexes what is on disk the same way.
        kf::LogStore again;
        QVERIFY(again.open(dir.filePath(QStringLiteral("build.log"))).ok());
        QCOMPARE(again.lineCount(), ref.size());
        QCOMPARE(again.lines(0, 1 << 20), ref);
    }

    // A build's output can hold what its environment held: the local copy is the user's alone.
    void theLogIsPrivate()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("private.log"));
        QVERIFY(QFile(path).open(QIODevice::WriteOnly)); // made by the umask, as by an older version
        QVERIFY(QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther));
        kf::LogStore store;
        QVERIFY(store.open(path).ok());
        QCOMPARE(QFile::permissions(path) & 0x0077, QFileDevice::Permissions());
    }

    void searchFindsLineNumbers()
    {
        QTemporaryDir dir;
        kf::LogStore store;
        QVERIFY(store.open(dir.filePath(QStringLiteral("s.log"))).ok());
        QByteArray bytes;
        for (int i = 0; i < 50000; ++i)
            bytes += "step " + QByteArray::number(i) + (i % 9999 == 0 ? " ERROR here\n" : "\n");
        QVERIFY(store.append(bytes).ok());
        QCOMPARE(store.search("error"), (QList<qint64> { 0, 9999, 19998, 29997, 39996, 49995 }));
        QCOMPARE(store.search("step 12345"), (QList<qint64> { 12345 }));
        QCOMPARE(store.search("ERROR", 2).size(), 2);
    }
};

QTEST_GUILESS_MAIN(TestLogStore)
#include "tst_logstore.moc"
