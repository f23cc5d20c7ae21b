// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/requestrecorder.h"
#include "core/util/novalue.h"
#include "core/util/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>

// Goodput as vLLM's benchmarks/serve.py calculate_metrics() defines it for
// `vllm bench serve --goodput ttft:X tpot:Y e2el:Z` (milliseconds; any subset):
//   a successful request is good when every SLO given holds: SLO / 1000 >= its value in
//   seconds (TTFT; TPOT = (E2E - TTFT) / (output - 1), taken as 0 for one output token; E2E);
//   request goodput = good requests / the level's duration (vLLM's request_goodput).
// KernelForge adds, over the same good requests and duration: output goodput (their output
// tokens per second), total goodput (their input + output tokens per second) and the good
// fraction (good / requests sent: failed requests are never good), which the goodput search
// (goodputsearch.h) holds against its target.
namespace kf {

struct Slo
{
    double ttftMs = noValue();
    double tpotMs = noValue();
    double e2eMs = noValue();
    bool any() const { return hasValue(ttftMs) || hasValue(tpotMs) || hasValue(e2eMs); }
    bool operator==(const Slo& o) const
    {
        return sameValue(ttftMs, o.ttftMs) && sameValue(tpotMs, o.tpotMs) && sameValue(e2eMs, o.e2eMs);
    }
};

// vLLM's syntax: "ttft:200 tpot:50 e2el:5000" (blanks or commas between, each key at most
// once, values in ms >= 0). An error names the bad pair.
Result<Slo> parseSlo(const QString& text);
// The same syntax back ("ttft:200 tpot:50"); empty without an SLO.
QString sloText(const Slo& slo);
QJsonObject toJson(const Slo& slo); // {"ttft_ms": .., "tpot_ms": .., "e2el_ms": ..}, null when not set
Slo sloFromJson(const QJsonObject& o);

// Whether a successful request met every SLO given (vLLM's is_good_req).
bool meetsSlo(const RequestSample& request, const Slo& slo);

struct Goodput
{
    int good = 0;
    int requests = 0;                  // sent
    double requestGoodput = noValue(); // good requests / s
    double outputGoodput = noValue();  // their output tokens / s
    double totalGoodput = noValue();   // their input + output tokens / s
    double fraction = noValue();       // good / sent
};
// NaN figures without an SLO or a duration.
Goodput computeGoodput(const QList<RequestSample>& samples, double durationS, const Slo& slo);
QJsonObject toJson(const Goodput& g);
Goodput goodputFromJson(const QJsonObject& o);

} // namespace kf
