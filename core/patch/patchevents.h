// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>

// A patch set's plan, apply and rollback in the host's timeline (core/events/eventlog.h), one
// call where each happens. A failure to record is logged, never returned: the history must not
// stop the work it records. Blocking on the local database only; any thread.
namespace kf::patch {
struct ApplyOptions;
struct ApplyReport;
struct RollbackPlan;
struct RollbackResult;
struct SetPlan;
} // namespace kf::patch

namespace kf::timeline {

// The plan's host is Transport::describe(), the host key.
void recordPatchPlanned(const patch::SetPlan& plan);
// After applyPlan: files written (journal ids), refused or failed, and the review's decisions.
// Nothing is recorded when the apply had nothing to do.
void recordPatchApplied(
    const patch::SetPlan& plan, const patch::ApplyOptions& options, const patch::ApplyReport& report);
// After runRollback.
void recordPatchRolledBack(const patch::RollbackPlan& plan, const QList<patch::RollbackResult>& results);

} // namespace kf::timeline
