// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/patchplan.h"
#include "core/patch/reviewdecision.h"
#include "core/patch/syntaxcheck.h"
#include "core/store/historystore.h"

#include <QMap>

#include <atomic>

namespace kf {
class Transport;
}

// Safe apply and rollback (docs/design/rules.md, "Safe writes"). Per file:
//   1. re-read and compare the SHA-256 with the plan: refuse when the file changed since review;
//   2. back up the original under ~/.cache/kernelforge/patch-backups/<stamp>/ on the same host,
//      with the original's mode (never more readable than the original), and verify the copy;
//   3. check the result as the server will read it (syntaxcheck.h): a result that no longer
//      parses is refused, unless ApplyOptions::allowBrokenSyntax;
//   4. journal it as pending in the HistoryStore (journal first: from here on nothing is lost);
//   5. Transport::writeFileAtomic (temp file in the same folder, fsync, rename): an interrupted
//      apply leaves the old file or the new one, never a mix;
//   6. re-read and verify the hash, and mark the journal entry done. An entry left pending (a
//      signal, a lost link, a crash) is settled by the file's content later (journal.h).
// ApplyOptions::stop ends the apply after the file in flight; the files after it are reported
// Interrupted. Tests only: with KF_TEST_HOLD_AFTER_RENAME=FILE in the environment the applier
// writes the file's name to the local FILE after each rename and waits there (at most 120 s)
// until `stop` is set, so a test can interrupt it between the rename and the journal's end.
// Blocking; call from a worker thread.
namespace kf::patch {

struct FileApply
{
    // Interrupted: not started, ApplyOptions::stop was set before its turn.
    enum Outcome { Written, Unchanged, Refused, Failed, Interrupted };
    QString file;
    QString path;
    Outcome outcome = Failed;
    QString message;
    QString sha256Before;
    QString sha256After;
    QString backupPath;
    qint64 journalId = 0;
    QStringList patchIds;
    SyntaxVerdict syntax;    // the result checked as the server reads it
    bool unparsable = false; // Refused because the result no longer parses
};
QString outcomeText(FileApply::Outcome o);

struct ApplyReport
{
    QList<FileApply> files;
    bool ok() const;                 // nothing refused, failed or interrupted
    bool changedSinceReview() const; // some file was refused because it changed: re-plan
    bool interrupted() const;        // ApplyOptions::stop ended it early
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
    // Write a result that no longer parses (the reviewer's override: the Apply dialog's box,
    // `patch apply --allow-broken-syntax`); otherwise such a file is refused, nothing written.
    bool allowBrokenSyntax = false;
    // Set from elsewhere (a signal): the file in flight is finished, the others not started.
    const std::atomic<bool>* stop = nullptr;
};

ApplyReport applyPlan(Transport& transport, const SetPlan& plan, const ApplyOptions& options = {});

struct RollbackOutcome
{
    qint64 journalId = 0;
    QString file;
    QString message;
};
// Restores one journaled apply from its backup the same safe way (or removes a file the
// apply created). Refuses when the file changed after the apply, an apply journaled for
// another host than the transport's, and one that never reached its file (not written, or
// pending: settled by content first, journal.h). A file found already restored (a rollback
// cut off before its journal entry) is marked rolled back.
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
// file are not attempted: their backups belong under a file that is not there. Once `stop`
// is set the step in flight ends and the rest are reported as not started.
QList<RollbackResult> runRollback(
    Transport& transport, const RollbackPlan& plan, const std::atomic<bool>* stop = nullptr);

} // namespace kf::patch
