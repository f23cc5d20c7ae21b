// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/verify/verifyrun.h"

#include "core/events/eventlog.h"
#include "core/events/verification.h"
#include "core/jobs/remotejob.h"
#include "core/log/logging.h"
#include "core/transport/transport.h"
#include "core/verify/provenance.h"

namespace kf {

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
    r.home = report.home;
    r.madeBy = report.makers();
    return r;
}

QList<BuildRecord> knownBuilds(Transport& transport)
{
    const QString host = transport.describe();
    const auto rows = buildhistory::list(host, 200);
    if (!rows) {
        log::build()->warn("cannot read the builds of {}: {}", host, rows.error());
        return {};
    }
    QList<BuildRecord> builds = *rows;
    int asked = 0;
    for (BuildRecord& b : builds) {
        // A row nobody followed to the end still says "running": the job folder knows better.
        if (b.result != QLatin1String("running") || b.ended.isValid() || ++asked > 8)
            continue;
        const auto info = RemoteJob::info(transport, b.jobId);
        if (!info || info->state != JobInfo::State::Finished)
            continue;
        b.started = info->started.isValid() ? info->started : b.started;
        b.ended = info->ended;
        b.exitStatus = info->exitStatus;
        b.result = buildResultFor(info->exitStatus, info->cancelled);
        if (const auto saved = buildhistory::save(b); !saved)
            log::build()->warn("cannot record the end of build {}: {}", b.jobId, saved.error());
    }
    return builds;
}

Result<VerifyReport> verifyAndRecord(Transport& transport, const VerifyRequest& request)
{
    VerifyRequest withBuilds = request;
    withBuilds.builds = knownBuilds(transport);
    auto report = runVerify(transport, withBuilds);
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
    const QString when = (*last)->time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd HH:mm"));
    if (!v.launchBlockers.isEmpty())
        return QStringLiteral("the last verification of %1 (%2) found what stops a server: %3. Fix the build and "
                              "verify again")
            .arg(v.dir.isEmpty() ? QStringLiteral("the build") : v.dir, when,
                v.launchBlockers.join(QStringLiteral("; ")));
    // Provenance: a build of that folder after the verification decides. When the newest one did
    // not succeed, what the verification passed is not what the sources build now.
    const auto later = buildhistory::inRange(host, (*last)->time, {});
    if (!later) {
        log::build()->warn("cannot read the builds of {}: {}", host, later.error());
        return {};
    }
    const BuildRecord* newest = nullptr;
    for (const BuildRecord& b : *later)
        if (b.started.isValid() && b.started > (*last)->time && buildConcernsFolder(b, v.home, v.dir)
            && (!newest || b.started >= newest->started))
            newest = &b;
    if (!newest || newest->result == QLatin1String("succeeded") || newest->result == QLatin1String("running"))
        return {};
    return QStringLiteral("%1 of %2 %3 after the last verification (%4): the libraries it passed are not what the "
                          "sources build now. Fix the build (its diagnostics are in the Build tab) and build again")
        .arg(describeBuild(*newest), v.dir, newest->result, when);
}

Result<timeline::VerificationResult> verifyBuild(Transport& transport, const BuildProfile& profile)
{
    VerifyRequest request;
    request.profile = profile;
    request.builds = knownBuilds(transport);
    const auto report = runVerify(transport, request);
    if (!report)
        return Result<timeline::VerificationResult>::failure(report.error());
    return toVerificationResult(report.value());
}

} // namespace kf
