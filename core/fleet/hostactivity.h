// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/novalue.h"

#include <QHash>
#include <QObject>
#include <QString>

#include <optional>

namespace kf {

struct BuildProgress;
struct ServerStatus;

// What a host's inference server looked like at the last poll that KernelForge made of it.
struct ServerActivity
{
    qint64 timeMs = 0; // when it was polled (ms since the epoch)
    quint16 port = 0;
    bool reachable = false;        // something answered HTTP on the port
    int healthStatus = 0;          // /health's HTTP status (200: ready)
    double tokensPerS = noValue(); // generation throughput; no value without /metrics
    double running = noValue();
    bool healthy() const { return reachable && healthStatus == 200; }
};

// A build being followed on a host: steps done of total and the ETA (BuildSession's progress).
struct FollowedBuild
{
    QString job;   // the job id
    int done = -1; // -1: not known yet
    int total = -1;
    double etaS = noValue(); // seconds left; no value while not estimated
    qint64 timeMs = 0;       // when the progress was last seen
};

// What the app already knows a host is doing, per host name (its profile's name): the Server
// pane's last poll of the host's server and the Build pane's followed build. The panes write it
// as they learn it; the Fleet view's SSH tiles read it, so a tile says "healthy · 1240 tok/s"
// or "build 120/560" without a poll of its own. Nothing known is no entry, never zeros.
// Lives in the GUI thread.
class HostActivity : public QObject
{
    Q_OBJECT
public:
    explicit HostActivity(QObject* parent = nullptr);

    void setServer(const QString& host, const ServerStatus& status);
    std::optional<ServerActivity> server(const QString& host) const;
    // A build's progress; done/total below 0 keep what was known.
    void setBuild(const QString& host, const QString& job, const BuildProgress& progress, qint64 nowMs);
    // The followed build ended (or is no longer followed): the host has no running build.
    void clearBuild(const QString& host);
    std::optional<FollowedBuild> build(const QString& host) const;

Q_SIGNALS:
    void changed(const QString& host);

private:
    QHash<QString, ServerActivity> m_servers;
    QHash<QString, FollowedBuild> m_builds;
};

} // namespace kf
