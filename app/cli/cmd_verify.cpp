// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli verify: what a build produced and whether it can run here (core/verify).
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"

#include "core/verify/verifier.h"
#include "core/verify/verifyrun.h"

#include <QJsonDocument>

namespace {

using namespace kf;

void usage(QTextStream& s)
{
    s << "Usage: kernelforge-cli verify [-p PORT] [-i KEY] [-J JUMP] [--known-hosts FILE] [--accept-new]\n"
      << "                              [USER@]HOST (--dir DIR | --profile NAME) [--profile NAME] [--json]\n"
      << "       kernelforge-cli verify --local (--dir DIR | --profile NAME) [--json]\n"
      << "\n"
      << "Checks what a build produced before anything runs it:\n"
      << "  - every shared library (.so) under DIR and in the installed sgl_kernel package: which SASS\n"
      << "    (sm_90a, sm_120) and PTX (compute_80) targets it carries, against the compute capability of\n"
      << "    every GPU nvidia-smi lists (\"no kernel image\" otherwise shows only at the first launch);\n"
      << "    cuobjdump on the server lists them, or else KernelForge reads the ELF's fat binary headers;\n"
      << "  - python -c 'import sgl_kernel' with the profile's python, with the torch ABI mismatch,\n"
      << "    missing CUDA libraries, an old driver and the FA3 import failure explained;\n"
      << "  - whether FA3 (flash_ops) is there as the profile's -DSGL_KERNEL_ENABLE_FA3 asks;\n"
      << "  - the libraries inside wheels in DIR/dist;\n"
      << "  - which build (this machine's history) made each library: one the folder's newest build\n"
      << "    failed to replace is stale, and fails.\n"
      << "\n"
      << "  --dir DIR        the project or build folder on the server (default: the profile's working_dir)\n"
      << "  --profile NAME   a build profile (kernelforge-cli build profiles): its environment picks the\n"
      << "                   python, its cmake_args say whether FA3 was asked for\n"
      << "  --local          this machine (no SSH)\n"
      << "  --json           one JSON object per line: each GPU, library, wheel and check, then a summary\n"
      << "  -p PORT, -i KEY, -J JUMP, --known-hosts FILE, --accept-new   as for 'exec'\n"
      << "Exit status: 0 all good (warnings allowed); 1 verification found problems (or could not run);\n"
      << "2 on bad usage; 255 when the connection, host key or login failed.\n";
    s.flush();
}

void printText(const VerifyReport& r)
{
    QTextStream& o = cli::out();
    o << "Folder: " << (r.dir.isEmpty() ? QStringLiteral("-") : r.dir) << '\n';
    o << "Libraries ("
      << (r.cuobjdump.isEmpty() ? QStringLiteral("fat binary headers read by KernelForge")
                                : QStringLiteral("cuobjdump ") + r.cuobjdump)
      << "):\n";
    for (const VerifyLibrary& l : r.libraries) {
        QString targets = l.noDeviceCode ? QStringLiteral("no CUDA code")
            : l.targets.isEmpty()        ? QStringLiteral("?")
                                         : joinTargetNames(l.targets);
        o << "  " << l.path << "  [" << l.origin << "]  " << targets;
        if (!l.error.isEmpty())
            o << "  (" << l.error << ')';
        if (!l.madeBy.isEmpty())
            o << "  made by build " << l.madeBy;
        o << '\n';
    }
    if (r.libraries.isEmpty())
        o << "  none\n";
    if (!r.python.isEmpty())
        o << "Python: " << r.python << ' ' << r.pythonVersion
          << (r.torchVersion.isEmpty() ? QString() : QStringLiteral(", torch ") + r.torchVersion) << '\n';
    o << "Checks:\n";
    for (const PreflightCheck& c : r.checks) {
        o << "  " << toString(c.level).toUpper().leftJustified(5) << c.id.leftJustified(10) << c.message << '\n';
        if (!c.fix.isEmpty())
            o << "       fix: " << c.fix << '\n';
    }
    o << r.summary() << '\n';
}

int runVerifyCommand(const QStringList& argv)
{
    QStringList args = argv;
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(cli::out());
        return 0;
    }
    const QString me = QStringLiteral("kernelforge-cli verify");
    VerifyRequest request;
    QString profileName;
    bool json = false;
    // Our own options first, so their values are never taken for the destination.
    cli::FlagTable flags;
    flags.add("--json", &json).addPath("--dir", &request.dir).add("--profile", &profileName);
    if (const auto taken = flags.take(args); !taken)
        return cli::usageError(me, taken.error(), usage);
    const auto targetOptions = cli::takeTargetOptions(args);
    if (!targetOptions)
        return cli::usageError(me, targetOptions.error(), usage);
    if (!args.isEmpty())
        return cli::usageError(me, QStringLiteral("unexpected argument ") + args.first(), usage);
    const cli::TargetOptions target = *targetOptions;
    if (!profileName.isEmpty()) {
        const auto all = loadBuildProfiles();
        if (!all) {
            cli::err() << "kernelforge-cli verify: " << all.error() << '\n';
            return 1;
        }
        request.profile = findBuildProfile(*all, profileName);
        if (!request.profile) {
            return cli::usageError(
                me, QStringLiteral("no profile named '%1' (see 'kernelforge-cli build profiles')").arg(profileName));
        }
    }
    if (request.dir.isEmpty() && !request.profile) {
        return cli::usageError(me, QStringLiteral("give --dir DIR or --profile NAME"), usage);
    }
    const auto opened = cli::openTarget(target);
    if (!opened)
        return cli::connectionError(me, opened.error());
    const auto report = verifyAndRecord(*opened->transport, request);
    if (cli::connectionGivenUp())
        return cli::kExitConnection;
    if (!report) {
        cli::err() << "kernelforge-cli verify: " << report.error() << '\n';
        return 1;
    }
    if (json) {
        for (const QJsonObject& o : report->toJsonLines())
            cli::out() << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Compact)) << '\n';
    } else {
        printText(*report);
    }
    return report->failed() ? 1 : 0;
}

const kf::cli::Registration reg { "verify", "Check a build's libraries (SASS/PTX vs the GPUs), import sgl_kernel, FA3",
    &runVerifyCommand };

} // namespace
