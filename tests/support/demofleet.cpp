// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "tests/support/demofleet.h"

#include <QElapsedTimer>
#include <QTest>

#include <algorithm>

namespace kf::test {

void connectDemoHosts(HostManager& manager, GpuMonitorHub& hub, const DemoHost& demo, int n)
{
    const int width = n > 100 ? 3 : 2;
    for (int i = 0; i < n; ++i) {
        HostConnection* h = manager.add(demo.profile(QStringLiteral("host%1").arg(i, width, 10, QLatin1Char('0'))));
        hub.monitorFor(h); // watches the host; the monitor starts when it is Ready
        h->connectToHost();
    }
}

bool waitForStreams(const GpuMonitorHub& hub, int n, qint64 minBlocks, int timeoutMs)
{
    auto streaming = [&] {
        const auto monitors = hub.monitors();
        return monitors.size() == n && std::all_of(monitors.cbegin(), monitors.cend(), [&](const GpuMonitor* m) {
            return m->blocks() >= minBlocks;
        });
    };
    QElapsedTimer t;
    t.start();
    while (!streaming() && t.elapsed() < timeoutMs)
        QTest::qWait(100);
    return streaming();
}

qint64 blocksSoFar(const GpuMonitorHub& hub)
{
    qint64 n = 0;
    for (const GpuMonitor* m : hub.monitors())
        n += m->blocks();
    return n;
}

} // namespace kf::test
