// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli server launch / stop: start an inference server detached, or stop one, through
// a ServerSession of the host: the one launch policy the Server pane and a recipe use
// (core/server/launchpolicy.h), and the stop the Server pane offers.
#include "app/cli/serverlaunch.h"

#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"

#include "core/hosts/destination.h"
#include "core/server/serversession.h"

#include <QEventLoop>

namespace kf::cli {
namespace {

void usage(QTextStream& s)
{
    s << "Usage: kernelforge-cli server launch [-p PORT] [-i KEY] [-J JUMP] [--known-hosts FILE] [--accept-new]\n"
      << "                                     [USER@]HOST (--model PATH | --demo) [--tp N] [--port 30000]\n"
      << "                                     [--python python] [--no-metrics] [--memory-gate] [--force]\n"
      << "                                     [-- EXTRA ARGS...]\n"
      << "       kernelforge-cli server launch --local ...\n"
      << "\n"
      << "Starts python -m sglang.launch_server (--demo: the demo host's sglang-demo-server) as a detached\n"
      << "job named sglang-server-PORT on the host's loopback, prints its job id and records it in the\n"
      << "host's timeline. Follow its log with 'build attach JOB', its health with 'server status'.\n"
      << "Refused when the port is in use or TP needs more GPUs than the host has; and, unless --force,\n"
      << "when the host's last verification ('kernelforge-cli verify', the Build pane) found that sgl_kernel\n"
      << "does not import or a library has no kernel image for a GPU, or when a GPU the server would use\n"
      << "(--tp, --dp, --base-gpu-id, --gpu-id-step) already runs another server KernelForge started or holds\n"
      << "memory of any process: such a server fails only after loading its model. --force launches anyway.\n"
      << "--memory-gate puts the memory gate in front of the server's JIT compiles (flashinfer, DeepGEMM,\n"
      << "torch extensions): each waits until its memory fits, as a build's compiles do.\n"
      << "Exit status: 0 launched; 1 refused or failed; 2 on bad usage; 255 when the connection failed.\n";
    s.flush();
}

void stopUsage(QTextStream& s)
{
    s << "Usage: kernelforge-cli server stop [-p PORT] [-i KEY] [-J JUMP] [--known-hosts FILE] [--accept-new]\n"
      << "                                   [USER@]HOST --port PORT\n"
      << "       kernelforge-cli server stop --local --port PORT\n"
      << "\n"
      << "Stops the server KernelForge started on the port (its job sglang-server-PORT: TERM to the job,\n"
      << "KILL after 10 s) and prints the job. A server KernelForge did not start is not stopped.\n"
      << "Exit status: 0 stopped; 1 none of ours runs there, or it could not be stopped; 2 on bad usage;\n"
      << "255 when the connection failed.\n";
    s.flush();
}

} // namespace

int runServerStop(const QStringList& argv)
{
    QStringList args = argv;
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        stopUsage(out());
        return 0;
    }
    const QString me = QStringLiteral("server stop");
    int port = 0;
    FlagTable flags;
    flags.add("--port", &port, 1, 65535, "a port from 1 to 65535");
    if (const auto taken = flags.take(args); !taken)
        return usageError(me, taken.error(), stopUsage);
    const auto target = takeTargetOptions(args);
    if (!target)
        return usageError(me, target.error(), stopUsage);
    if (!args.isEmpty())
        return usageError(me, QStringLiteral("unexpected argument ") + args.first(), stopUsage);
    if (port == 0)
        return usageError(me, QStringLiteral("give --port PORT"), stopUsage);
    const auto opened = openTarget(*target);
    if (!opened)
        return connectionError(me, opened.error());
    ServerSession session(opened->transport, opened->hostKey);
    QEventLoop loop;
    QString error;
    std::optional<JobInfo> stopped;
    bool asked = false;
    QObject::connect(&session, &ServerSession::scanned, &loop, [&] {
        if (asked)
            return;
        asked = true;
        const ServerState* s = session.server(quint16(port));
        if (!session.lastScanError().isEmpty())
            error = session.lastScanError();
        else if (!s || !s->running())
            error
                = QStringLiteral("no server KernelForge started runs on port %1 of %2").arg(port).arg(opened->hostKey);
        if (!error.isEmpty())
            return loop.quit();
        session.stop(quint16(port));
    });
    QObject::connect(&session, &ServerSession::stopFailed, &loop, [&](quint16, const QString& why) {
        error = why;
        loop.quit();
    });
    QObject::connect(&session, &ServerSession::serverEnded, &loop, [&](const JobInfo& job) {
        stopped = job;
        loop.quit();
    });
    session.refresh();
    loop.exec();
    if (connectionGivenUp())
        return kExitConnection;
    if (!stopped) {
        err() << "kernelforge-cli server stop: " << error << '\n';
        return 1;
    }
    out() << "stopped server job " << stopped->id << " on port " << port << '\n';
    return 0;
}

int runServerLaunch(const QStringList& argv)
{
    QStringList args = argv;
    QStringList extra;
    if (const qsizetype dashes = args.indexOf(QStringLiteral("--")); dashes >= 0) {
        extra = args.mid(dashes + 1);
        args = args.first(dashes);
    }
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(out());
        return 0;
    }
    const QString me = QStringLiteral("server launch");
    ServerLaunchProfile profile;
    profile.extraArgs = extra;
    bool force = false;
    bool noMetrics = false;
    FlagTable flags;
    flags.add("--model", &profile.modelPath)
        .add("--demo", &profile.demo)
        .add("--tp", &profile.tp, 1, "a TP size of 1 or more")
        .add("--python", &profile.python)
        .add("--no-metrics", &noMetrics)
        .add("--memory-gate", &profile.memoryGate)
        .add("--force", &force)
        .add("--port", [&profile](const QString& v) -> Result<void> {
            const auto p = parsePort(v);
            if (!p)
                return Result<void>::failure(QStringLiteral("bad --port: %1").arg(v));
            profile.port = *p;
            return {};
        });
    if (const auto taken = flags.take(args); !taken)
        return usageError(me, taken.error(), usage);
    profile.enableMetrics = !noMetrics;
    const auto target = takeTargetOptions(args);
    if (!target)
        return usageError(me, target.error(), usage);
    if (!args.isEmpty())
        return usageError(me, QStringLiteral("unexpected argument ") + args.first(), usage);
    if (profile.modelPath.isEmpty() && !profile.demo)
        return usageError(me, QStringLiteral("give --model PATH (or --demo)"), usage);
    if (profile.modelPath.isEmpty())
        profile.modelPath = ServerLaunchProfile::demoProfile().modelPath;
    const auto opened = openTarget(*target);
    if (!opened)
        return connectionError(me, opened.error());
    ServerSession session(opened->transport, opened->hostKey);
    LaunchRequest request;
    request.profile = profile;
    request.force = force;
    QEventLoop loop;
    LaunchAttempt attempt;
    QString error;
    QObject::connect(
        &session, &ServerSession::launchFinished, &loop, [&](quint16, const LaunchAttempt& a, const QString& e) {
            attempt = a;
            error = e;
            loop.quit();
        });
    session.launch(request);
    loop.exec();
    if (connectionGivenUp())
        return kExitConnection;
    for (const QString& note : std::as_const(attempt.notes))
        err() << "kernelforge-cli server launch: note: " << note << '\n';
    if (!error.isEmpty()) {
        err() << "kernelforge-cli server launch: " << error << '\n';
        return 1;
    }
    if (!attempt.job) {
        err() << "kernelforge-cli server launch: refused: " << attempt.refusals.join(QStringLiteral("; "))
              << "; launch anyway with --force\n";
        return 1;
    }
    for (const QString& why : std::as_const(attempt.refusals))
        err() << "kernelforge-cli server launch: --force: launching although " << why << '\n';
    const auto job = attempt.job;
    out() << job->id << '\n';
    return 0;
}

} // namespace kf::cli
