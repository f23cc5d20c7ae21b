// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>

// Where KernelForge keeps its files, following the XDG base directory spec:
//   config: $XDG_CONFIG_HOME/kernelforge   (hosts.yaml, build profiles, QSettings)
//   state:  $XDG_STATE_HOME/kernelforge    (logs, history.sqlite, backups index)
//   data:   $XDG_DATA_HOME/kernelforge     (known_hosts of our own, user patch sets)
//   cache:  $XDG_CACHE_HOME/kernelforge    (downloaded logs, line indexes)
// With QStandardPaths::setTestModeEnabled(true) every path lives under ~/.qttest/ instead.
// Each function creates the folder (mode 0700) if it is missing.
namespace kf::paths {
QString configDir();
QString stateDir();
QString dataDir();
QString cacheDir();
} // namespace kf::paths
