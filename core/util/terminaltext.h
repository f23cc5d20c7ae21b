// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>
#include <QStringView>

// Text from elsewhere (a server's tools, an exporter's labels, a recipe, a log line) shown on a
// terminal or written to a log: every character a terminal would act on instead of showing is
// written as an escape, as `ls -b` and `ps` do, so "pip install -e .\r\x1b[2K" cannot hide
// what came before it on the line, ring the bell, retitle the window or move the cursor.
//
// Escaped: the C0 controls (U+0000-U+001F) as \n, \r, \t or \xHH (ESC is \x1b, BEL \x07); DEL,
// the C1 controls (U+0080-U+009F; U+009B is CSI) and the invisible bidirectional controls
// (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069, which reorder what a line shows) as
// \uHHHH. A backslash stays as it is. The \uHHHH escapes are JSON's, and a JSON writer escapes
// the C0 controls itself, so a JSON line written through the filter with LineBreaks::Keep
// decodes to exactly the same values.
//
// The CLI writes all of its stdout and stderr through this (app/cli/terminalfilter.h), the
// log sinks every record (core/log/logging.cpp); `kernelforge-cli exec` and `build attach`'s
// log are the remote bytes as they are, by design (like ssh and tail -f).
namespace kf {

enum class LineBreaks : quint8 {
    Escape, // one line: '\n' and '\t' are escaped too (a table cell, a name, a log record)
    Keep,   // '\n' and '\t' stay (a block of text: the CLI's output streams)
};

QString terminalSafe(QStringView text, LineBreaks lineBreaks = LineBreaks::Escape);

// True when terminalSafe(text, lineBreaks) would change it.
bool needsTerminalEscape(QStringView text, LineBreaks lineBreaks = LineBreaks::Escape);

} // namespace kf
