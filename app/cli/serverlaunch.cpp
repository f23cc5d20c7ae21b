// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli server launch: start an inference server detached, unless the host's last
// verification says it cannot work (core/deploy: launchBlockedBecause, as the Server pane).
#include "app/cli/serverlaunch.h"

#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"

#include "core/deploy/verifier.h"
#include "core/hosts/destination.h"
#include "core/server/serverlifecycle.h"

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
      << "Refused when the port is in use, and when the host's last verification ('kernelforge-cli verify',\n"
      << "the Build pane) found that sgl_kernel does not import or a library has no kernel image for a GPU:\n"
      << "such a server fails only after loading its model. --force launches anyway.\n"
      << "--memory-gate puts the memory gate in front of the server's JIT compiles (flashinfer, DeepGEMM,\n"
      << "torch extensions): each waits until its memory fits, as a build's compiles do.\n"
      << "Exit status: 0 launched; 1 refused or failed; 2 on bad usage; 255 when the connection failed.\n";
    s.flush();
}

} // namespace

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
    if (const QString why = deploy::launchBlockedBecause(opened->hostKey); !why.isEmpty()) {
        if (!force) {
            err() << "kernelforge-cli server launch: refused: " << why
                  << " (kernelforge-cli verify), or launch anyway with --force\n";
            return 1;
        }
        err() << "kernelforge-cli server launch: --force: launching although " << why << '\n';
    }
    const auto job = launchServer(*opened->transport, profile);
    if (connectionGivenUp())
        return kExitConnection;
    if (!job) {
        err() << "kernelforge-cli server launch: " << job.error() << '\n';
        return 1;
    }
    out() << job->id << '\n';
    return 0;
}

} // namespace kf::cli
