// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/store/database.h"

#include "core/store/paths.h"

#include <QMutex>
#include <QSqlError>
#include <QSqlQuery>
#include <QThread>

namespace kf::store {
namespace {

QMutex g_mutex;
QString g_path; // guarded by g_mutex

} // namespace

void setDatabasePath(const QString& path)
{
    QMutexLocker lock(&g_mutex);
    g_path = path;
}

QString databasePath()
{
    QMutexLocker lock(&g_mutex);
    if (g_path.isEmpty())
        g_path = paths::stateDir() + QStringLiteral("/history.sqlite");
    return g_path;
}

Result<QSqlDatabase> database()
{
    const QString path = databasePath();
    // One connection per thread and path.
    const QString name = QStringLiteral("kf-history-%1-%2")
                             .arg(reinterpret_cast<quintptr>(QThread::currentThread()), 0, 16)
                             .arg(qHash(path), 0, 16);
    if (QSqlDatabase::contains(name)) {
        QSqlDatabase db = QSqlDatabase::database(name);
        if (db.isOpen())
            return db;
    }
    QSqlDatabase db = QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), name);
    db.setDatabaseName(path);
    if (!db.open())
        return Result<QSqlDatabase>::failure(
            QStringLiteral("cannot open the history database %1: %2").arg(path, db.lastError().text()));
    QSqlQuery q(db);
    q.exec(QStringLiteral("PRAGMA journal_mode=WAL"));
    q.exec(QStringLiteral("PRAGMA foreign_keys=ON"));
    q.exec(QStringLiteral("PRAGMA busy_timeout=5000"));
    return db;
}

Result<QSqlQuery> exec(Schema schema, const QString& sql, const QVariantList& binds, const QString& what)
{
    if (const Result<void> s = schema(); !s)
        return s;
    auto db = database();
    if (!db)
        return db.withoutValue();
    QSqlQuery q(db.value());
    q.prepare(sql);
    for (const QVariant& b : binds)
        q.addBindValue(b);
    if (!q.exec())
        return Result<QSqlQuery>::failure(QStringLiteral("history database: %1: %2").arg(what, q.lastError().text()));
    return q;
}

Result<void> ensureSchema(const QStringList& statements)
{
    auto db = database();
    if (!db)
        return db.withoutValue();
    QSqlDatabase d = db.value();
    d.transaction();
    for (const QString& s : statements) {
        QSqlQuery q(d);
        if (!q.exec(s)) {
            d.rollback();
            return Result<void>::failure(
                QStringLiteral("history database schema: %1 (%2)").arg(q.lastError().text(), s.left(80)));
        }
    }
    d.commit();
    return {};
}

Result<void> migrate(const QString& component, const QList<QStringList>& steps)
{
    auto db = database();
    if (!db)
        return db.withoutValue();
    QSqlDatabase d = db.value();
    QSqlQuery q(d);
    // The usual case, a schema already at this version, is a plain read: every read of a
    // feature's tables runs this first, and a read must never wait for the write lock (in WAL
    // mode readers do not wait for writers; BEGIN IMMEDIATE does, up to busy_timeout).
    q.prepare(QStringLiteral("SELECT version FROM schema_versions WHERE component = ?"));
    q.addBindValue(component);
    if (q.exec() && q.next() && q.value(0).toInt() == steps.size())
        return {};
    q.finish();
    if (!q.exec(QStringLiteral(
            "CREATE TABLE IF NOT EXISTS schema_versions(component TEXT PRIMARY KEY, version INTEGER NOT NULL)")))
        return Result<void>::failure(QStringLiteral("history database schema: %1").arg(q.lastError().text()));
    // Each step reads the version and runs under the write lock (BEGIN IMMEDIATE): threads and
    // processes migrating at the same time take turns, and each step runs once.
    for (;;) {
        QSqlQuery begin(d);
        if (!begin.exec(QStringLiteral("BEGIN IMMEDIATE")))
            return Result<void>::failure(QStringLiteral("history database schema: %1").arg(begin.lastError().text()));
        auto rollback = [&](const QString& message) {
            QSqlQuery(d).exec(QStringLiteral("ROLLBACK"));
            return Result<void>::failure(message);
        };
        q.prepare(QStringLiteral("SELECT version FROM schema_versions WHERE component = ?"));
        q.addBindValue(component);
        if (!q.exec())
            return rollback(QStringLiteral("history database schema: %1").arg(q.lastError().text()));
        const int current = q.next() ? q.value(0).toInt() : 0;
        q.finish();
        if (current > steps.size())
            return rollback(
                QStringLiteral("the history database %1 has %2 tables of version %3; this KernelForge knows up to %4")
                    .arg(databasePath(), component)
                    .arg(current)
                    .arg(steps.size()));
        if (current == steps.size()) {
            QSqlQuery(d).exec(QStringLiteral("COMMIT"));
            return {};
        }
        for (const QString& s : steps.at(current)) {
            QSqlQuery step(d);
            if (!step.exec(s))
                return rollback(QStringLiteral("history database schema %1 step %2: %3 (%4)")
                                    .arg(component)
                                    .arg(current + 1)
                                    .arg(step.lastError().text(), s.left(80)));
        }
        QSqlQuery bump(d);
        bump.prepare(QStringLiteral("INSERT OR REPLACE INTO schema_versions(component, version) VALUES(?, ?)"));
        bump.addBindValue(component);
        bump.addBindValue(current + 1);
        if (!bump.exec())
            return rollback(QStringLiteral("history database schema: %1").arg(bump.lastError().text()));
        QSqlQuery commit(d);
        if (!commit.exec(QStringLiteral("COMMIT")))
            return rollback(QStringLiteral("history database schema: %1").arg(commit.lastError().text()));
    }
}

} // namespace kf::store
