// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QString>
#include <QStringView>

// A Python file as its logical lines (the Python reference, "Lexical analysis": physical lines
// joined inside brackets and after a backslash, comments and blank lines not being statements),
// each in one normalized spelling, so a patch anchor written as
//     from sgl_kernel import flash_ops
// also finds "from sgl_kernel import (\n    flash_ops,  # FA3\n)", and a raise spread over
// three lines with a trailing comma is one line. Pure and linear; bracket nesting is capped.
//
// Normalized: comments removed; outside string literals every run of whitespace is one space,
// none after ( [ { or before ) ] } , :; a comma right before a closing bracket is dropped; and
// "from M import (a, b)" reads "from M import a, b". String literals (any prefix, ''' and """)
// are kept as written.
namespace kf::patch {

inline constexpr int kMaxPythonNesting = 200;

struct PythonLine
{
    QString indent;    // the first physical line's leading whitespace
    QString text;      // normalized
    int firstLine = 0; // 1-based physical lines it spans
    int lastLine = 0;
    qsizetype begin = 0; // offset of the first physical line's start
    qsizetype end = 0;   // offset just past the last physical line (its '\n' excluded)
};

struct PythonLines
{
    QList<PythonLine> lines;
    QString error; // an unterminated string or too deep nesting; the lines before it are kept
    int errorLine = 0;
    explicit operator bool() const { return error.isEmpty(); }
};

PythonLines readPythonLines(QStringView text);

} // namespace kf::patch
