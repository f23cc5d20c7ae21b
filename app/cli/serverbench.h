// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QStringList>

namespace kf::cli {

// `kernelforge-cli server bench ...` (the arguments after "bench"); the exit status.
int runServerBench(const QStringList& args);

} // namespace kf::cli
