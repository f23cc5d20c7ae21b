// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Promote a verified build to N hosts vs building it on each (issue #36), through the real CLI
// against 1 + N demo hosts (real sshd instances on this machine), the same patched demo project
// and build profile everywhere (nvcc-built kernels when /usr/local/cuda/bin/nvcc exists):
//   anchor: each target builds it itself (`build start` + `build attach`), one after another so
//           that each build has the machine to itself, as each host of a fleet has its own cores;
//           wall time is the slowest build (all hosts building at once), machine time their sum
//   ours:   `fleet rollout promote --from source` to the N targets in one batch (verify on the
//           source, fetch once, send, install and verify on each)
// The demo project builds in tens of seconds; a real sgl-kernel build takes hours, so the ratios
// here are the least a promotion saves.
// Usage: bench_promote [--hosts N (3)]
#include "core/demo/demohost.h"
#include "core/hosts/hostprofilestore.h"
#include "tests/support/benchreport.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QTemporaryDir>

#include <cstdio>
#include <memory>

using namespace kf;

namespace {

const QString kProfile = QStringLiteral("Demo sgl-kernel (CMake + Ninja)");

QStringList target(const DemoHost& d)
{
    return test::cliSshOptions(d) + QStringList { d.user() + QStringLiteral("@127.0.0.1") };
}

bool ok(const test::ProcessOutput& p, const char* what)
{
    if (p.exitCode == 0)
        return true;
    std::fprintf(stderr, "%s failed (exit %d):\n%s\n%s\n", what, p.exitCode, p.out.constData(), p.err.constData());
    return false;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    int n = 3;
    const QStringList args = app.arguments();
    if (const qsizetype at = args.indexOf(QStringLiteral("--hosts")); at > 0)
        n = qMax(1, args.value(at + 1).toInt());
    QTemporaryDir home;
    const QStringList env { QStringLiteral("HOME=") + home.path(), QStringLiteral("XDG_CONFIG_HOME="),
        QStringLiteral("XDG_STATE_HOME="), QStringLiteral("XDG_CACHE_HOME="), QStringLiteral("XDG_DATA_HOME=") };
    auto cli = [&](const QStringList& a) { return test::runCli(a, 900000, env); };

    std::vector<std::unique_ptr<DemoHost>> hosts;
    QList<HostProfile> profiles;
    for (int i = 0; i <= n; ++i) {
        hosts.push_back(std::make_unique<DemoHost>());
        if (const auto s = hosts.back()->start(); !s) {
            std::fprintf(stderr, "demo host: %s\n", qPrintable(s.error()));
            return 1;
        }
        HostProfile p = hosts.back()->profile(i == 0 ? QStringLiteral("source") : QStringLiteral("t%1").arg(i));
        p.isDemo = false;
        profiles << p;
        // The same torch everywhere: the fingerprint asks for one.
        if (!test::installDemoTorch(*hosts.back(), QStringLiteral("2.9.1+cu130")))
            return 1;
        if (!ok(cli(QStringList { QStringLiteral("patch"), QStringLiteral("apply"), QStringLiteral("--set"),
                        QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"),
                        hosts.back()->user() + QStringLiteral("@127.0.0.1:sgl-kernel") }
                    + test::cliSshOptions(*hosts.back())),
                "patch apply"))
            return 1;
    }
    const QString hostsFile = home.filePath(QStringLiteral("hosts.yaml"));
    if (!HostProfileStore(hostsFile).save(profiles))
        return 1;

    auto build = [&](const DemoHost& d) -> double {
        QElapsedTimer t;
        t.start();
        const auto start = cli(
            QStringList { QStringLiteral("build"), QStringLiteral("start"), QStringLiteral("--profile"), kProfile }
            + target(d));
        if (!ok(start, "build start"))
            return -1;
        const QString job = QString::fromUtf8(start.out.trimmed().split('\n').last()).trimmed();
        if (!ok(cli(QStringList { QStringLiteral("build"), QStringLiteral("attach"), job } + target(d)),
                "build attach"))
            return -1;
        return double(t.elapsed()) / 1000.0;
    };
    if (build(*hosts.front()) < 0)
        return 1;
    double slowest = 0, sum = 0;
    for (int i = 1; i <= n; ++i) {
        const double s = build(*hosts.at(size_t(i)));
        if (s < 0)
            return 1;
        std::printf("build on t%d: %.1f s\n", i, s);
        slowest = qMax(slowest, s);
        sum += s;
    }
    QStringList promote { QStringLiteral("fleet"), QStringLiteral("rollout"), QStringLiteral("promote"),
        QStringLiteral("--from"), QStringLiteral("source"), QStringLiteral("--profile"), kProfile,
        QStringLiteral("--batch"), QString::number(n), QStringLiteral("--hosts-file"), hostsFile };
    for (int i = 1; i <= n; ++i)
        promote << QStringLiteral("--host") << QStringLiteral("t%1").arg(i);
    QElapsedTimer t;
    t.start();
    if (!ok(cli(promote), "fleet rollout promote"))
        return 1;
    const double promoted = double(t.elapsed()) / 1000.0;
    std::printf("promote to %d host(s): %.1f s; builds: slowest %.1f s, sum %.1f s\n", n, promoted, slowest, sum);
    const QByteArray what = QStringLiteral("promote a verified build to %1 hosts (wall)").arg(n).toUtf8();
    bench::report(
        "promote", what.constData(), promoted, "each host builds it, at once (slowest build)", slowest, "s", false);
    const QByteArray machine = QStringLiteral("promote to %1 hosts vs their builds (machine time)").arg(n).toUtf8();
    bench::report("promote", machine.constData(), promoted, "the N builds, summed", sum, "s", false);
    return 0;
}
