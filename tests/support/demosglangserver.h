// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QProcess>
#include <QStringList>

namespace kf::test {

// The demo SGLang server (resources/demo/bin/sglang-demo-server) on 127.0.0.1 and a free port,
// stopped (TERM, then KILL) when this goes. Tests that count requests run it with
// kQuietArgs: only their own requests, so num_running_reqs is exactly the requests in flight.
class DemoSglangServer
{
public:
    DemoSglangServer() = default;
    ~DemoSglangServer();
    DemoSglangServer(const DemoSglangServer&) = delete;
    DemoSglangServer& operator=(const DemoSglangServer&) = delete;

    static const QStringList kQuietArgs; // --enable-metrics --no-background-load --decode-base-ms 5

    // Starts `sglang-demo-server --port <free port> ARGS` (its stderr dropped); false when it
    // could not be started.
    bool start(const QStringList& args);
    // Until its /health answers 200, or timeoutMs pass; false then.
    bool waitHealthy(int timeoutMs = 30000) const;
    quint16 port() const { return m_port; }
    // num_running_reqs now (-1 without metrics), and the aborted requests counted so far.
    double running() const;
    double aborted() const;

private:
    QProcess m_process;
    quint16 m_port = 0;
};

} // namespace kf::test
