// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QSqlDatabase>
#include <QString>

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

} // namespace kf::store
