// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/store/database.h"

#include <QSemaphore>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

using namespace kf;

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
};

QTEST_GUILESS_MAIN(TestDatabase)
#include "tst_database.moc"
