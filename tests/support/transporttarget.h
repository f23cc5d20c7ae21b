// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/demo/demohost.h"
#include "core/transport/transport.h"
#include "core/util/result.h"

#include <QString>
#include <QTemporaryDir>

#include <memory>

namespace kf::test {

// Where a test with a "transport" column runs: "ssh" is the real sshd (DemoHost) through
// SshTransport, "local" is LocalTransport with a temporary home folder. home is that home as
// this process sees it (the demo's home is a local folder too), where the test arranges files.
struct TransportTarget
{
    std::unique_ptr<DemoHost> demo;
    std::unique_ptr<QTemporaryDir> dir;
    std::shared_ptr<Transport> transport; // declared last: goes before the sshd does
    QString home;
};

Result<void> startTarget(const QString& kind, TransportTarget& t);

} // namespace kf::test
