// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildloganalyzer.h"

namespace kf {

void BuildLogAnalyzer::line(QByteArrayView raw, BuildLogEvents& ev)
{
    ++ev.lines;
    const QByteArrayView line = normalizeLogLine(raw, m_scratch);
    m_collector.feedNormalized(line, ev.diagnostics);
    if (auto p = parseProgressLine(line))
        ev.progress.append(std::move(*p));
}

BuildLogEvents BuildLogAnalyzer::feed(QByteArrayView chunk)
{
    BuildLogEvents ev;
    m_splitter.feed(chunk, [&](QByteArrayView l) { line(l, ev); });
    return ev;
}

BuildLogEvents BuildLogAnalyzer::finish()
{
    BuildLogEvents ev;
    m_splitter.flush([&](QByteArrayView l) { line(l, ev); });
    ev.diagnostics += m_collector.flush();
    return ev;
}

} // namespace kf
