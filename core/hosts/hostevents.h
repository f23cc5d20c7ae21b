// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"

#include <QJsonObject>
#include <QString>

// A host's tool versions and its connection's losses in the host's timeline
// (core/events/eventlog.h), one call where each happens. A failure to record is logged, never
// returned. Blocking on the local database only; any thread.
namespace kf {
struct ServerFacts;
}

namespace kf::timeline {

// The facts card's answer: facts.changed when the tool versions (driver, nvcc, CMake, Ninja,
// GCC, Python, PyTorch, SGLang, sgl-kernel, GPUs, OS, kernel) differ from the last ones
// recorded for host, or none were. details: versions, previous, changed (names), home.
void recordFacts(const QString& host, const ServerFacts& facts);
// The versions recordFacts() compares, by name ("nvcc" -> "13.0.88"; missing tools absent).
QJsonObject factsVersions(const ServerFacts& facts);

// A connection's state change: connection.lost when a Ready connection dropped (Reconnecting,
// Failed), connection.restored when a Reconnecting one is Ready again.
void recordConnection(const QString& host, ConnectionState from, ConnectionState to, const QString& reason);

} // namespace kf::timeline
