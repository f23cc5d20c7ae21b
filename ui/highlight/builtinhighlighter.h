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
// pulling in KF6. Multi-line constructs (block comments, triple-quoted strings) use the
// block state.
class BuiltinHighlighter : public QSyntaxHighlighter
{
    Q_OBJECT
public:
    BuiltinHighlighter(QTextDocument* document, CodeLanguage language);
    CodeLanguage language() const { return m_language; }

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

    CodeLanguage m_language;
    QList<Rule> m_rules;
    QTextCharFormat m_comment;
    QTextCharFormat m_string;
};

} // namespace kf
