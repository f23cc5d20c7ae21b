// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/goodputsearch.h"

#include <algorithm>

namespace kf {

GoodputSearch::GoodputSearch(int low, int high)
    : m_low(std::max(1, low))
    , m_high(std::max(std::max(1, low), high))
{ }

std::optional<int> GoodputSearch::next() const
{
    if (!m_pass && !m_fail)
        return m_low;
    if (!m_pass)
        return std::nullopt; // even the lowest value failed
    if (!m_fail) {
        if (*m_pass >= m_high)
            return std::nullopt;
        return std::min(m_high, *m_pass * 2);
    }
    if (*m_fail - *m_pass <= 1)
        return std::nullopt;
    return *m_pass + (*m_fail - *m_pass) / 2;
}

void GoodputSearch::record(int value, bool passed)
{
    ++m_runs;
    if (passed) {
        if (!m_pass || value > *m_pass)
            m_pass = value;
    } else if (!m_fail || value < *m_fail) {
        m_fail = value;
    }
}

std::optional<int> GoodputSearch::best() const
{
    return m_pass;
}

std::optional<int> GoodputSearch::firstFailure() const
{
    return m_fail;
}

QString GoodputSearch::summary(const QString& what) const
{
    QString s;
    if (!m_pass)
        s = QStringLiteral("no %1 meets the target (%2 misses it)").arg(what).arg(m_low);
    else if (!m_fail)
        s = QStringLiteral("highest %1 meeting the target: %2 or more (the search stops at %3)")
                .arg(what)
                .arg(*m_pass)
                .arg(m_high);
    else
        s = QStringLiteral("highest %1 meeting the target: %2 (%3 misses it)").arg(what).arg(*m_pass).arg(*m_fail);
    return s + QStringLiteral("; %1 level%2 run").arg(m_runs).arg(m_runs == 1 ? QString() : QStringLiteral("s"));
}

} // namespace kf
