// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QList>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QString>
#include <QVariantList>

#include <optional>
#include <type_traits>

// The history database (SQLite, paths::stateDir()/history.sqlite by default): applied
// patches and their backups, builds, events. Each feature owns its tables and creates them
// with CREATE TABLE IF NOT EXISTS through ensureSchema(). Connections are per thread
// (QSqlDatabase may not cross threads): database() returns this thread's connection to
// the file set by setDatabasePath(), opening it on first use (WAL mode, foreign keys on).
namespace kf::store {

void setDatabasePath(const QString& path); // before first use; tests point it at a temp dir
QString databasePath();
Result<QSqlDatabase> database();
// Runs each statement in one transaction; idempotent schemas only.
Result<void> ensureSchema(const QStringList& statements);
// Versioned schemas: steps[i] brings `component` from version i to i+1. The version reached is
// kept in schema_versions(component TEXT PRIMARY KEY, version INTEGER); the steps not yet
// applied run in order, each in one transaction with its version bump, so a database made by
// an older KernelForge is upgraded in place and a newer one (a higher version) is refused.
Result<void> migrate(const QString& component, const QList<QStringList>& steps);

// The feature's ensureSchema() or migrate() call that every statement on its tables runs first.
using Schema = Result<void> (*)();

// One statement on this thread's connection: `schema` first, then `sql` prepared with `binds`
// bound in order, and run. A failure reads "history database: <what>: <the driver's text>".
// The query stands before its first row.
Result<QSqlQuery> exec(Schema schema, const QString& sql, const QVariantList& binds, const QString& what);

// Every row of a SELECT run by exec(), each read by fromRow(const QSqlQuery&).
template <typename FromRow>
auto readRows(Schema schema, const QString& sql, const QVariantList& binds, const QString& what, FromRow fromRow)
    -> Result<QList<std::invoke_result_t<FromRow, const QSqlQuery&>>>
{
    using Rows = QList<std::invoke_result_t<FromRow, const QSqlQuery&>>;
    Result<QSqlQuery> q = exec(schema, sql, binds, what);
    if (!q)
        return Result<Rows>(q.withoutValue());
    Rows rows;
    while (q.value().next())
        rows.append(fromRow(q.value()));
    return rows;
}

// The first row of a SELECT run by exec(), read by fromRow; none when it has no rows.
template <typename FromRow>
auto readRow(Schema schema, const QString& sql, const QVariantList& binds, const QString& what, FromRow fromRow)
    -> Result<std::optional<std::invoke_result_t<FromRow, const QSqlQuery&>>>
{
    using Row = std::optional<std::invoke_result_t<FromRow, const QSqlQuery&>>;
    Result<QSqlQuery> q = exec(schema, sql, binds, what);
    if (!q)
        return Result<Row>(q.withoutValue());
    if (!q.value().next())
        return Row();
    return Row(fromRow(q.value()));
}

} // namespace kf::store
