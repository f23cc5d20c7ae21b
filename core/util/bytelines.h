// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArrayView>

// The one line loop of core's parsers: '\n'-separated lines of a byte buffer, without copying.
//   ByteLines lines(data);
//   for (QByteArrayView line; lines.next(line);)
//       use(lines.number(), line);
// A line keeps its '\r' (parsers that accept CRLF chop it). A buffer that ends with '\n' has no
// empty last line; one that does not ends with an unterminated line (terminated() says which,
// for logs that may be cut mid-line).
namespace kf {

class ByteLines
{
public:
    explicit ByteLines(QByteArrayView data, qsizetype from = 0)
        : m_data(data)
        , m_pos(from)
    { }

    // The next line in `line`; false (and `line` untouched) when the data is used up.
    bool next(QByteArrayView& line)
    {
        if (m_pos >= m_data.size())
            return false;
        qsizetype end = m_data.indexOf('\n', m_pos);
        m_terminated = end >= 0;
        if (!m_terminated)
            end = m_data.size();
        line = m_data.sliced(m_pos, end - m_pos);
        m_pos = end + 1;
        ++m_number;
        return true;
    }

    // 1-based number of the line next() gave last.
    int number() const { return m_number; }
    // Whether that line ended with '\n' (false: the data stops inside it).
    bool terminated() const { return m_terminated; }

private:
    QByteArrayView m_data;
    qsizetype m_pos = 0;
    int m_number = 0;
    bool m_terminated = false;
};

// The first n bytes of v, or all of it when shorter (QByteArrayView::first asserts n <= size):
// for quoting a bounded piece of hostile input in an error.
inline QByteArrayView firstBytes(QByteArrayView v, qsizetype n)
{
    return v.first(qMin(n, v.size()));
}

} // namespace kf
