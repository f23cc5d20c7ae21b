// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/ssh/sshhostconnection.h"

#include "core/hosts/hostevents.h"
#include "core/hosts/sshconfig.h"
#include "core/log/logging.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"

#include <QThread>

namespace kf {

SshHostConnection::SshHostConnection(HostProfile profile, UserInteraction* interaction, QObject* parent)
    : HostConnection(std::move(profile), parent)
    , m_interaction(interaction)
{ }

SshHostConnection::~SshHostConnection()
{
    if (m_session)
        m_session->disconnect(this);
}

std::shared_ptr<Transport> SshHostConnection::transport() const
{
    return m_transport;
}

void SshHostConnection::connectToHost()
{
    Q_ASSERT(QThread::currentThread() == thread());
    const bool idle = !m_session || m_session->state() == ConnectionState::Disconnected
        || m_session->state() == ConnectionState::Failed;
    if (!idle)
        return;
    // A host that follows the user's ssh configuration is resolved again at every connect,
    // so an edit of ~/.ssh/config since the last one counts (a new session when it changed).
    const auto followed = followSshConfig(profile());
    if (!followed) {
        setState(ConnectionState::Failed, followed.error());
        return;
    }
    for (const SshConfigNote& n : followed->notes)
        log::ssh()->warn("{}", n.toString().toStdString());
    if (m_session && m_session->options().profile != followed->profile) {
        m_session->disconnect(this);
        m_session.reset();
        m_transport.reset();
    }
    if (!m_session) {
        SshSessionOptions options;
        options.profile = followed->profile;
        options.interaction = m_interaction;
        options.reconnect = true;
        m_session = SshSession::create(options);
        connect(
            m_session.get(), &SshSession::stateChanged, this, &SshHostConnection::onSessionState, Qt::QueuedConnection);
    }
    m_session->connectToHost();
}

void SshHostConnection::disconnectFromHost()
{
    if (m_session)
        m_session->disconnectFromHost();
}

void SshHostConnection::onSessionState(ConnectionState state, const QString& reason)
{
    if (state == ConnectionState::Ready && !m_transport)
        m_transport = std::make_shared<SshTransport>(m_session);
    timeline::recordConnection(m_session->describe(), this->state(), state, reason);
    setState(state, reason);
}

HostManager::Factory SshHostConnection::factory(UserInteraction* interaction)
{
    return [interaction](const HostProfile& p, QObject* parent) -> HostConnection* {
        if (p.isLocal)
            return new LocalHostConnection(p, parent);
        return new SshHostConnection(p, interaction, parent);
    };
}

} // namespace kf
