// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

// A GPU pane on one host, as the GPUs tab holds it: its own monitor hub with the test's
// options, shown at a size and active. Header-only: only UI tests (linked with kf_ui) include it.

#include "core/gpu/gpumonitorhub.h"
#include "core/hosts/hostconnection.h"
#include "ui/gpu/gpupane.h"

#include <QTest>

#include <memory>

namespace kf::test {

struct ShownGpuPane
{
    GpuMonitorHub hub;
    AppContext ctx;
    std::unique_ptr<GpuPane> pane;

    // On failure the test has failed (check QTest::currentTestFailed()).
    void show(HostConnection* host, const GpuMonitor::Options& options, QSize size)
    {
        hub.setOptions(options);
        ctx.gpuMonitors = &hub;
        pane = std::make_unique<GpuPane>(ctx, host);
        pane->resize(size);
        pane->show();
        QVERIFY(QTest::qWaitForWindowExposed(pane.get()));
        pane->setActive(true);
        QVERIFY(pane->monitor());
    }
};

} // namespace kf::test
