// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// SSH layer benchmarks against OpenSSH on loopback, measured in the same run against the
// same demo sshd. Prints numbers and ratios; asserts nothing (docs/PERFORMANCE.md).
//
//   bench_ssh [--mib N] [--roundtrips N] [--sessions N] [--seconds N] [--skip-transfer]
//             [--rtt-mib N] [--rtts 20,100]
//
// 1. SFTP upload/download of N MiB (default 512): SshTransport::upload (atomic: temp file,
//    fsync, rename) and download vs `sftp -b` put/get and `scp`.
//    Then the same through tests/support/faultproxy with added round-trip times (default
//    20 and 100 ms, --rtt-mib MiB each, default 64).
// 2. Round trip of `true` on an open session vs `ssh -S ctl` through a ControlMaster.
// 3. S sessions (default 16), each streaming one line a second: client CPU over T seconds.
#include "core/ssh/knownhosts.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/benchreport.h"
#include "tests/support/faultproxy.h"
#include "tests/support/testsupport.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QElapsedTimer>
#include <QFile>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QTimer>

#include <cstdio>
#include <sys/resource.h>

using namespace kf;

namespace {

double cpuSeconds()
{
    rusage ru {};
    ::getrusage(RUSAGE_SELF, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

QStringList opensshOptions(const DemoHost& demo)
{
    return { QStringLiteral("-i"), demo.clientKeyPath(), QStringLiteral("-o"), QStringLiteral("IdentitiesOnly=yes"),
        QStringLiteral("-o"), QStringLiteral("UserKnownHostsFile=") + demo.knownHostsPath(), QStringLiteral("-o"),
        QStringLiteral("StrictHostKeyChecking=yes"), QStringLiteral("-o"), QStringLiteral("BatchMode=yes"),
        QStringLiteral("-F"), QStringLiteral("/dev/null") };
}

double timed(const std::function<bool()>& f)
{
    QElapsedTimer t;
    t.start();
    if (!f())
        return -1;
    return double(t.nsecsElapsed()) / 1e9;
}

bool run(const QString& program, const QStringList& args, const QByteArray& input = {})
{
    const auto r = kf::test::runProgram(program, args, 600000, input);
    if (r.exitCode != 0)
        fprintf(stderr, "%s failed: %s\n", qPrintable(program), r.err.constData());
    return r.exitCode == 0;
}

// Appended to result names: "" on plain loopback, ", +20 ms RTT" through the fault proxy.
QByteArray g_context;

void row(const char* what, double secs, double mib, double reference)
{
    if (secs < 0) {
        printf("  %-44s failed\n", what);
        return;
    }
    printf("  %-44s %7.2f s %8.1f MiB/s", what, secs, mib / secs);
    if (reference > 0)
        printf("   x%.2f vs OpenSSH sftp", reference / secs);
    printf("\n");
    // Our rows go to the summary table against OpenSSH sftp measured in the same run.
    if (QByteArray(what).contains("KernelForge") && reference > 0)
        kf::bench::report("ssh",
            QByteArray(QByteArray(what).simplified() + ", " + QByteArray::number(int(mib)) + " MiB" + g_context)
                .constData(),
            mib / secs, "OpenSSH sftp", mib / reference, "MiB/s", true);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    setvbuf(stdout, nullptr, _IOLBF, 0); // progress is visible when redirected to a file
    int mib = 512, roundtrips = 200, sessions = 16, seconds = 10, rttMib = 64;
    QList<int> rtts { 20, 100 };
    bool transfer = true;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        const QString a = args[i];
        auto next = [&] { return i + 1 < args.size() ? args[++i].toInt() : 0; };
        if (a == QLatin1String("--mib"))
            mib = next();
        else if (a == QLatin1String("--roundtrips"))
            roundtrips = next();
        else if (a == QLatin1String("--sessions"))
            sessions = next();
        else if (a == QLatin1String("--seconds"))
            seconds = next();
        else if (a == QLatin1String("--skip-transfer"))
            transfer = false;
        else if (a == QLatin1String("--rtt-mib"))
            rttMib = next();
        else if (a == QLatin1String("--rtts") && i + 1 < args.size()) {
            rtts.clear();
            for (const QString& v : args[++i].split(QLatin1Char(','), Qt::SkipEmptyParts))
                rtts << v.toInt();
        }
    }
    qunsetenv("SSH_AUTH_SOCK");
    DemoHost demo;
    if (Result<void> s = demo.start(); !s) {
        fprintf(stderr, "demo host: %s\n", qPrintable(s.error()));
        return 1;
    }
    auto c = SshTransport::connect(demo.profile());
    if (!c) {
        fprintf(stderr, "connect: %s\n", qPrintable(c.error()));
        return 1;
    }
    auto t = c.value();
    const QString dest = demo.user() + QLatin1Char('@') + demo.host();
    printf("KernelForge SSH benchmark: libssh2 %s vs %s, loopback, demo sshd on port %d\n", KF_LIBSSH2_VERSION_STRING,
        kf::test::runProgram(QStringLiteral("ssh"), { QStringLiteral("-V") }).err.trimmed().constData(), demo.port());

    if (transfer) {
        QTemporaryDir dir;
        const QString local = dir.path() + QStringLiteral("/payload.bin");
        {
            QFile f(local);
            f.open(QIODevice::WriteOnly);
            QByteArray block(1024 * 1024, Qt::Uninitialized);
            QRandomGenerator rng(7);
            rng.fillRange(reinterpret_cast<quint32*>(block.data()), block.size() / 4);
            for (qint64 i = 0; i < mib; ++i) {
                memcpy(block.data(), &i, sizeof i);
                f.write(block);
            }
        }
        printf("\n1. SFTP, %d MiB (remote home is on the same disk; page cache warm after the first pass)\n", mib);
        const QString remote = demo.homeDir() + QStringLiteral("/payload.bin");
        const QString batchPut = dir.path() + QStringLiteral("/put.batch");
        const QString batchGet = dir.path() + QStringLiteral("/get.batch");
        {
            QFile b(batchPut);
            b.open(QIODevice::WriteOnly);
            b.write(QStringLiteral("put %1 sftp-payload.bin\n").arg(local).toUtf8());
            QFile g(batchGet);
            g.open(QIODevice::WriteOnly);
            g.write(QStringLiteral("get sftp-payload.bin %1/sftp-back.bin\n").arg(dir.path()).toUtf8());
        }
        QStringList sftpArgs = opensshOptions(demo);
        sftpArgs << QStringLiteral("-P") << QString::number(demo.port());
        const double sftpUp = timed([&] {
            return run(QStringLiteral("sftp"), QStringList(sftpArgs) << QStringLiteral("-b") << batchPut << dest);
        });
        const double sftpDown = timed([&] {
            return run(QStringLiteral("sftp"), QStringList(sftpArgs) << QStringLiteral("-b") << batchGet << dest);
        });
        const double scpUp = timed([&] {
            return run(QStringLiteral("scp"),
                QStringList(sftpArgs) << QStringLiteral("-q") << local << dest + QStringLiteral(":scp-payload.bin"));
        });
        const double scpDown = timed([&] {
            return run(QStringLiteral("scp"),
                QStringList(sftpArgs) << QStringLiteral("-q") << dest + QStringLiteral(":scp-payload.bin")
                                      << dir.path() + QStringLiteral("/scp-back.bin"));
        });
        const double ourUp = timed([&] { return t->upload(local, QStringLiteral("payload.bin")).ok(); });
        const double ourDown = timed(
            [&] { return t->download(QStringLiteral("payload.bin"), dir.path() + QStringLiteral("/back.bin")).ok(); });
        row("upload   OpenSSH sftp -b put", sftpUp, mib, sftpUp);
        row("upload   OpenSSH scp", scpUp, mib, sftpUp);
        row("upload   KernelForge (atomic: temp+fsync+mv)", ourUp, mib, sftpUp);
        row("download OpenSSH sftp -b get", sftpDown, mib, sftpDown);
        row("download OpenSSH scp", scpDown, mib, sftpDown);
        row("download KernelForge", ourDown, mib, sftpDown);
        QFile::remove(remote);

        // Through the fault proxy with added latency: what a remote GPU server looks like.
        for (const int rtt : rtts) {
            kf::test::FaultProxy proxy(demo.port());
            if (!proxy.start()) {
                printf("  (fault proxy did not start)\n");
                break;
            }
            proxy.setLatency(rtt / 2);
            const QString kh = dir.path() + QStringLiteral("/kh-proxy");
            QFile::remove(kh);
            if (const kf::Result<void> added = appendKnownHostsLine(kh,
                    knownHostsLine(demo.host(), proxy.port(),
                        QByteArray::fromBase64(
                            kf::test::runProgram(QStringLiteral("cat"), { demo.hostKeyPath() + QStringLiteral(".pub") })
                                .out.split(' ')
                                .value(1))));
                !added) {
                std::fprintf(stderr, "cannot write %s: %s\n", qPrintable(kh), qPrintable(added.error()));
                return 1;
            }
            QFile::resize(local, qint64(rttMib) * 1024 * 1024);
            {
                QFile b(batchPut);
                b.open(QIODevice::WriteOnly | QIODevice::Truncate);
                b.write(QStringLiteral("put %1 sftp-payload.bin\n").arg(local).toUtf8());
            }
            QStringList pArgs = opensshOptions(demo);
            pArgs.replaceInStrings(QRegularExpression(QStringLiteral("^UserKnownHostsFile=.*")),
                QStringLiteral("UserKnownHostsFile=") + kh);
            pArgs << QStringLiteral("-P") << QString::number(proxy.port());
            HostProfile pp = demo.profile();
            pp.port = proxy.port();
            pp.knownHostsFile = kh;
            auto pc = SshTransport::connect(pp);
            if (!pc) {
                printf("  through proxy: %s\n", qPrintable(pc.error()));
                break;
            }
            printf("\n   via fault proxy, round trip +%d ms, %d MiB\n", rtt, rttMib);
            g_context = ", +" + QByteArray::number(rtt) + " ms RTT";
            const double up = timed([&] {
                return run(QStringLiteral("sftp"), QStringList(pArgs) << QStringLiteral("-b") << batchPut << dest);
            });
            const double down = timed([&] {
                return run(QStringLiteral("sftp"), QStringList(pArgs) << QStringLiteral("-b") << batchGet << dest);
            });
            const double ourUp2 = timed([&] { return pc.value()->upload(local, QStringLiteral("payload.bin")).ok(); });
            const double ourDown2 = timed([&] {
                return pc.value()
                    ->download(QStringLiteral("payload.bin"), dir.path() + QStringLiteral("/back.bin"))
                    .ok();
            });
            row("upload   OpenSSH sftp -b put", up, rttMib, up);
            row("upload   KernelForge (atomic)", ourUp2, rttMib, up);
            row("download OpenSSH sftp -b get", down, rttMib, down);
            row("download KernelForge", ourDown2, rttMib, down);
        }
    }

    // 2. Round trips.
    printf("\n2. Round trip of `true` on an open connection, %d runs\n", roundtrips);
    {
        QElapsedTimer timer;
        timer.start();
        int ok = 0;
        for (int i = 0; i < roundtrips; ++i)
            ok += t->exec({ QStringLiteral("true") }, 30000).ok() ? 1 : 0;
        const double ours = double(timer.nsecsElapsed()) / 1e6 / roundtrips;
        QTemporaryDir dir;
        const QString ctl = dir.path() + QStringLiteral("/ctl");
        QStringList base = opensshOptions(demo);
        base << QStringLiteral("-p") << QString::number(demo.port()) << QStringLiteral("-S") << ctl;
        QProcess master;
        master.start(QStringLiteral("ssh"), QStringList(base) << QStringLiteral("-M") << QStringLiteral("-N") << dest);
        QElapsedTimer wait;
        wait.start();
        while (!QFile::exists(ctl) && wait.elapsed() < 20000)
            QThread::msleep(20);
        timer.restart();
        int okSsh = 0;
        for (int i = 0; i < roundtrips; ++i)
            okSsh += kf::test::runProgram(QStringLiteral("ssh"), QStringList(base) << dest << QStringLiteral("true"))
                         .exitCode
                    == 0
                ? 1
                : 0;
        const double theirs = double(timer.nsecsElapsed()) / 1e6 / roundtrips;
        master.terminate();
        master.waitForFinished(5000);
        printf("  %-44s %7.2f ms  (%d/%d ok)\n", "KernelForge exec on the open session", ours, ok, roundtrips);
        printf("  %-44s %7.2f ms  (%d/%d ok)\n", "ssh -S ctl host true (ControlMaster)", theirs, okSsh, roundtrips);
        printf("  ratio: KernelForge is x%.2f %s\n", theirs > ours ? theirs / ours : ours / theirs,
            theirs > ours ? "faster" : "slower");
        kf::bench::report(
            "ssh", "round trip of `true` on an open connection", ours, "ssh -S ControlMaster", theirs, "ms", false);
    }

    // 3. Many quiet streams.
    printf("\n3. %d sessions, each streaming one line a second, %d s\n", sessions, seconds);
    {
        std::vector<std::shared_ptr<SshTransport>> conns;
        std::vector<std::unique_ptr<ProcessHandle>> streams;
        int lines = 0;
        for (int i = 0; i < sessions; ++i) {
            auto s = SshTransport::connect(demo.profile());
            if (!s) {
                fprintf(stderr, "session %d: %s\n", i, qPrintable(s.error()));
                return 1;
            }
            conns.push_back(s.value());
        }
        for (auto& s : conns) {
            streams.push_back(s->start({ QStringLiteral("while true; do echo line; sleep 1; done") }));
            QObject::connect(streams.back().get(), &ProcessHandle::stdoutReceived, &app,
                [&lines](const QByteArray& d) { lines += int(d.count('\n')); });
        }
        QTimer::singleShot(1500, &app, [] { QCoreApplication::exit(); }); // settle
        app.exec();
        const int lines0 = lines;
        const double cpu0 = cpuSeconds();
        QElapsedTimer wall;
        wall.start();
        QTimer::singleShot(seconds * 1000, &app, [] { QCoreApplication::exit(); });
        app.exec();
        const double cpu = cpuSeconds() - cpu0;
        const double secs = double(wall.elapsed()) / 1000.0;
        printf("  %d lines in %.1f s; client CPU %.3f s = %.2f%% of one core (%.1f us per line)\n", lines - lines0,
            secs, cpu, 100.0 * cpu / secs, 1e6 * cpu / qMax(1, lines - lines0));
        kf::bench::report("ssh",
            qPrintable(QStringLiteral("%1 sessions x 1 line/s: client CPU (goal: small)").arg(sessions)),
            100.0 * cpu / secs, "none", 0, "% of a core", false);
        streams.clear();
        conns.clear();
    }
    return 0;
}
