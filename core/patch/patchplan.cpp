// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/patchplan.h"

#include "core/log/logging.h"
#include "core/patch/rootpath.h"
#include "core/transport/transport.h"

#include <QCryptographicHash>

namespace kf::patch {

QString statusText(PatchStatus s)
{
    switch (s) {
    case PatchStatus::WillApply: return QStringLiteral("will apply");
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

int SetPlan::count(PatchStatus s) const
{
    int n = 0;
    for (const PatchPlan& p : patches)
        n += p.status == s ? 1 : 0;
    return n;
}

const FilePlan* SetPlan::fileFor(const QString& file) const
{
    for (const FilePlan& f : files)
        if (f.file == file)
            return &f;
    return nullptr;
}

namespace {

PatchPlan planRecipe(const Patch& patch, const QString& text, PatchPlan p)
{
    if (const auto na = unmetRequirement(patch, text)) {
        p.status = PatchStatus::NotApplicable;
        p.notApplicable = na->kind;
        p.reason = na->reason;
        return p;
    }
    for (const Condition& c : patch.appliedIf) {
        if (const int line = c.firstLine(text)) {
            p.status = PatchStatus::AlreadyApplied;
            p.reason = QStringLiteral("recognised as applied: the file has %1 at line %2").arg(c.describe()).arg(line);
            return p;
        }
    }
    QString work = text;
    int changed = 0, there = 0;
    for (qsizetype i = 0; i < patch.edits.size(); ++i) {
        const RecipeEdit& e = patch.edits[i];
        const EditOutcome o = applyEdit(e, &work);
        const QString head = QStringLiteral("%1 (edit %2, YAML line %3)").arg(e.label).arg(i + 1).arg(e.yamlLine);
        switch (o.kind) {
        case EditOutcome::Changed:
            ++changed;
            p.notes.append(QStringLiteral("%1: %2").arg(head, o.message));
            break;
        case EditOutcome::AlreadyThere:
            ++there;
            p.notes.append(QStringLiteral("%1: %2").arg(head, o.message));
            break;
        case EditOutcome::Missing:
            if (e.optional) {
                p.notes.append(QStringLiteral("%1: not in this version (%2)").arg(head, o.message));
                break;
            }
            p.status = PatchStatus::Conflict;
            p.reason = QStringLiteral("%1: %2").arg(head, o.message);
            p.nearestLine = o.nearestLine;
            p.nearestLines = o.nearestLines;
            p.textAfter = text;
            return p;
        }
    }
    if (changed > 0) {
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
    } else {
        QStringList sought;
        for (const RecipeEdit& e : patch.edits)
            sought.append(e.match.describe());
        p.status = PatchStatus::NotApplicable;
        p.notApplicable = NotApplicableKind::OlderThanProblem;
        p.reason = QStringLiteral("none of its places exist in this version: looked for %1, found none")
                       .arg(sought.join(QStringLiteral(" and ")));
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
    if (already)
        p.reason += QStringLiteral(", %1 already applied").arg(already);
    textdiff::TextLines out = r.result;
    out.crlf = lines.crlf;
    p.textAfter = textdiff::joinLines(out);
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
    if (patch.fromDiff)
        return planDiffPatch(patch, text, p);
    if (!text) {
        const Inapplicability na = fileNotThere(patch.file);
        p.status = PatchStatus::NotApplicable;
        p.notApplicable = na.kind;
        p.reason = na.reason;
        return p;
    }
    return planRecipe(patch, *text, p);
}

SetPlan planSetOnFiles(const PatchSet& set, const QMap<QString, QByteArray>& files)
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
                current[patch.file] = QString::fromUtf8(f.original);
            } else {
                current[patch.file] = std::nullopt;
            }
            plan.files.append(f);
        }
        PatchPlan p = planPatch(patch, current[patch.file]);
        p.patchIndex = int(i);
        if (p.status == PatchStatus::WillApply) {
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
    for (FilePlan& f : plan.files) {
        f.remove = removed.value(f.file, false);
        const std::optional<QString>& t = current[f.file];
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
    SetPlan plan = planSetOnFiles(set, files);
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
    log::patch()->info("planned {} on {}:{}: {} will apply, {} already applied, {} not applicable, {} conflicts",
        set.name.toStdString(), plan.host.toStdString(), root.toStdString(), plan.count(PatchStatus::WillApply),
        plan.count(PatchStatus::AlreadyApplied), plan.count(PatchStatus::NotApplicable),
        plan.count(PatchStatus::Conflict));
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
