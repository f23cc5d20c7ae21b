// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "core/timeline/event.h"
#include "core/timeline/verification.h"

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringList>

// What each producer calls, one line where the thing happens, to put it into the host's
// timeline (core/timeline/eventstore.h). Each makes the event (summary and details, see
// event.h) and records it; a failure to record is logged, never returned: the history must
// not stop the work it records. Blocking on the local database only; any thread.
namespace kf {
struct ServerFacts;
struct ServerLaunchProfile;
struct ServerStatus;
namespace patch {
struct ApplyOptions;
struct ApplyReport;
struct RollbackPlan;
struct RollbackResult;
struct SetPlan;
} // namespace patch
} // namespace kf

namespace kf::timeline {

// The plan's host is Transport::describe(), the host key.
void recordPatchPlanned(const patch::SetPlan& plan);
// After applyPlan: files written (journal ids), refused or failed, and the review's decisions.
// Nothing is recorded when the apply had nothing to do.
void recordPatchApplied(
    const patch::SetPlan& plan, const patch::ApplyOptions& options, const patch::ApplyReport& report);
// After runRollback.
void recordPatchRolledBack(const patch::RollbackPlan& plan, const QList<patch::RollbackResult>& results);

// The inference server (core/server): launched as a detached job, its job ended.
// forcedPast: the refusals a forced launch went past (launchpolicy.h); empty for a plain launch.
void recordServerLaunched(
    const QString& host, const ServerLaunchProfile& profile, const QString& jobId, const QStringList& forcedPast = {});
void recordServerStopped(const QString& host, const QString& jobId, int exitStatus, bool cancelled);
// A poll's answer after the previous one (null: the first): server.healthy when /health turned
// 200, server.unhealthy when it stopped being 200. Anything else records nothing.
void recordServerHealth(const QString& host, const ServerStatus* previous, const ServerStatus& now);

// The facts card's answer: facts.changed when the tool versions (driver, nvcc, CMake, Ninja,
// GCC, Python, PyTorch, SGLang, sgl-kernel, GPUs, OS, kernel) differ from the last ones
// recorded for host, or none were. details: versions, previous, changed (names), home.
void recordFacts(const QString& host, const ServerFacts& facts);
// The versions recordFacts() compares, by name ("nvcc" -> "13.0.88"; missing tools absent).
QJsonObject factsVersions(const ServerFacts& facts);

// A connection's state change: connection.lost when a Ready connection dropped (Reconnecting,
// Failed), connection.restored when a Reconnecting one is Ready again.
void recordConnection(const QString& host, ConnectionState from, ConnectionState to, const QString& reason);

// A post-build verification (the verifier's one line after it ran).
void recordVerification(const QString& host, const VerificationResult& result);

} // namespace kf::timeline
