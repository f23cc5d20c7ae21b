// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QDateTime>
#include <QList>
#include <QString>
#include <QStringList>

// The patch journal in the history database (kf::store::database(), this thread's
// connection). One row per file written by an apply:
//   patch_applies(id, host, root, file, path, set_name, patch_ids, backup_path,
//                 sha256_before, sha256_after, applied_at, rolled_back_at)
// sha256_before is "" when the apply created the file, sha256_after "" when it deleted it;
// backup_path is "" when there was nothing to back up.
namespace kf {

struct AppliedFile
{
    qint64 id = 0;
    QString host; // Transport::describe()
    QString root;
    QString file; // relative to root
    QString path; // as given to the Transport
    QString setName;
    QStringList patchIds;
    QString backupPath;
    QString sha256Before;
    QString sha256After;
    QDateTime appliedAt;
    QDateTime rolledBackAt; // invalid while the apply stands
    bool rolledBack() const { return rolledBackAt.isValid(); }
};

class HistoryStore
{
public:
    // Creates the table (idempotent). Every other call does this first.
    static Result<void> ensureSchema();
    // Returns the new row id.
    Result<qint64> recordApply(const AppliedFile& entry);
    Result<void> markRolledBack(qint64 id, const QDateTime& when);
    Result<AppliedFile> entry(qint64 id);
    // Newest first. Empty host / root: any.
    Result<QList<AppliedFile>> applies(const QString& host = {}, const QString& root = {});
    // The newest standing (not rolled back) applies of `setName` on host+root, newest first.
    Result<QList<AppliedFile>> standing(const QString& host, const QString& root, const QString& setName = {});
    // The standing applies made after `entry` to the same file (same host, and the same path
    // or the same root and file), newest first.
    Result<QList<AppliedFile>> standingAfter(const AppliedFile& entry);
    // Every root journaled for `host`.
    Result<QStringList> roots(const QString& host);
    // Renames a root of `host` (rows journaled before roots were canonical): root `from`
    // becomes `to`, and a path that was `from`/file becomes `to`/file. Returns the rows changed.
    Result<int> renameRoot(const QString& host, const QString& from, const QString& to);
};

} // namespace kf
