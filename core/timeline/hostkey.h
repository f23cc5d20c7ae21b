// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostprofile.h"

#include <QString>

// How the history names a host: "user@host:port" as SshSession (Transport::describe()) writes
// it, the user being the local user name when the profile has none, and "local" for this
// machine. Every history table uses it (patch_applies, builds, bench_runs, timeline_events),
// so one server reached the same way has one timeline whichever tool touched it. Known
// without connecting, so `kernelforge-cli timeline` reads a server's history while it is down.
namespace kf::timeline {

QString hostKey(const HostProfile& profile);

} // namespace kf::timeline
