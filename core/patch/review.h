// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/patch/applier.h"
#include "core/patch/patchplan.h"

#include <QList>
#include <QMap>
#include <QSet>
#include <QString>
#include <QStringList>

// The reviewer's decisions on one plan, GUI-free. Every patch that will (partly) apply has an
// accepted flag, and each of its hunks one too. A patch's hunks are the plan's
// (PatchPlan::patchHunks): its own change blocks from the text it sees in the plan
// (textBefore: the file after the earlier patches, or the file's base) to the text it leaves
// (textAfter). Hunks already in the file (a partly applied patch) are shown but not chosen:
// they stay. Everything a review shows is derived from here: each patch's state, what Apply
// writes to each file (placeHunks, core/patch/hunkplacement.h), the list of changes and the
// warnings the Apply dialog shows; nobody else keeps a copy of the decisions.
//
// What a file gets: its patches in plan order, each accepted patch contributing its accepted
// hunks that are not in place yet. When a rejected earlier hunk changed the lines a hunk
// replaces (or the place it inserts at), the hunk cannot be placed: its patch reads
// "conflict", and it says so. Taking some hunks of one edit (PatchHunk::group) without the
// others leaves that edit half made: splitEdits() says so before Apply.
//
// A new plan of the same tree (after an apply, a rollback, Plan again) keeps each decision
// whose hunk is unchanged: the same patch id, file, old lines and new lines (a patch's own
// flag: when its hunks are the same). Decisions live on while their patch is not reviewable
// in between (applied, then rolled back): a rejected hunk stays rejected. Other hunks are
// accepted.
namespace kf::patch {

enum class ReviewState {
    WillApply,      // accepted, every missing hunk with it
    Partly,         // some hunks rejected (or not placeable)
    Rejected,       // unticked, or every hunk rejected
    PartlyApplied,  // some hunks are in the file, Apply adds none of the others
    AlreadyApplied, // the plan's statuses, for patches that are not reviewed
    NotApplicable,
    Conflict, // the plan's conflict, or accepted hunks that cannot be placed (see above)
};
QString reviewStateText(ReviewState state); // "will apply", "partly", "rejected", ...

struct ReviewHunk : PatchHunk
{
    bool accepted = true; // the reviewer's flag (hunks in place are never taken again)
};

// A patch's part of one file change (the Apply dialog's line).
struct PatchChoice
{
    int patch = -1; // index into SetPlan::patches
    QString id;
    QString title;
    int hunksTaken = 0;   // accepted and placed
    int hunks = 0;        // not in the file yet
    int hunksInPlace = 0; // already in the file
};

// One file Apply would change.
struct FileChoiceSummary
{
    QString file;
    bool create = false;
    bool remove = false;
    QByteArray content;
    QList<PatchChoice> patches; // those that contribute, in plan order
};

class Review
{
public:
    Review() = default;
    explicit Review(const SetPlan& plan);
    // A review of `plan` that keeps `previous`'s decisions where the hunks are unchanged.
    Review(const SetPlan& plan, const Review& previous);

    const SetPlan& plan() const { return m_plan; }
    int patchCount() const { return int(m_patches.size()); }
    // Has an accepted flag: the plan says it will apply.
    bool isReviewable(int patch) const;

    bool isPatchAccepted(int patch) const;
    // Accepting a patch takes all of its hunks (the reviewer asked for the whole patch);
    // rejecting it keeps the hunk flags but takes none of them.
    void setPatchAccepted(int patch, bool accepted);
    int hunkCount(int patch) const;
    const ReviewHunk& hunk(int patch, int index) const;
    // Already in the file: shown accepted, never taken again, not changeable here.
    bool isHunkInPlace(int patch, int index) const;
    // What the reviewer sees: the hunk's flag and its patch's (true for a hunk in place).
    bool isHunkAccepted(int patch, int index) const;
    // Accepting a hunk of a rejected patch accepts the patch with that hunk alone (every hunk
    // looked rejected until then).
    void setHunkAccepted(int patch, int index, bool accepted);
    // Accepted, but a rejected earlier hunk changed its lines (see above).
    bool isHunkBlocked(int patch, int index) const;

    ReviewState state(int patch) const;
    // "will apply", "partly (1 of 2 hunks)", "partly applied (1 of 2 hunks)", "rejected", ...
    QString stateText(int patch) const;
    // One line: the plan's reason, or why the review changed it (split edits included).
    QString stateReason(int patch) const;
    // One line per edit whose hunks the review splits: after Apply the file would have some of
    // them and not the others ("Keep sgl_kernel importable without FA3: hunks 1 and 2 are one
    // edit (...); the file would get only hunk 1, half of it"). Empty: nothing split.
    QStringList splitEdits() const;

    // What Apply writes to `file` (the original when nothing is taken).
    QByteArray resultFor(const QString& file) const;
    // The files Apply would change, in plan order.
    QList<FileChoiceSummary> changes() const;
    // The Apply dialog's text (the changes, then splitEdits() as warnings), or "Nothing
    // selected to apply." when changes() is empty.
    QString summary() const;
    // For applyPlan: only the changed files, each with its content (or removal) and patches,
    // and decisions().
    ApplyOptions applyOptions() const;

    // Every reviewable patch's decisions, in plan order (reviewdecision.h).
    QList<DecisionRecord> decisions() const;
    // Takes decisions made on another plan of the same set: a rejected patch is rejected here,
    // a rejected hunk is rejected where this plan has a hunk with the same id in the same
    // patch. Returns what could not be carried over, one line each ("patch X: hunk 2 rejected
    // on the source is not in this plan"); a decision for a patch that is not reviewable here
    // (already applied, not applicable) has nothing to carry and is not a problem.
    QStringList applyDecisions(const QList<DecisionRecord>& decisions);

private:
    struct PatchDecision
    {
        bool accepted = true;
        QList<ReviewHunk> hunks;
        QList<bool> blocked; // derived, per hunk
    };
    // A patch's decisions as last made, by patch id and file: what a later review of the
    // same tree takes over where the hunks are the same.
    struct Remembered
    {
        bool accepted = true;
        QSet<QString> hunkIds;  // every hunk the patch had (hunkId)
        QSet<QString> rejected; // those rejected
    };
    struct FileResult
    {
        bool exists = false;
        QByteArray content;
    };
    void init(const SetPlan& plan);
    void recompute(const QString& file);
    int placedCount(int patch) const;
    int acceptedCount(int patch) const;
    int inPlaceCount(int patch) const;
    QString splitEdit(int patch) const;

    SetPlan m_plan;
    QList<PatchDecision> m_patches;
    QMap<QString, FileResult> m_results;
    QMap<QString, Remembered> m_memory; // patch id + "\n" + file
};

} // namespace kf::patch
