// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/serverlaunch.h"

#include "core/jobs/remotejob.h"
#include "core/timeline/producers.h"
#include "core/transport/transport.h"

namespace kf {

bool portInUse(Transport& transport, quint16 port)
{
    auto tunnel = transport.openTunnel(QStringLiteral("127.0.0.1"), port);
    if (!tunnel)
        return false;
    (*tunnel)->close();
    return true;
}

Result<JobInfo> launchServer(Transport& transport, const ServerLaunchProfile& profile, const QString& jobRoot)
{
    if (portInUse(transport, profile.port))
        return Result<JobInfo>::failure(
            QStringLiteral("port %1 on %2 is in use by another process: stop it or choose another port")
                .arg(profile.port)
                .arg(transport.describe()));
    JobSpec spec;
    spec.name = QStringLiteral("sglang-server-%1").arg(profile.port);
    spec.command = profile.command();
    spec.root = jobRoot;
    auto started = RemoteJob::start(transport, spec);
    if (started)
        timeline::recordServerLaunched(transport.describe(), profile, started->id);
    return started;
}

} // namespace kf
