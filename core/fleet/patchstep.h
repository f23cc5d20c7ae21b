// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/deploy/step.h"
#include "core/patch/patchplan.h"
#include "core/patch/patchset.h"

#include <QMap>
#include <QStringList>

#include <mutex>
#include <optional>

namespace kf::fleet {

// A plan reduced to what matters for "is this the plan I reviewed": per file its path,
// hash before, hash after and removal. Two hosts with the same files and the same patch
// outcome have equal fingerprints, whatever their host names.
struct PlanFingerprint
{
    QMap<QString, QString> files; // file -> "sha256Before>sha256After" or "sha256Before>removed"
    QString hash() const;         // sha256 of the sorted lines, 16 hex digits
    bool operator==(const PlanFingerprint&) const = default;
};
PlanFingerprint fingerprint(const patch::SetPlan& plan);
// "file a.cu: this host has 3f2a... before, the reviewed plan 9c1d..." lines; empty when equal.
QStringList describeDifferences(const PlanFingerprint& reviewed, const PlanFingerprint& here);

// patch plan / patch apply of one set at one root on every host. apply compares each host's
// plan with the reviewed one (setReviewed) and asks before writing where they differ; without
// a reviewed plan the first host planned becomes it (the CLI prints its fingerprint).
class PatchStep : public deploy::Step
{
public:
    PatchStep(patch::PatchSet set, QString root, bool apply);
    QString name() const override;
    deploy::StepResult run(Transport& transport, const deploy::StepContext& context) override;
    void setReviewed(const PlanFingerprint& reviewed);
    const patch::PatchSet& patchSet() const { return m_set; }
    std::optional<PlanFingerprint> reviewed() const;

private:
    patch::PatchSet m_set;
    QString m_root;
    bool m_apply;
    mutable std::mutex m_mutex;
    std::optional<PlanFingerprint> m_reviewed;
};

} // namespace kf::fleet
