// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"
#include "core/transport/transport.h"

#include <QObject>

#include <memory>

namespace kf {

// One server as the features see it: a profile, a connection state, and (when Ready) a
// Transport. Lives in the GUI/main thread; SSH work happens on the session's own thread.
class HostConnection : public QObject
{
    Q_OBJECT
public:
    explicit HostConnection(HostProfile profile, QObject* parent = nullptr)
        : QObject(parent)
        , m_profile(std::move(profile))
    { }

    const HostProfile& profile() const { return m_profile; }
    ConnectionState state() const { return m_state; }
    // Why the state is what it is ("Host key changed: see ~/.ssh/known_hosts:12"), for people.
    QString stateReason() const { return m_reason; }
    // Null unless the connection was Ready at least once; stays valid (and fails its calls
    // with a clear error) while Reconnecting.
    virtual std::shared_ptr<Transport> transport() const = 0;

    virtual void connectToHost() = 0;
    virtual void disconnectFromHost() = 0;

Q_SIGNALS:
    void stateChanged(kf::ConnectionState state, const QString& reason);

protected:
    void setState(ConnectionState state, const QString& reason = {})
    {
        if (state == m_state && reason == m_reason)
            return;
        m_state = state;
        m_reason = reason;
        Q_EMIT stateChanged(state, reason);
    }

private:
    HostProfile m_profile;
    ConnectionState m_state = ConnectionState::Disconnected;
    QString m_reason;
};

// This machine, through LocalTransport: always Ready once "connected".
class LocalHostConnection final : public HostConnection
{
    Q_OBJECT
public:
    explicit LocalHostConnection(HostProfile profile, QObject* parent = nullptr);
    std::shared_ptr<Transport> transport() const override { return m_transport; }
    void connectToHost() override { setState(ConnectionState::Ready); }
    void disconnectFromHost() override { setState(ConnectionState::Disconnected); }

private:
    std::shared_ptr<Transport> m_transport;
};

} // namespace kf
