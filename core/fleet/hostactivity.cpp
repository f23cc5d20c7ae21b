// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/hostactivity.h"

#include "core/remotebuild/buildsession.h"
#include "core/server/serverclient.h"

namespace kf {

HostActivity::HostActivity(QObject* parent)
    : QObject(parent)
{ }

void HostActivity::setServer(const QString& host, const ServerStatus& status)
{
    if (status.timeMs == 0) // no poll yet
        return;
    ServerActivity a;
    a.timeMs = status.timeMs;
    a.port = status.port;
    a.reachable = status.reachable;
    a.healthStatus = status.healthStatus;
    if (status.reachable && status.hasMetrics) {
        a.tokensPerS = status.metrics.genThroughput;
        a.running = status.metrics.running;
    }
    m_servers.insert(host, a);
    Q_EMIT changed(host);
}

std::optional<ServerActivity> HostActivity::server(const QString& host) const
{
    const auto it = m_servers.constFind(host);
    return it == m_servers.cend() ? std::nullopt : std::optional(*it);
}

void HostActivity::setBuild(const QString& host, const QString& job, const BuildProgress& p, qint64 nowMs)
{
    FollowedBuild& b = m_builds[host];
    if (b.job != job)
        b = FollowedBuild { job };
    if (p.done >= 0 && p.total > 0) {
        b.done = p.done;
        b.total = p.total;
    }
    b.etaS = p.etaS >= 0 && p.done < p.total ? p.etaS : noValue();
    b.timeMs = nowMs;
    Q_EMIT changed(host);
}

void HostActivity::clearBuild(const QString& host)
{
    if (m_builds.remove(host) > 0)
        Q_EMIT changed(host);
}

std::optional<FollowedBuild> HostActivity::build(const QString& host) const
{
    const auto it = m_builds.constFind(host);
    return it == m_builds.cend() ? std::nullopt : std::optional(*it);
}

} // namespace kf
