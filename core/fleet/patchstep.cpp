// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/patchstep.h"

#include "core/patch/applier.h"
#include "core/patch/review.h"

#include <QCryptographicHash>

namespace kf::fleet {

QString PlanFingerprint::hash() const
{
    QCryptographicHash h(QCryptographicHash::Sha256);
    for (auto it = files.cbegin(); it != files.cend(); ++it) // QMap: sorted by file
        h.addData(QString(it.key() + u'\t' + it.value() + u'\n').toUtf8());
    return QString::fromLatin1(h.result().toHex().left(16));
}

PlanFingerprint fingerprint(const patch::SetPlan& plan)
{
    PlanFingerprint f;
    for (const patch::FilePlan& file : plan.files) {
        if (!file.changes())
            continue; // a file this plan leaves alone is the same plan on every host
        f.files.insert(file.file,
            (file.exists ? file.sha256Before : QStringLiteral("absent")) + u'>'
                + (file.remove ? QStringLiteral("removed") : file.sha256After));
    }
    return f;
}

QStringList describeDifferences(const PlanFingerprint& reviewed, const PlanFingerprint& here)
{
    QStringList out;
    auto shortText = [](const QString& v) {
        const QString before = v.section(u'>', 0, 0), after = v.section(u'>', 1);
        return QStringLiteral("%1 -> %2").arg(before.left(12), after.left(12));
    };
    for (auto it = reviewed.files.cbegin(); it != reviewed.files.cend(); ++it) {
        const auto h = here.files.constFind(it.key());
        if (h == here.files.cend())
            out << QStringLiteral("%1: the reviewed plan changes it, this host's plan does not").arg(it.key());
        else if (h.value() != it.value())
            out << QStringLiteral("%1: this host %2, reviewed %3")
                       .arg(it.key(), shortText(h.value()), shortText(it.value()));
    }
    for (auto it = here.files.cbegin(); it != here.files.cend(); ++it)
        if (!reviewed.files.contains(it.key()))
            out << QStringLiteral("%1: this host's plan changes it, the reviewed plan does not").arg(it.key());
    return out;
}

PatchStep::PatchStep(patch::PatchSet set, QString root, bool apply)
    : m_set(std::move(set))
    , m_root(std::move(root))
    , m_apply(apply)
{ }

QString PatchStep::name() const
{
    return m_apply ? QStringLiteral("patch apply") : QStringLiteral("patch plan");
}

void PatchStep::setReviewed(const PlanFingerprint& reviewed)
{
    std::lock_guard lock(m_mutex);
    m_reviewed = reviewed;
}

std::optional<PlanFingerprint> PatchStep::reviewed() const
{
    std::lock_guard lock(m_mutex);
    return m_reviewed;
}

deploy::StepResult PatchStep::run(Transport& transport, const deploy::StepContext& ctx)
{
    using patch::PatchStatus;
    const QString root = patch::resolveRoot(transport, m_set, m_root);
    const patch::SetPlan plan = patch::planSet(transport, m_set, root, ctx.stop);
    if (!plan) {
        ctx.log(QStringLiteral("plan failed: ") + plan.error);
        return { deploy::StepStatus::Failed, plan.error };
    }
    const PlanFingerprint mine = fingerprint(plan);
    for (const patch::PatchPlan& p : plan.patches)
        ctx.log(QStringLiteral("%1  %2  %3%4")
                    .arg(patch::statusText(p.status).leftJustified(16), p.id, p.file,
                        p.reason.isEmpty() ? QString() : QStringLiteral(" (") + p.reason + u')'));
    const QString counts = plan.countsText();
    ctx.log(QStringLiteral("plan %1 at %2: %3").arg(mine.hash(), plan.root, counts));
    const bool clean = plan.count(PatchStatus::Conflict) + plan.count(PatchStatus::NotApplicable) == 0;
    if (!m_apply)
        return { clean ? deploy::StepStatus::Ok : deploy::StepStatus::Failed,
            QStringLiteral("plan %1: %2").arg(mine.hash(), counts) };
    const std::optional<PlanFingerprint> reviewed = this->reviewed();
    if (!reviewed) {
        ctx.log(QStringLiteral("no reviewed plan: nothing applied"));
        return { deploy::StepStatus::Refused, QStringLiteral("no reviewed plan to compare with") };
    }
    if (!clean) {
        ctx.log(QStringLiteral("not applied: some patches do not apply here (%1)").arg(counts));
        return { deploy::StepStatus::Failed, QStringLiteral("plan %1: %2").arg(mine.hash(), counts) };
    }
    if (const QStringList diff = describeDifferences(*reviewed, mine); !diff.isEmpty()) {
        const QString why = QStringLiteral("the plan on %1 (%2) differs from the reviewed plan (%3):\n  %4")
                                .arg(ctx.hostName, mine.hash(), reviewed->hash(), diff.join(QStringLiteral("\n  ")));
        ctx.log(why);
        if (!ctx.confirmDifferent || !ctx.confirmDifferent(why))
            return {
                deploy::StepStatus::Refused,
                QStringLiteral("plan %1 differs from the reviewed %2: not applied").arg(mine.hash(), reviewed->hash())
            };
        ctx.log(QStringLiteral("applying the different plan: confirmed"));
    }
    // Every hunk, the way the window and the CLI apply a review (syntax check, journal first).
    patch::ApplyOptions options = patch::Review(plan).applyOptions();
    options.stop = ctx.stop;
    const patch::ApplyReport report = patch::applyPlan(transport, plan, options);
    int written = 0;
    for (const patch::FileApply& f : report.files) {
        ctx.log(QStringLiteral("%1  %2  %3").arg(patch::outcomeText(f.outcome).leftJustified(10), f.file, f.message));
        written += f.outcome == patch::FileApply::Written;
    }
    if (!report.ok())
        return { deploy::StepStatus::Failed,
            report.changedSinceReview() ? QStringLiteral("a file changed while applying: plan again")
                : report.interrupted()
                ? QStringLiteral("stopped: the file in flight was finished, the rest not started")
                : QStringLiteral("apply failed (see the log)") };
    return { deploy::StepStatus::Ok, QStringLiteral("plan %1: %2 file(s) written").arg(mine.hash()).arg(written) };
}

} // namespace kf::fleet
