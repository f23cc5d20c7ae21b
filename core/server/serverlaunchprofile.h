// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QString>
#include <QStringList>

namespace kf {

// How to start an inference server on a host, run detached as a core/jobs RemoteJob (it
// survives a dropped connection or a closed app; its log is the job log):
//   python -m sglang.launch_server --model-path M --tp N --port P --host 127.0.0.1
//          --enable-metrics <extra args>
// The demo host's stand-in is `sglang-demo-server` with the same flags. The server listens on
// the remote loopback only; KernelForge reaches it through an SSH tunnel.
struct ServerLaunchProfile
{
    QString name = QStringLiteral("sglang");
    QString python = QStringLiteral("python");
    QString modelPath;
    int tp = 1;
    quint16 port = 30000;
    bool enableMetrics = true;
    QStringList extraArgs;
    bool demo = false; // use sglang-demo-server (demo host)
    // The memory gate in front of the server's JIT compiles (flashinfer, DeepGEMM, torch
    // extensions): its job brings core/remotebuild/memorygate.h's launcher and prelude.
    bool memoryGate = false;

    // One shell command line (every word quoted as needed).
    QString command() const;
    static ServerLaunchProfile demoProfile();
};

} // namespace kf
