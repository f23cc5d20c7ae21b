// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/shellquote.h"

#include <QRegularExpression>

namespace kf {

QString shellQuote(const QString& word)
{
    // anchoredPattern: "$" alone would also match before a final "\n" and leave it unquoted.
    static const QRegularExpression safe(QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z0-9_@%+=:,./-]+")));
    if (!word.isEmpty() && safe.match(word).hasMatch())
        return word;
    QString out = QStringLiteral("'");
    for (const QChar c : word) {
        if (c == QLatin1Char('\''))
            out += QStringLiteral("'\\''");
        else
            out += c;
    }
    out += QLatin1Char('\'');
    return out;
}

QString shellJoin(const QStringList& words)
{
    QStringList quoted;
    quoted.reserve(words.size());
    for (const QString& w : words)
        quoted << shellQuote(w);
    return quoted.join(QLatin1Char(' '));
}

bool isShellName(const QString& name)
{
    static const QRegularExpression re(QRegularExpression::anchoredPattern(QStringLiteral("[A-Za-z_][A-Za-z0-9_]*")));
    return re.match(name).hasMatch();
}

QString shellPath(const QString& path)
{
    if (path == QLatin1String("~"))
        return QStringLiteral("\"$HOME\"");
    if (path.startsWith(QLatin1String("~/")))
        return QStringLiteral("\"$HOME\"/") + shellQuote(path.mid(2));
    return shellQuote(path);
}

QStringList shellSplit(const QString& line)
{
    QStringList words;
    QString cur;
    bool inWord = false;
    enum { None, Single, Double } quote = None;
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line.at(i);
        if (quote == Single) {
            if (c == QLatin1Char('\''))
                quote = None;
            else
                cur += c;
            continue;
        }
        if (quote == Double) {
            if (c == QLatin1Char('"'))
                quote = None;
            else if (c == QLatin1Char('\\') && i + 1 < line.size() && QStringLiteral("\"\\$`").contains(line.at(i + 1)))
                cur += line.at(++i);
            else
                cur += c;
            continue;
        }
        if (c.isSpace()) {
            if (inWord) {
                words << cur;
                cur.clear();
                inWord = false;
            }
            continue;
        }
        inWord = true;
        if (c == QLatin1Char('\''))
            quote = Single;
        else if (c == QLatin1Char('"'))
            quote = Double;
        else if (c == QLatin1Char('\\') && i + 1 < line.size())
            cur += line.at(++i);
        else
            cur += c;
    }
    if (inWord)
        words << cur;
    return words;
}

} // namespace kf
