// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/cmakesyntax.h"

#include <QList>

namespace kf::patch {
namespace {

constexpr int kMaxParenDepth = 1000;
constexpr int kMaxBlockDepth = 256;

bool isIdentStart(QChar c)
{
    return (c >= QLatin1Char('A') && c <= QLatin1Char('Z')) || (c >= QLatin1Char('a') && c <= QLatin1Char('z'))
        || c == QLatin1Char('_');
}

bool isIdentChar(QChar c)
{
    return isIdentStart(c) || (c >= QLatin1Char('0') && c <= QLatin1Char('9'));
}

class Checker
{
public:
    explicit Checker(const QString& text)
        : m_text(text)
    { }

    CMakeSyntax run()
    {
        while (m_ok && m_pos < m_text.size()) {
            const QChar c = m_text.at(m_pos);
            if (c == QLatin1Char('\n')) {
                ++m_line;
                ++m_pos;
            } else if (c.isSpace()) {
                ++m_pos;
            } else if (c == QLatin1Char('#')) {
                comment();
            } else if (isIdentStart(c)) {
                command();
            } else {
                fail(m_line, QStringLiteral("unexpected '%1' outside a command").arg(printable(c)));
            }
        }
        if (m_ok && !m_blocks.isEmpty()) {
            const Block& b = m_blocks.last();
            fail(b.line,
                QStringLiteral("%1() opened at line %2 has no %3()").arg(b.name).arg(b.line).arg(closer(b.name)));
        }
        return m_result;
    }

private:
    struct Block
    {
        QString name;
        int line = 0;
    };

    static QString printable(QChar c)
    {
        return c.isPrint() ? QString(c) : QStringLiteral("\\u%1").arg(c.unicode(), 4, 16, QLatin1Char('0'));
    }

    static QString closer(const QString& opener) { return QStringLiteral("end") + opener; }

    void fail(int line, const QString& message)
    {
        if (!m_ok)
            return;
        m_ok = false;
        m_result = { false, line, QStringLiteral("line %1: %2").arg(line).arg(message) };
    }

    // At "[": the number of '=' of a bracket opening "[==[" (its length - 2), or -1.
    int bracketOpen(qsizetype at) const
    {
        if (at >= m_text.size() || m_text.at(at) != QLatin1Char('['))
            return -1;
        qsizetype i = at + 1;
        while (i < m_text.size() && m_text.at(i) == QLatin1Char('='))
            ++i;
        return i < m_text.size() && m_text.at(i) == QLatin1Char('[') ? int(i - at - 1) : -1;
    }

    // After "[=*[": to the matching "]=*]".
    void bracketBody(int equals, const QString& what)
    {
        const int start = m_line;
        const QString close = QLatin1Char(']') + QString(equals, QLatin1Char('=')) + QLatin1Char(']');
        const qsizetype end = m_text.indexOf(close, m_pos);
        const qsizetype stop = end < 0 ? m_text.size() : end + close.size();
        m_line += int(QStringView(m_text).mid(m_pos, stop - m_pos).count(QLatin1Char('\n')));
        m_pos = stop;
        if (end < 0)
            fail(start, QStringLiteral("%1 opened at line %2 is never closed (no %3)").arg(what).arg(start).arg(close));
    }

    void comment()
    {
        ++m_pos; // '#'
        if (const int equals = bracketOpen(m_pos); equals >= 0) {
            m_pos += equals + 2;
            bracketBody(equals, QStringLiteral("a bracket comment"));
            return;
        }
        while (m_pos < m_text.size() && m_text.at(m_pos) != QLatin1Char('\n'))
            ++m_pos;
    }

    void command()
    {
        const int line = m_line;
        const qsizetype start = m_pos;
        while (m_pos < m_text.size() && isIdentChar(m_text.at(m_pos)))
            ++m_pos;
        const QString name = m_text.mid(start, m_pos - start).toLower();
        while (m_pos < m_text.size() && (m_text.at(m_pos) == QLatin1Char(' ') || m_text.at(m_pos) == QLatin1Char('\t')))
            ++m_pos;
        if (m_pos >= m_text.size() || m_text.at(m_pos) != QLatin1Char('(')) {
            fail(line, QStringLiteral("%1 is not followed by '(' (a command, or a stray word?)").arg(name));
            return;
        }
        arguments(name, line);
        if (m_ok)
            block(name, line);
    }

    void arguments(const QString& name, int line)
    {
        int depth = 0;
        while (m_ok && m_pos < m_text.size()) {
            const QChar c = m_text.at(m_pos);
            if (c == QLatin1Char('\n')) {
                ++m_line;
                ++m_pos;
            } else if (c == QLatin1Char('(')) {
                if (++depth > kMaxParenDepth)
                    fail(m_line, QStringLiteral("parentheses nested more than %1 deep").arg(kMaxParenDepth));
                ++m_pos;
            } else if (c == QLatin1Char(')')) {
                ++m_pos;
                if (--depth == 0)
                    return;
            } else if (c == QLatin1Char('\\')) {
                if (m_pos + 1 < m_text.size() && m_text.at(m_pos + 1) == QLatin1Char('\n'))
                    ++m_line;
                m_pos += 2;
            } else if (c == QLatin1Char('"')) {
                quoted();
            } else if (c == QLatin1Char('#')) {
                comment();
            } else if (const int equals = bracketOpen(m_pos); equals >= 0) {
                m_pos += equals + 2;
                bracketBody(equals, QStringLiteral("a bracket argument"));
            } else {
                ++m_pos;
            }
        }
        if (m_ok)
            fail(line, QStringLiteral("%1( opened at line %2 is never closed").arg(name).arg(line));
    }

    void quoted()
    {
        const int start = m_line;
        ++m_pos;
        while (m_pos < m_text.size()) {
            const QChar c = m_text.at(m_pos);
            if (c == QLatin1Char('"')) {
                ++m_pos;
                return;
            }
            if (c == QLatin1Char('\n'))
                ++m_line;
            if (c == QLatin1Char('\\') && m_pos + 1 < m_text.size()) {
                if (m_text.at(m_pos + 1) == QLatin1Char('\n'))
                    ++m_line;
                ++m_pos;
            }
            ++m_pos;
        }
        fail(start, QStringLiteral("the quote opened at line %1 is never closed").arg(start));
    }

    void block(const QString& name, int line)
    {
        static const QStringList openers { QStringLiteral("if"), QStringLiteral("foreach"), QStringLiteral("while"),
            QStringLiteral("function"), QStringLiteral("macro"), QStringLiteral("block") };
        if (openers.contains(name)) {
            if (m_blocks.size() >= kMaxBlockDepth)
                fail(line, QStringLiteral("blocks nested more than %1 deep").arg(kMaxBlockDepth));
            m_blocks.append(Block { name, line });
            return;
        }
        if (name == QLatin1String("elseif") || name == QLatin1String("else")) {
            if (m_blocks.isEmpty() || m_blocks.last().name != QLatin1String("if"))
                fail(line, QStringLiteral("%1() without an open if()").arg(name));
            return;
        }
        if (!name.startsWith(QLatin1String("end")) || !openers.contains(name.mid(3)))
            return;
        const QString opener = name.mid(3);
        if (m_blocks.isEmpty()) {
            fail(line, QStringLiteral("%1() without an open %2()").arg(name, opener));
            return;
        }
        const Block open = m_blocks.takeLast();
        if (open.name != opener)
            fail(line,
                QStringLiteral("%1() closes %2() opened at line %3, which needs %4()")
                    .arg(name, open.name)
                    .arg(open.line)
                    .arg(closer(open.name)));
    }

    const QString& m_text;
    qsizetype m_pos = 0;
    int m_line = 1;
    bool m_ok = true;
    CMakeSyntax m_result;
    QList<Block> m_blocks;
};

} // namespace

CMakeSyntax checkCMakeSyntax(const QString& text)
{
    return Checker(text).run();
}

} // namespace kf::patch
