// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/cmakescript.h"

namespace kf {

namespace {

bool isSpace(QChar c)
{
    return c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\r');
}

bool isIdentifierStart(QChar c)
{
    return (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) || (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
        || c == QLatin1Char('_');
}

bool isIdentifierChar(QChar c)
{
    return isIdentifierStart(c) || (c >= QLatin1Char('0') && c <= QLatin1Char('9'));
}

bool opensBlock(const CMakeCommand& c)
{
    for (const char* n : { "if", "foreach", "while", "function", "macro", "block" })
        if (c.is(QLatin1String(n)))
            return true;
    return false;
}

bool closesBlock(const CMakeCommand& c)
{
    for (const char* n : { "endif", "endforeach", "endwhile", "endfunction", "endmacro", "endblock" })
        if (c.is(QLatin1String(n)))
            return true;
    return false;
}

class Lexer
{
public:
    explicit Lexer(QStringView text)
        : m_text(text)
    { }

    CMakeScript run()
    {
        int depth = 0;
        while (m_pos < m_text.size() && m_out.error.isEmpty()) {
            const QChar c = m_text[m_pos];
            if (separation()) {
                continue;
            } else if (isIdentifierStart(c)) {
                CMakeCommand cmd;
                if (!command(cmd))
                    break;
                if (closesBlock(cmd))
                    depth = qMax(0, depth - 1);
                cmd.blockDepth = depth;
                if (opensBlock(cmd))
                    ++depth;
                m_out.commands.append(std::move(cmd));
            } else {
                fail(QStringLiteral("unexpected '%1' where a command should start").arg(c));
            }
        }
        return std::move(m_out);
    }

private:
    void fail(const QString& why, int line = 0)
    {
        if (m_out.error.isEmpty()) {
            m_out.error = why;
            m_out.errorLine = line > 0 ? line : m_line;
        }
    }

    // '[' '='{n} '[' at m_pos: the length of the opening (n + 2), else 0.
    qsizetype bracketOpen(qsizetype at) const
    {
        if (at >= m_text.size() || m_text[at] != QLatin1Char('['))
            return 0;
        qsizetype i = at + 1;
        while (i < m_text.size() && m_text[i] == QLatin1Char('='))
            ++i;
        return i < m_text.size() && m_text[i] == QLatin1Char('[') ? i + 1 - at : 0;
    }

    // Past the bracket whose opening has `open` characters at m_pos; false when unterminated.
    bool skipBracket(qsizetype open)
    {
        const qsizetype equals = open - 2;
        QString close = QStringLiteral("]");
        close += QString(equals, QLatin1Char('='));
        close += QLatin1Char(']');
        const qsizetype from = m_pos + open;
        const qsizetype at = m_text.indexOf(close, from);
        if (at < 0) {
            fail(QStringLiteral("a bracket [%1[ is never closed").arg(QString(equals, QLatin1Char('='))), m_line);
            return false;
        }
        m_line += int(m_text.mid(m_pos, at - m_pos).count(QLatin1Char('\n')));
        m_pos = at + close.size();
        return true;
    }

    // Past one separation at m_pos (a space, a line break or a comment): whether there was one.
    bool separation()
    {
        const QChar c = m_text[m_pos];
        if (c == QLatin1Char('\n')) {
            ++m_line;
            ++m_pos;
        } else if (isSpace(c)) {
            ++m_pos;
        } else if (c == QLatin1Char('#')) {
            comment();
        } else {
            return false;
        }
        return true;
    }

    void comment()
    {
        CMakeComment c;
        c.begin = m_pos;
        c.line = m_line;
        ++m_pos; // '#'
        if (const qsizetype open = bracketOpen(m_pos)) {
            c.bracket = true;
            if (!skipBracket(open))
                return;
        } else {
            while (m_pos < m_text.size() && m_text[m_pos] != QLatin1Char('\n'))
                ++m_pos;
        }
        c.end = m_pos;
        m_out.comments.append(c);
    }

    bool command(CMakeCommand& cmd)
    {
        cmd.begin = m_pos;
        cmd.line = m_line;
        while (m_pos < m_text.size() && isIdentifierChar(m_text[m_pos]))
            ++m_pos;
        cmd.name = m_text.mid(cmd.begin, m_pos - cmd.begin).toString();
        while (m_pos < m_text.size() && isSpace(m_text[m_pos]))
            ++m_pos;
        if (m_pos >= m_text.size() || m_text[m_pos] != QLatin1Char('(')) {
            fail(QStringLiteral("%1 is not followed by '('").arg(cmd.name));
            return false;
        }
        ++m_pos;
        int nesting = 0;
        while (m_out.error.isEmpty()) {
            if (m_pos >= m_text.size()) {
                fail(QStringLiteral("%1( opened at line %2 is never closed").arg(cmd.name).arg(cmd.line), cmd.line);
                return false;
            }
            const QChar c = m_text[m_pos];
            if (separation()) {
                continue;
            } else if (c == QLatin1Char('(') || c == QLatin1Char(')')) {
                if (c == QLatin1Char(')') && nesting == 0) {
                    ++m_pos;
                    cmd.end = m_pos;
                    cmd.endLine = m_line;
                    return true;
                }
                if (c == QLatin1Char('(') && ++nesting > kMaxCMakeNesting) {
                    fail(QStringLiteral("parentheses nested deeper than %1").arg(kMaxCMakeNesting));
                    return false;
                }
                if (c == QLatin1Char(')'))
                    --nesting;
                CMakeArgument a;
                a.value = c;
                a.begin = m_pos;
                a.end = ++m_pos;
                a.nesting = true;
                cmd.arguments.append(a);
            } else if (c == QLatin1Char('"')) {
                CMakeArgument a;
                a.kind = CMakeArgument::Quoted;
                a.begin = m_pos;
                if (!quoted())
                    return false;
                a.end = m_pos;
                a.value = m_text.mid(a.begin + 1, a.end - a.begin - 2).toString();
                cmd.arguments.append(a);
            } else if (const qsizetype open = bracketOpen(m_pos)) {
                CMakeArgument a;
                a.kind = CMakeArgument::Bracket;
                a.begin = m_pos;
                if (!skipBracket(open))
                    return false;
                a.end = m_pos;
                a.value = m_text.mid(a.begin + open, a.end - a.begin - 2 * open).toString();
                cmd.arguments.append(a);
            } else {
                CMakeArgument a;
                a.begin = m_pos;
                if (!unquoted())
                    return false;
                a.end = m_pos;
                a.value = m_text.mid(a.begin, a.end - a.begin).toString();
                cmd.arguments.append(a);
            }
        }
        return false;
    }

    // At '"': past the closing quote.
    bool quoted()
    {
        const int startLine = m_line;
        ++m_pos;
        while (m_pos < m_text.size()) {
            const QChar c = m_text[m_pos];
            if (c == QLatin1Char('\\') && m_pos + 1 < m_text.size()) {
                if (m_text[m_pos + 1] == QLatin1Char('\n'))
                    ++m_line;
                m_pos += 2;
                continue;
            }
            if (c == QLatin1Char('\n'))
                ++m_line;
            ++m_pos;
            if (c == QLatin1Char('"'))
                return true;
        }
        fail(QStringLiteral("a string opened at line %1 is never closed").arg(startLine), startLine);
        return false;
    }

    bool unquoted()
    {
        while (m_pos < m_text.size()) {
            const QChar c = m_text[m_pos];
            if (c == QLatin1Char('\\')) {
                if (m_pos + 1 < m_text.size() && m_text[m_pos + 1] == QLatin1Char('\n'))
                    ++m_line;
                m_pos = qMin(m_text.size(), m_pos + 2);
            } else if (c == QLatin1Char('"')) {
                if (!quoted()) // legacy: a="b c" is one argument
                    return false;
            } else if (isSpace(c) || c == QLatin1Char('\n') || c == QLatin1Char('(') || c == QLatin1Char(')')
                || c == QLatin1Char('#')) {
                return true;
            } else {
                ++m_pos;
            }
        }
        return true;
    }

    QStringView m_text;
    qsizetype m_pos = 0;
    int m_line = 1;
    CMakeScript m_out;
};

} // namespace

QStringList CMakeCommand::values() const
{
    QStringList out;
    out.reserve(arguments.size());
    for (const CMakeArgument& a : arguments)
        out.append(a.value);
    return out;
}

CMakeScript parseCMakeScript(QStringView text)
{
    return Lexer(text).run();
}

QString describeCommand(const CMakeCommand& command, int maxArguments)
{
    QStringList shown;
    for (const CMakeArgument& a : command.arguments) {
        if (shown.size() == maxArguments) {
            shown.append(QStringLiteral("..."));
            break;
        }
        shown.append(a.kind == CMakeArgument::Quoted ? QLatin1Char('"') + a.value + QLatin1Char('"') : a.value);
    }
    return command.name + QLatin1Char('(') + shown.join(QLatin1Char(' ')) + QLatin1Char(')');
}

} // namespace kf
