// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "app/cli/cli.h"
#include "app/cli/flagtable.h"
#include "app/cli/sshoptions.h"
#include "app/cli/terminalfilter.h"

#include "core/log/logging.h"
#include "core/version.h"

#include <QCoreApplication>

#include <algorithm>
#include <cstdio>

namespace kf::cli {

Registration::Registration(const char* name, const char* summary, Handler handler)
{
    commands().append({ QString::fromUtf8(name), QString::fromUtf8(summary), std::move(handler) });
}

QList<Command>& commands()
{
    static QList<Command> list;
    return list;
}

QTextStream& out()
{
    static TerminalFilter device(stdout);
    static QTextStream s(&device);
    return s;
}

QTextStream& err()
{
    static TerminalFilter device(stderr);
    static QTextStream s(&device);
    return s;
}

void terminalControl(const char* sequence)
{
    err().flush();
    std::fputs(sequence, stderr);
    std::fflush(stderr);
}

int usageError(const QString& prefix, const QString& why, void (*usage)(QTextStream&))
{
    err() << prefix << ": " << why << '\n';
    if (usage)
        usage(err());
    err().flush();
    return kExitUsage;
}

int connectionError(const QString& prefix, const QString& why)
{
    err() << prefix << ": " << QString(why).replace(QLatin1Char('\n'), QLatin1Char(' ')) << '\n' << Qt::flush;
    return kExitConnection;
}

void reportSkippedLines(const QString& prefix, int count, const QStringList& reasons)
{
    if (count <= 0)
        return;
    err() << prefix << ": " << count << (count == 1 ? " line" : " lines") << " skipped";
    if (reasons.size() < count)
        err() << " (the first " << reasons.size() << " below)";
    err() << '\n';
    for (const QString& r : reasons)
        err() << "  " << r << '\n';
    err().flush();
}

} // namespace kf::cli

namespace {

void printUsage(QTextStream& s)
{
    s << "Usage: kernelforge-cli [--verbose] [--log-level LEVEL] COMMAND [ARGS...]\n\n"
      << "Deploy LLM inference on your own GPU servers: patches, builds, GPU and server monitoring.\n\n"
      << "Commands:\n";
    auto cmds = kf::cli::commands();
    std::sort(cmds.begin(), cmds.end(), [](const auto& a, const auto& b) { return a.name < b.name; });
    for (const auto& c : cmds)
        s << "  " << c.name.leftJustified(12) << c.summary << '\n';
    s << "\nGlobal options (before or after the command, not after a \"--\"):\n"
      << "  --version          print versions and exit\n"
      << "  --verbose          log at debug level to stderr and the log file\n"
      << "  --log-level LEVEL  trace, debug, info, warn (default), error, critical, off\n"
      << "Run 'kernelforge-cli COMMAND --help' for a command's options.\n";
    s.flush();
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("kernelforge"));
    QCoreApplication::setApplicationVersion(QStringLiteral(KF_VERSION_STRING));

    QStringList args = app.arguments().mid(1);
    kf::log::Options logOptions;
    logOptions.level = spdlog::level::warn;
    // The global options work anywhere before a "--" (kernelforge-cli build list --verbose).
    bool verbose = false;
    kf::cli::FlagTable global;
    global.add("--verbose", &verbose).add("--log-level", [&logOptions](const QString& v) -> kf::Result<void> {
        if (!kf::log::parseLevel(v, &logOptions.level))
            return kf::Result<void>::failure(QStringLiteral("unknown log level '%1'").arg(v));
        return {};
    });
    if (const auto taken = global.take(args); !taken)
        return kf::cli::usageError(QStringLiteral("kernelforge-cli"), taken.error());
    if (verbose)
        logOptions.level = spdlog::level::debug;
    while (!args.isEmpty() && args.first().startsWith(QLatin1String("--"))) {
        const QString a = args.takeFirst();
        if (a == QLatin1String("--version")) {
            kf::cli::out() << kf::versionReport(QStringLiteral("kernelforge-cli")) << Qt::flush;
            return 0;
        }
        if (a == QLatin1String("--help")) {
            printUsage(kf::cli::out());
            return 0;
        }
        kf::cli::err() << "kernelforge-cli: unknown option " << a << "\n" << Qt::flush;
        printUsage(kf::cli::err());
        return 2;
    }
    kf::log::init(logOptions);
    kf::log::installQtMessageHandler();

    if (args.isEmpty()) {
        printUsage(kf::cli::err());
        return 2;
    }
    const QString name = args.takeFirst();
    for (const auto& c : kf::cli::commands()) {
        if (c.name == name) {
            const int rc = c.handler(args);
            kf::cli::closeConnections();
            kf::cli::out().flush();
            kf::cli::err().flush();
            kf::log::flush();
            return rc;
        }
    }
    kf::cli::err() << "kernelforge-cli: unknown command '" << name << "'\n" << Qt::flush;
    printUsage(kf::cli::err());
    return 2;
}
