// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/patchplan.h"
#include "core/patch/reviewdecision.h"
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

// What the reviewer chose for one file (patch::Review::applyOptions): instead of the plan's
// proposal, this content (or the file's removal), journaled as these patches.
struct FileChoice
{
    QByteArray content;
    bool remove = false;
    QStringList patchIds;
};

struct ApplyOptions
{
    // file -> the reviewer's choice; a file not listed gets the plan's proposal, journaled
    // with every patch of it that will apply.
    QMap<QString, FileChoice> choices;
    // Only these files (empty: every file the plan changes).
    QStringList onlyFiles;
    QString backupRoot = QStringLiteral("~/.cache/kernelforge/patch-backups");
    // The review's decisions (Review::applyOptions), kept with the apply in the host's
    // timeline; empty: every patch as planned.
    QList<DecisionRecord> decisions;
};

ApplyReport applyPlan(Transport& transport, const SetPlan& plan, const ApplyOptions& options = {});

struct RollbackOutcome
{
    qint64 journalId = 0;
    QString file;
    QString message;
};
// Restores one journaled apply from its backup the same safe way (or removes a file the
// apply created). Refuses when the file changed after the apply, and an apply journaled
// for another host than the transport's.
Result<RollbackOutcome> rollbackApply(Transport& transport, qint64 journalId);

// Rolling back what was selected, whatever it is. An apply can only be undone while its file
// holds what that apply wrote, so every later standing apply of the same file is undone
// first, newest first, and the confirmation lists them. When the journal shows that the file
// was changed outside KernelForge between two of those applies (the later one found other
// bytes than the earlier one left), undoing the later one would not bring back what the
// earlier one wrote: the earlier one is refused with that reason, and nothing of that file
// is done for it. planRollback reads only the journal; runRollback does the work.
struct RollbackStep
{
    AppliedFile entry;
    bool requested = false; // selected; otherwise a later apply of the same file, undone first
};

struct RollbackPlan
{
    QString host;
    QList<RollbackStep> steps; // in the order they run: newest first
    QStringList refused;       // "#12 /root/CMakeLists.txt: why"; nothing is done for these
    int laterCount() const;    // steps that were not selected
    // For the confirmation: the steps in order (later applies marked as such), then what is
    // refused and why.
    QString describe() const;
};
// `host`: Transport::describe() of where the rollback runs; entries of another host are refused.
Result<RollbackPlan> planRollback(const QString& host, const QList<qint64>& ids);

struct RollbackResult
{
    RollbackStep step;
    bool ok = false;
    QString message;
};
// Runs the steps in order (rollbackApply). After a step fails, the older steps of the same
// file are not attempted: their backups belong under a file that is not there.
QList<RollbackResult> runRollback(Transport& transport, const RollbackPlan& plan);

// Rows journaled before roots were canonical hold the root as it was typed ("~/sgl-kernel",
// "/home/u/./sgl/"). This renames every journaled root of the transport's host that still
// resolves to its canonical form (canonicalRoots, one command), so lookups by the canonical
// root find them. Returns the rows changed.
Result<int> normalizeJournalRoots(Transport& transport);

} // namespace kf::patch
