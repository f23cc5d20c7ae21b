// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/buildprofile.h"
#include "core/timeline/verification.h"
#include "core/util/result.h"

#include <functional>

// The post-build verification as `recipe apply` runs it: the verifier of core/verify
// (kernelforge-cli verify) over the build's folder with the build's profile, its report
// turned into a timeline::VerificationResult. Blocking; worker thread.
namespace kf {
class Transport;
}

namespace kf::deploy {

using Verifier = std::function<Result<timeline::VerificationResult>(Transport&, const BuildProfile&)>;

// Null when this KernelForge was built without core/verify: the recipe's verify step then
// says it was skipped and why.
Verifier defaultVerifier();

} // namespace kf::deploy

#if __has_include("core/verify/verifyreport.h")
#include "core/verify/verifyreport.h"
namespace kf::deploy {
// For `kernelforge-cli verify` and the Build pane: timeline::recordVerification(host,
// toVerificationResult(report)) puts a verification into the host's timeline.
timeline::VerificationResult toVerificationResult(const VerifyReport& report);
} // namespace kf::deploy
#endif
