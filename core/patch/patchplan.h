// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/applicability.h"
#include "core/patch/patchset.h"
#include "core/patch/targetroot.h"

#include <QByteArray>
#include <QList>
#include <QMap>
#include <QString>

#include <atomic>
#include <optional>

namespace kf {
class Transport;
}

// Planning: read each target file through the Transport, hash it, compute what every patch
// would do. Each patch gets exactly one status; nothing is skipped silently.
//
// A patch's state comes from the file's content, hunk by hunk: it is "already applied" only
// when every one of its hunks is in place, "partly applied" when some are. A file that
// KernelForge left half patched (the reviewer rejected hunks) is planned from its base, the
// text before the set's standing applies (the oldest one's backup, found through the journal
// while the file holds exactly what the newest one wrote: FileBase, core/patch/journal.h), so
// every hunk is known and each one is looked for in the file as it is: in place (its new
// lines stand where its old ones stood) or missing (its old lines are still there). Without
// a base the file itself is planned: a diff's hunks say each whether it is in place, a
// YAML patch's edits each whether it is already made.
namespace kf::patch {

enum class PatchStatus {
    WillApply,      // changes the file
    PartlyApplied,  // some of its hunks are in the file, the others would be added
    AlreadyApplied, // the file already has it, every hunk; applying changes nothing
    NotApplicable,  // its target is not in this version of the file (not an error)
    Conflict,       // its place should exist but the text does not match: reason + nearest lines
};
QString statusText(PatchStatus s); // "will apply", "partly applied", ...
QString statusKey(PatchStatus s);  // "will-apply", ... (JSON)

// One change block of a patch, from PatchPlan::textBefore to textAfter as textdiff::changes()
// finds them: the unit a reviewer accepts or rejects.
struct PatchHunk
{
    textdiff::Change change;
    QStringList oldLines; // the lines it replaces
    QStringList newLines; // the lines it puts there
    bool inPlace = false; // the file already has it (a partly applied patch)
    // Hunks made by one edit of a YAML patch (or one hunk of a diff) share the index of the first
    // of them: taking some of them without the others leaves that edit half made.
    int group = 0;
    QString groupLabel; // the edit's label ("soft-fail the flash_ops import"), or "diff hunk 2"
    // What it looks like in one line: "+" and its first added line, else "\u2212" and its first
    // removed one, trimmed, cut with "\u2026" past maxChars.
    QString sample(int maxChars) const;
};

struct PatchPlan
{
    int patchIndex = -1;
    QString id;
    QString title;
    QString why;
    QString file;
    PatchStatus status = PatchStatus::Conflict;
    QString reason;                                            // one line: why this status
    NotApplicableKind notApplicable = NotApplicableKind::None; // NotApplicable: which kind
    QStringList notes;                                         // per edit / per hunk details
    int nearestLine = 0;                                       // Conflict: where the closest text is (1-based)
    QStringList nearestLines;
    QList<HunkFate> hunks;    // diff patches
    QString textBefore;       // the file as this patch sees it (after earlier patches of the file)
    QString textAfter;        // with every hunk of this patch (== textBefore when it has none to show)
    bool removesFile = false; // a diff that deletes the file
    // WillApply, PartlyApplied, and AlreadyApplied from a base: textBefore -> textAfter's
    // hunks, each in place or not.
    QList<PatchHunk> patchHunks;
    // How much of it is in the file: in place of total parts, where a part is a hunk, or a
    // YAML patch's edit when the file was planned without a base (an edit made by hand or by an
    // older apply shows no hunk). "1 of 2 hunks".
    int partsInPlace = 0;
    int partsTotal = 0;
    bool partsAreEdits = false;
    QString partsText() const;
    bool isReviewable() const { return status == PatchStatus::WillApply || status == PatchStatus::PartlyApplied; }
};

// Pure: plans one patch on the file's text (nullopt: the file does not exist).
PatchPlan planPatch(const Patch& patch, const std::optional<QString>& text);

// The text before a set's standing applies to a file (FilePlan::base): what the patches are
// planned from when the file holds what the newest of them wrote.
struct FileBase
{
    bool exists = false;
    QByteArray data;
    qint64 journalId = 0; // the oldest apply it comes before
};

// The largest file a patch reads (sgl-kernel's biggest source is ~300 KB); a larger one is
// refused with "file too large (N bytes, limit M)".
inline constexpr qint64 kMaxPatchedFileBytes = qint64(16) << 20;

struct FilePlan
{
    QString file; // relative to the root
    // What is read and written: the root's real path + "/" + file with symlinks resolved
    // (resolveInRoot, core/patch/rootpath.h); a symlink inside the root is written through.
    QString path;
    bool viaSymlink = false; // `file` is a symlink to `path`
    bool exists = false;
    quint32 mode = 0;
    QByteArray original;
    QString sha256Before; // of original ("" when the file does not exist)
    // Planned from this base instead of `original` (which has some of the set's hunks).
    std::optional<FileBase> base;
    QByteArray proposed; // with every hunk of every patch that will (partly) apply
    QString sha256After;
    bool remove = false; // a diff deletes the file
    QList<int> patches;  // indexes into SetPlan::patches, in application order
    bool changes() const { return remove || proposed != original; }
};

struct SetPlan
{
    PatchSet set;
    QString root;     // the resolved root (may be root/sgl-kernel), canonical (canonicalRoot)
    QString rootNote; // which target folder and layout was used, or where it was looked for (TargetRoot::note)
    QString host;     // Transport::describe()
    QList<PatchPlan> patches;
    QList<FilePlan> files;
    QString error; // reading failed etc.; patches may be empty
    explicit operator bool() const { return error.isEmpty(); }
    int count(PatchStatus s) const;
    // "2 will apply, 1 partly applied, 1 already applied, 0 not applicable, 0 conflict(s)"
    QString countsText() const;
    const FilePlan* fileFor(const QString& file) const;
};

QString sha256Hex(const QByteArray& data);

// Pure: plans a set against file contents (file -> bytes; missing key: file absent). A file
// with a base is planned from it, and each hunk looked for in its content.
SetPlan planSetOnFiles(
    const PatchSet& set, const QMap<QString, QByteArray>& files, const QMap<QString, FileBase>& bases = {});

// Blocking: finds the target below `root` (locateTarget, core/patch/targetroot.h), reads every
// target file through the transport and plans the set. A path that
// leaves the root (resolveInRoot) or a file that is not a regular file or too large
// (Transport::readFile) fails the whole plan with that message in SetPlan::error. Pending
// journal entries of these files are settled first, and a file that holds what the set's
// newest standing apply wrote is planned from its base (journalBase, core/patch/journal.h).
SetPlan planSet(
    Transport& transport, const PatchSet& set, const QString& root, const std::atomic<bool>* stop = nullptr);

// The unified diff of a whole plan (every file that changes), a/ b/ prefixed.
QString planDiff(const SetPlan& plan);

} // namespace kf::patch
