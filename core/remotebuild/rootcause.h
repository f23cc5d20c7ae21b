// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/diagnosticparser.h"

#include <QList>
#include <QString>

#include <optional>

// Which diagnostic explains a failure (a build, or a server that died at start), and what to say
// when the log holds none that does.
//
// Compilers, linkers, CMake and Python name the cause; the tools around them summarise it: ninja's
// "FAILED: out" (printed before the compiler's output), "ninja: build stopped", make's "Error N",
// "collect2: error: ld returned 1 exit status", pip's "subprocess-exited-with-error", torch's "Error
// compiling objects for extension", a CalledProcessError of ninja. A cause ranks before every
// summary whatever their order in the log; an out-of-memory kill is a cause.
namespace kf {

// Most telling first: the order the Build pane lists diagnostics in.
enum class DiagnosticRank { Cause, Summary, Warning, Note };
DiagnosticRank rankOf(const Diagnostic& d);

struct RootCause
{
    // The first cause in the log; without one the first summary; without either none.
    std::optional<Diagnostic> diagnostic;
    bool retained = false; // `diagnostic` is a cause
    // Without a cause: that the log holds none and where the cause went; empty when retained.
    QString missing;
};

RootCause findRootCause(const QList<Diagnostic>& diagnostics);

// "csrc/x.cpp:12:5", "csrc/x.cu:42", a ninja step's output; empty when the tool named no place.
QString diagnosticLocation(const Diagnostic& d);
// "csrc/x.cpp:12:5: message", or the message alone when the tool named no place.
QString diagnosticText(const Diagnostic& d);

} // namespace kf
