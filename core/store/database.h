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

} // namespace kf::store
