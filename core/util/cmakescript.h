// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QString>
#include <QStringView>

// A CMake file read as CMake: its command invocations with their arguments, and its comments,
// told apart the way CMake's own lexer tells them apart. Patch anchors (core/patch/edits.h)
// match commands by name and arguments, so a comment holding parentheses, a bracket comment,
// a line break or another argument order inside a call does not move an anchor. Pure.
//
// Grammar (cmake-language(7), "Syntax"), as read here:
//   file       := (space | newline | comment | command)*
//   command    := identifier [ \t]* '(' arguments ')'       identifier: [A-Za-z_][A-Za-z0-9_]*
//   arguments  := (space | newline | comment | argument | '(' arguments ')')*
//                 nested parentheses are arguments "(" and ")", as CMake passes them to if()
//   argument   := bracket | quoted | unquoted
//   bracket    := '[' '='{n} '[' ... ']' '='{n} ']'         (no escapes, may span lines)
//   quoted     := '"' ( '\' any | not '"' )* '"'             (may span lines)
//   unquoted   := ( '\' any | not one of space ( ) # " \ )+, with "..." pieces inside
//                 (the legacy form -DX="a b" stays one argument)
//   comment    := '#' bracket | '#' up to the end of the line
// Values keep what was written between the delimiters (escapes and ${} are not evaluated).
// Linear in the input; parenthesis nesting is capped at kMaxCMakeNesting. An error (an
// unbalanced parenthesis, an unterminated string or bracket, text that is not a command)
// keeps the commands read before it.
namespace kf {

inline constexpr int kMaxCMakeNesting = 1000;

struct CMakeArgument
{
    enum Kind { Unquoted, Quoted, Bracket };
    Kind kind = Unquoted;
    QString value;        // between the delimiters, as written
    qsizetype begin = 0;  // offset of its first character (delimiters included)
    qsizetype end = 0;    // offset just past it
    bool nesting = false; // one of the "(" / ")" of a nested group
};

struct CMakeCommand
{
    QString name;
    QList<CMakeArgument> arguments;
    qsizetype begin = 0; // offset of the name's first character
    qsizetype end = 0;   // offset just past the closing ')'
    int line = 0;        // 1-based line of the name
    int endLine = 0;     // 1-based line of the closing ')'
    int blockDepth = 0;  // inside how many if/foreach/while/function/macro/block (0: top level)

    bool is(QStringView other) const { return name.compare(other, Qt::CaseInsensitive) == 0; }
    bool is(QLatin1String other) const { return name.compare(other, Qt::CaseInsensitive) == 0; }
    QStringList values() const; // every argument's value, in order
};

struct CMakeComment
{
    qsizetype begin = 0; // offset of '#'
    qsizetype end = 0;   // offset just past it (the newline of a line comment is not part of it)
    int line = 0;
    bool bracket = false;
};

struct CMakeScript
{
    QList<CMakeCommand> commands;
    QList<CMakeComment> comments;
    QString error; // why the text stopped being CMake; the commands before it are kept
    int errorLine = 0;
    explicit operator bool() const { return error.isEmpty(); }
};

CMakeScript parseCMakeScript(QStringView text);

// The command as one line: "include_directories(${PROJECT_SOURCE_DIR}/include ...)", long
// argument lists cut after `maxArguments`; for messages.
QString describeCommand(const CMakeCommand& command, int maxArguments = 3);

} // namespace kf
