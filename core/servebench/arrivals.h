// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QList>
#include <QString>

#include <optional>

// When each request of a level is due, as vLLM's benchmarks/serve.py get_request() schedules
// them (`vllm bench serve --request-rate R --burstiness B --ramp-up-strategy S
// --ramp-up-start-rps A --ramp-up-end-rps E`):
//   rate_i  = R; with a ramp over the level's n requests, p = i / max(n - 1, 1) and
//             linear: A + (E - A) * p, exponential: A * (E / A)^p
//   gap_i   ~ Gamma(shape = B, scale = 1 / (rate_i * B)): mean 1 / rate_i; B = 1 is the
//             exponential (a Poisson process), B < 1 burstier, B > 1 more even, B = inf a
//             constant 1 / rate_i
//   due_i   = gap_0 + ... + gap_i (the first request waits one gap too)
//   without a ramp every due_i is then scaled by (n / R) / due_{n-1}, so the level offers
//   exactly n requests in n / R seconds whatever the seed (vLLM: "to stabilize the
//   throughput data from different random seeds").
// R = 0 (infinite in vLLM) sends everything at once: every due_i is 0. The draws come from
// std::mt19937 and std::gamma_distribution seeded with `seed`: deterministic for a seed on
// one standard library, not numpy's stream (the same process, not the same numbers).
// SGLang's bench_serving draws exponential gaps after each request (its first request at 0)
// and has no burstiness or ramp; README, "What the serving benchmark's numbers mean".
namespace kf {

enum class RampUp { None, Linear, Exponential };

QString rampUpName(RampUp ramp); // "none", "linear", "exponential"
std::optional<RampUp> rampUpFromName(const QString& name);

struct ArrivalShape
{
    double rate = 0;       // requests/s; 0: all at once
    double burstiness = 1; // gamma shape; inf: constant gaps
    RampUp ramp = RampUp::None;
    double rampStart = 0; // requests/s at the first request
    double rampEnd = 0;   // at the last

    bool allAtOnce() const { return ramp == RampUp::None && !(rate > 0); }
};

// Empty when the shape is usable, else why not ("burstiness must be > 0").
QString arrivalShapeError(const ArrivalShape& shape);

// The rate the i-th of n requests is drawn at (rate_i above); 0 when all at once.
double arrivalRate(const ArrivalShape& shape, int index, int count);

// due_i in seconds from the level's start, ascending; n values.
QList<double> arrivalTimes(const ArrivalShape& shape, int count, quint32 seed);

// The gaps between due times (the first gap is due_0): what a statistical test looks at.
QList<double> arrivalGaps(const QList<double>& due);

// "Poisson", "gamma (burstiness 0.5)", "evenly spaced": how the gaps are drawn.
QString arrivalKind(const ArrivalShape& shape);
// "Poisson 4 requests/s", "gamma (burstiness 0.5) 4 requests/s", "linear ramp 1 -> 20
// requests/s", "all requests at once".
QString arrivalSummary(const ArrivalShape& shape);

} // namespace kf
