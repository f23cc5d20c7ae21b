// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <memory>

namespace kf {

class HostManager;
class HostSessions;
class DemoHost;
class GpuMonitorHub;
class HostProfileStore;
class SecretStore;
class UserInteraction;
namespace timeline {
class SeriesRecorder;
}

// The services the composition root (app/gui/main.cpp) builds and hands to the UI.
// Plain pointers: the root owns every service and outlives the window (the keychain is shared:
// a worker reading it may outlive the dialog that asked). No singletons.
struct AppContext
{
    HostManager* hosts = nullptr;
    DemoHost* demo = nullptr; // the demo server, started by --demo or "Try the demo server" (startDemoServer);
                              // null: not offered
    HostProfileStore* profiles = nullptr; // saved hosts (hosts.yaml); null: the connect dialog does not save
    std::shared_ptr<SecretStore>
        secrets; // the keychain of remembered passwords; null: nothing to forget (no qtkeychain)
    GpuMonitorHub* gpuMonitors = nullptr; // one nvidia-smi stream per host, shared by the GPU pane and fleet view;
                                          // null: each view keeps its own
    timeline::SeriesRecorder* timelineSeries = nullptr; // what the timeline draws under its markers; null: none
    UserInteraction* interaction = nullptr; // asks passwords and host keys (key install's login); null: none asked
    HostSessions* sessions = nullptr;       // each host's ServerSession and running build: the Server pane, the fleet
                                            // tiles and the timeline read them; null: each Server pane keeps its own
};

} // namespace kf
