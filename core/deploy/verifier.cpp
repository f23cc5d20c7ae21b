// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/verifier.h"

#include "core/transport/transport.h"
#include "core/verify/verifier.h"

namespace kf::deploy {

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

Result<timeline::VerificationResult> verifyBuild(Transport& transport, const BuildProfile& profile)
{
    VerifyRequest request;
    request.profile = profile;
    const auto report = runVerify(transport, request);
    if (!report)
        return Result<timeline::VerificationResult>::failure(report.error());
    return toVerificationResult(report.value());
}

} // namespace kf::deploy
