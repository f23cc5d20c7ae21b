// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/patch/pythonlines.h"

#include <QRegularExpression>

namespace kf::patch {

namespace {

bool isBlank(QChar c)
{
    return c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\r') || c == QLatin1Char('\f');
}

bool isOpen(QChar c)
{
    return c == QLatin1Char('(') || c == QLatin1Char('[') || c == QLatin1Char('{');
}

bool isClose(QChar c)
{
    return c == QLatin1Char(')') || c == QLatin1Char(']') || c == QLatin1Char('}');
}

class Reader
{
public:
    explicit Reader(QStringView text)
        : m_text(text)
    { }

    PythonLines run()
    {
        while (m_pos < m_text.size() && m_out.error.isEmpty()) {
            const qsizetype lineStart = m_pos;
            while (m_pos < m_text.size() && isBlank(m_text[m_pos]))
                ++m_pos;
            if (m_pos >= m_text.size())
                break;
            if (m_text[m_pos] == QLatin1Char('#')) {
                skipComment();
            }
            if (m_pos < m_text.size() && m_text[m_pos] == QLatin1Char('\n')) {
                ++m_pos;
                ++m_line;
                continue;
            }
            if (m_pos >= m_text.size())
                break;
            logicalLine(lineStart);
        }
        return std::move(m_out);
    }

private:
    void fail(const QString& why, int line)
    {
        if (m_out.error.isEmpty()) {
            m_out.error = why;
            m_out.errorLine = line;
        }
    }

    void skipComment()
    {
        while (m_pos < m_text.size() && m_text[m_pos] != QLatin1Char('\n'))
            ++m_pos;
    }

    // Appends one character outside a string literal, normalizing the spacing around it.
    void put(QChar c)
    {
        if (c == QLatin1Char(',') || c == QLatin1Char(':') || isClose(c)) {
            if (isClose(c) && m_buf.endsWith(QLatin1Char(',')))
                m_buf.chop(1);
        } else if (m_space && !m_buf.isEmpty() && !isOpen(m_buf.back())) {
            m_buf += QLatin1Char(' ');
        }
        m_buf += c;
        m_space = false;
    }

    // At a quote: the literal, verbatim, into the buffer.
    bool literal()
    {
        const QChar q = m_text[m_pos];
        const bool triple = m_pos + 2 < m_text.size() && m_text[m_pos + 1] == q && m_text[m_pos + 2] == q;
        const int startLine = m_line;
        const qsizetype start = m_pos;
        m_pos += triple ? 3 : 1;
        while (m_pos < m_text.size()) {
            const QChar c = m_text[m_pos];
            if (c == QLatin1Char('\\')) {
                if (m_pos + 1 < m_text.size() && m_text[m_pos + 1] == QLatin1Char('\n'))
                    ++m_line;
                m_pos += 2;
                continue;
            }
            if (c == QLatin1Char('\n')) {
                if (!triple)
                    break;
                ++m_line;
            }
            const bool closes = c == q
                && (!triple || (m_pos + 2 < m_text.size() && m_text[m_pos + 1] == q && m_text[m_pos + 2] == q));
            m_pos += closes && triple ? 3 : 1;
            if (closes) {
                m_buf += m_text.mid(start, m_pos - start);
                return true;
            }
        }
        fail(QStringLiteral("a string opened at line %1 is never closed").arg(startLine), startLine);
        return false;
    }

    void logicalLine(qsizetype lineStart)
    {
        PythonLine l;
        l.begin = lineStart;
        l.firstLine = m_line;
        l.indent = m_text.mid(lineStart, m_pos - lineStart).toString();
        m_buf.clear();
        m_space = false;
        int depth = 0;
        while (m_pos < m_text.size()) {
            const QChar c = m_text[m_pos];
            if (c == QLatin1Char('#')) {
                skipComment();
            } else if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
                if (m_space && !m_buf.isEmpty() && !isOpen(m_buf.back()))
                    m_buf += QLatin1Char(' ');
                m_space = false;
                if (!literal())
                    return;
            } else if (c == QLatin1Char('\\') && m_pos + 1 < m_text.size() && m_text[m_pos + 1] == QLatin1Char('\n')) {
                m_pos += 2;
                ++m_line;
                m_space = true;
            } else if (c == QLatin1Char('\n')) {
                if (depth == 0)
                    break;
                ++m_pos;
                ++m_line;
                m_space = true;
            } else if (isBlank(c)) {
                ++m_pos;
                m_space = true;
            } else {
                if (isOpen(c) && ++depth > kMaxPythonNesting) {
                    fail(QStringLiteral("brackets nested deeper than %1").arg(kMaxPythonNesting), m_line);
                    return;
                }
                if (isClose(c))
                    depth = qMax(0, depth - 1);
                put(c);
                ++m_pos;
            }
        }
        l.end = m_pos;
        l.lastLine = m_line;
        if (m_pos < m_text.size()) { // the '\n' that ends it
            ++m_pos;
            ++m_line;
        }
        static const QRegularExpression parenthesizedImport(QStringLiteral(R"(^(from \S+ import )\((.*)\)$)"));
        if (const auto m = parenthesizedImport.match(m_buf); m.hasMatch())
            m_buf = m.captured(1) + m.captured(2);
        l.text = m_buf;
        if (!l.text.isEmpty())
            m_out.lines.append(l);
    }

    QStringView m_text;
    qsizetype m_pos = 0;
    int m_line = 1;
    QString m_buf;
    bool m_space = false;
    PythonLines m_out;
};

} // namespace

PythonLines readPythonLines(QStringView text)
{
    return Reader(text).run();
}

} // namespace kf::patch
