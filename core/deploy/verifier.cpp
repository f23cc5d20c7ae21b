// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/deploy/verifier.h"

#include "core/log/logging.h"
#include "core/timeline/eventstore.h"
#include "core/timeline/producers.h"
#include "core/transport/transport.h"

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
    for (const PreflightCheck& c : report.launchBlockers())
        r.launchBlockers.append(c.message);
    return r;
}

Result<VerifyReport> verifyAndRecord(Transport& transport, const VerifyRequest& request)
{
    auto report = runVerify(transport, request);
    if (report)
        timeline::recordVerification(transport.describe(), toVerificationResult(*report));
    return report;
}

QString launchBlockedBecause(const QString& host)
{
    const auto last = timeline::latest(host, timeline::kind::VerifyResult);
    if (!last) {
        log::build()->warn("cannot read the last verification of {}: {}", host, last.error());
        return {};
    }
    if (!*last)
        return {};
    const timeline::VerificationResult v = timeline::VerificationResult::fromJson((*last)->details);
    if (v.launchBlockers.isEmpty())
        return {};
    return QStringLiteral("the last verification of %1 (%2) found what stops a server: %3. Fix the build and verify "
                          "again")
        .arg(v.dir.isEmpty() ? QStringLiteral("the build") : v.dir,
            (*last)->time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm")),
            v.launchBlockers.join(QStringLiteral("; ")));
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
