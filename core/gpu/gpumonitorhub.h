// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/gpumonitor.h"

#include <QHash>
#include <QObject>
#include <QPointer>

namespace kf {

class HostConnection;

// One GpuMonitor per host, shared by every view (the GPU pane, the fleet tiles, the
// status bar), so a host never runs two nvidia-smi streams. A monitor is created when
// its host first becomes Ready and lives as long as the host; its stream is resumable, so a
// reconnect resumes it. Its monitors check GPU health every 10 minutes (Options::healthIntervalMs).
// Lives in the GUI thread.
class GpuMonitorHub : public QObject
{
    Q_OBJECT
public:
    explicit GpuMonitorHub(QObject* parent = nullptr);
    // Options for monitors created from now on (tests shorten intervals).
    void setOptions(const GpuMonitor::Options& options) { m_options = options; }
    const GpuMonitor::Options& options() const { return m_options; }
    // The sampling interval of every monitor, running ones included, and of those made later.
    void setIntervalMs(int ms);
    // The host's monitor, started; null while the host has never been Ready.
    GpuMonitor* monitorFor(HostConnection* host);
    QList<GpuMonitor*> monitors() const;
    HostConnection* hostOf(const GpuMonitor* monitor) const;

Q_SIGNALS:
    void monitorAdded(kf::HostConnection* host, kf::GpuMonitor* monitor);

private:
    struct Entry
    {
        QPointer<HostConnection> host;
        GpuMonitor* monitor = nullptr;
    };
    QHash<HostConnection*, Entry> m_entries;
    QHash<HostConnection*, bool> m_watching;
    GpuMonitor::Options m_options;
};

} // namespace kf
