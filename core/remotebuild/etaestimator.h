// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QtGlobal>

#include <optional>

namespace kf {

struct NinjaLog;

// Estimates the time left from (time, steps done, steps total) samples.
// The rate is an exponentially smoothed steps/second, updated once a window of time or
// steps has passed, so the one-second bursts of a ninja build do not make the ETA jump.
// With a previous .ninja_log of the same build the estimator starts from that run's
// average rate (and knows an ETA from the first step); the measured rate takes over as
// steps complete.
class EtaEstimator
{
public:
    void reset();
    // Seeds from a previous run: steps finished in wallMs.
    void seed(int steps, qint64 wallMs);
    void seed(const NinjaLog& previous);
    // Samples must come with non-decreasing timeMs.
    void addSample(qint64 timeMs, int done, int total);

    // steps/second; nullopt until known.
    std::optional<double> rate() const;
    // Seconds left; nullopt while unknown.
    std::optional<double> etaSeconds() const;
    int done() const { return m_done; }
    int total() const { return m_total; }

private:
    double m_seedRate = 0; // steps/s of the previous run; 0 when not seeded
    double m_rate = 0;     // smoothed measured steps/s; 0 until a window completed
    qint64 m_windowStartMs = -1;
    int m_windowStartDone = 0;
    qint64 m_firstMs = -1;
    int m_firstDone = 0;
    qint64 m_lastMs = -1;
    int m_done = 0;
    int m_total = 0;
    int m_windows = 0;
};

} // namespace kf
