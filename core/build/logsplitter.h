// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QByteArrayList>

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
    // End of stream: returns the unterminated tail as a last line (if any).
    QByteArrayList flush();
    const QByteArray& pending() const { return m_partial; }
    // Lines that grew past this are cut into pieces so a stream without newlines cannot
    // grow memory without bound.
    static constexpr qsizetype kMaxLine = 1 << 20;

private:
    QByteArray m_partial;
    bool m_lastWasCr = false;
};

} // namespace kf
