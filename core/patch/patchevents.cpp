// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/patchevents.h"

#include "core/events/eventlog.h"
#include "core/patch/applier.h"

#include <QJsonArray>

namespace kf::timeline {
namespace {

QJsonArray decisionsJson(const QList<patch::DecisionRecord>& decisions)
{
    QJsonArray out;
    for (const patch::DecisionRecord& d : decisions) {
        QJsonArray hunks;
        for (const patch::RejectedHunk& h : d.rejectedHunks)
            hunks.append(QJsonObject { { QStringLiteral("hunk"), h.index }, { QStringLiteral("id"), h.id } });
        out.append(QJsonObject { { QStringLiteral("patch"), d.patchId }, { QStringLiteral("file"), d.file },
            { QStringLiteral("accepted"), d.accepted }, { QStringLiteral("rejected_hunks"), hunks } });
    }
    return out;
}

QString plural(qsizetype n, const QString& word)
{
    return QStringLiteral("%1 %2%3").arg(n).arg(word, n == 1 ? QString() : QStringLiteral("s"));
}

} // namespace

void recordPatchPlanned(const patch::SetPlan& plan)
{
    if (!plan)
        return;
    QJsonArray patches;
    for (const patch::PatchPlan& p : plan.patches)
        patches.append(QJsonObject { { QStringLiteral("id"), p.id }, { QStringLiteral("file"), p.file },
            { QStringLiteral("status"), patch::statusKey(p.status) }, { QStringLiteral("reason"), p.reason } });
    Event e;
    e.host = plan.host;
    e.kind = kind::PatchPlanned;
    e.summary = QStringLiteral("Planned %1 on %2: %3").arg(plan.set.name, plan.root, plan.countsText());
    e.details = { { QStringLiteral("set"), plan.set.source }, { QStringLiteral("set_name"), plan.set.name },
        { QStringLiteral("root"), plan.root }, { QStringLiteral("patches"), patches } };
    recordOrWarn(e);
}

void recordPatchApplied(
    const patch::SetPlan& plan, const patch::ApplyOptions& options, const patch::ApplyReport& report)
{
    if (report.files.isEmpty())
        return;
    QJsonArray ids, outcomes;
    int written = 0, unchanged = 0, refused = 0, unparsable = 0, failed = 0, interrupted = 0;
    for (const patch::FileApply& f : report.files) {
        if (f.journalId > 0)
            ids.append(f.journalId);
        outcomes.append(QJsonObject { { QStringLiteral("file"), f.file },
            { QStringLiteral("outcome"), patch::outcomeText(f.outcome) }, { QStringLiteral("message"), f.message },
            { QStringLiteral("patches"), QJsonArray::fromStringList(f.patchIds) } });
        written += f.outcome == patch::FileApply::Written;
        unchanged += f.outcome == patch::FileApply::Unchanged;
        refused += f.outcome == patch::FileApply::Refused && !f.unparsable;
        unparsable += f.unparsable;
        failed += f.outcome == patch::FileApply::Failed;
        interrupted += f.outcome == patch::FileApply::Interrupted;
    }
    Event e;
    e.host = plan.host;
    e.kind = kind::PatchApplied;
    e.summary = QStringLiteral("Applied %1 to %2: %3 written")
                    .arg(plan.set.name, plan.root, plural(written, QStringLiteral("file")));
    if (unchanged)
        e.summary += QStringLiteral(", %1 unchanged").arg(unchanged);
    if (refused)
        e.summary += QStringLiteral(", %1 refused (changed since review)").arg(refused);
    if (unparsable)
        e.summary += QStringLiteral(", %1 refused (would no longer parse)").arg(unparsable);
    if (failed)
        e.summary += QStringLiteral(", %1 failed").arg(failed);
    if (interrupted)
        e.summary += QStringLiteral(", %1 not started (interrupted)").arg(interrupted);
    e.details = { { QStringLiteral("set"), plan.set.source }, { QStringLiteral("set_name"), plan.set.name },
        { QStringLiteral("root"), plan.root }, { QStringLiteral("journal_ids"), ids },
        { QStringLiteral("outcomes"), outcomes }, { QStringLiteral("ok"), report.ok() },
        { QStringLiteral("decisions"), decisionsJson(options.decisions) },
        { QStringLiteral("reviewed"), !options.decisions.isEmpty() } };
    recordOrWarn(e);
}

void recordPatchRolledBack(const patch::RollbackPlan& plan, const QList<patch::RollbackResult>& results)
{
    if (results.isEmpty() && plan.refused.isEmpty())
        return;
    QJsonArray ids, steps;
    QStringList sets;
    int done = 0;
    for (const patch::RollbackResult& r : results) {
        if (r.ok) {
            ids.append(r.step.entry.id);
            ++done;
        }
        if (!sets.contains(r.step.entry.setName))
            sets.append(r.step.entry.setName);
        steps.append(QJsonObject { { QStringLiteral("journal_id"), r.step.entry.id },
            { QStringLiteral("file"), r.step.entry.file }, { QStringLiteral("root"), r.step.entry.root },
            { QStringLiteral("ok"), r.ok }, { QStringLiteral("requested"), r.step.requested },
            { QStringLiteral("message"), r.message } });
    }
    Event e;
    e.host = plan.host;
    e.kind = kind::PatchRolledBack;
    e.summary = QStringLiteral("Rolled back %1%2")
                    .arg(plural(done, QStringLiteral("change")),
                        sets.isEmpty() ? QString() : QStringLiteral(" of ") + sets.join(QStringLiteral(", ")));
    const qsizetype notDone = results.size() - done + plan.refused.size();
    if (notDone > 0)
        e.summary += QStringLiteral("; %1 not rolled back").arg(notDone);
    e.details = { { QStringLiteral("journal_ids"), ids }, { QStringLiteral("steps"), steps },
        { QStringLiteral("refused"), QJsonArray::fromStringList(plan.refused) } };
    recordOrWarn(e);
}

} // namespace kf::timeline
