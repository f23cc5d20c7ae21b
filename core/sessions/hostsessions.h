// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QHash>
#include <QObject>
#include <QPointer>

namespace kf {

class BuildSession;
class HostConnection;
class ServerSession;

// The sessions that own what the app knows of each host (docs/design/window.md):
// its ServerSession (every server on the host: launch, adopt, follow, poll, stop) and the
// BuildSession its Build pane follows while it runs. Views read them here (the Server and Build panes, the Fleet
// tiles, the Timeline's series), so none keeps a copy that could disagree. A ServerSession is
// made when its host first has a transport (first Ready), lists the host's servers again at every
// Ready, and lives as long as the host. Lives in the GUI thread.
class HostSessions : public QObject
{
    Q_OBJECT
public:
    explicit HostSessions(QObject* parent = nullptr);
    ~HostSessions() override;

    // The host's server session; null while the host has never been Ready.
    ServerSession* serverSession(HostConnection* host);
    QList<ServerSession*> serverSessions() const;
    // The build the host's Build pane follows (the pane owns it); forgotten when it ends or is deleted.
    void setRunningBuild(HostConnection* host, BuildSession* session);
    BuildSession* runningBuild(HostConnection* host) const;

Q_SIGNALS:
    void serverSessionAdded(kf::HostConnection* host, kf::ServerSession* session);
    // Something a view of the host shows changed: its servers, a poll, its build's progress or end.
    void changed(kf::HostConnection* host);

private:
    void watch(HostConnection* host);

    QHash<HostConnection*, ServerSession*> m_servers;
    QHash<HostConnection*, QPointer<BuildSession>> m_builds;
    QHash<HostConnection*, bool> m_watching;
};

} // namespace kf
