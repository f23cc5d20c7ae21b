// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The patch journal's table: a database made before journal states is upgraded in place (its
// rows are done), a pending row is not standing until it is marked done.
#include "core/store/database.h"
#include "core/store/historystore.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

using namespace kf;

class TestHistoryStore : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void oldTableIsUpgradedInPlace();
    void pendingRowsStandOnlyWhenDone();
};

void TestHistoryStore::oldTableIsUpgradedInPlace()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("old.sqlite"));
    {
        // The table as KernelForge made it before states, with one row.
        QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("old"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral(
            "CREATE TABLE patch_applies (id INTEGER PRIMARY KEY AUTOINCREMENT, host TEXT NOT NULL, root TEXT NOT "
            "NULL, file TEXT NOT NULL, path TEXT NOT NULL, set_name TEXT NOT NULL, patch_ids TEXT NOT NULL, "
            "backup_path TEXT NOT NULL, sha256_before TEXT NOT NULL, sha256_after TEXT NOT NULL, applied_at INTEGER "
            "NOT NULL, rolled_back_at INTEGER)")));
        QVERIFY(q.exec(QStringLiteral("INSERT INTO patch_applies (host, root, file, path, set_name, patch_ids, "
                                      "backup_path, sha256_before, sha256_after, applied_at) VALUES ('h', '/r', 'f', "
                                      "'/r/f', 's', 'p', '/b/f', 'aa', 'bb', 1)")));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("old"));
    store::setDatabasePath(path);
    const auto rows = HistoryStore().standing(QStringLiteral("h"), QStringLiteral("/r"));
    QVERIFY2(rows, qPrintable(rows.error()));
    QCOMPARE(rows->size(), 1);
    QCOMPARE(rows->first().state, AppliedFile::State::Done);
    QVERIFY(rows->first().stands());
}

void TestHistoryStore::pendingRowsStandOnlyWhenDone()
{
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    store::setDatabasePath(dir.filePath(QStringLiteral("new.sqlite")));
    HistoryStore history;
    AppliedFile e;
    e.host = QStringLiteral("h");
    e.root = QStringLiteral("/r");
    e.file = QStringLiteral("f");
    e.path = QStringLiteral("/r/f");
    e.setName = QStringLiteral("s");
    e.sha256Before = QStringLiteral("aa");
    e.sha256After = QStringLiteral("bb");
    e.state = AppliedFile::State::Pending;
    const auto id = history.recordApply(e);
    QVERIFY2(id, qPrintable(id.error()));
    QCOMPARE(history.pending(QStringLiteral("h"))->size(), 1);
    QVERIFY(history.standing(QStringLiteral("h"), QStringLiteral("/r"))->isEmpty());
    QVERIFY(history.setState(id.value(), AppliedFile::State::Done));
    QVERIFY(history.pending(QStringLiteral("h"))->isEmpty());
    QCOMPARE(history.standing(QStringLiteral("h"), QStringLiteral("/r"))->size(), 1);
    QCOMPARE(journalStateKey(history.entry(id.value())->state), QStringLiteral("done"));
    QVERIFY(!history.setState(id.value() + 100, AppliedFile::State::Done));
}

QTEST_GUILESS_MAIN(TestHistoryStore)
#include "tst_historystore.moc"
