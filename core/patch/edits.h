// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/cmakescript.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// Content-addressed edits: each edit finds its place by what the file says,
// never by line number, so one patch survives upstream moving code around. Pure functions
// on text; the YAML spelling of each kind is documented in core/patch/patchset.h.
namespace kf::patch {

// One argument a command anchor asks for: its value as written (quotes and brackets not
// counted: "${X}" and ${X} are one value) or a regular expression found in the value.
struct ArgumentPattern
{
    QString literal;
    QString regex;
    bool matches(const QString& value) const;
    QString describe() const;
};

// A CMake command anchor: a call by name (CMake compares command names without case) whose
// arguments include each of `arguments`, in any order, wherever comments and line breaks
// fall inside the call (core/util/cmakescript.h reads the file).
struct CommandPattern
{
    QString name;
    QList<ArgumentPattern> arguments;
    bool exact = false;    // and no other arguments
    bool topLevel = false; // not inside if/foreach/while/function/macro/block
    bool matches(const CMakeCommand& command) const;
    QString describe() const; // "a call include_directories(${PROJECT_SOURCE_DIR}/include ...)"
};

// A test on a file's text: a literal substring, a regular expression (multi-line mode: ^ and $
// match at line breaks), a CMake command (the file read as CMake), or Python logical lines
// (the file read as Python, core/patch/pythonlines.h): consecutive logical lines, each one
// matching the whole of its regular expression in the normalized spelling, comments and
// blank lines between them not counted.
struct Condition
{
    QString literal;
    QString regex;
    std::optional<CommandPattern> command;
    QStringList python;
    int yamlLine = 0;
    bool isRegex() const { return !regex.isEmpty(); }
    bool isEmpty() const { return literal.isEmpty() && regex.isEmpty() && !command && python.isEmpty(); }
    bool matches(const QString& text) const;
    int firstLine(const QString& text) const; // 1-based line of the first match; 0: none
    // "the text 'x'" / "a match for /x/" / "a call set(X ON)" / "the Python lines 'try:' / ..."
    QString describe() const;
};

struct Edit
{
    enum Kind { Replace, InsertBefore, InsertAfter, Wrap, Ensure };
    Kind kind = Replace;
    // Replace: what to replace. InsertBefore/InsertAfter: the anchor (may span lines; the
    // text goes before the line where the match starts / after the line where it ends).
    // Wrap: the lines to wrap (each line matching the regex, or containing the literal, or the
    // lines of each matching command). Ensure: where to put the block if it is missing (after
    // this anchor; empty: at the end).
    Condition match;
    // Replace: replacement; \1..\9 refer to regex captures, or to a command's arguments. A
    // command or Python anchor replaces the call or the statements from their first character
    // (the indentation stays), and each later line of the replacement gets that indentation.
    QString with;
    QString text;                          // InsertBefore/InsertAfter/Ensure: lines to add
    QString before;                        // Wrap: line(s) put before each match (\1.. from its captures or arguments)
    QString after;                         // Wrap: line(s) put after it
    QString indent = QStringLiteral("  "); // Wrap: added in front of the wrapped line
    bool firstOnly = false;                // Replace/Wrap: only the first occurrence
    Condition doneIf;                      // when it matches, the edit counts as already made
    bool optional = false;                 // a missing place is a note ("not in this version"), not a conflict
    QString label;                         // short name in reports ("guard CMP0177")
    int yamlLine = 0;

    QString kindName() const;
};

struct EditOutcome
{
    enum Kind { Changed, AlreadyThere, Missing };
    Kind kind = Missing;
    int line = 0; // 1-based line where the edit applied or was found
    QString message;
    int nearestLine = 0; // Missing: 1-based start of the lines closest to what was sought
    QStringList nearestLines;
};

// Applies one edit to *text in place (unchanged unless the outcome is Changed).
EditOutcome applyEdit(const Edit& edit, QString* text);

// The region of `text` that looks most like what `sought` describes (shared words), as
// (1-based first line, up to `context` lines); for conflict reports.
QPair<int, QStringList> nearestLines(const QString& text, const QString& sought, int context = 3);

} // namespace kf::patch
