// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/events/verification.h"
#include "core/remotebuild/buildprofile.h"
#include "core/util/result.h"
#include "core/verify/verifier.h"
#include "core/verify/verifyreport.h"

// The post-build verification as the rest of KernelForge uses it: the verifier of core/verify
// run and recorded in the host's timeline (kernelforge-cli verify, the Build pane, `recipe
// apply`), and the rule that a server launch asks the host's last verification first.
// Blocking (the network, the local history); worker thread.
namespace kf {

class Transport;

// The verifier of core/verify over the profile's folder with the profile's environment,
// its report as a timeline::VerificationResult.
Result<timeline::VerificationResult> verifyBuild(Transport& transport, const BuildProfile& profile);

// For `kernelforge-cli verify` and the recipe runner: timeline::recordVerification(host, toVerificationResult(report))
// puts a verification into the host's timeline.
timeline::VerificationResult toVerificationResult(const VerifyReport& report);

// The host's builds from this machine's history, newest first, for provenance; a row still
// "running" that nobody followed to its end is settled from its job folder on the server first.
QList<BuildRecord> knownBuilds(Transport& transport);

// kernelforge-cli verify and the Build pane: runVerify() with the host's known builds (the
// request's are replaced), then the result as a verify.result event in the timeline of
// transport.describe() (the host key). Nothing is recorded when the verification could not run.
Result<VerifyReport> verifyAndRecord(Transport& transport, const VerifyRequest& request);

// Why a server launch on host cannot work, from the host's last verification (its newest
// verify.result event): the launch blockers it reported (sgl_kernel does not import, a library
// has no kernel image for a GPU, a library a failed build did not replace) in one line that names
// the folder, the time and the way out ("verify again after fixing the build"); or, when it found
// none, the newest build of its folder since then if that build failed (provenance: what it
// passed is not what the sources build now). Empty when nothing stops a launch, when there was
// no verification, or when the history cannot be read (logged: the history never stops work).
// The Server pane's Launch and `kernelforge-cli server launch` (unless --force) refuse on it.
QString launchBlockedBecause(const QString& host);

} // namespace kf
