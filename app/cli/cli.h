// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>
#include <QStringList>
#include <QTextStream>

#include <functional>

// kernelforge-cli subcommands register themselves: each app/cli/cmd_<area>.cpp holds
//   static const kf::cli::Registration reg{"patch", "Plan, apply and roll back patch sets", &runPatch};
// and main() dispatches on the first argument. A command receives the arguments after its
// name and returns the process exit status.
namespace kf::cli {

using Handler = std::function<int(const QStringList& args)>;

struct Registration
{
    Registration(const char* name, const char* summary, Handler handler);
};

struct Command
{
    QString name;
    QString summary;
    Handler handler;
};
QList<Command>& commands();

// Output helpers: stdout/stderr as UTF-8 text streams. Everything written to them passes the
// terminal filter (app/cli/terminalfilter.h): control characters come out escaped, line breaks
// and tabs stay, JSON keeps its values. Remote text needs nothing more, except a one-line field
// (a name, a table cell), which takes kf::terminalSafe() (line breaks escaped too).
QTextStream& out();
QTextStream& err();
// The CLI's own terminal control sequence (a progress line redrawn with "\r\033[K"), written
// to stderr as it is, after what err() holds. Never remote text.
void terminalControl(const char* sequence);

// Usage errors: prints "<prefix>: <why>" on stderr, then the usage when one is given, and
// returns kExitUsage. prefix names the command ("kernelforge-cli build", "gpu watch").
int usageError(const QString& prefix, const QString& why, void (*usage)(QTextStream&) = nullptr);

// Connection, host-key and login failures: prints "<prefix>: <why>" on one line of stderr
// and returns kExitConnection.
int connectionError(const QString& prefix, const QString& why);

// Lines a parser skipped in a file the user gave: "<prefix>: N line(s) skipped" and the first
// reasons ("line 12: ...", one per line) on stderr, so stdout stays the result. Nothing when 0.
void reportSkippedLines(const QString& prefix, int count, const QStringList& reasons);

// Exit status for bad usage: an unknown option, a flag without its value, a missing or bad
// destination, a stray word. Checked before anything connects.
constexpr int kExitUsage = 2;
// Exit status for connection, host-key and authentication failures (as OpenSSH's ssh).
constexpr int kExitConnection = 255;

} // namespace kf::cli
