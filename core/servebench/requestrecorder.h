// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/serveapi.h"

#include <QList>
#include <QString>

// One streamed request measured on the client, with the definitions of SGLang's
// python/sglang/bench_serving.py (async_request_openai_completions, ..._chat_completions,
// async_request_sglang_generate) and vLLM's benchmarks/backend_request_func.py:
//   st       the moment the request is issued (before the connection is made, as their
//            aiohttp session per request does);
//   TTFT     the arrival of the first event that carries text, minus st;
//   ITL      for each later event with text, the gap since the previous one (openai,
//            openai-chat). For sglang's /generate, whose events carry the cumulative
//            completion_tokens, a gap covering k new tokens counts as k gaps of gap/k, and an
//            event with no new token is skipped without moving the previous time;
//   E2E      (their "latency") the arrival of the last event of the stream ([DONE]) minus st;
//   output   the server's completion_tokens when it reports one (usage / meta_info), else the
//            number of events with text (one token each when a server streams token by token,
//            as SGLang and vLLM do): then outputTokensReported is false ("estimated").
// Times are seconds on one monotonic clock, relative to any origin the caller picks.
namespace kf {

struct RequestSample
{
    bool ok = false;
    QString error;        // why not ok
    double start = 0;     // st
    double scheduled = 0; // when it was due (arrivals.h); start is later when the concurrency cap held it
    double ttft = -1;     // -1: no text arrived
    double latency = -1;  // E2E
    QList<double> itl;    // inter-token latencies
    int promptTokens = 0; // as reported, else the caller's estimate
    bool promptTokensReported = false;
    int outputTokens = 0;
    bool outputTokensReported = false;
    int textEvents = 0;
    // TPOT = (E2E - TTFT) / (output - 1) when output > 1; -1 otherwise.
    double tpot() const { return ok && outputTokens > 1 ? (latency - ttft) / double(outputTokens - 1) : -1.0; }
};

class RequestRecorder
{
public:
    RequestRecorder(ServeApi api, int promptTokensEstimate);
    void start(double t);
    // One event's data, arrived at t. False when it ends the request with an error.
    bool onEvent(QByteArrayView data, double t);
    bool sawDone() const { return m_done; }
    const QString& error() const { return m_error; }
    // error empty: the stream ended; it succeeded when text arrived.
    RequestSample finish(double t, const QString& error = {});

private:
    ServeApi m_api;
    RequestSample m_sample;
    double m_lastEvent = -1;
    double m_recent = 0;        // bench_serving's most_recent_timestamp
    int m_lastOutputTokens = 0; // bench_serving's last_output_len (sglang)
    int m_reportedOutput = -1;
    int m_reportedPrompt = -1;
    bool m_done = false;
    QString m_error;
};

} // namespace kf
