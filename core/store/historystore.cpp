// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/store/historystore.h"

#include "core/store/database.h"

#include <QSqlQuery>
#include <QVariant>

namespace kf {
namespace {

AppliedFile fromQuery(const QSqlQuery& q)
{
    AppliedFile a;
    a.id = q.value(0).toLongLong();
    a.host = q.value(1).toString();
    a.root = q.value(2).toString();
    a.file = q.value(3).toString();
    a.path = q.value(4).toString();
    a.setName = q.value(5).toString();
    const QString ids = q.value(6).toString();
    a.patchIds = ids.isEmpty() ? QStringList() : ids.split(QLatin1Char('\n'));
    a.backupPath = q.value(7).toString();
    a.sha256Before = q.value(8).toString();
    a.sha256After = q.value(9).toString();
    a.appliedAt = QDateTime::fromMSecsSinceEpoch(q.value(10).toLongLong(), Qt::UTC);
    if (!q.value(11).isNull())
        a.rolledBackAt = QDateTime::fromMSecsSinceEpoch(q.value(11).toLongLong(), Qt::UTC);
    const QString state = q.value(12).toString();
    a.state = state == journalStateKey(AppliedFile::State::Pending) ? AppliedFile::State::Pending
        : state == journalStateKey(AppliedFile::State::NotWritten)  ? AppliedFile::State::NotWritten
                                                                    : AppliedFile::State::Done;
    return a;
}

// A null QString binds as SQL NULL; the text columns are NOT NULL and "" means "none".
QString notNull(const QString& s)
{
    return s.isNull() ? QStringLiteral("") : s;
}

const QString kColumns = QStringLiteral("id, host, root, file, path, set_name, patch_ids, backup_path, sha256_before, "
                                        "sha256_after, applied_at, rolled_back_at, state");

Result<QList<AppliedFile>> select(const QString& where, const QVariantList& binds, bool oldestFirst = false)
{
    return store::readRows(&HistoryStore::ensureSchema,
        QStringLiteral("SELECT ") + kColumns + QStringLiteral(" FROM patch_applies") + where
            + (oldestFirst ? QStringLiteral(" ORDER BY id") : QStringLiteral(" ORDER BY id DESC")),
        binds, QStringLiteral("reading the patch journal"), fromQuery);
}

// Rows that stand: written, verified and not rolled back.
const QString kStands = QStringLiteral(" AND rolled_back_at IS NULL AND state = 'done'");

} // namespace

QString journalStateKey(AppliedFile::State state)
{
    switch (state) {
    case AppliedFile::State::Done: return QStringLiteral("done");
    case AppliedFile::State::Pending: return QStringLiteral("pending");
    case AppliedFile::State::NotWritten: return QStringLiteral("not-written");
    }
    return {};
}

Result<void> HistoryStore::ensureSchema()
{
    // Version 1 is the table as KernelForge made it before versions (CREATE ... IF NOT EXISTS
    // finds it there); version 2 journals first (the state column; old rows are done).
    return store::migrate(QStringLiteral("patch_applies"),
        { { QStringLiteral("CREATE TABLE IF NOT EXISTS patch_applies ("
                           " id INTEGER PRIMARY KEY AUTOINCREMENT, host TEXT NOT NULL, root TEXT NOT NULL,"
                           " file TEXT NOT NULL, path TEXT NOT NULL, set_name TEXT NOT NULL, patch_ids TEXT NOT NULL,"
                           " backup_path TEXT NOT NULL, sha256_before TEXT NOT NULL, sha256_after TEXT NOT NULL,"
                           " applied_at INTEGER NOT NULL, rolled_back_at INTEGER)"),
              QStringLiteral("CREATE INDEX IF NOT EXISTS patch_applies_host ON patch_applies(host, root)") },
            { QStringLiteral("ALTER TABLE patch_applies ADD COLUMN state TEXT NOT NULL DEFAULT 'done'") } });
}

Result<qint64> HistoryStore::recordApply(const AppliedFile& e)
{
    const auto q = store::exec(&ensureSchema,
        QStringLiteral("INSERT INTO patch_applies (host, root, file, path, set_name, patch_ids, backup_path, "
                       "sha256_before, sha256_after, applied_at, state)"
                       " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"),
        { notNull(e.host), notNull(e.root), notNull(e.file), notNull(e.path), notNull(e.setName),
            notNull(e.patchIds.join(QLatin1Char('\n'))), notNull(e.backupPath), notNull(e.sha256Before),
            notNull(e.sha256After),
            (e.appliedAt.isValid() ? e.appliedAt : QDateTime::currentDateTimeUtc()).toMSecsSinceEpoch(),
            journalStateKey(e.state) },
        QStringLiteral("cannot journal the apply"));
    if (!q)
        return q.withoutValue();
    return q->lastInsertId().toLongLong();
}

Result<void> HistoryStore::setState(qint64 id, AppliedFile::State state)
{
    const auto q = store::exec(&ensureSchema, QStringLiteral("UPDATE patch_applies SET state = ? WHERE id = ?"),
        { journalStateKey(state), id }, QStringLiteral("cannot journal the apply's end"));
    if (!q)
        return q.withoutValue();
    if (q->numRowsAffected() != 1)
        return Result<void>::failure(QStringLiteral("no apply with id %1 in the history").arg(id));
    return {};
}

Result<void> HistoryStore::markRolledBack(qint64 id, const QDateTime& when)
{
    const auto q
        = store::exec(&ensureSchema, QStringLiteral("UPDATE patch_applies SET rolled_back_at = ? WHERE id = ?"),
            { when.toMSecsSinceEpoch(), id }, QStringLiteral("cannot journal the rollback"));
    if (!q)
        return q.withoutValue();
    if (q->numRowsAffected() != 1)
        return Result<void>::failure(QStringLiteral("no apply with id %1 in the history").arg(id));
    return {};
}

Result<AppliedFile> HistoryStore::entry(qint64 id)
{
    auto rows = select(QStringLiteral(" WHERE id = ?"), { id });
    if (!rows)
        return rows.withoutValue();
    if (rows->isEmpty())
        return Result<AppliedFile>::failure(QStringLiteral("no apply with id %1 in the history").arg(id));
    return rows->first();
}

Result<QList<AppliedFile>> HistoryStore::applies(const QString& host, const QString& root)
{
    QString where;
    QVariantList binds;
    if (!host.isEmpty()) {
        where += QStringLiteral(" WHERE host = ?");
        binds.append(host);
    }
    if (!root.isEmpty()) {
        where += where.isEmpty() ? QStringLiteral(" WHERE root = ?") : QStringLiteral(" AND root = ?");
        binds.append(root);
    }
    return select(where, binds);
}

Result<QList<AppliedFile>> HistoryStore::standing(const QString& host, const QString& root, const QString& setName)
{
    QString where = QStringLiteral(" WHERE host = ? AND root = ?") + kStands;
    QVariantList binds { host, root };
    if (!setName.isEmpty()) {
        where += QStringLiteral(" AND set_name = ?");
        binds.append(setName);
    }
    return select(where, binds);
}

Result<QList<AppliedFile>> HistoryStore::standingAfter(const AppliedFile& e)
{
    return select(QStringLiteral(" WHERE host = ? AND id > ?") + kStands
            + QStringLiteral(" AND (path = ? OR (root = ? AND file = ?))"),
        { e.host, e.id, e.path, e.root, e.file });
}

Result<QList<AppliedFile>> HistoryStore::pending(const QString& host, const QString& root)
{
    if (root.isEmpty())
        return select(QStringLiteral(" WHERE host = ? AND state = 'pending'"), { host }, true);
    return select(QStringLiteral(" WHERE host = ? AND root = ? AND state = 'pending'"), { host, root }, true);
}

Result<QStringList> HistoryStore::roots(const QString& host)
{
    return store::readRows(&ensureSchema,
        QStringLiteral("SELECT DISTINCT root FROM patch_applies WHERE host = ? ORDER BY root"), { host },
        QStringLiteral("reading the patch journal"), [](const QSqlQuery& q) { return q.value(0).toString(); });
}

Result<int> HistoryStore::renameRoot(const QString& host, const QString& from, const QString& to)
{
    // Both columns in one statement: `path` is compared with the old root.
    const auto q = store::exec(&ensureSchema,
        QStringLiteral("UPDATE patch_applies SET path = CASE WHEN path = ? || '/' || file THEN ? || '/' || file"
                       " ELSE path END, root = ? WHERE host = ? AND root = ?"),
        { from, to, to, host, from }, QStringLiteral("cannot rename the root %1").arg(from));
    if (!q)
        return q.withoutValue();
    return q->numRowsAffected();
}

} // namespace kf
