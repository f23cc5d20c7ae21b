// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/sessions/hostsessions.h"

#include "core/hosts/hostconnection.h"
#include "core/remotebuild/buildsession.h"
#include "core/server/serversession.h"

namespace kf {

HostSessions::HostSessions(QObject* parent)
    : QObject(parent)
{
    qRegisterMetaType<kf::ServerSession*>();
    qRegisterMetaType<kf::HostConnection*>();
}

HostSessions::~HostSessions()
{
    // Sessions first, while their hosts' transports are still held by them alone.
    qDeleteAll(m_servers);
}

void HostSessions::watch(HostConnection* host)
{
    if (m_watching.contains(host))
        return;
    m_watching.insert(host, true);
    connect(host, &HostConnection::stateChanged, this, [this, host](ConnectionState state) {
        if (state != ConnectionState::Ready)
            return;
        if (ServerSession* s = m_servers.value(host))
            s->refresh(); // adopt what runs there now (after a reconnect, or launched elsewhere meanwhile)
        else
            serverSession(host);
    });
    connect(host, &QObject::destroyed, this, [this, host] {
        m_watching.remove(host);
        m_builds.remove(host);
        delete m_servers.take(host);
    });
}

ServerSession* HostSessions::serverSession(HostConnection* host)
{
    if (!host)
        return nullptr;
    if (ServerSession* s = m_servers.value(host))
        return s;
    watch(host);
    if (!host->transport())
        return nullptr;
    auto* session = new ServerSession(host->transport(), host->transport()->describe());
    m_servers.insert(host, session);
    connect(session, &ServerSession::serversChanged, this, [this, host] { Q_EMIT changed(host); });
    connect(session, &ServerSession::statusUpdated, this, [this, host] { Q_EMIT changed(host); });
    Q_EMIT serverSessionAdded(host, session);
    if (host->state() == ConnectionState::Ready)
        session->refresh();
    return session;
}

QList<ServerSession*> HostSessions::serverSessions() const
{
    return m_servers.values();
}

void HostSessions::setRunningBuild(HostConnection* host, BuildSession* session)
{
    if (!host || m_builds.value(host) == session)
        return;
    watch(host);
    if (BuildSession* old = m_builds.value(host))
        old->disconnect(this);
    m_builds.insert(host, session);
    if (session) {
        connect(session, &BuildSession::progressChanged, this, [this, host] { Q_EMIT changed(host); });
        const auto forget = [this, host, session] {
            if (m_builds.value(host) == session || m_builds.value(host).isNull()) {
                m_builds.remove(host);
                Q_EMIT changed(host);
            }
        };
        connect(session, &BuildSession::finished, this, forget);
        connect(session, &QObject::destroyed, this, forget);
    }
    Q_EMIT changed(host);
}

BuildSession* HostSessions::runningBuild(HostConnection* host) const
{
    return m_builds.value(host);
}

} // namespace kf
