// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QString>

#include <atomic>
#include <memory>
#include <mutex>
#include <thread>

namespace kf::test {

// A userspace TCP proxy on 127.0.0.1 that injects network faults between a client and a
// target port (tc netem needs root and a kernel module that these machines lack).
//
//   client --> 127.0.0.1:port() --> [latency, bandwidth cap, hang, reset] --> target
//
// Runs on its own thread (plain non-blocking sockets and poll(), no Qt event loop), so it
// works the same under a test's event loop, a blocking QProcess wait or a benchmark.
// Every fault can be changed at any time from any thread:
//  - setLatency(ms): every byte is held ms milliseconds in EACH direction before it is
//    forwarded, so the round trip grows by 2*ms. A change applies to bytes read after it.
//  - setBandwidth(bytesPerSecond): a cap per direction and per connection (like a link of
//    that speed for each connection); 0 means unlimited. Paced in slices of at most ~10 ms
//    of traffic, so short bursts never exceed the rate by more than one slice.
//  - setHang(true): a black hole. Bytes from both sides are read and dropped, queued bytes
//    are dropped, nothing is forwarded, no connection is closed: peers see a stalled link
//    (only keepalives / dead-peer detection can notice). setHang(false) resumes forwarding
//    new bytes; the lost ones stay lost (the SSH stream is then corrupt, as after a real
//    black hole of that kind, so clients should treat it as dead).
//  - resetAll(): closes every open connection on both sides with an RST (SO_LINGER 0):
//    peers get ECONNRESET. The listener stays; new connections work.
//  - setRefuseNew(true): newly accepted connections are reset at once (server gone).
// Backpressure: each direction buffers at most 4 MiB; beyond that the proxy stops reading
// from the sender, so a slow (capped) link slows the sender down as TCP would.
class FaultProxy
{
public:
    struct Counters
    {
        qint64 bytesToTarget = 0;  // forwarded client -> target
        qint64 bytesToClient = 0;  // forwarded target -> client
        qint64 bytesSwallowed = 0; // dropped while hanging (both directions)
        int connectionsAccepted = 0;
        int connectionsOpen = 0;
        int connectionsReset = 0; // by resetAll() / setRefuseNew()
    };

    // Forwards to targetHost:targetPort (an IPv4 address, normally 127.0.0.1).
    explicit FaultProxy(quint16 targetPort, const QString& targetHost = QStringLiteral("127.0.0.1"));
    ~FaultProxy(); // stops
    FaultProxy(const FaultProxy&) = delete;
    FaultProxy& operator=(const FaultProxy&) = delete;

    // Listens on 127.0.0.1 (a free port, or listenPort when not 0) and starts the thread.
    Result<void> start(quint16 listenPort = 0);
    // Closes every connection (FIN, after flushing nothing more) and joins the thread.
    void stop();
    bool isRunning() const { return m_thread.joinable(); }
    quint16 port() const { return m_port; }
    quint16 targetPort() const { return m_targetPort; }

    void setLatency(int oneWayMs);
    int latency() const { return m_latencyMs.load(); }
    void setBandwidth(qint64 bytesPerSecond);
    qint64 bandwidth() const { return m_bandwidth.load(); }
    void setHang(bool hang);
    bool isHanging() const { return m_hang.load(); }
    void setRefuseNew(bool refuse);
    // Asynchronous: returns at once; the proxy thread resets what is open when it wakes
    // (within microseconds). counters().connectionsReset tells when it has happened.
    void resetAll();
    // Clears the faults (no latency, no cap, no hang, accept new connections).
    void clearFaults();

    Counters counters() const;

private:
    struct Loop;
    void wake();

    QString m_targetHost;
    quint16 m_targetPort = 0;
    quint16 m_port = 0;
    int m_listenFd = -1;
    int m_wakeFd = -1; // eventfd: settings changed or stop requested
    std::thread m_thread;
    std::unique_ptr<Loop> m_loop;

    std::atomic<int> m_latencyMs { 0 };
    std::atomic<qint64> m_bandwidth { 0 };
    std::atomic<bool> m_hang { false };
    std::atomic<bool> m_refuseNew { false };
    std::atomic<int> m_resetRequests { 0 };
    std::atomic<bool> m_stop { false };

    mutable std::mutex m_countersMutex;
    Counters m_counters; // guarded by m_countersMutex; written by the proxy thread
};

} // namespace kf::test
