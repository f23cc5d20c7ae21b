// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

namespace kf {

class HostManager;
class DemoHost;
class GpuMonitorHub;
class HostProfileStore;
class SecretStore;
class GpuMonitorHub;
namespace timeline {
class SeriesRecorder;
}

// The services the composition root (app/gui/main.cpp) builds and hands to the UI.
// Plain pointers: the root owns every service and outlives the window. No singletons.
struct AppContext
{
    HostManager* hosts = nullptr;
    DemoHost* demo = nullptr;             // null unless started with --demo
    HostProfileStore* profiles = nullptr; // saved hosts (hosts.yaml); null: the connect dialog does not save
    SecretStore* secrets = nullptr; // the keychain of remembered passwords; null: nothing to forget (no qtkeychain)
    GpuMonitorHub* gpuMonitors = nullptr; // one nvidia-smi stream per host, shared by the GPU pane and fleet view;
                                          // null: each view keeps its own
    timeline::SeriesRecorder* timelineSeries = nullptr; // what the timeline draws under its markers; null: none
};

} // namespace kf
