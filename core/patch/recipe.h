// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

// Content-addressed edits ("recipes"): each edit finds its place by what the file says,
// never by line number, so one patch survives upstream moving code around. Pure functions
// on text; the YAML spelling of each kind is documented in core/patch/patchset.h.
namespace kf::patch {

// A test on a file's text: a literal substring or a regular expression (multi-line mode:
// ^ and $ match at line breaks).
struct Condition
{
    QString literal;
    QString regex;
    int yamlLine = 0;
    bool isRegex() const { return !regex.isEmpty(); }
    bool isEmpty() const { return literal.isEmpty() && regex.isEmpty(); }
    bool matches(const QString& text) const;
    QString describe() const; // "the text 'x'" / "a match for /x/"
};

struct RecipeEdit
{
    enum Kind { Replace, InsertBefore, InsertAfter, Wrap, Ensure };
    Kind kind = Replace;
    // Replace: what to replace. InsertBefore/InsertAfter: the anchor (may span lines; the
    // text goes before the line where the match starts / after the line where it ends).
    // Wrap: the lines to wrap (each line matching the regex, or containing the literal).
    // Ensure: where to put the block if it is missing (after this anchor; empty: at the end).
    Condition match;
    QString with;                          // Replace: replacement; \1..\9 refer to regex captures
    QString text;                          // InsertBefore/InsertAfter/Ensure: lines to add
    QString before;                        // Wrap: line(s) put before each matching line (\1.. from its captures)
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
EditOutcome applyEdit(const RecipeEdit& edit, QString* text);

// The region of `text` that looks most like what `sought` describes (shared words), as
// (1-based first line, up to `context` lines); for conflict reports.
QPair<int, QStringList> nearestLines(const QString& text, const QString& sought, int context = 3);

} // namespace kf::patch
