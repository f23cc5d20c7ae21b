// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/hosts/hostmanager.h"

namespace kf {

HostManager::HostManager(QObject* parent)
    : QObject(parent)
{
    m_factory = [](const HostProfile& p, QObject* parent) -> HostConnection* {
        return p.isLocal ? new LocalHostConnection(p, parent) : nullptr;
    };
}

HostConnection* HostManager::add(const HostProfile& profile)
{
    if (auto* existing = find(profile.name))
        return existing;
    HostConnection* c = m_factory(profile, this);
    if (!c)
        return nullptr;
    m_hosts << c;
    Q_EMIT hostAdded(c);
    return c;
}

void HostManager::remove(const QString& name)
{
    if (auto* c = find(name)) {
        m_hosts.removeOne(c);
        c->disconnectFromHost();
        c->deleteLater();
        Q_EMIT hostRemoved(name);
    }
}

HostConnection* HostManager::find(const QString& name) const
{
    for (auto* c : m_hosts)
        if (c->profile().name == name)
            return c;
    return nullptr;
}

} // namespace kf
