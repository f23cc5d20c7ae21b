// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/remotebuild/diagnosticcollector.h"
#include "core/remotebuild/logsplitter.h"
#include "core/remotebuild/progressparser.h"

#include <QList>

namespace kf {

// What a chunk of build log said.
struct BuildLogEvents
{
    QList<ProgressUpdate> progress;
    QList<Diagnostic> diagnostics;
    int lines = 0;
};

// Chunks of a build log in, progress and diagnostics out: LogSplitter + normalizeLogLine +
// parseProgressLine + DiagnosticCollector. Feed the log bytes exactly once, in order.
// Cost per line is a few memchr scans over bytes (no copy, no QString, no allocation); only
// lines that produce an event are converted to QString (see mayBeDiagnosticLine()).
class BuildLogAnalyzer
{
public:
    BuildLogEvents feed(QByteArrayView chunk);
    BuildLogEvents feed(const QByteArray& chunk) { return feed(QByteArrayView(chunk)); }
    BuildLogEvents finish(); // end of log: the unterminated last line and a pending CMake message
    qint64 linesSeen() const { return m_collector.linesSeen(); }

private:
    void line(QByteArrayView raw, BuildLogEvents& ev);
    LogSplitter m_splitter;
    DiagnosticCollector m_collector;
    QByteArray m_scratch; // normalizeLogLine() output for lines with escapes
};

} // namespace kf
