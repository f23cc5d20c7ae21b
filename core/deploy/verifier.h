// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildprofile.h"
#include "core/timeline/verification.h"
#include "core/util/result.h"
#include "core/verify/verifyreport.h"

// The post-build verification as `recipe apply` runs it: the verifier of core/verify
// (kernelforge-cli verify) over the build's folder with the build's profile, its report
// turned into a timeline::VerificationResult. Blocking; worker thread.
namespace kf {
class Transport;
}

namespace kf::deploy {

// The verifier of core/verify over the profile's folder with the profile's environment,
// its report as a timeline::VerificationResult.
Result<timeline::VerificationResult> verifyBuild(Transport& transport, const BuildProfile& profile);

// For `kernelforge-cli verify` and the recipe runner: timeline::recordVerification(host, toVerificationResult(report))
// puts a verification into the host's timeline.
timeline::VerificationResult toVerificationResult(const VerifyReport& report);

} // namespace kf::deploy
