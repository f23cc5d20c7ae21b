// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QByteArrayList>
#include <QByteArrayView>

#include <cstring>

// Splits a build log that arrives in arbitrary chunks into lines.
//
// Wire format: bytes; a line ends at "\n", "\r\n" or a lone "\r" (ninja on a smart terminal
// and pip's progress bars redraw with "\r"). A chunk may end in the middle of a line or
// between "\r" and "\n"; the partial tail is kept until the next chunk or flush(), so no
// byte is lost and no line is reported twice. Returned lines carry no terminator.
namespace kf {

class LogSplitter
{
public:
    // Appends a chunk; returns the lines it completed.
    QByteArrayList feed(const QByteArray& chunk);
    // The same lines, handed to onLine(QByteArrayView) one by one without a copy each: the
    // view points into chunk (or into the kept partial line) and is valid only during the call.
    // This is the parser's hot path (a multi-GB log is millions of lines).
    template <typename OnLine> void feed(QByteArrayView chunk, OnLine&& onLine);
    // End of stream: returns the unterminated tail as a last line (if any).
    QByteArrayList flush();
    template <typename OnLine> void flush(OnLine&& onLine);
    const QByteArray& pending() const { return m_partial; }
    // Lines that grew past this are cut into pieces so a stream without newlines cannot
    // grow memory without bound.
    static constexpr qsizetype kMaxLine = 1 << 20;

private:
    QByteArray m_partial;
    bool m_lastWasCr = false;
};

template <typename OnLine> void LogSplitter::feed(QByteArrayView chunk, OnLine&& onLine)
{
    if (chunk.isEmpty())
        return; // keeps m_lastWasCr: the "\n" of a split "\r\n" may still come
    const char* p = chunk.data();
    const qsizetype n = chunk.size();
    qsizetype start = 0;
    if (m_lastWasCr && p[0] == '\n') {
        // "\r" ended the previous chunk and this "\n" completes the same terminator.
        start = 1;
    }
    m_lastWasCr = false;
    // memchr for each terminator kind; each position is remembered until passed, so a chunk of
    // many "\r"-only lines (progress bars) is still scanned once, not once per line.
    qsizetype nextLf = -1;
    qsizetype nextCr = -1;
    auto find = [&](char c, qsizetype from) {
        const void* hit = from < n ? std::memchr(p + from, c, size_t(n - from)) : nullptr;
        return hit ? qsizetype(static_cast<const char*>(hit) - p) : n;
    };
    while (start < n) {
        if (nextLf < start)
            nextLf = find('\n', start);
        if (nextCr < start)
            nextCr = find('\r', start);
        const qsizetype end = std::min(nextLf, nextCr);
        if (end == n)
            break;
        if (m_partial.isEmpty()) {
            onLine(QByteArrayView(p + start, end - start));
        } else {
            m_partial.append(p + start, end - start);
            onLine(QByteArrayView(m_partial));
            m_partial.clear();
        }
        start = end + 1;
        if (p[end] == '\r') {
            if (start < n && p[start] == '\n')
                ++start;
            else if (start == n)
                m_lastWasCr = true;
        }
    }
    if (start < n)
        m_partial.append(p + start, n - start);
    while (m_partial.size() > kMaxLine) {
        onLine(QByteArrayView(m_partial.constData(), kMaxLine));
        m_partial.remove(0, kMaxLine);
    }
}

template <typename OnLine> void LogSplitter::flush(OnLine&& onLine)
{
    m_lastWasCr = false;
    if (m_partial.isEmpty())
        return;
    onLine(QByteArrayView(m_partial));
    m_partial.clear();
}

} // namespace kf
