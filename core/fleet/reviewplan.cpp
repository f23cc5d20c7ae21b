// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/reviewplan.h"

#include "core/patch/targetroot.h"

namespace kf::fleet {

namespace {

// The review host's plan through the same runner as every rollout step.
class ReviewStep final : public deploy::Step
{
public:
    ReviewStep(const patch::PatchSet& set, const QString& root, ReviewedPlan* out)
        : m_set(set)
        , m_root(root)
        , m_out(out)
    { }
    QString name() const override { return QStringLiteral("review plan"); }
    deploy::StepResult run(Transport& t, const deploy::StepContext& c) override
    {
        const patch::SetPlan plan = patch::planSet(t, m_set, patch::resolveRoot(t, m_set, m_root), c.stop);
        if (!plan)
            return { deploy::StepStatus::Failed, plan.error };
        m_out->fingerprint = fingerprint(plan);
        m_out->root = plan.root;
        c.log(QStringLiteral("reviewed plan %1 at %2").arg(m_out->fingerprint->hash(), plan.root));
        return { deploy::StepStatus::Ok, m_out->fingerprint->hash() };
    }

private:
    const patch::PatchSet& m_set;
    QString m_root;
    ReviewedPlan* m_out;
};

} // namespace

ReviewedPlan planForReview(const HostProfile& host, const patch::PatchSet& set, const QString& root,
    const RolloutOptions& options, const RolloutCallbacks& callbacks, const std::atomic<bool>* stop)
{
    ReviewedPlan out;
    ReviewStep step(set, root, &out);
    out.run = runRollout({ host }, step, options, callbacks, stop).first();
    if (out.run.state != HostRunState::Succeeded)
        out.fingerprint.reset();
    return out;
}

} // namespace kf::fleet
