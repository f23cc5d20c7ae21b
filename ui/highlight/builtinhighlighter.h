// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "ui/highlight/codehighlighter.h"

#include <QList>
#include <QRegularExpression>
#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace kf {

// Regex rules per language, applied line by line; enough to make a diff readable without
// pulling in KF6. Python is scanned left to right instead (a '#' inside a string is not a
// comment, a quote inside a comment opens no string). Multi-line constructs (block comments,
// triple-quoted strings) use the block state.
class BuiltinHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    enum class Role { Keyword, Builtin, Number, String, Comment, Decorator, Variable };

    BuiltinHighlighter(QTextDocument* document, CodeLanguage language);
    CodeLanguage language() const { return m_language; }
    // The format a role is drawn in (tests compare ranges with it).
    static QTextCharFormat roleFormat(Role role);

protected:
    void highlightBlock(const QString& text) override;

private:
    struct Rule
    {
        QRegularExpression pattern;
        QTextCharFormat format;
        int group = 0;
    };
    void add(const QString& pattern, const QTextCharFormat& format, int group = 0,
        QRegularExpression::PatternOptions options = QRegularExpression::NoPatternOption);
    void highlightPython(const QString& text);
    // From `from`, the end of a string closed by `quote` (past it), honouring backslash escapes; -1: open.
    static qsizetype stringEnd(const QString& text, qsizetype from, const QString& quote);

    CodeLanguage m_language;
    QList<Rule> m_rules;
    QTextCharFormat m_comment;
    QTextCharFormat m_string;
};

} // namespace kf
