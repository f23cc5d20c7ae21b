// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/build/buildloganalyzer.h"

namespace kf {

void BuildLogAnalyzer::line(const QByteArray& raw, BuildLogEvents& ev)
{
    ++ev.lines;
    ev.diagnostics += m_collector.feed(raw);
    // Progress lines start with '[' after the wrappers; skip the normalisation cost otherwise.
    const qsizetype bracket = raw.indexOf('[');
    if (bracket < 0 || bracket > 64)
        return;
    if (auto p = parseProgressLine(normalizeLogLine(raw)))
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
