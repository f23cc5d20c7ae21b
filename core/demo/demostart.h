// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QString>

namespace kf {

class DemoHost;
class HostConnection;
class HostManager;

// The sidebar name of the demo server.
inline const QString kDemoHostName = QStringLiteral("demo-gpu-server");

// The one way the app starts its demo server (`kernelforge --demo`, the first screen's "Try the
// demo server"): starts the private sshd unless it runs, adds its host as kDemoHostName and
// connects it. The error says why sshd could not start (its log's tail).
Result<HostConnection*> startDemoServer(DemoHost& demo, HostManager& hosts);

} // namespace kf
