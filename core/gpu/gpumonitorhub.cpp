// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/gpu/gpumonitorhub.h"

#include "core/hosts/hostconnection.h"

namespace kf {

GpuMonitorHub::GpuMonitorHub(QObject* parent)
    : QObject(parent)
{
    m_options.healthIntervalMs = 10 * 60 * 1000;
}

GpuMonitor* GpuMonitorHub::monitorFor(HostConnection* host)
{
    if (!host)
        return nullptr;
    if (auto it = m_entries.constFind(host); it != m_entries.cend())
        return it->monitor;
    if (!m_watching.contains(host)) {
        m_watching.insert(host, true);
        // Becomes Ready later: create then, and tell the views.
        connect(host, &HostConnection::stateChanged, this, [this, host](ConnectionState state) {
            if (state == ConnectionState::Ready && !m_entries.contains(host))
                monitorFor(host);
        });
        connect(host, &QObject::destroyed, this, [this, host] {
            m_watching.remove(host);
            if (auto e = m_entries.take(host); e.monitor)
                e.monitor->deleteLater();
        });
    }
    if (host->state() != ConnectionState::Ready || !host->transport())
        return nullptr;
    auto* monitor = new GpuMonitor(host->transport(), host->profile().name, m_options, this);
    m_entries.insert(host, { host, monitor });
    monitor->start();
    Q_EMIT monitorAdded(host, monitor);
    return monitor;
}

void GpuMonitorHub::setIntervalMs(int ms)
{
    if (ms <= 0)
        return;
    m_options.intervalMs = ms;
    for (const Entry& e : std::as_const(m_entries))
        e.monitor->setIntervalMs(ms);
}

QList<GpuMonitor*> GpuMonitorHub::monitors() const
{
    QList<GpuMonitor*> out;
    for (const auto& e : m_entries)
        out.append(e.monitor);
    return out;
}

HostConnection* GpuMonitorHub::hostOf(const GpuMonitor* monitor) const
{
    for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it) {
        if (it->monitor == monitor)
            return it->host;
    }
    return nullptr;
}

} // namespace kf
