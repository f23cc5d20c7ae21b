// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/diagnosticcollector.h"

#include "core/remotebuild/progressparser.h"

namespace kf {

QList<Diagnostic> DiagnosticCollector::feed(QByteArrayView rawLine)
{
    return feedNormalized(normalizeLogLine(rawLine));
}

QList<Diagnostic> DiagnosticCollector::feedNormalized(const QByteArray& line)
{
    QList<Diagnostic> out;
    feedNormalized(QByteArrayView(line), out);
    return out;
}

void DiagnosticCollector::feedNormalized(QByteArrayView line, QList<Diagnostic>& out)
{
    const qint64 lineNo = m_lineNo++;
    if (m_pending) {
        // A CMake message runs until the first blank line (CMake always ends one with "\n\n").
        const bool header = line.startsWith("CMake ") || line.startsWith("-- ") || line.startsWith("***");
        if (line.isEmpty() || header || m_pendingLines >= 20) {
            emitPending(out);
            if (line.isEmpty())
                return;
        } else {
            if (m_pendingLines > 0)
                m_pending->message += QLatin1Char(' ');
            m_pending->message += QString::fromUtf8(line);
            ++m_pendingLines;
            return;
        }
    }
    auto d = parseDiagnosticLine(line);
    if (!d)
        return;
    d->logLine = lineNo;
    if (d->kind == Diagnostic::Kind::CMake && d->message.endsWith(QLatin1String(": "))) {
        m_pending = d;
        m_pendingLines = 0;
        return;
    }
    out.append(*d);
}

QList<Diagnostic> DiagnosticCollector::flush()
{
    QList<Diagnostic> out;
    if (m_pending)
        emitPending(out);
    return out;
}

void DiagnosticCollector::emitPending(QList<Diagnostic>& out)
{
    if (m_pending->message.endsWith(QLatin1String(": ")))
        m_pending->message.chop(2);
    m_pending->hint = hintFor(*m_pending);
    out.append(*m_pending);
    m_pending.reset();
}

} // namespace kf
