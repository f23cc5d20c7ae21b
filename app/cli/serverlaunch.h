// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QStringList>

namespace kf::cli {

// `kernelforge-cli server launch ...` (the arguments after "launch"); the exit status.
int runServerLaunch(const QStringList& args);
// `kernelforge-cli server stop ...` (the arguments after "stop"); the exit status.
int runServerStop(const QStringList& args);

} // namespace kf::cli
