// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/etaestimator.h"

#include "core/remotebuild/ninjalog.h"

#include <algorithm>

namespace kf {
namespace {
constexpr qint64 kWindowMs = 5000; // one rate measurement per 5 s ...
constexpr int kWindowSteps = 20;   // ... or per 20 steps, whichever comes first (but >= 1 s)
constexpr double kAlpha = 0.3;     // weight of the newest window
} // namespace

void EtaEstimator::reset()
{
    *this = EtaEstimator();
}

void EtaEstimator::seed(int steps, qint64 wallMs)
{
    if (steps > 0 && wallMs > 0)
        m_seedRate = double(steps) * 1000.0 / double(wallMs);
}

void EtaEstimator::seed(const NinjaLog& previous)
{
    seed(int(previous.lastRun.size()), previous.wallMs());
}

void EtaEstimator::addSample(qint64 timeMs, int done, int total)
{
    if (m_firstMs < 0) {
        m_firstMs = m_windowStartMs = timeMs;
        m_firstDone = m_windowStartDone = done;
    }
    if (done < m_done) {
        // A new ninja invocation (e.g. CMake re-ran) restarts the counter: restart the window.
        m_windowStartMs = timeMs;
        m_windowStartDone = done;
    }
    m_lastMs = timeMs;
    m_done = done;
    m_total = std::max(total, done);
    const qint64 dt = timeMs - m_windowStartMs;
    const int ds = done - m_windowStartDone;
    if (dt >= kWindowMs || (ds >= kWindowSteps && dt >= 1000)) {
        const double r = dt > 0 ? double(ds) * 1000.0 / double(dt) : 0.0;
        m_rate = m_windows == 0 ? r : kAlpha * r + (1 - kAlpha) * m_rate;
        ++m_windows;
        m_windowStartMs = timeMs;
        m_windowStartDone = done;
    }
}

std::optional<double> EtaEstimator::rate() const
{
    double measured = m_rate;
    if (m_windows == 0 && m_lastMs > m_firstMs && m_done > m_firstDone)
        measured = double(m_done - m_firstDone) * 1000.0 / double(m_lastMs - m_firstMs);
    if (m_seedRate > 0) {
        if (measured <= 0)
            return m_seedRate;
        // Trust the measurement more as the build advances.
        const double w = m_total > 0 ? std::clamp(double(m_done) / double(m_total) * 4.0, 0.0, 1.0) : 0.0;
        return w * measured + (1 - w) * m_seedRate;
    }
    if (measured > 0)
        return measured;
    return std::nullopt;
}

std::optional<double> EtaEstimator::etaSeconds() const
{
    if (m_total <= 0)
        return std::nullopt;
    if (m_done >= m_total)
        return 0.0;
    const auto r = rate();
    if (!r || *r <= 0)
        return std::nullopt;
    return double(m_total - m_done) / *r;
}

} // namespace kf
