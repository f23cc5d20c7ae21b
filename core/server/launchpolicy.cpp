// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/launchpolicy.h"

#include "core/gpu/gpuprocesses.h"
#include "core/jobs/remotejob.h"
#include "core/log/logging.h"
#include "core/remotebuild/memorygate.h"
#include "core/server/serverevents.h"
#include "core/server/servergpus.h"
#include "core/server/serverlifecycle.h"
#include "core/util/shellquote.h"
#include "core/verify/verifyrun.h"

#include <QSet>

#include <algorithm>

namespace kf {
namespace {

// A job's whole command (the listing carries its first 200 bytes); a launch command is far shorter.
constexpr qint64 kCommandMaxBytes = 64 * 1024;
// What a refusal quotes of a process's command line (it is the host's text: bounded, shown escaped).
constexpr qsizetype kQuotedCommandChars = 60;
constexpr int kQuotedProcesses = 3;

QString quoted(const QString& text)
{
    const QString line = text.simplified();
    return line.size() > kQuotedCommandChars ? line.left(kQuotedCommandChars - 1) + QChar(0x2026) : line;
}

QString gpusWord(const QList<int>& gpus)
{
    return (gpus.size() == 1 ? QStringLiteral("GPU ") : QStringLiteral("GPUs ")) + gpuRangeText(gpus);
}

QList<int> shared(const QList<int>& a, const QList<int>& b)
{
    QList<int> out;
    for (int g : a)
        if (b.contains(g))
            out.append(g);
    return out;
}

QString describeHolders(const QList<GpuProcess>& holders)
{
    QList<int> gpus;
    for (const GpuProcess& p : holders)
        if (!gpus.contains(p.gpuIndex))
            gpus.append(p.gpuIndex);
    std::sort(gpus.begin(), gpus.end());
    QStringList named;
    for (const GpuProcess& p : holders.first(std::min<qsizetype>(holders.size(), kQuotedProcesses))) {
        QStringList who;
        if (!p.user.isEmpty())
            who << p.user;
        if (hasValue(p.usedMemoryMiB))
            who << QStringLiteral("%1 MiB").arg(p.usedMemoryMiB, 0, 'f', 0);
        QString about = who.join(QStringLiteral(", "));
        if (const QString command = quoted(p.commandLine.isEmpty() ? p.name : p.commandLine); !command.isEmpty())
            about += (about.isEmpty() ? QString() : QStringLiteral(": ")) + command;
        named << QStringLiteral("pid %1 on GPU %2").arg(p.pid).arg(p.gpuIndex)
                + (about.isEmpty() ? QString() : QStringLiteral(" (%1)").arg(about));
    }
    QString text = QStringLiteral("%1 %2 memory held by %3 process(es) KernelForge did not start: %4")
                       .arg(gpusWord(gpus), gpus.size() == 1 ? QStringLiteral("has") : QStringLiteral("have"))
                       .arg(holders.size())
                       .arg(named.join(QStringLiteral(", ")));
    if (holders.size() > kQuotedProcesses)
        text += QStringLiteral(" and %1 more").arg(holders.size() - kQuotedProcesses);
    return text;
}

} // namespace

Result<void> checkServerFits(const ServerLaunchProfile& profile, int gpuCount)
{
    if (profile.tp < 1)
        return Result<void>::failure(QStringLiteral("TP must be at least 1"));
    const auto gpus = serverGpus(profile);
    if (!gpus)
        return Result<void>::failure(
            QStringLiteral("cannot tell which GPUs the server would use: %1").arg(gpus.error()));
    if (gpuCount == 0)
        return Result<void>::failure(QStringLiteral("TP %1 needs %2 GPU(s); nvidia-smi reports none on this host")
                                         .arg(profile.tp)
                                         .arg(gpus->size()));
    if (gpuCount < 0 || gpus->isEmpty() || gpus->last() < gpuCount)
        return {};
    if (gpus->size() == profile.tp && gpus->last() == profile.tp - 1)
        return Result<void>::failure(
            QStringLiteral("TP %1 needs %1 GPUs; this host has %2").arg(profile.tp).arg(gpuCount));
    return Result<void>::failure(
        QStringLiteral("the server would use %1; this host has %2 (%3)")
            .arg(gpusWord(*gpus))
            .arg(gpuCount)
            .arg(gpuCount == 1 ? QStringLiteral("GPU 0") : QStringLiteral("GPUs 0-%1").arg(gpuCount - 1)));
}

Result<LaunchAttempt> launchServer(Transport& transport, const LaunchRequest& request)
{
    const ServerLaunchProfile& profile = request.profile;
    const QString host = transport.describe();
    // What the command says, before the host is asked anything (the GPU count comes later).
    if (const Result<void> valid = checkServerFits(profile, -1); !valid)
        return Result<LaunchAttempt>(valid);
    const auto wanted = serverGpus(profile);

    const auto scan = scanServers(transport, profile.port, request.root);
    if (!scan)
        return Result<LaunchAttempt>(scan.withoutValue());
    if (const auto ours = scan->running())
        return Result<LaunchAttempt>::failure(
            QStringLiteral("a server KernelForge started already runs on port %1 of %2 (job %3): choose another port")
                .arg(profile.port)
                .arg(host, ours->id));
    if (scan->portState == ServerScan::Port::Listening)
        return Result<LaunchAttempt>::failure(
            QStringLiteral("port %1 of %2 is already in use by a program KernelForge did not start: choose another "
                           "port")
                .arg(profile.port)
                .arg(host));

    LaunchAttempt attempt;
    attempt.gpus = *wanted;
    const auto processes = listGpuProcesses(transport);
    if (!processes)
        attempt.notes << QStringLiteral("the GPUs of %1 could not be listed (%2): their count and use were not checked")
                             .arg(host, processes.error());
    if (const Result<void> fits = checkServerFits(profile, processes ? processes->gpuCount : -1); !fits)
        return Result<LaunchAttempt>(fits);

    if (const QString why = launchBlockedBecause(host); !why.isEmpty())
        attempt.refusals << why;

    // Our other servers: the GPUs their whole commands say they use.
    QSet<int> oursUse;
    const QString root = request.root.isEmpty() ? kDefaultJobRoot : request.root;
    for (const JobInfo& job : scan->runningServers()) {
        const quint16 port = serverJobPort(job).value_or(0);
        const auto command
            = transport.readFile(root + QLatin1Char('/') + job.id + QStringLiteral("/cmd"), kCommandMaxBytes);
        const auto used = serverGpus(shellSplit(command ? QString::fromUtf8(*command) : job.command));
        if (!used) {
            attempt.notes << QStringLiteral("which GPUs the server on port %1 (job %2) uses is not known: %3")
                                 .arg(port)
                                 .arg(job.id, used.error());
            continue;
        }
        for (int g : *used)
            oursUse.insert(g);
        if (const QList<int> both = shared(*wanted, *used); !both.isEmpty())
            attempt.refusals << QStringLiteral("%1 already %2 the server KernelForge started on port %3 (job %4)")
                                    .arg(gpusWord(both),
                                        both.size() == 1 ? QStringLiteral("runs") : QStringLiteral("run"))
                                    .arg(port)
                                    .arg(job.id);
    }
    // Anything else holding memory on them (a server of ours on its own GPUs is said above).
    if (processes) {
        QList<GpuProcess> holders;
        for (const GpuProcess& p : processes->processes)
            if (wanted->contains(p.gpuIndex) && !oursUse.contains(p.gpuIndex))
                holders.append(p);
        if (!holders.isEmpty())
            attempt.refusals << describeHolders(holders);
    }
    if (!attempt.refusals.isEmpty() && !request.force)
        return attempt;

    JobSpec spec;
    spec.name = serverJobName(profile.port);
    spec.command = profile.command();
    spec.root = request.root;
    if (profile.memoryGate) // the server's JIT compiles wait until their memory fits
        memorygate::install(spec, {});
    auto started = RemoteJob::start(transport, spec);
    if (!started)
        return Result<LaunchAttempt>(started.withoutValue());
    log::monitor()->info("launched server job {} on {} port {}{}", started->id, host, profile.port,
        attempt.refusals.isEmpty() ? QString()
                                   : QStringLiteral(" (forced past: %1)").arg(attempt.refusals.join(u"; ")));
    timeline::recordServerLaunched(host, profile, started->id, attempt.refusals);
    attempt.job = *started;
    return attempt;
}

} // namespace kf
