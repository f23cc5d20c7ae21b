// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/patchplan.h"

#include "core/log/logging.h"
#include "core/patch/hunkplacement.h"
#include "core/patch/journal.h"
#include "core/patch/rootpath.h"
#include "core/transport/transport.h"

#include <QCryptographicHash>

#include <numeric>

namespace kf::patch {

QString statusText(PatchStatus s)
{
    switch (s) {
    case PatchStatus::WillApply: return QStringLiteral("will apply");
    case PatchStatus::PartlyApplied: return QStringLiteral("partly applied");
    case PatchStatus::AlreadyApplied: return QStringLiteral("already applied");
    case PatchStatus::NotApplicable: return QStringLiteral("not applicable");
    case PatchStatus::Conflict: return QStringLiteral("conflict");
    }
    return {};
}

QString statusKey(PatchStatus s)
{
    return statusText(s).replace(QLatin1Char(' '), QLatin1Char('-'));
}

QString sha256Hex(const QByteArray& data)
{
    return QString::fromLatin1(QCryptographicHash::hash(data, QCryptographicHash::Sha256).toHex());
}

QString PatchHunk::sample(int maxChars) const
{
    QString out;
    for (const QString& l : newLines)
        if (out.isEmpty() && !l.trimmed().isEmpty())
            out = QStringLiteral("+") + l.trimmed();
    for (const QString& l : oldLines)
        if (out.isEmpty() && !l.trimmed().isEmpty())
            out = QStringLiteral("\u2212") + l.trimmed();
    return out.size() > maxChars ? out.left(maxChars - 1) + QStringLiteral("\u2026") : out;
}

QString PatchPlan::partsText() const
{
    const QString unit = partsAreEdits ? QStringLiteral("edit") : QStringLiteral("hunk");
    return QStringLiteral("%1 of %2 %3%4")
        .arg(partsInPlace)
        .arg(partsTotal)
        .arg(unit, partsTotal == 1 ? QString() : QStringLiteral("s"));
}

int SetPlan::count(PatchStatus s) const
{
    int n = 0;
    for (const PatchPlan& p : patches)
        n += p.status == s ? 1 : 0;
    return n;
}

QString SetPlan::countsText() const
{
    return QStringLiteral("%1 will apply, %2 partly applied, %3 already applied, %4 not applicable, %5 conflict(s)")
        .arg(count(PatchStatus::WillApply))
        .arg(count(PatchStatus::PartlyApplied))
        .arg(count(PatchStatus::AlreadyApplied))
        .arg(count(PatchStatus::NotApplicable))
        .arg(count(PatchStatus::Conflict));
}

const FilePlan* SetPlan::fileFor(const QString& file) const
{
    for (const FilePlan& f : files)
        if (f.file == file)
            return &f;
    return nullptr;
}

namespace {

// One edit's (or one diff hunk's) own change, for telling which hunks belong together.
struct Unit
{
    QString before;
    QString after;
    QString label;
};

// The change blocks from textBefore to textAfter, each its own group.
QList<PatchHunk> hunksOf(const PatchPlan& p)
{
    const textdiff::TextLines before = textdiff::splitLines(p.textBefore);
    const textdiff::TextLines after = textdiff::splitLines(p.textAfter);
    QList<PatchHunk> out;
    for (const textdiff::Change& c : textdiff::changes(textdiff::diffLines(before.lines, after.lines))) {
        PatchHunk h;
        h.change = c;
        h.oldLines = before.lines.mid(c.oldStart, c.oldCount);
        h.newLines = after.lines.mid(c.newStart, c.newCount);
        h.group = int(out.size());
        out.append(h);
    }
    return out;
}

// Joins the hunks that one unit's own change touches into one group (union-find over the
// hunks; a group is named by its first hunk and the units' labels). A unit is placed by
// lining its text before up with textBefore and its text after with textAfter.
void groupHunks(PatchPlan& p, const QList<Unit>& units)
{
    QList<PatchHunk>& hunks = p.patchHunks;
    if (hunks.size() < 2)
        return;
    const QStringList t0 = textdiff::splitLines(p.textBefore).lines;
    const QStringList tn = textdiff::splitLines(p.textAfter).lines;
    QList<int> ofOld(t0.size(), -1), ofNew(tn.size(), -1);
    for (qsizetype h = 0; h < hunks.size(); ++h) {
        const textdiff::Change& c = hunks[h].change;
        for (int k = 0; k < c.oldCount; ++k)
            ofOld[c.oldStart + k] = int(h);
        for (int k = 0; k < c.newCount; ++k)
            ofNew[c.newStart + k] = int(h);
    }
    QList<int> parent(hunks.size());
    std::iota(parent.begin(), parent.end(), 0);
    auto find = [&](int x) {
        while (parent[x] != x)
            x = parent[x] = parent[parent[x]];
        return x;
    };
    QList<QStringList> labels(hunks.size());
    for (const Unit& u : units) {
        const QStringList a = textdiff::splitLines(u.before).lines;
        const QStringList b = textdiff::splitLines(u.after).lines;
        const QList<textdiff::Change> own = textdiff::changes(textdiff::diffLines(a, b));
        if (own.isEmpty())
            continue;
        const QList<int> toOld = textdiff::lineMap(a, t0);
        const QList<int> toNew = textdiff::lineMap(b, tn);
        int first = -1;
        auto join = [&](int h) {
            if (h < 0)
                return;
            if (!labels[h].contains(u.label))
                labels[h].append(u.label);
            if (first < 0)
                first = h;
            else
                parent[find(h)] = find(first);
        };
        for (const textdiff::Change& c : own) {
            for (int k = 0; k < c.oldCount; ++k)
                if (const int at = toOld[c.oldStart + k]; at >= 0)
                    join(ofOld[at]);
            for (int k = 0; k < c.newCount; ++k)
                if (const int at = toNew[c.newStart + k]; at >= 0)
                    join(ofNew[at]);
        }
    }
    // A group is named by its first hunk and the labels of the units that made it.
    QMap<int, int> firstOf;
    QMap<int, QStringList> namesOf;
    for (qsizetype h = 0; h < hunks.size(); ++h) {
        const int root = find(int(h));
        if (!firstOf.contains(root))
            firstOf.insert(root, int(h));
        QStringList& names = namesOf[root];
        for (const QString& l : std::as_const(labels[h]))
            if (!names.contains(l))
                names.append(l);
    }
    for (qsizetype h = 0; h < hunks.size(); ++h) {
        const int root = find(int(h));
        hunks[h].group = firstOf.value(root);
        hunks[h].groupLabel = namesOf.value(root).join(QStringLiteral(" + "));
    }
}

// Each edit runs on the text the earlier ones left. Its outcome decides the patch's state:
// every edit made -> already applied; some made and some to make -> partly applied; none made
// -> will apply. applied_if recognises a fix made another way (already applied), unless an edit
// of the patch's own is in the file by its own text while another is missing: that is a patch
// made in part, whatever a marker says. (An edit found through its done_if marker is not
// its own text: a hand-made fix matches those too.)
PatchPlan planEdits(const Patch& patch, const QString& text, PatchPlan p)
{
    if (const auto na = unmetRequirement(patch, text)) {
        p.status = PatchStatus::NotApplicable;
        p.notApplicable = na->kind;
        p.reason = na->reason;
        return p;
    }
    const Condition* recognised = nullptr;
    int recognisedLine = 0;
    for (const Condition& c : patch.appliedIf) {
        if (const int line = c.firstLine(text)) {
            recognised = &c;
            recognisedLine = line;
            break;
        }
    }
    auto fixedByHand = [&] {
        p.status = PatchStatus::AlreadyApplied;
        p.reason = QStringLiteral("recognised as applied: the file has %1 at line %2")
                       .arg(recognised->describe())
                       .arg(recognisedLine);
        p.textAfter = text;
        p.notes.clear();
        return p;
    };
    QString work = text;
    QList<Unit> units;
    int changed = 0, there = 0, own = 0;
    for (qsizetype i = 0; i < patch.edits.size(); ++i) {
        const Edit& e = patch.edits[i];
        const QString before = work;
        const bool marked = !e.doneIf.isEmpty() && e.doneIf.matches(before);
        const EditOutcome o = applyEdit(e, &work);
        const QString head = QStringLiteral("%1 (edit %2, YAML line %3)").arg(e.label).arg(i + 1).arg(e.yamlLine);
        switch (o.kind) {
        case EditOutcome::Changed:
            ++changed;
            p.notes.append(QStringLiteral("%1: %2").arg(head, o.message));
            units.append(Unit { before, work,
                e.label.isEmpty() ? QStringLiteral("edit %1").arg(i + 1)
                                  : QStringLiteral("%1 (edit %2)").arg(e.label).arg(i + 1) });
            break;
        case EditOutcome::AlreadyThere:
            ++there;
            own += marked ? 0 : 1;
            p.notes.append(QStringLiteral("%1: %2").arg(head, o.message));
            break;
        case EditOutcome::Missing:
            if (e.optional) {
                p.notes.append(QStringLiteral("%1: not in this version (%2)").arg(head, o.message));
                break;
            }
            if (recognised && own == 0)
                return fixedByHand();
            p.status = PatchStatus::Conflict;
            p.reason = QStringLiteral("%1: %2").arg(head, o.message);
            if (there > 0)
                p.reason += QStringLiteral(" (%1 of its edits %2 already in the file: a half-made patch?)")
                                .arg(there)
                                .arg(there == 1 ? QStringLiteral("is") : QStringLiteral("are"));
            p.nearestLine = o.nearestLine;
            p.nearestLines = o.nearestLines;
            p.textAfter = text;
            return p;
        }
    }
    if (changed > 0 && recognised && own == 0) {
        return fixedByHand();
    } else if (changed > 0 && there > 0) {
        p.status = PatchStatus::PartlyApplied;
        p.partsInPlace = there;
        p.partsTotal = there + changed;
        p.partsAreEdits = true;
        p.reason = QStringLiteral("%1 already in the file; the other %2 %3 the file")
                       .arg(p.partsText())
                       .arg(changed)
                       .arg(changed == 1 ? QStringLiteral("changes") : QStringLiteral("change"));
        p.textAfter = work;
    } else if (changed > 0) {
        p.status = PatchStatus::WillApply;
        p.reason = QStringLiteral("%1 of %2 %3 %4 the file")
                       .arg(changed)
                       .arg(patch.edits.size())
                       .arg(patch.edits.size() == 1 ? QStringLiteral("edit") : QStringLiteral("edits"),
                           changed == 1 ? QStringLiteral("changes") : QStringLiteral("change"));
        p.textAfter = work;
    } else if (there > 0) {
        p.status = PatchStatus::AlreadyApplied;
        p.reason = QStringLiteral("every edit is already in place");
    } else if (recognised) {
        return fixedByHand();
    } else {
        QStringList sought;
        for (const Edit& e : patch.edits)
            sought.append(e.match.describe());
        p.status = PatchStatus::NotApplicable;
        p.notApplicable = NotApplicableKind::OlderThanProblem;
        p.reason = QStringLiteral("none of its places exist in this version: looked for %1, found none")
                       .arg(sought.join(QStringLiteral(" and ")));
    }
    if (p.isReviewable()) {
        p.patchHunks = hunksOf(p);
        groupHunks(p, units);
    }
    return p;
}

PatchPlan planDiffPatch(const Patch& patch, const std::optional<QString>& text, PatchPlan p)
{
    const FileDiff& d = patch.diff;
    const textdiff::TextLines empty { {}, false, false };
    if (d.isNew) {
        const FileApplyResult r = applyHunks(empty, d.hunks);
        const QString created = textdiff::joinLines(r.result);
        if (!text) {
            p.status = PatchStatus::WillApply;
            p.reason = QStringLiteral("creates the file (%1 lines)").arg(r.result.lines.size());
            p.textAfter = created;
        } else if (*text == created || textdiff::splitLines(*text).lines == r.result.lines) {
            p.status = PatchStatus::AlreadyApplied;
            p.reason = QStringLiteral("the file already exists with this content");
        } else {
            p.status = PatchStatus::Conflict;
            p.reason = QStringLiteral("the diff creates %1, but a different file is already there").arg(patch.file);
            p.nearestLine = 1;
            p.nearestLines = text->split(QLatin1Char('\n')).mid(0, 3);
        }
        return p;
    }
    if (!text) {
        if (d.isDeleted) {
            p.status = PatchStatus::AlreadyApplied;
            p.reason = QStringLiteral("the file is already gone");
        } else {
            const Inapplicability na = fileNotThere(patch.file);
            p.status = PatchStatus::NotApplicable;
            p.notApplicable = na.kind;
            p.reason = na.reason;
        }
        return p;
    }
    const textdiff::TextLines lines = textdiff::splitLines(*text);
    const FileApplyResult r = applyHunks(lines, d.hunks);
    p.hunks = r.hunks;
    for (qsizetype i = 0; i < r.hunks.size(); ++i)
        p.notes.append(QStringLiteral("hunk %1 (diff line %2): %3")
                           .arg(i + 1)
                           .arg(d.hunks[i].sourceLine)
                           .arg(fateText(r.hunks[i])));
    for (const HunkFate& f : r.hunks) {
        if (f.kind == HunkFate::Rejected) {
            p.status = PatchStatus::Conflict;
            p.reason = f.reason;
            p.nearestLine = f.nearestLine;
            p.nearestLines = f.nearestLines;
            return p;
        }
    }
    if (d.isDeleted) {
        if (r.result.lines.isEmpty() || r.allApplied()) {
            p.status = PatchStatus::WillApply;
            p.reason = QStringLiteral("deletes the file");
            p.removesFile = true;
            p.textAfter.clear();
        }
        return p;
    }
    if (r.allAlreadyApplied()) {
        p.status = PatchStatus::AlreadyApplied;
        p.reason = QStringLiteral("every hunk is already applied (the reverse diff applies)");
        return p;
    }
    p.status = PatchStatus::WillApply;
    int offsets = 0, fuzzed = 0, already = 0;
    for (const HunkFate& f : r.hunks) {
        offsets += f.kind == HunkFate::Applied && f.offset != 0;
        fuzzed += f.kind == HunkFate::Applied && f.fuzz != 0;
        already += f.kind == HunkFate::AlreadyApplied;
    }
    p.reason
        = QStringLiteral("%1 hunk%2").arg(r.hunks.size()).arg(r.hunks.size() == 1 ? QString() : QStringLiteral("s"));
    if (offsets)
        p.reason += QStringLiteral(", %1 at an offset").arg(offsets);
    if (fuzzed)
        p.reason += QStringLiteral(", %1 with fuzz").arg(fuzzed);
    if (already) {
        p.status = PatchStatus::PartlyApplied;
        p.partsInPlace = already;
        p.partsTotal = int(r.hunks.size());
        p.reason += QStringLiteral(", %1 already in the file").arg(already);
    }
    textdiff::TextLines out = r.result;
    out.crlf = lines.crlf;
    p.textAfter = textdiff::joinLines(out);
    p.patchHunks = hunksOf(p);
    // A diff hunk's change blocks belong together: those inside the lines it covered. Both
    // lists run down the file, so one pass pairs them.
    qsizetype h = 0;
    for (qsizetype i = 0; i < r.hunks.size(); ++i) {
        const HunkFate& f = r.hunks[i];
        if (f.kind != HunkFate::Applied)
            continue;
        const int from = f.line - 1, to = from + int(d.hunks[i].oldLines.size());
        while (h < p.patchHunks.size() && p.patchHunks[h].change.oldStart + p.patchHunks[h].change.oldCount < from)
            ++h;
        int first = -1;
        for (qsizetype k = h; k < p.patchHunks.size() && p.patchHunks[k].change.oldStart <= to; ++k) {
            PatchHunk& ph = p.patchHunks[k];
            const int start = ph.change.oldStart, end = start + ph.change.oldCount;
            if (!(start < to && end > from) && !(ph.change.oldCount == 0 && start >= from))
                continue;
            first = first < 0 ? ph.group : first;
            ph.group = first;
            ph.groupLabel = QStringLiteral("diff hunk %1").arg(i + 1);
        }
    }
    return p;
}

} // namespace

PatchPlan planPatch(const Patch& patch, const std::optional<QString>& text)
{
    PatchPlan p;
    p.id = patch.id;
    p.title = patch.title;
    p.why = patch.why;
    p.file = patch.file;
    p.textBefore = text.value_or(QString());
    p.textAfter = p.textBefore;
    if (patch.fromDiff) {
        p = planDiffPatch(patch, text, p);
    } else if (!text) {
        const Inapplicability na = fileNotThere(patch.file);
        p.status = PatchStatus::NotApplicable;
        p.notApplicable = na.kind;
        p.reason = na.reason;
    } else {
        p = planEdits(patch, *text, p);
    }
    if (p.isReviewable() && p.patchHunks.isEmpty())
        p.patchHunks = hunksOf(p);
    return p;
}

namespace {

// A patch planned from its file's base, judged by the file's content (patchplan.h): each hunk
// is missing (its old lines still stand side by side in `current`), in place (its new lines
// stand where the old ones were), or neither (changed since). `current` is the file with the
// in-place hunks of the file's later patches taken out again; on return this patch's are
// taken out too, for the patch before it.
void judgeByContent(PatchPlan& p, QStringList* current, qint64 journalId)
{
    if (p.patchHunks.isEmpty())
        return;
    const QList<int> fromBefore = textdiff::lineMap(textdiff::splitLines(p.textBefore).lines, *current);
    const QList<int> fromAfter = textdiff::lineMap(textdiff::splitLines(p.textAfter).lines, *current);
    const int size = int(current->size());
    QStringList neither;
    QStringList earlier; // `current` without this patch's hunks
    int inPlace = 0, pos = 0;
    for (qsizetype h = 0; h < p.patchHunks.size(); ++h) {
        PatchHunk& hunk = p.patchHunks[h];
        const textdiff::Change c = hunk.change;
        const bool missing = textdiff::placeChange(c, fromBefore, size).start >= 0;
        const textdiff::Placement there = textdiff::placeChange(
            textdiff::Change { c.newStart, c.newCount, c.oldStart, c.oldCount }, fromAfter, size);
        hunk.inPlace = !missing && there.start >= pos;
        if (hunk.inPlace) {
            ++inPlace;
            earlier += current->mid(pos, there.start - pos);
            earlier += hunk.oldLines;
            pos = there.start + there.count;
        } else if (!missing) {
            neither.append(QString::number(h + 1));
        }
    }
    earlier += current->mid(pos);
    *current = earlier;
    p.partsInPlace = inPlace;
    p.partsTotal = int(p.patchHunks.size());
    p.partsAreEdits = false;
    const QString apply = QStringLiteral("apply #%1").arg(journalId);
    if (!neither.isEmpty()) {
        p.status = PatchStatus::Conflict;
        p.reason = QStringLiteral("hunk%1 %2 %3 neither in place nor where the patch expects %4: the file was "
                                  "changed since %5")
                       .arg(neither.size() == 1 ? QString() : QStringLiteral("s"), neither.join(QStringLiteral(", ")),
                           neither.size() == 1 ? QStringLiteral("is") : QStringLiteral("are"),
                           neither.size() == 1 ? QStringLiteral("it") : QStringLiteral("them"), apply);
    } else if (inPlace == p.partsTotal) {
        p.status = PatchStatus::AlreadyApplied;
        p.reason = QStringLiteral("every hunk is in place (%1 of %2, since %3)").arg(inPlace).arg(inPlace).arg(apply);
    } else if (inPlace > 0) {
        p.status = PatchStatus::PartlyApplied;
        p.reason = QStringLiteral("%1 in place since %2; the other %3 would be added")
                       .arg(p.partsText(), apply)
                       .arg(p.partsTotal - inPlace);
    }
}

} // namespace

SetPlan planSetOnFiles(
    const PatchSet& set, const QMap<QString, QByteArray>& files, const QMap<QString, FileBase>& bases)
{
    SetPlan plan;
    plan.set = set;
    QMap<QString, std::optional<QString>> current; // the text each file has reached so far
    QMap<QString, bool> removed;
    for (qsizetype i = 0; i < set.patches.size(); ++i) {
        const Patch& patch = set.patches[i];
        if (!plan.fileFor(patch.file)) {
            FilePlan f;
            f.file = patch.file;
            const auto it = files.constFind(patch.file);
            f.exists = it != files.constEnd();
            if (f.exists) {
                f.original = *it;
                f.sha256Before = sha256Hex(f.original);
            }
            if (const auto base = bases.constFind(patch.file);
                base != bases.constEnd() && (base->exists != f.exists || base->data != f.original))
                f.base = *base;
            const bool exists = f.base ? f.base->exists : f.exists;
            const QByteArray& from = f.base ? f.base->data : f.original;
            current[patch.file] = exists ? std::optional<QString>(QString::fromUtf8(from)) : std::nullopt;
            plan.files.append(f);
        }
        PatchPlan p = planPatch(patch, current[patch.file]);
        p.patchIndex = int(i);
        // The next patch of the file sees this one whole (from a base too: it is judged below).
        if (p.isReviewable()) {
            if (p.removesFile) {
                current[patch.file] = std::nullopt;
                removed[patch.file] = true;
            } else {
                current[patch.file] = p.textAfter;
                removed[patch.file] = false;
            }
        }
        plan.patches.append(p);
        for (FilePlan& f : plan.files)
            if (f.file == patch.file)
                f.patches.append(int(plan.patches.size() - 1));
    }
    // A file planned from its base: its patches judged by its content, the last one first.
    for (const FilePlan& f : std::as_const(plan.files)) {
        if (!f.base)
            continue;
        QStringList lines = textdiff::splitLines(QString::fromUtf8(f.original)).lines;
        for (qsizetype k = f.patches.size() - 1; k >= 0; --k)
            if (plan.patches[f.patches[k]].isReviewable())
                judgeByContent(plan.patches[f.patches[k]], &lines, f.base->journalId);
    }
    for (FilePlan& f : plan.files) {
        std::optional<QString> t = current[f.file];
        if (f.base) {
            // The file as it is, with every missing hunk added where it belongs.
            FileText text { f.exists, QString::fromUtf8(f.original) };
            bool existed = f.base->exists;
            for (int idx : std::as_const(f.patches)) {
                const PatchPlan& p = plan.patches[idx];
                if (!p.isReviewable())
                    continue;
                placeHunks(p, QList<bool>(p.patchHunks.size(), true), existed, &text);
                existed = !p.removesFile;
            }
            t = text.exists ? std::optional<QString>(text.text) : std::nullopt;
            removed[f.file] = f.exists && !text.exists;
        }
        f.remove = removed.value(f.file, false);
        f.proposed = t ? t->toUtf8() : QByteArray();
        if (!f.exists && !t)
            f.proposed.clear();
        f.sha256After = f.remove ? QString() : (t ? sha256Hex(f.proposed) : QString());
    }
    return plan;
}

SetPlan planSet(Transport& transport, const PatchSet& set, const QString& rootIn, const std::atomic<bool>* stop)
{
    QString root = rootIn;
    while (root.size() > 1 && root.endsWith(QLatin1Char('/')))
        root.chop(1);
    auto failed = [&](const QString& error) {
        SetPlan plan;
        plan.set = set;
        plan.root = root;
        plan.host = transport.describe();
        plan.error = error;
        return plan;
    };
    const auto target = locateTarget(transport, set, root);
    if (!target)
        return failed(target.error());
    root = target->dir;
    // Plans, the journal and messages name the root one way (rootpath.h, canonicalRoot).
    const auto canonical = canonicalRoot(transport, root);
    if (!canonical)
        return failed(canonical.error());
    root = canonical.value();
    QMap<QString, QByteArray> files;
    QMap<QString, quint32> modes;
    QMap<QString, RootPath> where;
    QStringList seen;
    for (const Patch& p : set.patches) {
        if (seen.contains(p.file))
            continue;
        seen.append(p.file);
        if (stop && stop->load()) {
            SetPlan cancelled = failed(QStringLiteral("cancelled"));
            cancelled.root.clear();
            cancelled.host.clear();
            return cancelled;
        }
        const auto resolved = resolveInRoot(transport, root, p.file);
        if (!resolved)
            return failed(resolved.error());
        where.insert(p.file, resolved.value());
        if (!resolved->exists)
            continue;
        const auto st = transport.stat(resolved->path);
        if (!st)
            return failed(st.error());
        auto data = transport.readFile(resolved->path, kMaxPatchedFileBytes);
        if (!data)
            return failed(data.error());
        files.insert(p.file, data.value());
        modes.insert(p.file, st->mode);
    }
    // A pending journal entry of these files is settled by their content first; then a file
    // that holds what the set last wrote to it is planned from its base (journal.h).
    if (const auto pending = settlePendingApplies(transport, root); !pending)
        log::patch()->warn(
            "pending applies under {} not settled: {}", root.toStdString(), pending.error().toStdString());
    QMap<QString, QString> shas;
    for (const QString& file : std::as_const(seen))
        shas.insert(file, files.contains(file) ? sha256Hex(files.value(file)) : QString());
    SetPlan plan = planSetOnFiles(set, files, journalBases(transport, root, set.name, shas));
    plan.root = root;
    plan.rootNote = target->note;
    plan.host = transport.describe();
    for (FilePlan& f : plan.files) {
        const RootPath w = where.value(f.file);
        f.path = w.path.isEmpty() ? root + QLatin1Char('/') + f.file : w.path;
        f.viaSymlink = w.isSymlink;
        f.mode = modes.value(f.file, 0);
    }
    // A missing file's reason names the path looked at, and where the target was sought.
    for (PatchPlan& p : plan.patches) {
        if (p.notApplicable != NotApplicableKind::NoFile)
            continue;
        p.reason = fileNotThere(p.file, root + QLatin1Char('/') + p.file).reason;
        if (!target->found)
            p.reason += QStringLiteral("; ") + target->note;
    }
    log::patch()->info("planned {} on {}:{}: {}", set.name.toStdString(), plan.host.toStdString(), root.toStdString(),
        plan.countsText().toStdString());
    return plan;
}

QString planDiff(const SetPlan& plan)
{
    QString out;
    for (const FilePlan& f : plan.files) {
        if (!f.changes())
            continue;
        const QString a = f.exists ? QStringLiteral("a/") + f.file : QStringLiteral("/dev/null");
        const QString b = f.remove ? QStringLiteral("/dev/null") : QStringLiteral("b/") + f.file;
        out += QStringLiteral("diff --git a/%1 b/%1\n").arg(f.file);
        out += textdiff::unifiedDiff(QString::fromUtf8(f.original), QString::fromUtf8(f.proposed), a, b);
    }
    return out;
}

} // namespace kf::patch
