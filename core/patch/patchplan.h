// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/applicability.h"
#include "core/patch/patchset.h"
#include "core/patch/targetroot.h"

#include <QByteArray>
#include <QList>
#include <QString>

#include <atomic>
#include <optional>

namespace kf {
class Transport;
}

// Planning: read each target file through the Transport, hash it, compute what every patch
// would do. Each patch gets exactly one status; nothing is skipped silently.
namespace kf::patch {

enum class PatchStatus {
    WillApply,      // changes the file
    AlreadyApplied, // the file already has it; applying changes nothing
    NotApplicable,  // its target is not in this version of the file (not an error)
    Conflict,       // its place should exist but the text does not match: reason + nearest lines
};
QString statusText(PatchStatus s); // "will apply", ...
QString statusKey(PatchStatus s);  // "will-apply", ... (JSON)

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
    QString textAfter;        // after this patch (== textBefore unless WillApply)
    bool removesFile = false; // a diff that deletes the file
};

// Pure: plans one patch on the file's text (nullopt: the file does not exist).
PatchPlan planPatch(const Patch& patch, const std::optional<QString>& text);

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
    QByteArray proposed;  // after every WillApply patch of this file
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
    const FilePlan* fileFor(const QString& file) const;
};

QString sha256Hex(const QByteArray& data);

// Pure: plans a set against file contents (file -> bytes; missing key: file absent).
SetPlan planSetOnFiles(const PatchSet& set, const QMap<QString, QByteArray>& files);

// Blocking: finds the target below `root` (locateTarget, core/patch/targetroot.h), reads every
// target file through the transport and plans the set. A path that
// leaves the root (resolveInRoot) or a file that is not a regular file or too large
// (Transport::readFile) fails the whole plan with that message in SetPlan::error.
SetPlan planSet(
    Transport& transport, const PatchSet& set, const QString& root, const std::atomic<bool>* stop = nullptr);

// The unified diff of a whole plan (every file that changes), a/ b/ prefixed.
QString planDiff(const SetPlan& plan);

} // namespace kf::patch
