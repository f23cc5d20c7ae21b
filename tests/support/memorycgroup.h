// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QString>

#include <memory>

namespace kf::test {

// A memory cgroup made for a test (root only): in cgroup v1's memory hierarchy when one is
// mounted, else a cgroup v2 sibling of this process's own cgroup (its parent must offer the
// memory controller). The limit holds swap too, so the OOM killer acts at the limit. Removed
// when destroyed: processes still in it are moved to its parent first.
class MemoryCgroup
{
public:
    // Why not, when it cannot be made here ("needs root", "no memory controller ...").
    static Result<std::unique_ptr<MemoryCgroup>> create(const QString& name, qint64 limitBytes);
    ~MemoryCgroup();
    MemoryCgroup(const MemoryCgroup&) = delete;
    MemoryCgroup& operator=(const MemoryCgroup&) = delete;

    int version() const { return m_version; }
    QString folder() const { return m_folder; }
    // The path as /proc/<pid>/cgroup names it ("/kf-gate-test-42").
    QString path() const { return m_path; }
    // Moves the process into it; its children made from then on are in it too.
    Result<void> add(qint64 pid);
    // The OOM killer's kills in it so far (v1 memory.oom_control, v2 memory.events).
    qint64 oomKills() const;

private:
    MemoryCgroup() = default;
    int m_version = 0;
    QString m_folder;
    QString m_parent;
    QString m_path;
};

} // namespace kf::test
