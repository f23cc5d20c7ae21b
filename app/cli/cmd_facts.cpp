// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli facts: the server facts card (core/hosts/serverfacts.h) on a terminal.
#include "app/cli/cli.h"
#include "app/cli/sshoptions.h"

#include "core/hosts/serverfacts.h"
#include "core/transport/localtransport.h"

#include <QJsonDocument>

#include <memory>

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
    bool json = false;
    bool local = false;
    for (qsizetype i = 0; i < args.size();) {
        const QString& a = args[i];
        if (a == QLatin1String("--help") || a == QLatin1String("-h")) {
            usage(kf::cli::out());
            return 0;
        }
        if (a == QLatin1String("--json")) {
            json = true;
            args.removeAt(i);
        } else if (a == QLatin1String("--local")) {
            local = true;
            args.removeAt(i);
        } else {
            ++i;
        }
    }
    std::shared_ptr<kf::Transport> transport;
    if (local) {
        if (!args.isEmpty()) {
            kf::cli::err() << "kernelforge-cli facts: unexpected argument " << args.first() << " with --local\n";
            return 2;
        }
        transport = std::make_shared<kf::LocalTransport>();
    } else {
        kf::cli::SshCliOptions opts;
        QString error;
        if (!kf::cli::takeSshOptions(args, &opts, &error) || !args.isEmpty() || opts.hasRemotePath) {
            if (error.isEmpty())
                error = args.isEmpty() ? QStringLiteral("a destination takes no :PATH")
                                       : QStringLiteral("unexpected argument ") + args.first();
            kf::cli::err() << "kernelforge-cli facts: " << error << '\n';
            usage(kf::cli::err());
            return 2;
        }
        auto connected = kf::cli::connectForCli(opts);
        if (!connected) {
            kf::cli::err() << "kernelforge-cli facts: "
                           << QString(connected.error()).replace(QLatin1Char('\n'), QLatin1Char(' ')) << '\n';
            return kf::cli::kExitConnection;
        }
        transport = connected.value();
    }
    const auto facts = kf::collectServerFacts(*transport);
    if (!facts) {
        kf::cli::err() << "kernelforge-cli facts: " << facts.error() << '\n';
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
