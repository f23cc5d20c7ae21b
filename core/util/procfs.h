// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QByteArray>
#include <QList>

namespace kf::procfs {

// Linux /proc/<pid>/stat, the fields after "(comm) ": [0] state, [1] parent pid, [11] utime and
// [12] stime in clock ticks, [19] start time in ticks since boot. Empty if there is no such process.
QList<QByteArray> statFields(qint64 pid);
// The command name in the parentheses of /proc/<pid>/stat; empty if there is no such process.
QByteArray commandName(qint64 pid);
// Every process id listed in /proc now.
QList<qint64> processIds();

} // namespace kf::procfs
