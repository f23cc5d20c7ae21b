// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostconnection.h"
#include "core/hosts/hostmanager.h"
#include "core/hosts/userinteraction.h"

#include <memory>

namespace kf {

class SshSession;
class SshTransport;

// A HostConnection over one SshSession: mirrors the session's state (queued from the
// session thread into this object's thread) and hands out an SshTransport once Ready.
// The transport stays valid while Reconnecting; its calls then fail with the reason.
class SshHostConnection final : public HostConnection
{
    Q_OBJECT
public:
    // interaction: prompts for host keys and secrets (the GUI's dialogs); may be null.
    SshHostConnection(HostProfile profile, UserInteraction* interaction, QObject* parent = nullptr);
    ~SshHostConnection() override;

    std::shared_ptr<Transport> transport() const override;
    void connectToHost() override;
    void disconnectFromHost() override;
    std::shared_ptr<SshSession> session() const { return m_session; }

    // For HostManager::setFactory: isLocal profiles get a LocalHostConnection, the rest SSH.
    static HostManager::Factory factory(UserInteraction* interaction);

private:
    void onSessionState(ConnectionState state, const QString& reason);

    UserInteraction* m_interaction;
    std::shared_ptr<SshSession> m_session;
    std::shared_ptr<SshTransport> m_transport;
};

} // namespace kf
