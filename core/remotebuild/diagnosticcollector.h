// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/diagnosticparser.h"

#include <QList>

#include <optional>

namespace kf {

// Streams lines into diagnostics, joining CMake's multi-line messages. Not thread-safe.
class DiagnosticCollector
{
public:
    // line: raw log line (normalised inside); returns diagnostics completed by it.
    QList<Diagnostic> feed(QByteArrayView rawLine);
    // The same for a line already passed through normalizeLogLine().
    QList<Diagnostic> feedNormalized(const QByteArray& line);
    // The same, appending to out (no list per line: the analyzer's hot path).
    void feedNormalized(QByteArrayView line, QList<Diagnostic>& out);
    // End of log: returns a pending CMake diagnostic, if any.
    QList<Diagnostic> flush();
    qint64 linesSeen() const { return m_lineNo; }

private:
    std::optional<Diagnostic> m_pending; // CMake header waiting for its message
    int m_pendingLines = 0;
    // Ends the pending CMake message: its hint, into out.
    void emitPending(QList<Diagnostic>& out);
    qint64 m_lineNo = 0;
};

} // namespace kf
