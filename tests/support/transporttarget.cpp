// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "tests/support/transporttarget.h"

#include "core/ssh/sshtransport.h"
#include "core/transport/localtransport.h"

#include <QDir>

namespace kf::test {

Result<void> startTarget(const QString& kind, TransportTarget& t)
{
    if (kind == QLatin1String("local")) {
        t.dir = std::make_unique<QTemporaryDir>();
        if (!t.dir->isValid())
            return Result<void>::failure(QStringLiteral("no temporary folder"));
        t.home = t.dir->filePath(QStringLiteral("home"));
        QDir().mkpath(t.home);
        t.transport = std::make_shared<LocalTransport>(t.home);
        return {};
    }
    t.demo = std::make_unique<DemoHost>();
    if (const Result<void> s = t.demo->start(); !s)
        return s;
    t.home = t.demo->homeDir();
    auto connected = SshTransport::connect(t.demo->profile());
    if (!connected)
        return connected.withoutValue();
    t.transport = connected.value();
    return {};
}

} // namespace kf::test
