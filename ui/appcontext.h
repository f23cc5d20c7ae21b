// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

namespace kf {

class HostManager;
class DemoHost;

// The services the composition root (app/gui/main.cpp) builds and hands to the UI.
// Plain pointers: the root owns every service and outlives the window. No singletons.
struct AppContext
{
    HostManager* hosts = nullptr;
    DemoHost* demo = nullptr; // null unless started with --demo
};

} // namespace kf
