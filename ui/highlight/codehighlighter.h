// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

class QSyntaxHighlighter;
class QTextDocument;

namespace kf {

// The one entry point for syntax colouring: KF6 SyntaxHighlighting when the build found it
// (KF_HAVE_KSYNTAXHIGHLIGHTING), otherwise the compact built-in rules for diff, CMake,
// Python, C++/CUDA and shell. The highlighter is parented to `document`.
enum class CodeLanguage { None, Diff, CMake, Python, Cpp, Shell };
CodeLanguage languageForFile(const QString& fileName);
QSyntaxHighlighter* attachHighlighter(QTextDocument* document, const QString& fileName);

} // namespace kf
