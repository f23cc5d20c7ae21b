// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/review.h"

#include "core/patch/hunkplacement.h"

#include <algorithm>

namespace kf::patch {

QString reviewStateText(ReviewState state)
{
    switch (state) {
    case ReviewState::WillApply: return QStringLiteral("will apply");
    case ReviewState::Partly: return QStringLiteral("partly");
    case ReviewState::Rejected: return QStringLiteral("rejected");
    case ReviewState::PartlyApplied: return QStringLiteral("partly applied");
    case ReviewState::AlreadyApplied: return QStringLiteral("already applied");
    case ReviewState::NotApplicable: return QStringLiteral("not applicable");
    case ReviewState::Conflict: return QStringLiteral("conflict");
    }
    return {};
}

namespace {

QString memoryKey(const PatchPlan& p)
{
    return p.id + QLatin1Char('\n') + p.file;
}

QString idOf(const ReviewHunk& h)
{
    return hunkId(h.oldLines, h.newLines);
}

// "1 and 2", "1, 2 and 4"
QString numbers(const QList<int>& list)
{
    QStringList words;
    for (int n : list)
        words.append(QString::number(n));
    if (words.size() < 2)
        return words.join(QString());
    const QString last = words.takeLast();
    return words.join(QStringLiteral(", ")) + QStringLiteral(" and ") + last;
}

} // namespace

Review::Review(const SetPlan& plan)
{
    init(plan);
    for (const FilePlan& f : m_plan.files)
        recompute(f.file);
}

Review::Review(const SetPlan& plan, const Review& previous)
    : m_memory(previous.m_memory)
{
    for (int j = 0; j < previous.patchCount(); ++j) {
        if (!previous.isReviewable(j))
            continue;
        const PatchDecision& d = previous.m_patches[j];
        Remembered r;
        r.accepted = d.accepted;
        for (const ReviewHunk& h : d.hunks) {
            r.hunkIds.insert(idOf(h));
            if (!h.accepted && !h.inPlace)
                r.rejected.insert(idOf(h));
        }
        m_memory.insert(memoryKey(previous.m_plan.patches[j]), r);
    }
    init(plan);
    for (int i = 0; i < patchCount(); ++i) {
        if (!isReviewable(i))
            continue;
        const auto r = m_memory.constFind(memoryKey(m_plan.patches[i]));
        if (r == m_memory.cend())
            continue;
        PatchDecision& d = m_patches[i];
        QSet<QString> ids;
        for (ReviewHunk& h : d.hunks) {
            ids.insert(idOf(h));
            if (!h.inPlace && r->rejected.contains(idOf(h)))
                h.accepted = false;
        }
        if (ids == r->hunkIds)
            d.accepted = r->accepted;
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
        if (p.isReviewable())
            for (const PatchHunk& h : p.patchHunks) {
                ReviewHunk r;
                static_cast<PatchHunk&>(r) = h;
                d.hunks.append(r);
            }
        d.blocked = QList<bool>(d.hunks.size(), false);
        m_patches.append(d);
    }
}

bool Review::isReviewable(int patch) const
{
    return patch >= 0 && patch < m_plan.patches.size() && m_plan.patches[patch].isReviewable();
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

bool Review::isHunkInPlace(int patch, int index) const
{
    return index >= 0 && index < hunkCount(patch) && m_patches[patch].hunks[index].inPlace;
}

bool Review::isHunkAccepted(int patch, int index) const
{
    if (isHunkInPlace(patch, index))
        return true;
    return isPatchAccepted(patch) && index >= 0 && index < hunkCount(patch) && m_patches[patch].hunks[index].accepted;
}

void Review::setHunkAccepted(int patch, int index, bool accepted)
{
    if (index < 0 || index >= hunkCount(patch) || isHunkInPlace(patch, index))
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
    return int(
        std::count_if(hunks.cbegin(), hunks.cend(), [](const ReviewHunk& h) { return h.accepted && !h.inPlace; }));
}

int Review::placedCount(int patch) const
{
    const QList<bool>& blocked = m_patches[patch].blocked;
    return acceptedCount(patch) - int(std::count(blocked.cbegin(), blocked.cend(), true));
}

int Review::inPlaceCount(int patch) const
{
    const QList<ReviewHunk>& hunks = m_patches[patch].hunks;
    return int(std::count_if(hunks.cbegin(), hunks.cend(), [](const ReviewHunk& h) { return h.inPlace; }));
}

ReviewState Review::state(int patch) const
{
    if (patch < 0 || patch >= patchCount())
        return ReviewState::Conflict;
    switch (m_plan.patches[patch].status) {
    case PatchStatus::AlreadyApplied: return ReviewState::AlreadyApplied;
    case PatchStatus::NotApplicable: return ReviewState::NotApplicable;
    case PatchStatus::Conflict: return ReviewState::Conflict;
    case PatchStatus::WillApply:
    case PatchStatus::PartlyApplied: break;
    }
    const bool partly = m_plan.patches[patch].status == PatchStatus::PartlyApplied;
    const int missing = hunkCount(patch) - inPlaceCount(patch);
    if (missing == 0)
        return isPatchAccepted(patch) ? ReviewState::WillApply : ReviewState::Rejected;
    const int placed = placedCount(patch);
    if (placed == missing)
        return ReviewState::WillApply;
    if (acceptedCount(patch) == 0)
        return partly ? ReviewState::PartlyApplied : ReviewState::Rejected;
    return placed == 0 ? ReviewState::Conflict : ReviewState::Partly;
}

QString Review::stateText(int patch) const
{
    const ReviewState s = state(patch);
    const bool partly
        = patch >= 0 && patch < patchCount() && m_plan.patches[patch].status == PatchStatus::PartlyApplied;
    const QString applied
        = partly ? QStringLiteral("partly applied (%1)").arg(m_plan.patches[patch].partsText()) : QString();
    switch (s) {
    case ReviewState::WillApply: return partly ? applied + QStringLiteral(", will apply the rest") : reviewStateText(s);
    case ReviewState::Partly:
        return partly ? applied + QStringLiteral(", will apply %1 more").arg(placedCount(patch))
                      : QStringLiteral("partly (%1 of %2 hunks)").arg(placedCount(patch)).arg(hunkCount(patch));
    case ReviewState::PartlyApplied: return applied;
    case ReviewState::Rejected:
    case ReviewState::AlreadyApplied:
    case ReviewState::NotApplicable:
    case ReviewState::Conflict: break;
    }
    return reviewStateText(s);
}

QString Review::stateReason(int patch) const
{
    if (patch < 0 || patch >= patchCount())
        return {};
    const PatchPlan& p = m_plan.patches[patch];
    if (!isReviewable(patch))
        return p.reason;
    QStringList parts;
    if (!isPatchAccepted(patch)) {
        parts.append(QStringLiteral("you rejected this patch"));
    } else {
        QStringList rejected, blocked;
        int missing = 0;
        for (int h = 0; h < hunkCount(patch); ++h) {
            const ReviewHunk& hunk = m_patches[patch].hunks[h];
            missing += !hunk.inPlace;
            if (hunk.inPlace)
                continue;
            if (!hunk.accepted)
                rejected.append(QString::number(h + 1));
            else if (m_patches[patch].blocked.value(h))
                blocked.append(QString::number(h + 1));
        }
        if (!rejected.isEmpty())
            parts.append(rejected.size() == missing && missing == hunkCount(patch)
                    ? QStringLiteral("you rejected every hunk")
                    : QStringLiteral("you rejected hunk%1 %2")
                          .arg(rejected.size() == 1 ? QString() : QStringLiteral("s"),
                              rejected.join(QStringLiteral(", "))));
        if (!blocked.isEmpty())
            parts.append(
                QStringLiteral("hunk%1 %2 cannot be placed: a rejected earlier hunk changes the lines %3")
                    .arg(blocked.size() == 1 ? QString() : QStringLiteral("s"), blocked.join(QStringLiteral(", ")),
                        blocked.size() == 1 ? QStringLiteral("it needs") : QStringLiteral("they need")));
    }
    if (const QString split = splitEdit(patch); !split.isEmpty())
        parts.append(split);
    if (p.status == PatchStatus::PartlyApplied)
        parts.prepend(p.reason);
    return parts.isEmpty() ? p.reason : parts.join(QStringLiteral("; "));
}

// The edits of `patch` that the file would have only in part after Apply.
QString Review::splitEdit(int patch) const
{
    if (!isReviewable(patch))
        return {};
    const PatchDecision& d = m_patches[patch];
    QMap<int, QPair<QList<int>, QList<int>>> groups; // group -> (in the file after Apply, not)
    for (qsizetype h = 0; h < d.hunks.size(); ++h) {
        const bool there = d.hunks[h].inPlace || (d.accepted && d.hunks[h].accepted && !d.blocked.value(h));
        (there ? groups[d.hunks[h].group].first : groups[d.hunks[h].group].second).append(int(h) + 1);
    }
    QStringList out;
    for (auto it = groups.cbegin(); it != groups.cend(); ++it) {
        if (it->first.isEmpty() || it->second.isEmpty())
            continue;
        const QList<int> all = [&] {
            QList<int> a = it->first + it->second;
            std::sort(a.begin(), a.end());
            return a;
        }();
        out.append(
            QStringLiteral("hunks %1 are one edit (%2): the file would have hunk%3 %4 without %5, half of it")
                .arg(numbers(all), d.hunks[it.key()].groupLabel,
                    it->first.size() == 1 ? QString() : QStringLiteral("s"), numbers(it->first), numbers(it->second)));
    }
    return out.join(QStringLiteral("; "));
}

QStringList Review::splitEdits() const
{
    QStringList out;
    for (int i = 0; i < patchCount(); ++i)
        if (const QString s = splitEdit(i); !s.isEmpty())
            out.append(QStringLiteral("%1 (%2): %3").arg(m_plan.patches[i].title, m_plan.patches[i].id, s));
    return out;
}

void Review::recompute(const QString& file)
{
    const FilePlan* f = m_plan.fileFor(file);
    if (!f)
        return;
    FileText text { f->exists, f->exists ? QString::fromUtf8(f->original) : QString() };
    bool planExists = f->base ? f->base->exists : f->exists; // before the next patch, in the plan
    bool touched = false;
    for (int idx : f->patches) {
        const PatchPlan& p = m_plan.patches[idx];
        if (!p.isReviewable()) {
            if (f->base && !p.patchHunks.isEmpty()) // judged by content, but whole in the plan
                planExists = !p.removesFile;
            continue;
        }
        const bool existedInPlan = planExists;
        planExists = !p.removesFile;
        PatchDecision& d = m_patches[idx];
        d.blocked = QList<bool>(d.hunks.size(), false);
        if (!d.accepted)
            continue;
        QList<bool> take;
        for (const ReviewHunk& h : std::as_const(d.hunks))
            take.append(h.accepted);
        const PlacedHunks placed = placeHunks(p, take, existedInPlan, &text);
        d.blocked = placed.blocked;
        touched = touched || placed.touched;
    }
    m_results.insert(file, FileResult { text.exists, touched ? text.text.toUtf8() : f->original });
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
            c.patches.append(PatchChoice {
                idx, p.id, p.title, placedCount(idx), hunkCount(idx) - inPlaceCount(idx), inPlaceCount(idx) });
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
        for (const PatchChoice& p : f.patches) {
            QString part;
            if (p.hunksInPlace > 0)
                part = QStringLiteral(": adds %1 of the %2 missing hunks (%3 already in the file)")
                           .arg(p.hunksTaken)
                           .arg(p.hunks)
                           .arg(p.hunksInPlace);
            else if (p.hunksTaken != p.hunks)
                part = QStringLiteral(": %1 of %2 hunks").arg(p.hunksTaken).arg(p.hunks);
            s += QStringLiteral("    %1 (%2)%3\n").arg(p.title, p.id, part);
        }
    }
    if (const QStringList split = splitEdits(); !split.isEmpty()) {
        s += QStringLiteral("\nThese hunks belong together, and you split them:\n");
        for (const QString& line : split)
            s += QStringLiteral("  \u26a0 %1\n").arg(line);
    }
    s += QStringLiteral("\nEach file is re-read and compared with what you reviewed, backed up, checked as the server "
                        "reads it, replaced atomically and verified.");
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
            if (!hunks[h].accepted && !hunks[h].inPlace)
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
