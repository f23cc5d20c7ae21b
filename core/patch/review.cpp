// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/review.h"

#include <algorithm>

namespace kf::patch {

QString reviewStateText(ReviewState state)
{
    switch (state) {
    case ReviewState::WillApply: return QStringLiteral("will apply");
    case ReviewState::Partly: return QStringLiteral("partly");
    case ReviewState::Rejected: return QStringLiteral("rejected");
    case ReviewState::AlreadyApplied: return QStringLiteral("already applied");
    case ReviewState::NotApplicable: return QStringLiteral("not applicable");
    case ReviewState::Conflict: return QStringLiteral("conflict");
    }
    return {};
}

namespace {

QList<ReviewHunk> hunksOf(const PatchPlan& p)
{
    const textdiff::TextLines before = textdiff::splitLines(p.textBefore);
    const textdiff::TextLines after = textdiff::splitLines(p.textAfter);
    QList<ReviewHunk> out;
    for (const textdiff::Change& c : textdiff::changes(textdiff::diffLines(before.lines, after.lines)))
        out.append(
            ReviewHunk { c, before.lines.mid(c.oldStart, c.oldCount), after.lines.mid(c.newStart, c.newCount), true });
    return out;
}

bool sameText(const ReviewHunk& a, const ReviewHunk& b)
{
    return a.oldLines == b.oldLines && a.newLines == b.newLines;
}

// Where each line of `from` is in `to` (-1: not there), for texts that differ only by
// changes elsewhere.
QList<int> lineUp(const QStringList& from, const QStringList& to)
{
    QList<int> map(from.size(), -1);
    if (from == to) {
        for (qsizetype i = 0; i < from.size(); ++i)
            map[i] = int(i);
        return map;
    }
    for (const textdiff::Run& r : textdiff::diffLines(from, to))
        if (r.kind == textdiff::Run::Equal)
            for (int k = 0; k < r.length; ++k)
                map[r.oldStart + k] = r.newStart + k;
    return map;
}

struct Placement
{
    int start = -1; // in the current text; -1: cannot be placed
    int count = 0;
};

// Where change `c` (in the patch's before text) lands in the current text, by the line map.
Placement place(const textdiff::Change& c, const QList<int>& map, int currentSize)
{
    if (c.oldCount > 0) {
        const int start = map[c.oldStart];
        for (int k = 0; k < c.oldCount; ++k)
            if (start < 0 || map[c.oldStart + k] != start + k)
                return {};
        return { start, c.oldCount };
    }
    // An insertion: the lines on both sides of the gap must still be neighbours.
    const int g = c.oldStart;
    const int left = g == 0 ? 0 : (map[g - 1] < 0 ? -1 : map[g - 1] + 1);
    const int right = g == map.size() ? currentSize : map[g];
    if (left < 0 || right < 0 || left != right)
        return {};
    return { left, 0 };
}

} // namespace

Review::Review(const SetPlan& plan)
{
    init(plan);
    for (const FilePlan& f : m_plan.files)
        recompute(f.file);
}

Review::Review(const SetPlan& plan, const Review& previous)
{
    init(plan);
    for (int i = 0; i < patchCount(); ++i) {
        if (!isReviewable(i))
            continue;
        const PatchPlan& p = m_plan.patches[i];
        int before = -1;
        for (int j = 0; j < previous.patchCount() && before < 0; ++j)
            if (previous.isReviewable(j) && previous.m_plan.patches[j].id == p.id
                && previous.m_plan.patches[j].file == p.file)
                before = j;
        if (before < 0)
            continue;
        PatchDecision& d = m_patches[i];
        const PatchDecision& old = previous.m_patches[before];
        QList<bool> used(old.hunks.size(), false);
        bool allSame = d.hunks.size() == old.hunks.size();
        for (qsizetype h = 0; h < d.hunks.size(); ++h) {
            allSame = allSame && sameText(d.hunks[h], old.hunks[h]);
            for (qsizetype k = 0; k < old.hunks.size(); ++k) {
                if (!used[k] && sameText(d.hunks[h], old.hunks[k])) {
                    used[k] = true;
                    d.hunks[h].accepted = old.hunks[k].accepted;
                    break;
                }
            }
        }
        if (allSame)
            d.accepted = old.accepted;
    }
    for (const FilePlan& f : m_plan.files)
        recompute(f.file);
}

void Review::init(const SetPlan& plan)
{
    m_plan = plan;
    m_patches.clear();
    m_results.clear();
    for (const PatchPlan& p : m_plan.patches) {
        PatchDecision d;
        if (p.status == PatchStatus::WillApply)
            d.hunks = hunksOf(p);
        d.blocked = QList<bool>(d.hunks.size(), false);
        m_patches.append(d);
    }
}

bool Review::isReviewable(int patch) const
{
    return patch >= 0 && patch < m_plan.patches.size() && m_plan.patches[patch].status == PatchStatus::WillApply;
}

bool Review::isPatchAccepted(int patch) const
{
    return isReviewable(patch) && m_patches[patch].accepted;
}

void Review::setPatchAccepted(int patch, bool accepted)
{
    if (!isReviewable(patch))
        return;
    PatchDecision& d = m_patches[patch];
    d.accepted = accepted;
    if (accepted)
        for (ReviewHunk& h : d.hunks)
            h.accepted = true;
    recompute(m_plan.patches[patch].file);
}

int Review::hunkCount(int patch) const
{
    return isReviewable(patch) ? int(m_patches[patch].hunks.size()) : 0;
}

const ReviewHunk& Review::hunk(int patch, int index) const
{
    return m_patches[patch].hunks[index];
}

bool Review::isHunkAccepted(int patch, int index) const
{
    return isPatchAccepted(patch) && index >= 0 && index < hunkCount(patch) && m_patches[patch].hunks[index].accepted;
}

void Review::setHunkAccepted(int patch, int index, bool accepted)
{
    if (index < 0 || index >= hunkCount(patch))
        return;
    PatchDecision& d = m_patches[patch];
    if (!d.accepted) {
        if (!accepted)
            return;
        d.accepted = true;
        for (ReviewHunk& h : d.hunks)
            h.accepted = false;
    }
    d.hunks[index].accepted = accepted;
    recompute(m_plan.patches[patch].file);
}

bool Review::isHunkBlocked(int patch, int index) const
{
    return index >= 0 && index < hunkCount(patch) && m_patches[patch].blocked.value(index);
}

int Review::acceptedCount(int patch) const
{
    if (!isPatchAccepted(patch))
        return 0;
    const QList<ReviewHunk>& hunks = m_patches[patch].hunks;
    return int(std::count_if(hunks.cbegin(), hunks.cend(), [](const ReviewHunk& h) { return h.accepted; }));
}

int Review::placedCount(int patch) const
{
    const QList<bool>& blocked = m_patches[patch].blocked;
    return acceptedCount(patch) - int(std::count(blocked.cbegin(), blocked.cend(), true));
}

ReviewState Review::state(int patch) const
{
    if (patch < 0 || patch >= patchCount())
        return ReviewState::Conflict;
    switch (m_plan.patches[patch].status) {
    case PatchStatus::AlreadyApplied: return ReviewState::AlreadyApplied;
    case PatchStatus::NotApplicable: return ReviewState::NotApplicable;
    case PatchStatus::Conflict: return ReviewState::Conflict;
    case PatchStatus::WillApply: break;
    }
    const int n = hunkCount(patch);
    if (n == 0)
        return isPatchAccepted(patch) ? ReviewState::WillApply : ReviewState::Rejected;
    const int placed = placedCount(patch);
    if (placed == n)
        return ReviewState::WillApply;
    if (acceptedCount(patch) == 0)
        return ReviewState::Rejected;
    return placed == 0 ? ReviewState::Conflict : ReviewState::Partly;
}

QString Review::stateText(int patch) const
{
    const ReviewState s = state(patch);
    if (s == ReviewState::Partly)
        return QStringLiteral("partly (%1 of %2 hunks)").arg(placedCount(patch)).arg(hunkCount(patch));
    return reviewStateText(s);
}

QString Review::stateReason(int patch) const
{
    if (patch < 0 || patch >= patchCount())
        return {};
    const PatchPlan& p = m_plan.patches[patch];
    if (!isReviewable(patch))
        return p.reason;
    if (!isPatchAccepted(patch))
        return QStringLiteral("you rejected this patch");
    QStringList rejected, blocked;
    for (int h = 0; h < hunkCount(patch); ++h) {
        if (!m_patches[patch].hunks[h].accepted)
            rejected.append(QString::number(h + 1));
        else if (m_patches[patch].blocked.value(h))
            blocked.append(QString::number(h + 1));
    }
    QStringList parts;
    if (!rejected.isEmpty())
        parts.append(rejected.size() == hunkCount(patch)
                ? QStringLiteral("you rejected every hunk")
                : QStringLiteral("you rejected hunk%1 %2")
                      .arg(
                          rejected.size() == 1 ? QString() : QStringLiteral("s"), rejected.join(QStringLiteral(", "))));
    if (!blocked.isEmpty())
        parts.append(QStringLiteral("hunk%1 %2 cannot be placed: a rejected earlier hunk changes the lines %3")
                         .arg(blocked.size() == 1 ? QString() : QStringLiteral("s"), blocked.join(QStringLiteral(", ")),
                             blocked.size() == 1 ? QStringLiteral("it needs") : QStringLiteral("they need")));
    return parts.isEmpty() ? p.reason : parts.join(QStringLiteral("; "));
}

void Review::recompute(const QString& file)
{
    const FilePlan* f = m_plan.fileFor(file);
    if (!f)
        return;
    bool exists = f->exists;
    bool planExists = f->exists; // before the next patch, in the plan
    bool touched = false;
    QString text = exists ? QString::fromUtf8(f->original) : QString();
    for (int idx : f->patches) {
        const PatchPlan& p = m_plan.patches[idx];
        if (p.status != PatchStatus::WillApply)
            continue;
        const bool existedInPlan = planExists;
        planExists = !p.removesFile;
        PatchDecision& d = m_patches[idx];
        d.blocked = QList<bool>(d.hunks.size(), false);
        if (!d.accepted)
            continue;
        const bool all = std::all_of(d.hunks.cbegin(), d.hunks.cend(), [](const ReviewHunk& h) { return h.accepted; });
        // The plan's own step, byte for byte, while everything before it was taken.
        if (all && exists == existedInPlan && text == p.textBefore) {
            text = p.textAfter;
            exists = !p.removesFile;
            touched = true;
            continue;
        }
        const textdiff::TextLines before = textdiff::splitLines(p.textBefore);
        const textdiff::TextLines after = textdiff::splitLines(p.textAfter);
        textdiff::TextLines current = textdiff::splitLines(text);
        if (!exists || text.isEmpty())
            current.crlf = after.crlf;
        const QList<int> map = lineUp(before.lines, current.lines);
        QStringList lines;
        int pos = 0, placed = 0;
        for (qsizetype h = 0; h < d.hunks.size(); ++h) {
            const ReviewHunk& hunk = d.hunks[h];
            if (!hunk.accepted)
                continue;
            const Placement at = place(hunk.change, map, int(current.lines.size()));
            // Deleting the file takes the whole planned text, nothing less.
            if (at.start < 0 || (p.removesFile && before.lines != current.lines)) {
                d.blocked[h] = true;
                continue;
            }
            lines += current.lines.mid(pos, at.start - pos);
            lines += hunk.newLines;
            pos = at.start + at.count;
            ++placed;
        }
        lines += current.lines.mid(pos);
        if (placed == 0 && !d.hunks.isEmpty())
            continue;
        touched = true;
        if (p.removesFile) {
            exists = false;
            text.clear();
            continue;
        }
        // A change of the final line break belongs to the hunk at the end (or to the patch).
        textdiff::TextLines out = current;
        out.lines = lines;
        if (before.finalNewline != after.finalNewline) {
            qsizetype atEnd = -1;
            for (qsizetype h = 0; h < d.hunks.size(); ++h)
                if (d.hunks[h].change.oldStart + d.hunks[h].change.oldCount == before.lines.size())
                    atEnd = h;
            const bool endLinedUp = before.lines.isEmpty() || map.last() == current.lines.size() - 1;
            if (endLinedUp && (atEnd < 0 || (d.hunks[atEnd].accepted && !d.blocked[atEnd])))
                out.finalNewline = after.finalNewline;
        }
        text = textdiff::joinLines(out);
        exists = true;
    }
    m_results.insert(file, FileResult { exists, touched ? text.toUtf8() : f->original });
}

QByteArray Review::resultFor(const QString& file) const
{
    return m_results.value(file).content;
}

QList<FileChoiceSummary> Review::changes() const
{
    QList<FileChoiceSummary> out;
    for (const FilePlan& f : m_plan.files) {
        const FileResult r = m_results.value(f.file);
        if (r.exists == f.exists && (!r.exists || r.content == f.original))
            continue;
        FileChoiceSummary c;
        c.file = f.file;
        c.create = !f.exists && r.exists;
        c.remove = f.exists && !r.exists;
        c.content = r.content;
        for (int idx : f.patches) {
            if (!isPatchAccepted(idx) || (hunkCount(idx) > 0 && placedCount(idx) == 0))
                continue;
            const PatchPlan& p = m_plan.patches[idx];
            c.patches.append(PatchChoice { idx, p.id, p.title, placedCount(idx), hunkCount(idx) });
        }
        out.append(c);
    }
    return out;
}

QString Review::summary() const
{
    const QList<FileChoiceSummary> files = changes();
    if (files.isEmpty())
        return QStringLiteral("Nothing selected to apply.");
    QString s = QStringLiteral("Apply to %1:%2\n\n").arg(m_plan.host, m_plan.root);
    for (const FileChoiceSummary& f : files) {
        s += QStringLiteral("\u2022 %1%2\n")
                 .arg(f.file,
                     f.create       ? QStringLiteral(" (created)")
                         : f.remove ? QStringLiteral(" (deleted)")
                                    : QString());
        for (const PatchChoice& p : f.patches)
            s += QStringLiteral("    %1 (%2)%3\n")
                     .arg(p.title, p.id,
                         p.hunksTaken == p.hunks ? QString()
                                                 : QStringLiteral(": %1 of %2 hunks").arg(p.hunksTaken).arg(p.hunks));
    }
    s += QStringLiteral("\nEach file is re-read and compared with what you reviewed, backed up, replaced atomically "
                        "and verified.");
    return s;
}

ApplyOptions Review::applyOptions() const
{
    ApplyOptions o;
    o.decisions = decisions();
    for (const FileChoiceSummary& f : changes()) {
        o.onlyFiles.append(f.file);
        FileChoice c;
        c.content = f.content;
        c.remove = f.remove;
        for (const PatchChoice& p : f.patches)
            c.patchIds.append(p.id);
        o.choices.insert(f.file, c);
    }
    return o;
}

QList<DecisionRecord> Review::decisions() const
{
    QList<DecisionRecord> out;
    for (int i = 0; i < patchCount(); ++i) {
        if (!isReviewable(i))
            continue;
        DecisionRecord d { m_plan.patches[i].id, m_plan.patches[i].file, m_patches[i].accepted, {} };
        const QList<ReviewHunk>& hunks = m_patches[i].hunks;
        for (qsizetype h = 0; h < hunks.size(); ++h)
            if (!hunks[h].accepted)
                d.rejectedHunks.append({ int(h) + 1, hunkId(hunks[h].oldLines, hunks[h].newLines) });
        out.append(d);
    }
    return out;
}

QStringList Review::applyDecisions(const QList<DecisionRecord>& decisions)
{
    QStringList problems;
    for (const DecisionRecord& d : decisions) {
        int patch = -1;
        for (int i = 0; i < patchCount() && patch < 0; ++i)
            if (isReviewable(i) && m_plan.patches[i].id == d.patchId && m_plan.patches[i].file == d.file)
                patch = i;
        if (patch < 0)
            continue;
        if (!d.accepted) {
            setPatchAccepted(patch, false);
            continue;
        }
        setPatchAccepted(patch, true);
        for (const RejectedHunk& r : d.rejectedHunks) {
            int found = -1;
            for (int h = 0; h < hunkCount(patch) && found < 0; ++h)
                if (hunkId(m_patches[patch].hunks[h].oldLines, m_patches[patch].hunks[h].newLines) == r.id)
                    found = h;
            if (found < 0)
                problems.append(QStringLiteral("patch %1 (%2): hunk %3, rejected on the source, is not in this plan "
                                               "(the file differs there)")
                                    .arg(d.patchId, d.file)
                                    .arg(r.index));
            else
                setHunkAccepted(patch, found, false);
        }
    }
    return problems;
}

} // namespace kf::patch
