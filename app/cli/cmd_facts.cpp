// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli facts: the server facts card (core/hosts/serverfacts.h) on a terminal.
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"

#include "core/hosts/serverfacts.h"
#include "core/sglkernel/kerneltree.h"
#include "core/sglkernel/serverhints.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace {

void usage(QTextStream& s)
{
    s << "Usage: kernelforge-cli facts [-p PORT] [-i KEY] [-J JUMP] [--known-hosts FILE] [--accept-new]\n"
      << "                            [USER@]HOST [--root PATH] [--json]\n"
      << "       kernelforge-cli facts --local [--root PATH] [--json]\n"
      << "\n"
      << "Shows what a server has: OS, kernel, CPUs, RAM, free disk in home, GPUs, driver,\n"
      << "nvcc, CMake, Ninja, GCC, Python, PyTorch, SGLang and sgl-kernel versions.\n"
      << "One POSIX sh script runs on the server; nothing needs to be installed there.\n"
      << "\n"
      << "  -p PORT, -i KEY, -J JUMP, --known-hosts FILE, --accept-new   as for 'exec'\n"
      << "            (OpenSSH defaults: ~/.ssh/known_hosts, unknown host keys refused)\n"
      << "  --local   this machine (no SSH)\n"
      << "  --root PATH  also look at the sgl-kernel tree there (an sglang checkout of either layout,\n"
      << "            sgl-kernel/ or python/sglang/kernels/aot/): which tree, what it asks for, and the\n"
      << "            hints for building it on this server\n"
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
    QString root;
    kf::cli::FlagTable flags;
    flags.add("--json", &json).addPath("--root", &root);
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
    // With --root the facts also read the sgl-kernel tree, found as everywhere else.
    std::optional<kf::ProjectProbe> probe;
    QString tree;
    if (!root.isEmpty()) {
        const auto search = kf::sglkernel::findKernelTree(*opened->transport, root);
        if (!search || !search->tree) {
            kf::cli::err() << me << ": " << (search ? search->notFound() : search.error()) << '\n';
            return 1;
        }
        probe = kf::ProjectProbe { search->tree->dir, search->tree->dir + QStringLiteral("/build"), {},
            search->tree->sglangPyproject() };
        tree = QStringLiteral("sgl-kernel tree: ") + search->tree->describe();
    }
    const auto collected = kf::collectServerFacts(*opened->transport, 120000, probe);
    if (!collected) {
        kf::cli::err() << me << ": " << collected.error() << '\n';
        return 1;
    }
    kf::ServerFacts facts = collected.value();
    facts.project.tree = tree;
    const QStringList hints = probe ? kf::sglkernel::serverHints(facts) : QStringList();
    if (json) {
        QJsonObject o = facts.toJson();
        if (probe) {
            o[QStringLiteral("tree")] = tree;
            o[QStringLiteral("hints")] = QJsonArray::fromStringList(hints);
        }
        kf::cli::out() << QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented));
    } else {
        printTable(facts);
        for (const QString& h : hints)
            kf::cli::out() << "hint: " << h << '\n';
    }
    return 0;
}

const kf::cli::Registration reg { "facts", "Show a server's OS, CPUs, RAM, disk, GPUs and tool versions", &runFacts };

} // namespace
