// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QString>

#include <optional>

// The search for the highest concurrency (or request rate) whose level keeps the good
// fraction (goodput.h) at or above a target, over whole numbers from `low` to `high`, as
// vLLM's `vllm bench sweep serve_sla` looks for the largest max_concurrency / request_rate that
// meets its SLA: doubling from `low` while levels pass, then halving the interval between the
// highest pass and the lowest failure until they are neighbours. A pure state machine:
// next() names the value to run, record() says how it went. At most about 2 x log2(high)
// levels. Passing is assumed to fall with the value (more load, worse latency), as vLLM does.
namespace kf {

class GoodputSearch
{
public:
    GoodputSearch(int low, int high);

    // The next value to run; none once the search is over.
    std::optional<int> next() const;
    void record(int value, bool passed);

    bool finished() const { return !next().has_value(); }
    // The highest value that passed; none when even `low` failed.
    std::optional<int> best() const;
    // The lowest value that failed; none when nothing failed up to `high`.
    std::optional<int> firstFailure() const;
    // "highest concurrency meeting the target: 24 (25 misses it); 7 levels run".
    QString summary(const QString& what) const;

private:
    int m_low;
    int m_high;
    std::optional<int> m_pass; // highest passing
    std::optional<int> m_fail; // lowest failing
    int m_runs = 0;
};

} // namespace kf
