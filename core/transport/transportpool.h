// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

class QThreadPool;

namespace kf {

// The threads that make blocking Transport calls (exec, SFTP, tunnels, HTTP over a tunnel,
// keychain lookups): QtConcurrent::run(transportPool(), ...). Never Qt's global pool: the
// raster paint engine splits large fills and image scaling over QThreadPool::globalInstance()
// and waits for them on the GUI thread, so a network call parked there freezes the window.
// Bounded (kTransportPoolThreads): more calls queue; each call is bounded by its connection's
// state (a call on a connection that is reconnecting fails at once, see SshSession::submit).
constexpr int kTransportPoolThreads = 8;
QThreadPool* transportPool();

} // namespace kf
