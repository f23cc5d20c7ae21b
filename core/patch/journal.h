// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/patchplan.h"
#include "core/store/historystore.h"
#include "core/util/result.h"

#include <QMap>
#include <QString>

#include <optional>

namespace kf {
class Transport;
}

// What the patch journal (HistoryStore) says about the files of one host, checked against
// their content on that host. Blocking; call from a worker thread.
namespace kf::patch {

// The SHA-256 of the file at `path` (nullopt: there is no file), read like a patched file
// (regular files only, at most kMaxPatchedFileBytes).
Result<std::optional<QString>> fileSha256(Transport& transport, const QString& path);

// Settles one pending entry (an apply cut off between its journal entry and its end: a
// signal, a lost link, a crash) by the file's content, never by guessing: holding what the
// apply wrote, it is done (it stands and can be rolled back); holding what the apply found,
// it was never written; anything else leaves it pending (someone changed the file since; a
// rollback refuses it like any apply whose file changed). Returns the entry's state now.
Result<AppliedFile::State> settleApply(Transport& transport, const AppliedFile& entry);

// Every pending entry of the transport's host (only under `root` when given), settled.
// Returns how many are still pending.
Result<int> settlePendingApplies(Transport& transport, const QString& root = {});

// Rows journaled before roots were canonical hold the root as it was typed ("~/sgl-kernel",
// "/home/u/./sgl/"). This renames every journaled root of the transport's host that still
// resolves to its canonical form (canonicalRoots, one command), so lookups by the canonical
// root find them. Returns the rows changed.
Result<int> normalizeJournalRoots(Transport& transport);

// Both of the above: what a view of the host's history does before it reads the journal.
// Problems are logged, never fatal.
void tidyJournal(Transport& transport);

// The base of each file of `setName` under `root` whose content is what the set's newest
// standing apply of it wrote (`current`: file -> SHA-256, "" for an absent file): the file
// as it was before the unbroken run of the set's standing applies that ends there (the
// oldest one's backup, read from the host and checked against its journaled hash). A file
// not written by the set, changed since, or whose backup is gone has no base.
QMap<QString, FileBase> journalBases(
    Transport& transport, const QString& root, const QString& setName, const QMap<QString, QString>& current);

} // namespace kf::patch
