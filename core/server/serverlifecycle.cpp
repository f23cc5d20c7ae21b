// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/serverlifecycle.h"

#include "core/jobs/remotejob.h"
#include "core/log/logging.h"
#include "core/remotebuild/memorygate.h"
#include "core/timeline/producers.h"

#include <algorithm>

namespace kf {
namespace {

const QString kServerJobPrefix = QStringLiteral("sglang-server-");
constexpr int kStopGraceSeconds = 10;
// The probe prints one word; anything longer is not its answer.
constexpr qint64 kProbeMaxOutputBytes = 64 * 1024;

// Prints "listening", "free" or "unknown": a socket in state 0A (LISTEN) whose local address
// ends in :PORT (hex, as the kernel prints it), in the IPv4 and IPv6 tables.
QString portProbeScript(quint16 port)
{
    return QStringLiteral("p=:") + QString::asprintf("%04X", unsigned(port)) + QStringLiteral(R"SH(
set --
for f in /proc/net/tcp /proc/net/tcp6; do [ -r "$f" ] && set -- "$@" "$f"; done
[ $# -gt 0 ] || { echo unknown; exit 0; }
awk -v p="$p" 'FNR > 1 && $4 == "0A" && substr($2, length($2) - 4) == p { f = 1 } END { print (f ? "listening" : "free") }' "$@"
)SH");
}

Result<ServerScan::Port> probePort(Transport& transport, quint16 port)
{
    CommandSpec spec;
    spec.command = portProbeScript(port);
    spec.maxOutputBytes = kProbeMaxOutputBytes;
    const ExecResult r = transport.exec(spec, 30000);
    const QByteArray word = r.stdOut.trimmed();
    if (!r.ok() || (word != "listening" && word != "free" && word != "unknown")) {
        QString why = r.error.isEmpty() ? QString::fromUtf8(r.stdErr).trimmed() : r.error;
        if (why.isEmpty())
            why = QStringLiteral("exit status %1").arg(r.exitCode);
        return Result<ServerScan::Port>::failure(
            QStringLiteral("cannot tell whether port %1 is in use on %2: %3").arg(port).arg(transport.describe(), why));
    }
    return word == "listening" ? ServerScan::Port::Listening
        : word == "free"       ? ServerScan::Port::Free
                               : ServerScan::Port::Unknown;
}

bool isRunning(const JobInfo& j)
{
    return j.state == JobInfo::State::Running || j.state == JobInfo::State::Starting;
}

} // namespace

QString serverJobName(quint16 port)
{
    return kServerJobPrefix + QString::number(port);
}

std::optional<quint16> serverJobPort(const JobInfo& job)
{
    if (!job.name.startsWith(kServerJobPrefix))
        return std::nullopt;
    bool ok = false;
    const uint port = job.name.mid(kServerJobPrefix.size()).toUInt(&ok);
    if (!ok || port == 0 || port > 65535)
        return std::nullopt;
    return quint16(port);
}

std::optional<JobInfo> ServerScan::running() const
{
    for (const JobInfo& j : servers)
        if (isRunning(j) && serverJobPort(j) == port)
            return j;
    return std::nullopt;
}

QList<JobInfo> ServerScan::runningServers() const
{
    QList<JobInfo> out;
    std::copy_if(servers.cbegin(), servers.cend(), std::back_inserter(out), isRunning);
    return out;
}

Result<ServerScan> scanServers(Transport& transport, quint16 port, const QString& root)
{
    const auto jobs = RemoteJob::list(transport, root);
    if (!jobs)
        return Result<ServerScan>::failure(
            QStringLiteral("cannot list the jobs on %1: %2").arg(transport.describe(), jobs.error()));
    const auto state = probePort(transport, port);
    if (!state)
        return Result<ServerScan>(state.withoutValue());
    ServerScan scan;
    scan.port = port;
    scan.portState = *state;
    std::copy_if(jobs->cbegin(), jobs->cend(), std::back_inserter(scan.servers), isServerJob);
    // Job ids begin with their UTC start time, so the newest sorts last.
    std::sort(scan.servers.begin(), scan.servers.end(), [](const JobInfo& a, const JobInfo& b) { return a.id > b.id; });
    return scan;
}

Result<void> checkTensorParallel(int tp, int gpuCount)
{
    if (tp < 1)
        return Result<void>::failure(QStringLiteral("TP must be at least 1"));
    if (gpuCount == 0)
        return Result<void>::failure(
            QStringLiteral("TP %1 needs %1 GPU(s); nvidia-smi reports none on this host").arg(tp));
    if (gpuCount > 0 && tp > gpuCount)
        return Result<void>::failure(QStringLiteral("TP %1 needs %1 GPUs; this host has %2").arg(tp).arg(gpuCount));
    return {};
}

Result<JobInfo> launchServer(
    Transport& transport, const ServerLaunchProfile& profile, const QString& root, int gpuCount)
{
    if (const Result<void> tp = checkTensorParallel(profile.tp, gpuCount); !tp)
        return Result<JobInfo>(tp);
    const auto scan = scanServers(transport, profile.port, root);
    if (!scan)
        return Result<JobInfo>(scan.withoutValue());
    if (const auto ours = scan->running())
        return Result<JobInfo>::failure(
            QStringLiteral("a server KernelForge started already runs on port %1 of %2 (job %3): stop it first, or "
                           "choose another port")
                .arg(profile.port)
                .arg(transport.describe(), ours->id));
    if (scan->portState == ServerScan::Port::Listening)
        return Result<JobInfo>::failure(
            QStringLiteral("port %1 of %2 is already in use by a program KernelForge did not start: choose another "
                           "port")
                .arg(profile.port)
                .arg(transport.describe()));
    JobSpec spec;
    spec.name = serverJobName(profile.port);
    spec.command = profile.command();
    spec.root = root;
    if (profile.memoryGate)
        memorygate::install(spec, {});
    auto started = RemoteJob::start(transport, spec);
    if (started) {
        log::monitor()->info("launched server job {} on {} port {}", started->id, transport.describe(), profile.port);
        timeline::recordServerLaunched(transport.describe(), profile, started->id);
    }
    return started;
}

Result<void> stopServer(Transport& transport, const QString& id, const QString& root)
{
    const auto job = RemoteJob::info(transport, id, root);
    if (!job)
        return job.withoutValue();
    if (!isServerJob(*job))
        return Result<void>::failure(QStringLiteral("job %1 on %2 is not a server").arg(id, transport.describe()));
    const Result<void> cancelled = RemoteJob::cancel(transport, id, root, kStopGraceSeconds);
    if (cancelled)
        log::monitor()->info("stopped server job {} on {}", id, transport.describe());
    return cancelled;
}

} // namespace kf
