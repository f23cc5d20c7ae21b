// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>
#include <QtGlobal>

#include <atomic>
#include <thread>

namespace kf {
class TunnelStream;
}

namespace kf::test {

// A TCP server on 127.0.0.1, on its own thread, that accepts one connection and sends
// `total` bytes (byte i is floodByte(i)) as fast as the peer takes them, then closes. When
// the peer takes nothing for stallMs (every buffer on the way is full: the sender is
// blocked), stalledAt() is what had been sent by then; the sender keeps waiting and sends
// the rest once the peer reads again. For tests of back-pressure: a reader that does not
// read must stop the sender, not buffer everything.
class FloodServer
{
public:
    FloodServer(qint64 total, int stallMs);
    ~FloodServer();
    FloodServer(const FloodServer&) = delete;
    FloodServer& operator=(const FloodServer&) = delete;

    quint16 port() const { return m_port; }          // 0: could not listen
    qint64 stalledAt() const { return m_stalledAt; } // -1: not stalled (yet)
    qint64 sent() const { return m_sent; }
    bool finished() const { return m_finished; } // sent everything, or the peer went away

    static char floodByte(qint64 i) { return char(i % 251); }

private:
    void run();

    const qint64 m_total;
    const int m_stallMs;
    int m_listenFd = -1;
    quint16 m_port = 0;
    std::atomic<qint64> m_stalledAt { -1 };
    std::atomic<qint64> m_sent { 0 };
    std::atomic<bool> m_finished { false };
    std::atomic<bool> m_stop { false };
    std::thread m_thread;
};

// Reads the stream to its end (waiting up to 60 s for each piece) after `already` bytes were
// read, checking each byte against FloodServer::floodByte; empty when exactly `total` bytes
// came in order, else what went wrong.
QString readFloodToEnd(TunnelStream& stream, qint64 already, qint64 total);

} // namespace kf::test
