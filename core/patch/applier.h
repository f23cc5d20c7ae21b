// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/patchplan.h"
#include "core/store/historystore.h"

#include <QMap>

namespace kf {
class Transport;
}

// Safe apply and rollback (docs: ARCHITECTURE.md "Safe apply"). Per file:
//   1. re-read and compare the SHA-256 with the plan: refuse when the file changed since review;
//   2. back up the original under ~/.cache/kernelforge/patch-backups/<stamp>/ on the same host,
//      with the original's mode (never more readable than the original), and verify the copy;
//   3. Transport::writeFileAtomic (temp file in the same folder, fsync, rename): an interrupted
//      apply leaves the old file or the new one, never a mix;
//   4. re-read and verify the hash; 5. journal it in the HistoryStore.
// Blocking; call from a worker thread.
namespace kf::patch {

struct FileApply
{
    enum Outcome { Written, Unchanged, Refused, Failed };
    QString file;
    QString path;
    Outcome outcome = Failed;
    QString message;
    QString sha256Before;
    QString sha256After;
    QString backupPath;
    qint64 journalId = 0;
    QStringList patchIds;
};
QString outcomeText(FileApply::Outcome o);

struct ApplyReport
{
    QList<FileApply> files;
    bool ok() const;                 // nothing refused or failed
    bool changedSinceReview() const; // some file was refused because it changed: re-plan
};

struct ApplyOptions
{
    // file -> content to write instead of the plan's proposal (the reviewer's hunk choice).
    QMap<QString, QByteArray> overrides;
    // Only these files (empty: every file the plan changes).
    QStringList onlyFiles;
    QString backupRoot = QStringLiteral("~/.cache/kernelforge/patch-backups");
};

ApplyReport applyPlan(Transport& transport, const SetPlan& plan, const ApplyOptions& options = {});

struct RollbackOutcome
{
    qint64 journalId = 0;
    QString file;
    QString message;
};
// Restores one journaled apply from its backup the same safe way (or removes a file the
// apply created). Refuses when the file changed after the apply.
Result<RollbackOutcome> rollbackApply(Transport& transport, qint64 journalId);

} // namespace kf::patch
