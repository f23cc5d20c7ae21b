// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/requestrecorder.h"
#include "core/servebench/serveapi.h"

#include <QByteArray>
#include <QElapsedTimer>
#include <QList>
#include <QMetaType>
#include <QObject>
#include <QString>
#include <QTimer>

#include <memory>
#include <vector>

// The load generator: streaming HTTP/1.1 requests on non-blocking QTcpSockets, all driven by
// the event loop of the one thread it lives in (no thread per request). One connection per
// request, "Connection: close", as bench_serving's aiohttp session per request. It connects to
// host:port on this machine: the server's own port (--local) or a LocalPortForward, whose
// every accepted socket travels over the host's one SSH session (core/ssh/localportforward.h).
//
// Request i is due arrivals[i] seconds after start() (arrivals.h; none: all at once) and at most
// `concurrency` are in flight (0: no cap); a request due while the cap is full waits for a free
// slot. Its clock (st) starts when it is sent, as in bench_serving, whose semaphore wraps the
// timed request function; RequestSample::scheduled keeps when it was due. Reads are bounded: response
// headers 64 KiB, one event 4 MiB, the body maxBodyBytes, and each request requestTimeoutMs.
// cancel() aborts every socket at once: the server sees each client go away (SGLang aborts a
// request whose client disconnected), and requests not yet sent are never sent.
namespace kf {

struct LoadSpec
{
    QString host = QStringLiteral("127.0.0.1");
    quint16 port = 0;
    QByteArray hostHeader; // the server as it sees itself, "127.0.0.1:30000"
    ServeApi api = ServeApi::Completions;
    QString model;
    int concurrency = 1; // 0: no cap
    int outputTokens = 128;
    int requestTimeoutMs = 600000;
    qint64 maxBodyBytes = qint64(256) << 20;
    QList<QByteArray> prompts; // one request each
    QList<int> outputs;        // per request; empty: outputTokens each
    QList<int> promptTokens;   // per request's estimate; empty: promptTokensEstimate each
    QList<double> arrivals;    // per request, seconds, ascending; empty: all at once
    int promptTokensEstimate = 0;
};

struct LoadResult
{
    QList<RequestSample> samples; // the requests that were sent, in order of sending
    double durationS = 0;         // first request sent .. last one finished
    qint64 startedMs = 0;         // ms since the epoch
    qint64 endedMs = 0;
    int notSent = 0; // cancelled before they were sent
    bool cancelled = false;
    QString error; // the level could not run at all (descriptor limit)
};

class LoadGenerator : public QObject
{
    Q_OBJECT
public:
    explicit LoadGenerator(QObject* parent = nullptr);
    ~LoadGenerator() override;

    // Call in the generator's thread (QMetaObject::invokeMethod from elsewhere).
    void start(const LoadSpec& spec);
    void cancel();
    bool isRunning() const { return m_running; }
    int inFlight() const { return m_inFlight; }

Q_SIGNALS:
    void progress(int done, int total);
    void finished(const kf::LoadResult& result);

private:
    struct Request;
    void dispatch();
    void launch(int index);
    void onConnected(int index);
    void onReadyRead(int index);
    void onClosed(int index);
    void complete(int index, const QString& error);
    void checkTimeouts();
    void end();
    double now() const { return double(m_clock.nsecsElapsed()) * 1e-9; }

    LoadSpec m_spec;
    QList<QByteArray> m_bodies;
    QList<double> m_arrivals; // seconds after start
    int m_cap = 0;            // the concurrency cap in force
    std::vector<std::unique_ptr<Request>> m_requests;
    QList<int> m_order; // indices in the order they were sent
    QElapsedTimer m_clock;
    // Children, so that moveToThread() takes them along.
    QTimer m_arrivalTimer { this };
    QTimer m_timeoutTimer { this };
    QTimer m_progressTimer { this };
    qint64 m_startedMs = 0;
    int m_next = 0;
    int m_inFlight = 0;
    int m_done = 0;
    double m_lastEnd = 0;
    bool m_running = false;
    bool m_cancelled = false;
    QByteArray m_readBuffer;
};

} // namespace kf

Q_DECLARE_METATYPE(kf::LoadResult)
