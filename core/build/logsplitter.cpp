// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/build/logsplitter.h"

namespace kf {

QByteArrayList LogSplitter::feed(const QByteArray& chunk)
{
    QByteArrayList lines;
    if (chunk.isEmpty())
        return lines; // keeps m_lastWasCr: the "\n" of a split "\r\n" may still come
    const char* p = chunk.constData();
    const qsizetype n = chunk.size();
    qsizetype start = 0;
    qsizetype i = 0;
    if (m_lastWasCr && n > 0 && p[0] == '\n') {
        // "\r" ended the previous chunk and this "\n" completes the same terminator.
        start = i = 1;
    }
    m_lastWasCr = false;
    for (; i < n; ++i) {
        const char c = p[i];
        if (c != '\n' && c != '\r')
            continue;
        if (m_partial.isEmpty()) {
            lines.append(QByteArray(p + start, i - start));
        } else {
            m_partial.append(p + start, i - start);
            lines.append(m_partial);
            m_partial.clear();
        }
        if (c == '\r') {
            if (i + 1 < n && p[i + 1] == '\n')
                ++i;
            else if (i + 1 == n)
                m_lastWasCr = true;
        }
        start = i + 1;
    }
    if (start < n)
        m_partial.append(p + start, n - start);
    while (m_partial.size() > kMaxLine) {
        lines.append(m_partial.left(kMaxLine));
        m_partial.remove(0, kMaxLine);
    }
    return lines;
}

QByteArrayList LogSplitter::flush()
{
    m_lastWasCr = false;
    if (m_partial.isEmpty())
        return {};
    QByteArrayList out{m_partial};
    m_partial.clear();
    return out;
}

} // namespace kf
