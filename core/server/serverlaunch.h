// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/jobs/jobfolder.h"
#include "core/server/serverlaunchprofile.h"
#include "core/util/result.h"

namespace kf {

class Transport;

// Whether something listens on the host's loopback port: a tunnel to 127.0.0.1:port opens
// (blocking; worker thread). A server started there would fail to bind, often only after
// loading its model for minutes, so a launch asks first.
bool portInUse(Transport& transport, quint16 port);

// The one way to start an inference server (the Server pane, `recipe apply`): refuses a port
// that is in use ("port 30000 on alice@gpu1:22 is in use by another process: stop it or choose
// another port"), starts profile.command() as a detached job named "sglang-server-<port>"
// (core/jobs: it outlives the connection, its log is the job log) and records server.launched
// in the host's timeline. Blocking; worker thread.
Result<JobInfo> launchServer(Transport& transport, const ServerLaunchProfile& profile, const QString& jobRoot = {});

} // namespace kf
