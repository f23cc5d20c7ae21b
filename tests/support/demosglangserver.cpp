// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "tests/support/demosglangserver.h"

#include "core/server/serverclient.h"
#include "core/transport/localtransport.h"
#include "tests/support/testsupport.h"

#include <QDeadlineTimer>
#include <QTest>

namespace kf::test {

const QStringList DemoSglangServer::kQuietArgs { QStringLiteral("--enable-metrics"),
    QStringLiteral("--no-background-load"), QStringLiteral("--decode-base-ms"), QStringLiteral("5") };

DemoSglangServer::~DemoSglangServer()
{
    if (m_process.state() == QProcess::NotRunning)
        return;
    m_process.terminate();
    if (!m_process.waitForFinished(5000))
        m_process.kill();
    m_process.waitForFinished(5000);
}

bool DemoSglangServer::start(const QStringList& args)
{
    m_port = freeLocalPort();
    m_process.setStandardErrorFile(QProcess::nullDevice());
    m_process.start(QStringLiteral(KF_SOURCE_DIR "/resources/demo/bin/sglang-demo-server"),
        QStringList { QStringLiteral("--port"), QString::number(m_port) } + args);
    return m_process.waitForStarted(10000);
}

bool DemoSglangServer::waitHealthy(int timeoutMs) const
{
    LocalTransport t;
    const QDeadlineTimer deadline(timeoutMs);
    while (!deadline.hasExpired()) {
        if (pollServer(t, m_port, nullptr, false).healthy())
            return true;
        if (m_process.state() == QProcess::NotRunning)
            return false;
        QTest::qWait(100);
    }
    return false;
}

double DemoSglangServer::running() const
{
    LocalTransport t;
    const ServerStatus s = pollServer(t, m_port, nullptr, false);
    return s.hasMetrics ? s.metrics.running : -1;
}

double DemoSglangServer::aborted() const
{
    LocalTransport t;
    return pollServer(t, m_port, nullptr, false).metricsText.sum(u"sglang:num_aborted_requests_total");
}

} // namespace kf::test
