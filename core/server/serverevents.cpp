// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/serverevents.h"

#include "core/events/eventlog.h"
#include "core/server/serverclient.h"
#include "core/server/serverlaunchprofile.h"

#include <QJsonArray>

namespace kf::timeline {

QJsonObject launchDetails(const ServerLaunchProfile& p)
{
    return { { QStringLiteral("name"), p.name }, { QStringLiteral("python"), p.python },
        { QStringLiteral("model_path"), p.modelPath }, { QStringLiteral("tp"), p.tp },
        { QStringLiteral("port"), int(p.port) }, { QStringLiteral("enable_metrics"), p.enableMetrics },
        { QStringLiteral("extra_args"), QJsonArray::fromStringList(p.extraArgs) }, { QStringLiteral("demo"), p.demo } };
}

ServerLaunchProfile launchProfileFromDetails(const QJsonObject& d)
{
    ServerLaunchProfile p;
    p.name = d.value(QLatin1String("name")).toString(p.name);
    p.python = d.value(QLatin1String("python")).toString(p.python);
    p.modelPath = d.value(QLatin1String("model_path")).toString();
    p.tp = d.value(QLatin1String("tp")).toInt(1);
    p.port = quint16(d.value(QLatin1String("port")).toInt(30000));
    p.enableMetrics = d.value(QLatin1String("enable_metrics")).toBool(true);
    for (const QJsonValue& v : d.value(QLatin1String("extra_args")).toArray())
        p.extraArgs << v.toString();
    p.demo = d.value(QLatin1String("demo")).toBool();
    return p;
}

void recordServerLaunched(
    const QString& host, const ServerLaunchProfile& p, const QString& jobId, const QStringList& forcedPast)
{
    Event e;
    e.host = host;
    e.kind = kind::ServerLaunched;
    e.summary = QStringLiteral("Server launched: %1, TP %2, port %3 (job %4)")
                    .arg(p.modelPath)
                    .arg(p.tp)
                    .arg(p.port)
                    .arg(jobId);
    e.details = launchDetails(p);
    e.details.insert(QStringLiteral("job"), jobId);
    e.details.insert(QStringLiteral("command"), p.command());
    if (!forcedPast.isEmpty()) {
        e.summary += QStringLiteral(", forced");
        e.details.insert(QStringLiteral("forced_past"), QJsonArray::fromStringList(forcedPast));
    }
    recordOrWarn(e);
}

void recordServerStopped(const QString& host, const QString& jobId, int exitStatus, bool cancelled)
{
    Event e;
    e.host = host;
    e.kind = kind::ServerStopped;
    e.key = QStringLiteral("server.stopped %1 %2").arg(host, jobId); // a job ends once
    e.summary = QStringLiteral("Server job %1 %2 (exit status %3)")
                    .arg(jobId, cancelled ? QStringLiteral("stopped") : QStringLiteral("exited"))
                    .arg(exitStatus);
    e.details = { { QStringLiteral("job"), jobId }, { QStringLiteral("exit_status"), exitStatus },
        { QStringLiteral("cancelled"), cancelled } };
    recordOrWarn(e);
}

void recordServerHealth(const QString& host, const ServerStatus* previous, const ServerStatus& now)
{
    const bool was = previous && previous->healthy();
    if (was == now.healthy())
        return;
    Event e;
    e.host = host;
    e.kind = now.healthy() ? kind::ServerHealthy : kind::ServerUnhealthy;
    e.time = QDateTime::fromMSecsSinceEpoch(now.timeMs, Qt::UTC);
    if (now.healthy())
        e.summary = QStringLiteral("Server healthy on port %1%2%3")
                        .arg(now.port)
                        .arg(now.modelPath.isEmpty() ? QString() : QStringLiteral(": ") + now.modelPath,
                            now.tpSize > 0 ? QStringLiteral(", TP %1").arg(now.tpSize) : QString());
    else
        e.summary
            = QStringLiteral("Server on port %1 unhealthy: %2")
                  .arg(now.port)
                  .arg(now.reachable ? QStringLiteral("/health answered HTTP %1").arg(now.healthStatus) : now.error);
    e.details = { { QStringLiteral("port"), int(now.port) }, { QStringLiteral("reachable"), now.reachable },
        { QStringLiteral("http_status"), now.healthStatus }, { QStringLiteral("error"), now.error },
        { QStringLiteral("model_path"), now.modelPath }, { QStringLiteral("tp"), now.tpSize } };
    recordOrWarn(e);
}

} // namespace kf::timeline
