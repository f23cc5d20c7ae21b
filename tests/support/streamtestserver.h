// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QMutex>
#include <QThread>

#include <memory>

namespace kf::test {

class StreamServerWorker;

// A streaming inference server in this process, on its own thread, for the load generator's
// accuracy test and benchmark: it answers POST /v1/completions, /v1/chat/completions and
// /generate (stream: true) in SGLang's formats (those of resources/demo/bin/sglang-demo-server)
// with max_tokens / max_new_tokens tokens and usage / meta_info counts, one token per event,
// one event per HTTP chunk, TCP_NODELAY.
//   schedule mode: token k (k = 0..n-1) is due prefillS + k x itlS after the request arrived,
//     from one precise timer per connection; the times it was really written are recorded
//     (steady clock, ns) so a test compares what the client measured with what happened;
//   flood mode: every token as fast as the socket takes them (benchmarks).
// With a capacity (schedule mode), at most that many requests generate at once; the others
// wait in arrival order, and a request's schedule starts when it gets its place (so its TTFT
// includes the wait), as a batching server with a full batch queues them.
// GET /health, /server_info, /v1/models and /metrics answer like SGLang's (/metrics:
// num_running_reqs, num_queue_reqs, prompt_tokens_total, generation_tokens_total), so
// ServeBench runs against it; metricsTokenScale scales the generation counter it reports (a
// server whose /metrics counts fewer tokens than it streams).
class StreamTestServer
{
public:
    struct Options
    {
        double prefillS = 0.2;
        double itlS = 0.05;
        bool flood = false;
        // Flood mode: hold every response until this many requests have arrived, so that many
        // streams are open at once (0: start each at once).
        int holdUntil = 0;
        int capacity = 0; // schedule mode: requests generating at once; 0: no limit
        double metricsTokenScale = 1.0;
    };
    struct Trace
    {
        QByteArray path;
        qint64 arrivedNs = 0;    // the request was read completely
        QList<qint64> tokenNs;   // each token event written
        bool finished = false;   // [DONE] written
        bool clientGone = false; // the client closed before the end
    };

    explicit StreamTestServer(Options options);
    ~StreamTestServer();
    Result<void> start(); // 127.0.0.1, any free port
    quint16 port() const { return m_port; }
    QList<Trace> traces() const;
    int openConnections() const;
    int peakOpenConnections() const;
    // The most requests that waited for a place at once (capacity).
    int peakQueued() const;

private:
    QThread m_thread;
    StreamServerWorker* m_worker;
    quint16 m_port = 0;
};

} // namespace kf::test
