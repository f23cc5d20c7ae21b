// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli facts: the server facts card (core/hosts/serverfacts.h) on a terminal.
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"

#include "core/hosts/serverfacts.h"

#include <QJsonDocument>

namespace {

void usage(QTextStream& s)
{
    s << "Usage: kernelforge-cli facts [-p PORT] [-i KEY] [-J JUMP] [--known-hosts FILE] [--accept-new]\n"
      << "                            [USER@]HOST [--json]\n"
      << "       kernelforge-cli facts --local [--json]\n"
      << "\n"
      << "Shows what a server has: OS, kernel, CPUs, RAM, free disk in home, GPUs, driver,\n"
      << "nvcc, CMake, Ninja, GCC, Python, PyTorch, SGLang and sgl-kernel versions.\n"
      << "One POSIX sh script runs on the server; nothing needs to be installed there.\n"
      << "\n"
      << "  -p PORT, -i KEY, -J JUMP, --known-hosts FILE, --accept-new   as for 'exec'\n"
      << "            (OpenSSH defaults: ~/.ssh/known_hosts, unknown host keys refused)\n"
      << "  --local   this machine (no SSH)\n"
      << "  --json    one JSON object instead of the table\n"
      << "Exit status: 0; 1 when the facts could not be gathered; 2 on bad usage;\n"
      << "255 when the connection, host key or login failed (one line on stderr).\n";
}

void printTable(const kf::ServerFacts& facts)
{
    const auto rows = facts.rows();
    qsizetype width = 0;
    for (const auto& [label, value] : rows)
        width = std::max(width, label.size());
    QTextStream& o = kf::cli::out();
    for (const auto& [label, value] : rows) {
        const QStringList lines = value.split(QLatin1Char('\n'));
        for (qsizetype i = 0; i < lines.size(); ++i)
            o << (i == 0 ? label : QString()).leftJustified(width + 2) << lines[i] << '\n';
    }
    if (!facts.complete)
        o << "(incomplete: the script did not run to the end)\n";
}

int runFacts(const QStringList& argv)
{
    QStringList args = argv;
    if (args.contains(QStringLiteral("--help")) || args.contains(QStringLiteral("-h"))) {
        usage(kf::cli::out());
        return 0;
    }
    const QString me = QStringLiteral("kernelforge-cli facts");
    bool json = false;
    kf::cli::FlagTable flags;
    flags.add("--json", &json);
    if (const auto taken = flags.take(args); !taken)
        return kf::cli::usageError(me, taken.error(), usage);
    const auto target = kf::cli::takeTargetOptions(args);
    if (!target)
        return kf::cli::usageError(me, target.error(), usage);
    if (!args.isEmpty())
        return kf::cli::usageError(me, QStringLiteral("unexpected argument ") + args.first(), usage);
    const auto opened = kf::cli::openTarget(*target);
    if (!opened)
        return kf::cli::connectionError(me, opened.error());
    const auto facts = kf::collectServerFacts(*opened->transport);
    if (!facts) {
        kf::cli::err() << me << ": " << facts.error() << '\n';
        return 1;
    }
    if (json)
        kf::cli::out() << QString::fromUtf8(QJsonDocument(facts->toJson()).toJson(QJsonDocument::Indented));
    else
        printTable(facts.value());
    return 0;
}

const kf::cli::Registration reg { "facts", "Show a server's OS, CPUs, RAM, disk, GPUs and tool versions", &runFacts };

} // namespace
