// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/demo/demostart.h"

#include "core/demo/demohost.h"
#include "core/hosts/hostconnection.h"
#include "core/hosts/hostmanager.h"
#include "core/log/logging.h"

namespace kf {

Result<HostConnection*> startDemoServer(DemoHost& demo, HostManager& hosts)
{
    if (const Result<void> s = demo.start(); !s) {
        log::app()->error("demo host failed: {}", s.error());
        return Result<HostConnection*>::failure(s.error());
    }
    HostConnection* h = hosts.add(demo.profile(kDemoHostName));
    if (!h)
        return Result<HostConnection*>::failure(QStringLiteral("the demo server could not be added"));
    if (h->state() != ConnectionState::Ready)
        h->connectToHost();
    return h;
}

} // namespace kf
