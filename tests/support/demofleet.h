// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/demo/demohost.h"
#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostmanager.h"

namespace kf::test {

// Many "hosts" on one DemoHost's sshd, as the benchmarks watch them: n profiles host00, host01,
// ... added to manager (whose factory makes SSH connections: SshHostConnection::factory()), a
// GpuMonitor each from hub (started by the hub when its host is Ready), every one connecting.
void connectDemoHosts(HostManager& manager, GpuMonitorHub& hub, const DemoHost& demo, int n);
// Runs the event loop until the hub has n monitors that each delivered minBlocks sample blocks;
// false after timeoutMs.
bool waitForStreams(const GpuMonitorHub& hub, int n, qint64 minBlocks, int timeoutMs);
// Sample blocks delivered so far by every monitor of the hub.
qint64 blocksSoFar(const GpuMonitorHub& hub);

} // namespace kf::test
