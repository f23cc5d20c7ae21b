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
//                 sha256_before, sha256_after, applied_at, rolled_back_at, state)
// sha256_before is "" when the apply created the file, sha256_after "" when it deleted it;
// backup_path is "" when there was nothing to back up. Journal first: a row is written as
// "pending" before the file is replaced and becomes "done" once the new file is verified; a
// pending row found later is settled by the file's content (core/patch/journal.h): "done"
// when the file holds what the apply wrote, "not-written" when it holds what it found.
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
    enum class State { Done, Pending, NotWritten };
    State state = State::Done;
    bool rolledBack() const { return rolledBackAt.isValid(); }
    // Done and not rolled back: the file holds (or held) what it wrote.
    bool stands() const { return state == State::Done && !rolledBack(); }
};
QString journalStateKey(AppliedFile::State state); // "done", "pending", "not-written"

class HistoryStore
{
public:
    // Creates the table or brings it to this version (store::migrate). Every other call does this first.
    static Result<void> ensureSchema();
    // Returns the new row id (the entry's state: Pending before the file is replaced).
    Result<qint64> recordApply(const AppliedFile& entry);
    Result<void> setState(qint64 id, AppliedFile::State state);
    Result<void> markRolledBack(qint64 id, const QDateTime& when);
    Result<AppliedFile> entry(qint64 id);
    // Newest first. Empty host / root: any.
    Result<QList<AppliedFile>> applies(const QString& host = {}, const QString& root = {});
    // The newest standing (done, not rolled back) applies of `setName` on host+root, newest first.
    Result<QList<AppliedFile>> standing(const QString& host, const QString& root, const QString& setName = {});
    // The standing applies made after `entry` to the same file (same host, and the same path
    // or the same root and file), newest first.
    Result<QList<AppliedFile>> standingAfter(const AppliedFile& entry);
    // The pending entries of `host` (empty root: any), oldest first.
    Result<QList<AppliedFile>> pending(const QString& host, const QString& root = {});
    // Every root journaled for `host`.
    Result<QStringList> roots(const QString& host);
    // Renames a root of `host` (rows journaled before roots were canonical): root `from`
    // becomes `to`, and a path that was `from`/file becomes `to`/file. Returns the rows changed.
    Result<int> renameRoot(const QString& host, const QString& from, const QString& to);
};

} // namespace kf
