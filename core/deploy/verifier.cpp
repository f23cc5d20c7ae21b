// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/verifier.h"

// core/verify and the timeline were written side by side (issue #16); this file is where they
// meet. Without core/verify in the tree there is nothing to run.
#if __has_include("core/verify/verifier.h")
#include "core/transport/transport.h"
#include "core/verify/verifier.h"
#define KF_HAS_VERIFIER 1
#endif

namespace kf::deploy {

#ifdef KF_HAS_VERIFIER
timeline::VerificationResult toVerificationResult(const VerifyReport& report)
{
    timeline::VerificationResult r;
    r.ok = !report.failed();
    r.summary = report.summary();
    r.dir = report.dir;
    if (report.importRan)
        r.importOk = report.importExit == 0;
    if (report.fa3ImportRan)
        r.fa3 = report.fa3ImportExit == 0;
    for (const VerifyGpu& g : report.gpus)
        if (g.cc)
            r.gpuCapabilities.append(g.cc->toString());
    for (const VerifyLibrary& l : report.libraries) {
        QStringList targets;
        for (const CudaTarget& t : l.targets)
            targets.append(t.name());
        r.libraries.append({ l.fileName(), l.origin, targets });
    }
    return r;
}

Verifier defaultVerifier()
{
    return [](Transport& transport, const BuildProfile& profile) -> Result<timeline::VerificationResult> {
        VerifyRequest request;
        request.profile = profile;
        const auto report = runVerify(transport, request);
        if (!report)
            return Result<timeline::VerificationResult>::failure(report.error());
        return toVerificationResult(report.value());
    };
}
#else
Verifier defaultVerifier()
{
    return {};
}
#endif

} // namespace kf::deploy
