// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QObject>
#include <QString>

#include <memory>

class QTcpServer;

namespace kf {

class SshSession;

// `ssh -L 127.0.0.1:PORT:host:port`: a listening port on this machine's loopback (never
// another interface) whose connections are forwarded over the session's direct-tcpip
// channels to host:port as the server sees it, e.g. the SGLang server's port for the
// user's browser. Lives in a thread with an event loop (normally the GUI thread); each
// accepted socket is handed to the session thread, which owns it from then on.
class LocalPortForward : public QObject
{
    Q_OBJECT
public:
    LocalPortForward(
        std::shared_ptr<SshSession> session, QString remoteHost, quint16 remotePort, QObject* parent = nullptr);
    ~LocalPortForward() override;

    // localPort 0: any free port. Binds 127.0.0.1 only.
    Result<void> listen(quint16 localPort = 0);
    quint16 localPort() const;
    QString url() const; // "http://127.0.0.1:PORT/"
    void close();
    int connectionsAccepted() const { return m_accepted; }

Q_SIGNALS:
    void connectionAccepted();

private:
    void onNewConnection();

    std::shared_ptr<SshSession> m_session;
    QString m_remoteHost;
    quint16 m_remotePort;
    QTcpServer* m_server;
    int m_accepted = 0;
};

} // namespace kf
