// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/store/database.h"

#include <QSemaphore>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace kf;

namespace {

Result<void> pairsSchema()
{
    return store::ensureSchema({ QStringLiteral("CREATE TABLE IF NOT EXISTS pairs(k TEXT PRIMARY KEY, v INTEGER)") });
}

int schemaFailures = 0;
Result<void> brokenSchema()
{
    ++schemaFailures;
    return Result<void>::failure(QStringLiteral("no schema for you"));
}

} // namespace

class TestDatabase : public QObject
{
    Q_OBJECT
    QTemporaryDir m_dir;

private Q_SLOTS:
    // The app reads the history from several threads at once (the timeline's loader, a patch
    // apply, the GPU series), and each first call migrates: every one must succeed, and each
    // step run once (a second ALTER TABLE ADD COLUMN fails with "duplicate column").
    void concurrentMigrationsRunEachStepOnce()
    {
        const QList<QStringList> steps { { QStringLiteral("CREATE TABLE race(a INTEGER)") },
            { QStringLiteral("ALTER TABLE race ADD COLUMN b TEXT") },
            { QStringLiteral("ALTER TABLE race ADD COLUMN c TEXT") } };
        for (int round = 0; round < 20; ++round) {
            store::setDatabasePath(m_dir.filePath(QStringLiteral("race-%1.sqlite").arg(round)));
            constexpr int kThreads = 8;
            QSemaphore ready, go;
            QList<QString> errors(kThreads);
            QList<QThread*> threads;
            for (int i = 0; i < kThreads; ++i) {
                threads << QThread::create([&, i] {
                    ready.release();
                    go.acquire();
                    const Result<void> r = store::migrate(QStringLiteral("race"), steps);
                    errors[i] = r ? QString() : r.error();
                });
                threads.last()->start();
            }
            ready.acquire(kThreads);
            go.release(kThreads);
            for (QThread* t : std::as_const(threads)) {
                QVERIFY(t->wait(60000));
                delete t;
            }
            for (const QString& e : std::as_const(errors))
                QVERIFY2(e.isEmpty(), qPrintable(QStringLiteral("round %1: %2").arg(round).arg(e)));
            QSqlQuery q(store::database().value());
            QVERIFY(q.exec(QStringLiteral("SELECT version FROM schema_versions WHERE component = 'race'")));
            QVERIFY(q.next());
            QCOMPARE(q.value(0).toInt(), 3);
            QVERIFY(q.exec(QStringLiteral("INSERT INTO race(a, b, c) VALUES(1, 'x', 'y')")));
        }
    }

    // A read of a feature's tables runs its schema check first; with the schema in place that
    // check is a read too, so a read goes on while another connection (the recorder's minute,
    // another process) holds the write lock. It used to take BEGIN IMMEDIATE and, after
    // busy_timeout, failed "database is locked": the timeline then drew a window with no minutes.
    void readsDoNotWaitForTheWriteLock()
    {
        store::setDatabasePath(m_dir.filePath(QStringLiteral("held.sqlite")));
        static const auto schema = [] {
            return store::migrate(QStringLiteral("held"),
                { { QStringLiteral("CREATE TABLE held(v INTEGER)"),
                    QStringLiteral("INSERT INTO held(v) VALUES(7)") } });
        };
        const store::Schema heldSchema = [] { return schema(); };
        QVERIFY(heldSchema().ok());
        {
            QSqlDatabase writer = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("writer"));
            writer.setDatabaseName(store::databasePath());
            QVERIFY(writer.open());
            QSqlQuery w(writer);
            QVERIFY(w.exec(QStringLiteral("BEGIN IMMEDIATE")));
            QVERIFY(w.exec(QStringLiteral("INSERT INTO held(v) VALUES(8)")));
            const auto values = store::readRows(heldSchema, QStringLiteral("SELECT v FROM held"), {},
                QStringLiteral("reading held"), [](const QSqlQuery& q) { return q.value(0).toInt(); });
            QVERIFY2(values.ok(), qPrintable(values.error()));
            QCOMPARE(values.value(), QList<int>({ 7 })); // the writer's row is not committed yet
            QVERIFY(w.exec(QStringLiteral("COMMIT")));
            writer.close();
        }
        QSqlDatabase::removeDatabase(QStringLiteral("writer"));
    }

    // One statement: the schema first, the values bound in order; rows read one way; a
    // failure says it is the history database's and what was being done.
    void statementsRowsAndErrors()
    {
        store::setDatabasePath(m_dir.filePath(QStringLiteral("rows.sqlite")));
        for (const auto& [k, v] : { std::pair { "a", 1 }, std::pair { "b", 2 }, std::pair { "c", 3 } })
            QVERIFY(store::exec(&pairsSchema, QStringLiteral("INSERT INTO pairs(k, v) VALUES(?, ?)"),
                { QString::fromLatin1(k), v }, QStringLiteral("adding a pair"))
                        .ok());
        const auto values = store::readRows(&pairsSchema, QStringLiteral("SELECT v FROM pairs WHERE v >= ? ORDER BY v"),
            { 2 }, QStringLiteral("reading pairs"), [](const QSqlQuery& q) { return q.value(0).toInt(); });
        QVERIFY(values.ok());
        QCOMPARE(values.value(), QList<int>({ 2, 3 }));
        const auto b
            = store::readRow(&pairsSchema, QStringLiteral("SELECT v FROM pairs WHERE k = ?"), { QStringLiteral("b") },
                QStringLiteral("reading a pair"), [](const QSqlQuery& q) { return q.value(0).toInt(); });
        QVERIFY(b.ok() && b.value() == 2);
        const auto none
            = store::readRow(&pairsSchema, QStringLiteral("SELECT v FROM pairs WHERE k = ?"), { QStringLiteral("zz") },
                QStringLiteral("reading a pair"), [](const QSqlQuery& q) { return q.value(0).toInt(); });
        QVERIFY(none.ok() && !none.value());

        const auto dup = store::exec(&pairsSchema, QStringLiteral("INSERT INTO pairs(k, v) VALUES(?, ?)"),
            { QStringLiteral("a"), 9 }, QStringLiteral("adding a pair"));
        QVERIFY(!dup.ok());
        QVERIFY2(dup.error().startsWith(QStringLiteral("history database: adding a pair: ")), qPrintable(dup.error()));
        QVERIFY2(dup.error().contains(QStringLiteral("UNIQUE")), qPrintable(dup.error()));

        const auto noSchema = store::readRows(&brokenSchema, QStringLiteral("SELECT v FROM pairs"), {},
            QStringLiteral("reading pairs"), [](const QSqlQuery& q) { return q.value(0).toInt(); });
        QCOMPARE(schemaFailures, 1);
        QVERIFY(!noSchema.ok());
        QCOMPARE(noSchema.error(), QStringLiteral("no schema for you"));
    }
};

QTEST_GUILESS_MAIN(TestDatabase)
#include "tst_database.moc"
