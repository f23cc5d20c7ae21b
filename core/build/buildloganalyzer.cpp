// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/build/buildloganalyzer.h"

namespace kf {

void BuildLogAnalyzer::line(const QByteArray& raw, BuildLogEvents& ev)
{
    ++ev.lines;
    const QByteArray line = normalizeLogLine(raw);
    ev.diagnostics += m_collector.feedNormalized(line);
    if (auto p = parseProgressLine(line))
        ev.progress.append(*p);
}

BuildLogEvents BuildLogAnalyzer::feed(const QByteArray& chunk)
{
    BuildLogEvents ev;
    for (const QByteArray& l : m_splitter.feed(chunk))
        line(l, ev);
    return ev;
}

BuildLogEvents BuildLogAnalyzer::finish()
{
    BuildLogEvents ev;
    for (const QByteArray& l : m_splitter.flush())
        line(l, ev);
    ev.diagnostics += m_collector.flush();
    return ev;
}

} // namespace kf
