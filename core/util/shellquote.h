// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>
#include <QStringList>

namespace kf {

// Quotes one word for a POSIX shell: safe for any byte sequence (single quotes, with ' as '\'').
QString shellQuote(const QString& word);
// Joins words, each quoted as needed.
QString shellJoin(const QStringList& words);
// A shell variable name, [A-Za-z_][A-Za-z0-9_]* and nothing else (no trailing newline).
bool isShellName(const QString& name);
// A path for a command line: "~" and "~/x" become "$HOME" and "$HOME"/'x'; anything else is
// quoted (a relative path is the command's working directory's, the home folder by default).
QString shellPath(const QString& path);
// Splits a command line the way a POSIX shell splits words (quotes and backslashes; no expansion).
// An unterminated quote runs to the end of the line.
QStringList shellSplit(const QString& line);

} // namespace kf
