// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/rootcause.h"

namespace kf {
namespace {

using Kind = Diagnostic::Kind;

// Where the cause of a failure went when only its summary is in the log, by that summary.
QString whereToLook(const std::optional<Diagnostic>& summary)
{
    if (!summary)
        return QStringLiteral(
            "nothing in the log names an error: the command failed with its exit status alone. Read the last lines "
            "of the log, and the server's kernel log for a killed process (dmesg: \"Out of memory: Killed process\").");
    const Diagnostic& s = *summary;
    const QString& m = s.message;
    if (s.hint == Diagnostic::Hint::JitFailed)
        return QStringLiteral(
            "the JIT's ninja output, which holds the compiler's error, is not in this log: run the ninja command the "
            "error names on the server (ninja -v -C <folder> -f <build.ninja>) to see it.");
    if (s.kind == Kind::Linker)
        return QStringLiteral(
            "the linker prints its errors just before collect2's line, and they are not in this log: run the link "
            "again verbosely (ninja -v, make VERBOSE=1) to see them.");
    if (s.kind == Kind::Make)
        return QStringLiteral(
            "make prints the failing command's output above its \"Error N\" line, and it is not in this log: run make "
            "again with -j1 to see it next to the error.");
    if (m.contains(QLatin1String("subprocess-exited-with-error")) || m.contains(QLatin1String("Failed building"))
        || m.contains(QLatin1String("Could not build wheels")) || m.contains(QLatin1String("metadata-generation"))
        || m.contains(QLatin1String("Error compiling objects")) || m.contains(QLatin1String("CalledProcessError")))
        return QStringLiteral(
            "the log holds only the end of the Python build. Run pip with -v (the built-in profiles do: without it "
            "pip hides the compiler's output) and look above the first \"FAILED:\" line, or search the whole log for "
            "\"error:\".");
    return QStringLiteral(
        "ninja prints the compiler's output right after its \"FAILED:\" line, and it is not in this log: run the "
        "failed step again (ninja -C <build folder> <output>) to see it, or search the whole log for \"error:\".");
}

} // namespace

DiagnosticRank rankOf(const Diagnostic& d)
{
    if (d.severity == Diagnostic::Severity::Note)
        return DiagnosticRank::Note;
    if (d.severity == Diagnostic::Severity::Warning)
        return DiagnosticRank::Warning;
    const bool summary = d.kind == Kind::Ninja || d.kind == Kind::Make || d.kind == Kind::BuildFailed
        || (d.kind == Kind::Linker && d.message.startsWith(QLatin1String("collect2:")));
    return summary ? DiagnosticRank::Summary : DiagnosticRank::Cause;
}

RootCause findRootCause(const QList<Diagnostic>& diagnostics)
{
    RootCause out;
    std::optional<Diagnostic> summary;
    for (const Diagnostic& d : diagnostics) {
        const DiagnosticRank r = rankOf(d);
        if (r == DiagnosticRank::Cause) {
            out.diagnostic = d;
            out.retained = true;
            return out;
        }
        if (r == DiagnosticRank::Summary && !summary)
            summary = d;
    }
    out.diagnostic = summary;
    out.missing = QStringLiteral("No root cause in the log: ") + whereToLook(summary);
    return out;
}

QString diagnosticLocation(const Diagnostic& d)
{
    QString where = d.file;
    if (!where.isEmpty() && d.line > 0)
        where += QStringLiteral(":%1").arg(d.line);
    if (!where.isEmpty() && d.line > 0 && d.column > 0)
        where += QStringLiteral(":%1").arg(d.column);
    return where;
}

QString diagnosticText(const Diagnostic& d)
{
    const QString where = diagnosticLocation(d);
    // A ninja step names its output as the file: the message says it already.
    if (where.isEmpty() || d.message.contains(d.file))
        return d.message;
    return where + QStringLiteral(": ") + d.message;
}

} // namespace kf
