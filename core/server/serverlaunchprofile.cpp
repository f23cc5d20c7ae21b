// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/serverlaunchprofile.h"

#include "core/util/shellquote.h"

namespace kf {

QString ServerLaunchProfile::command() const
{
    QStringList words;
    if (demo)
        words << QStringLiteral("sglang-demo-server");
    else
        words << python << QStringLiteral("-m") << QStringLiteral("sglang.launch_server");
    words << QStringLiteral("--model-path") << modelPath << QStringLiteral("--tp") << QString::number(tp)
          << QStringLiteral("--port") << QString::number(port) << QStringLiteral("--host")
          << QStringLiteral("127.0.0.1");
    if (enableMetrics)
        words << QStringLiteral("--enable-metrics");
    words << extraArgs;
    return shellJoin(words);
}

ServerLaunchProfile ServerLaunchProfile::demoProfile()
{
    ServerLaunchProfile p;
    p.name = QStringLiteral("demo");
    p.modelPath = QStringLiteral("Qwen/Qwen3.5-397B-A17B-NVFP4");
    p.tp = 8;
    p.demo = true;
    return p;
}

} // namespace kf
