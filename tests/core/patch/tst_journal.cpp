// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The journal checked against the files on LocalTransport: a pending entry is settled by the
// file's content (done, never written, or left pending), never lost; a file that holds what
// the set's newest standing apply wrote gets its base from the oldest backup of that run.
#include "core/patch/journal.h"
#include "core/store/database.h"
#include "core/store/historystore.h"
#include "core/transport/localtransport.h"
#include "tests/support/testsupport.h"

#include <QDir>
#include <QTemporaryDir>
#include <QTest>

using namespace kf;
using namespace kf::patch;

class TestJournal : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void pendingIsSettledByContent_data();
    void pendingIsSettledByContent();
    void settlingAllCountsWhatStaysPending();
    void baseIsTheOldestBackupOfTheSetsRun();
    void noBaseWhenTheFileIsNotWhatTheSetWrote();

private:
    AppliedFile entry(const QString& file, const QByteArray& before, const QByteArray& after,
        const QString& setName = QStringLiteral("s"));
    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<LocalTransport> m_transport;
    QString m_root;
};

void TestJournal::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    store::setDatabasePath(m_dir->filePath(QStringLiteral("history.sqlite")));
    m_root = m_dir->filePath(QStringLiteral("tree"));
    QDir().mkpath(m_root);
    m_transport = std::make_unique<LocalTransport>(m_dir->path());
}

// A done entry of `file` from `before` to `after`, its backup (holding `before`) on disk.
AppliedFile TestJournal::entry(
    const QString& file, const QByteArray& before, const QByteArray& after, const QString& setName)
{
    AppliedFile e;
    e.host = m_transport->describe();
    e.root = m_root;
    e.file = file;
    e.path = m_root + QLatin1Char('/') + file;
    e.setName = setName;
    e.sha256Before = before.isNull() ? QString() : sha256Hex(before);
    e.sha256After = sha256Hex(after);
    if (!before.isNull()) {
        static int n = 0;
        e.backupPath = m_dir->filePath(QStringLiteral("backups/%1/").arg(++n) + file);
        if (!test::writeFile(e.backupPath, before))
            qFatal("cannot write the backup");
    }
    const auto id = HistoryStore().recordApply(e);
    if (!id)
        qFatal("%s", qPrintable(id.error()));
    e.id = id.value();
    return e;
}

void TestJournal::pendingIsSettledByContent_data()
{
    QTest::addColumn<QByteArray>("onDisk");
    QTest::addColumn<int>("state");
    QTest::newRow("the new text: rolled forward") << QByteArray("after\n") << int(AppliedFile::State::Done);
    QTest::newRow("the old text: never written") << QByteArray("before\n") << int(AppliedFile::State::NotWritten);
    QTest::newRow("something else: stays pending") << QByteArray("edited\n") << int(AppliedFile::State::Pending);
}

void TestJournal::pendingIsSettledByContent()
{
    QFETCH(QByteArray, onDisk);
    QFETCH(int, state);
    AppliedFile e;
    e.host = m_transport->describe();
    e.root = m_root;
    e.file = QStringLiteral("f.py");
    e.path = m_root + QStringLiteral("/f.py");
    e.setName = QStringLiteral("s");
    e.sha256Before = sha256Hex("before\n");
    e.sha256After = sha256Hex("after\n");
    e.state = AppliedFile::State::Pending;
    const auto id = HistoryStore().recordApply(e);
    QVERIFY2(id, qPrintable(id.error()));
    e.id = id.value();
    QVERIFY(test::writeFile(e.path, onDisk));
    QCOMPARE(HistoryStore().entry(e.id)->state, AppliedFile::State::Pending);
    // Pending rows never stand: neither planning from a base nor a rollback trusts them.
    QVERIFY(HistoryStore().standing(e.host, m_root)->isEmpty());

    const auto settled = settleApply(*m_transport, e);
    QVERIFY2(settled, qPrintable(settled.error()));
    QCOMPARE(int(settled.value()), state);
    QCOMPARE(int(HistoryStore().entry(e.id)->state), state);
    QCOMPARE(HistoryStore().standing(e.host, m_root)->size(), state == int(AppliedFile::State::Done) ? 1 : 0);
    // The row is still there, whatever it became.
    QCOMPARE(HistoryStore().applies(e.host)->size(), 1);
}

void TestJournal::settlingAllCountsWhatStaysPending()
{
    QVERIFY(test::writeFile(m_root + QStringLiteral("/a"), "A2"));
    QVERIFY(test::writeFile(m_root + QStringLiteral("/b"), "B9"));
    for (const auto& [file, before, after] : { std::tuple { "a", "A1", "A2" }, std::tuple { "b", "B1", "B2" } }) {
        AppliedFile e;
        e.host = m_transport->describe();
        e.root = m_root;
        e.file = QString::fromLatin1(file);
        e.path = m_root + QLatin1Char('/') + e.file;
        e.setName = QStringLiteral("s");
        e.sha256Before = sha256Hex(before);
        e.sha256After = sha256Hex(after);
        e.state = AppliedFile::State::Pending;
        QVERIFY(HistoryStore().recordApply(e));
    }
    const auto still = settlePendingApplies(*m_transport);
    QVERIFY2(still, qPrintable(still.error()));
    QCOMPARE(still.value(), 1);
    QCOMPARE(HistoryStore().pending(m_transport->describe())->size(), 1);
    QCOMPARE(HistoryStore().pending(m_transport->describe())->first().file, QStringLiteral("b"));
}

void TestJournal::baseIsTheOldestBackupOfTheSetsRun()
{
    // v0 -> v1 (apply of s), v1 -> v2 (apply of s): the file holds v2, its base is v0.
    const AppliedFile first = entry(QStringLiteral("x.py"), "v0\n", "v1\n");
    const AppliedFile second = entry(QStringLiteral("x.py"), "v1\n", "v2\n");
    QVERIFY(test::writeFile(first.path, "v2\n"));
    // A file the first apply of the run created has an absent base.
    entry(QStringLiteral("new.py"), QByteArray(), "n1\n");
    const QMap<QString, FileBase> bases = journalBases(*m_transport, m_root, QStringLiteral("s"),
        { { QStringLiteral("x.py"), sha256Hex("v2\n") }, { QStringLiteral("new.py"), sha256Hex("n1\n") } });
    QCOMPARE(bases.size(), 2);
    QVERIFY(bases.value(QStringLiteral("x.py")).exists);
    QCOMPARE(bases.value(QStringLiteral("x.py")).data, QByteArray("v0\n"));
    QCOMPARE(bases.value(QStringLiteral("x.py")).journalId, first.id);
    QVERIFY(!bases.value(QStringLiteral("new.py")).exists);
    Q_UNUSED(second);
}

void TestJournal::noBaseWhenTheFileIsNotWhatTheSetWrote()
{
    const AppliedFile mine = entry(QStringLiteral("x.py"), "v0\n", "v1\n");
    const QString x = QStringLiteral("x.py");
    // Edited since: no base.
    QVERIFY(journalBases(*m_transport, m_root, QStringLiteral("s"), { { x, sha256Hex("v1 edited\n") } }).isEmpty());
    // What it wrote: a base.
    QCOMPARE(journalBases(*m_transport, m_root, QStringLiteral("s"), { { x, sha256Hex("v1\n") } }).size(), 1);
    // Another set wrote it last: no base for this one.
    const AppliedFile other = entry(x, "v1\n", "v2\n", QStringLiteral("other"));
    QVERIFY(journalBases(*m_transport, m_root, QStringLiteral("s"), { { x, sha256Hex("v2\n") } }).isEmpty());
    // Rolled back: nothing stands.
    QVERIFY(HistoryStore().markRolledBack(other.id, QDateTime::currentDateTimeUtc()));
    QVERIFY(HistoryStore().markRolledBack(mine.id, QDateTime::currentDateTimeUtc()));
    QVERIFY(journalBases(*m_transport, m_root, QStringLiteral("s"), { { x, sha256Hex("v1\n") } }).isEmpty());
    // A backup that no longer matches its hash gives no base.
    const AppliedFile again = entry(QStringLiteral("y.py"), "w0\n", "w1\n");
    QVERIFY(test::writeFile(again.backupPath, "tampered\n"));
    QVERIFY(journalBases(*m_transport, m_root, QStringLiteral("s"), { { QStringLiteral("y.py"), sha256Hex("w1\n") } })
                .isEmpty());
}

QTEST_GUILESS_MAIN(TestJournal)
#include "tst_journal.moc"
