// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// SSH layer benchmarks against OpenSSH on loopback, measured in the same run against the
// same demo sshd. Prints numbers and ratios; asserts nothing (docs/PERFORMANCE.md). Every
// summary row is interleaved (tests/support/benchreport.h): KernelForge and the anchor run in
// turn KF_BENCH_REPEATS times (default 5); the row gives the median ratio with its min-max.
//
//   bench_ssh [--mib N] [--rtt-mib N] [--rtts 20,100] [--bulk-sessions N] [--skip-transfer]
//             [--seed-ops N] [--skip-seed] [--roundtrips N] [--sessions N] [--seconds N]
//
// 1. SFTP upload/download of N MiB (default 256): SshTransport::upload (atomic: temp file,
//    fsync, rename), bulkUpload over --bulk-sessions (default 4; its logins, both SHA-256s and the rename
//    included) and download on the open connection (its bulk connection open too, as in
//    the app) vs `sftp -b` put/get, which logs in each time (one `scp` each way is printed too),
//    as it comes and held to the cipher and MAC libssh2 negotiated (same work on both ends),
//    with the client's CPU per MiB (ours, and sftp + ssh). Then, in process, the negotiated
//    AES-CTR called once per 16-byte block, as libssh2 1.10's transport does, against once per
//    32 KiB packet, as OpenSSH does: the per-call cost that bounds our side on a fast link.
//    Then the same through tests/support/faultproxy with added round-trip times (default
//    20 and 100 ms, --rtt-mib MiB each, default 32).
// 2. The seed's operation: `scp patch.py host: && ssh host 'python3 patch.py'` (4 KB script;
//    `sh` when the host has no python3), --seed-ops times per run (default 10; a third of it,
//    at least 3, at 100 ms): SshTransport::upload + exec on the open connection vs scp + ssh
//    with fresh connections and vs both through one OpenSSH ControlMaster, at 0 ms (fault
//    proxy, no added latency) and each --rtts round trip.
// 3. Round trip of `true` on an open session vs `ssh -S ctl` through a ControlMaster,
//    --roundtrips per run (default 50).
// 4. S sessions (default 16), each streaming one line a second: client CPU over T seconds.
// At the defaults the whole run should take about 6-7 minutes on an idle 2-core machine (an
// estimate from the busy run: 64/16 MiB, 3 runs took 4 minutes at load 10-15).
#include "core/ssh/bulkupload.h"
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

#include <arpa/inet.h>
#include <cstdio>
#include <libssh2.h>
#include <netinet/in.h>
#include <openssl/evp.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

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

// The cipher and MAC libssh2 negotiates with the sshd on `port` (client to server), read from a
// handshake of its own: SshSession leaves libssh2's preference order as it is for both.
struct Algorithms
{
    QByteArray cipher;
    QByteArray mac;
};
Algorithms negotiatedAlgorithms(quint16 port)
{
    Algorithms out;
    const int fd = socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    LIBSSH2_SESSION* s = libssh2_session_init();
    if (fd >= 0 && s && ::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0
        && libssh2_session_handshake(s, fd) == 0) {
        out.cipher = libssh2_session_methods(s, LIBSSH2_METHOD_CRYPT_CS);
        out.mac = libssh2_session_methods(s, LIBSSH2_METHOD_MAC_CS);
        libssh2_session_disconnect(s, "done");
    }
    if (s)
        libssh2_session_free(s);
    if (fd >= 0)
        ::close(fd);
    return out;
}

// The negotiated cipher (an SSH name such as aes128-ctr) encrypting `mib` MiB in process, the
// way libssh2 1.10 calls it (one EVP_Cipher per cipher block: 16 bytes) and the way OpenSSH
// does (one call per packet, 32 KiB), in turn. MiB/s of each; empty when the cipher is not a
// CTR mode OpenSSL knows under that name.
kf::bench::Interleaved cipherCalls(const QByteArray& sshCipher, int mib)
{
    kf::bench::Interleaved runs;
    static const QRegularExpression ctr(QStringLiteral("^aes(\\d+)-ctr$"));
    const auto m = ctr.match(QString::fromLatin1(sshCipher));
    const EVP_CIPHER* cipher = m.hasMatch()
        ? EVP_get_cipherbyname(QByteArray("aes-" + m.captured(1).toLatin1() + "-ctr").constData())
        : nullptr;
    if (!cipher)
        return runs;
    const int block = EVP_CIPHER_block_size(cipher) == 1 ? 16 : EVP_CIPHER_block_size(cipher); // CTR reports 1
    const unsigned char key[32] = { 1 }, iv[16] = { 2 };
    EVP_CIPHER_CTX* ctx = EVP_CIPHER_CTX_new();
    EVP_CipherInit(ctx, cipher, key, iv, 1);
    QByteArray packet(32 * 1024, 'x');
    auto* p = reinterpret_cast<unsigned char*>(packet.data());
    const qint64 packets = qint64(mib) * 32;
    auto rate = [&](int step) {
        QElapsedTimer t;
        t.start();
        for (qint64 n = 0; n < packets; ++n)
            for (int i = 0; i < packet.size(); i += step)
                EVP_Cipher(ctx, p + i, p + i, unsigned(step));
        return double(mib) / (double(t.nsecsElapsed()) / 1e9);
    };
    runs = kf::bench::interleaved([&] { return rate(block); }, [&] { return rate(int(packet.size())); });
    EVP_CIPHER_CTX_free(ctx);
    return runs;
}

// CPU seconds of the child processes waited for (sftp and the ssh it runs).
double childCpuSeconds()
{
    rusage ru {};
    ::getrusage(RUSAGE_CHILDREN, &ru);
    return double(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) + double(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) / 1e6;
}

// What a transfer run gives back: MiB/s, or -1 when it failed. With cpuMsPerMib, the client's
// CPU time per MiB is appended to it: this process's (KernelForge) or its children's (OpenSSH).
double mibPerSecond(double mib, const std::function<bool()>& f, std::vector<double>* cpuMsPerMib = nullptr)
{
    const double own0 = cpuSeconds(), children0 = childCpuSeconds();
    const double secs = timed(f);
    if (cpuMsPerMib)
        cpuMsPerMib->push_back((cpuSeconds() - own0 + childCpuSeconds() - children0) * 1000 / mib);
    return secs > 0 ? mib / secs : -1;
}

void printRuns(const char* what, const std::vector<double>& v, const char* unit)
{
    printf("  %-46s", what);
    for (const double x : v)
        printf(" %8.1f", x);
    printf("  %s (median %.1f)\n", unit, kf::bench::medianOf(v));
}

// A way to the demo sshd: direct, or through a fault proxy with an added round trip. What
// the OpenSSH tools and SshTransport need to reach it (its own known_hosts: the proxy port).
struct Route
{
    std::unique_ptr<kf::test::FaultProxy> proxy;
    quint16 port = 0;
    QString knownHosts;
    HostProfile profile;

    // -P for scp/sftp, -p for ssh.
    QStringList options(const DemoHost& demo, const char* portFlag) const
    {
        QStringList o = opensshOptions(demo);
        o.replaceInStrings(QRegularExpression(QStringLiteral("^UserKnownHostsFile=.*")),
            QStringLiteral("UserKnownHostsFile=") + knownHosts);
        o << QLatin1String(portFlag) << QString::number(port);
        return o;
    }
};

// Through a new fault proxy with rttMs added to every round trip (0: none added).
std::unique_ptr<Route> proxied(const DemoHost& demo, const QString& dir, int rttMs)
{
    auto r = std::make_unique<Route>();
    r->proxy = std::make_unique<kf::test::FaultProxy>(demo.port());
    if (!r->proxy->start()) {
        printf("  (fault proxy did not start)\n");
        return nullptr;
    }
    r->proxy->setLatency(rttMs / 2);
    r->port = r->proxy->port();
    r->knownHosts = dir + QStringLiteral("/kh-proxy-") + QString::number(rttMs);
    QFile::remove(r->knownHosts);
    if (const kf::Result<void> added = appendKnownHostsLine(r->knownHosts,
            knownHostsLine(demo.host(), r->port,
                QByteArray::fromBase64(
                    kf::test::runProgram(QStringLiteral("cat"), { demo.hostKeyPath() + QStringLiteral(".pub") })
                        .out.split(' ')
                        .value(1))));
        !added) {
        std::fprintf(stderr, "cannot write %s: %s\n", qPrintable(r->knownHosts), qPrintable(added.error()));
        return nullptr;
    }
    r->profile = demo.profile();
    r->profile.port = r->port;
    r->profile.knownHostsFile = r->knownHosts;
    return r;
}

Route direct(const DemoHost& demo)
{
    Route r;
    r.port = quint16(demo.port());
    r.knownHosts = demo.knownHostsPath();
    r.profile = demo.profile();
    return r;
}

// An OpenSSH ControlMaster on `route`, started once; stops with the object.
class ControlMaster
{
public:
    ControlMaster(const DemoHost& demo, const Route& route, const QString& dest, const QString& ctl)
        : m_ctl(ctl)
    {
        QStringList a = route.options(demo, "-p");
        a << QStringLiteral("-o") << QStringLiteral("ControlPath=") + ctl << QStringLiteral("-M")
          << QStringLiteral("-N") << dest;
        m_master.start(QStringLiteral("ssh"), a);
        QElapsedTimer wait;
        wait.start();
        while (!QFile::exists(ctl) && wait.elapsed() < 30000)
            QThread::msleep(20);
    }
    ~ControlMaster()
    {
        m_master.terminate();
        m_master.waitForFinished(5000);
    }
    QStringList options() const { return { QStringLiteral("-o"), QStringLiteral("ControlPath=") + m_ctl }; }

private:
    QString m_ctl;
    QProcess m_master;
};

int g_bulkSessions = 4; // --bulk-sessions

// Section 1 on one route: upload and download of `mib` MiB, ours and `sftp -b` in turn.
void transferRows(SshTransport& t, const DemoHost& demo, const Route& route, const QString& dir, const QString& local,
    int mib, const QByteArray& context, const Algorithms& algs)
{
    const QString dest = demo.user() + QLatin1Char('@') + demo.host();
    const QString batchPut = dir + QStringLiteral("/put.batch");
    const QString batchGet = dir + QStringLiteral("/get.batch");
    {
        QFile b(batchPut);
        b.open(QIODevice::WriteOnly | QIODevice::Truncate);
        b.write(QStringLiteral("put %1 sftp-payload.bin\n").arg(local).toUtf8());
        QFile g(batchGet);
        g.open(QIODevice::WriteOnly | QIODevice::Truncate);
        g.write(QStringLiteral("get sftp-payload.bin %1/sftp-back.bin\n").arg(dir).toUtf8());
    }
    // Ours runs on a connection that is open, as in the app: its bulk connection too (opened
    // by the first upload()). `sftp -b` logs in each time, as a person running it does.
    static_cast<void>(t.writeFileAtomic(QStringLiteral("warm.txt"), "warm\n"));
    static_cast<void>(t.upload(batchPut, QStringLiteral("warm.txt")));
    // Two anchors: sftp as it comes (OpenSSH picks chacha20-poly1305 or AES-GCM, which libssh2
    // 1.10 lacks), and sftp held to the algorithms our session negotiated (algs: AES-CTR with a
    // separate HMAC pass on both ends). The second isolates our code from the
    // library's algorithm set.
    const QStringList sftpArgs = route.options(demo, "-P");
    const QStringList sameAlgs { QStringLiteral("-c"), QString::fromLatin1(algs.cipher), QStringLiteral("-o"),
        QStringLiteral("MACs=") + QString::fromLatin1(algs.mac) };
    auto sftp = [&](const QString& batch, const QStringList& extra, std::vector<double>* cpu) {
        return mibPerSecond(
            mib,
            [&] {
                return run(
                    QStringLiteral("sftp"), QStringList(sftpArgs) << extra << QStringLiteral("-b") << batch << dest);
            },
            cpu);
    };
    // Ours, then each anchor, in turn; the client's CPU per MiB too (ours against sftp + ssh with
    // the same algorithms).
    // bulkUpload over 4 sessions: 16 MiB chunks (the default) from 64 MiB up, else a quarter of
    // the file (each chunk costs 3 round trips: open, fsync, close). Its run includes the extra
    // logins, the local and the server's SHA-256 and the state-file writes.
    BulkUploadOptions bulkOptions;
    bulkOptions.sessions = g_bulkSessions;
    bulkOptions.chunkBytes = qBound<qint64>(qint64(1) << 20, qint64(mib) * (1 << 20) / 4, qint64(16) << 20);
    int bulkSessions = 0;
    const auto bulk = [&] {
        const auto r = bulkUpload(t, local, QStringLiteral("bulk-payload.bin"), bulkOptions);
        if (!r)
            printf("  bulkUpload: %s\n", qPrintable(r.error()));
        else
            bulkSessions = r->sessions;
        return r.ok();
    };
    kf::bench::Interleaved up, upSame, down, downSame, upCpu, downCpu, upBulk, upBulkSame, upBulkCpu;
    for (int i = 0; i < kf::bench::repeats(); ++i) {
        const double u = mibPerSecond(
            mib, [&] { return t.upload(local, QStringLiteral("payload.bin")).ok(); }, &upCpu.ours);
        up.ours.push_back(u);
        upSame.ours.push_back(u);
        const double b = mibPerSecond(mib, bulk, &upBulkCpu.ours);
        upBulk.ours.push_back(b);
        upBulkSame.ours.push_back(b);
        up.anchor.push_back(sftp(batchPut, {}, nullptr));
        upSame.anchor.push_back(sftp(batchPut, sameAlgs, &upCpu.anchor));
        upBulk.anchor.push_back(up.anchor.back());
        upBulkSame.anchor.push_back(upSame.anchor.back());
    }
    for (int i = 0; i < kf::bench::repeats(); ++i) {
        const double d = mibPerSecond(
            mib, [&] { return t.download(QStringLiteral("payload.bin"), dir + QStringLiteral("/back.bin")).ok(); },
            &downCpu.ours);
        down.ours.push_back(d);
        downSame.ours.push_back(d);
        down.anchor.push_back(sftp(batchGet, {}, nullptr));
        downSame.anchor.push_back(sftp(batchGet, sameAlgs, &downCpu.anchor));
    }
    const QByteArray same = "OpenSSH sftp -b, " + algs.cipher + " + " + algs.mac;
    printRuns("upload   KernelForge (atomic: temp+fsync+mv)", up.ours, "MiB/s");
    const QByteArray bulkName = "bulkUpload, " + QByteArray::number(bulkSessions) + " sessions of "
        + QByteArray::number(bulkOptions.chunkBytes >> 20) + " MiB chunks (sha256 checked, mv)";
    printRuns(QByteArray("upload   KernelForge " + bulkName).constData(), upBulk.ours, "MiB/s");
    printRuns("upload   client CPU, KernelForge bulkUpload", upBulkCpu.ours, "ms/MiB");
    printRuns("upload   OpenSSH sftp -b put", up.anchor, "MiB/s");
    printRuns(QByteArray("upload   " + same).constData(), upSame.anchor, "MiB/s");
    printRuns("download KernelForge", down.ours, "MiB/s");
    printRuns("download OpenSSH sftp -b get", down.anchor, "MiB/s");
    printRuns(QByteArray("download " + same).constData(), downSame.anchor, "MiB/s");
    printRuns("upload   client CPU, KernelForge", upCpu.ours, "ms/MiB");
    printRuns("upload   client CPU, sftp + ssh, same algorithms", upCpu.anchor, "ms/MiB");
    printRuns("download client CPU, KernelForge", downCpu.ours, "ms/MiB");
    printRuns("download client CPU, sftp + ssh, same algorithms", downCpu.anchor, "ms/MiB");
    const QByteArray size = ", " + QByteArray::number(mib) + " MiB" + context;
    kf::bench::report("ssh", QByteArray("upload KernelForge (atomic: temp+fsync+mv)" + size).constData(), up,
        "OpenSSH sftp -b put", "MiB/s", true);
    kf::bench::report("ssh", QByteArray("upload KernelForge (atomic)" + size + ", same algorithms").constData(), upSame,
        same.constData(), "MiB/s", true);
    kf::bench::report("ssh", QByteArray("upload KernelForge " + bulkName + size).constData(), upBulk,
        "OpenSSH sftp -b put", "MiB/s", true);
    kf::bench::report("ssh", QByteArray("upload KernelForge bulkUpload" + size + ", same algorithms").constData(),
        upBulkSame, same.constData(), "MiB/s", true);
    kf::bench::report(
        "ssh", QByteArray("download KernelForge" + size).constData(), down, "OpenSSH sftp -b get", "MiB/s", true);
    kf::bench::report("ssh", QByteArray("download KernelForge" + size + ", same algorithms").constData(), downSame,
        same.constData(), "MiB/s", true);
    if (context.isEmpty()) { // CPU per MiB hardly depends on the round trip
        kf::bench::report("ssh", "upload: client CPU per MiB (same algorithms)", upCpu, "sftp + ssh", "ms", false);
        kf::bench::report("ssh", "download: client CPU per MiB (same algorithms)", downCpu, "sftp + ssh", "ms", false);
    }
}

// Section 2 on one route: the seed's `scp patch.py host: && ssh host 'python3 patch.py'`,
// `ops` times per run. Ours, fresh OpenSSH connections and one ControlMaster take turns.
void seedRows(const DemoHost& demo, const Route& route, const QString& dir, int ops, int rttMs)
{
    const QString dest = demo.user() + QLatin1Char('@') + demo.host();
    auto c = SshTransport::connect(route.profile);
    if (!c) {
        printf("  connect: %s\n", qPrintable(c.error()));
        return;
    }
    auto t = c.value();
    const bool python = t->exec({ QStringLiteral("command -v python3") }, 30000).ok();
    // An absolute path: the demo's sftp-server and KernelForge start in the demo home, plain ssh in $HOME.
    const QString remote = demo.homeDir() + QStringLiteral("/seed-patch.py");
    const QStringList command { python ? QStringLiteral("python3") : QStringLiteral("sh"), remote };
    const QString script = dir + QStringLiteral("/seed-patch.py");
    {
        QFile f(script);
        f.open(QIODevice::WriteOnly | QIODevice::Truncate);
        QByteArray body = python ? "print('patched')\n" : "echo patched\n";
        while (body.size() < 4096)
            body += "# padding to 4 KB, the size of a small patch script\n";
        f.write(body.left(4096 - 1) + '\n');
    }
    // The uploaded copy is also warmed up on each side before timing starts (bulk connection,
    // ControlMaster), as a person's second run would find them.
    auto ours = [&] {
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < ops; ++i) {
            if (!t->upload(script, remote).ok())
                return -1.0;
            const ExecResult r = t->exec({ command.join(QLatin1Char(' ')) }, 60000);
            if (!r.ok() || !r.stdOut.contains("patched"))
                return -1.0;
        }
        return double(timer.nsecsElapsed()) / 1e6 / ops;
    };
    auto openssh = [&](const QStringList& extraScp, const QStringList& extraSsh) {
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < ops; ++i) {
            if (!run(QStringLiteral("scp"),
                    QStringList(route.options(demo, "-P"))
                        << extraScp << QStringLiteral("-q") << script << dest + QLatin1Char(':') + remote))
                return -1.0;
            const auto r = kf::test::runProgram(QStringLiteral("ssh"),
                QStringList(route.options(demo, "-p")) << extraSsh << dest << command.join(QLatin1Char(' ')));
            if (r.exitCode != 0 || !r.out.contains("patched")) {
                fprintf(stderr, "ssh %s: exit %d: %s%s\n", qPrintable(command.join(QLatin1Char(' '))), r.exitCode,
                    r.out.constData(), r.err.constData());
                return -1.0;
            }
        }
        return double(timer.nsecsElapsed()) / 1e6 / ops;
    };
    const ControlMaster master(demo, route, dest, dir + QStringLiteral("/ctl-") + QString::number(rttMs));
    const QStringList cm = master.options();
    static_cast<void>(t->upload(script, remote)); // opens the bulk connection
    // Three sides in turn, KF_BENCH_REPEATS runs: two interleaved rows sharing our runs.
    kf::bench::Interleaved fresh;
    kf::bench::Interleaved shared;
    for (int i = 0; i < kf::bench::repeats(); ++i) {
        fresh.ours.push_back(ours());
        fresh.anchor.push_back(openssh({}, {}));
        shared.anchor.push_back(openssh(cm, cm));
    }
    shared.ours = fresh.ours;
    printRuns("KernelForge upload + exec (open connection)", fresh.ours, "ms");
    printRuns("scp + ssh, fresh connections", fresh.anchor, "ms");
    printRuns("scp + ssh through one ControlMaster", shared.anchor, "ms");
    const QByteArray what = "the seed's operation: 4 KB script put + `" + command.first().toUtf8() + " script`, +"
        + QByteArray::number(rttMs) + " ms RTT";
    kf::bench::report("ssh", QByteArray(what + ", vs fresh connections").constData(), fresh,
        "scp + ssh (fresh connections)", "ms", false);
    kf::bench::report("ssh", QByteArray(what + ", vs a ControlMaster").constData(), shared,
        "scp + ssh -o ControlPath (master open)", "ms", false);
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    setvbuf(stdout, nullptr, _IOLBF, 0); // progress is visible when redirected to a file
    int mib = 256, roundtrips = 50, sessions = 16, seconds = 10, rttMib = 32, seedOps = 10;
    QList<int> rtts { 20, 100 };
    bool transfer = true, seed = true;
    const QStringList args = app.arguments();
    for (int i = 1; i < args.size(); ++i) {
        const QString a = args[i];
        auto next = [&] { return i + 1 < args.size() ? args[++i].toInt() : 0; };
        if (a == QLatin1String("--mib"))
            mib = next();
        else if (a == QLatin1String("--roundtrips"))
            roundtrips = qMax(1, next());
        else if (a == QLatin1String("--sessions"))
            sessions = next();
        else if (a == QLatin1String("--seconds"))
            seconds = next();
        else if (a == QLatin1String("--skip-transfer"))
            transfer = false;
        else if (a == QLatin1String("--skip-seed"))
            seed = false;
        else if (a == QLatin1String("--seed-ops"))
            seedOps = qMax(1, next());
        else if (a == QLatin1String("--bulk-sessions"))
            g_bulkSessions = qMax(1, next());
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
    printf("KernelForge SSH benchmark: libssh2 %s vs %s, loopback, demo sshd on port %d, %d interleaved runs\n",
        KF_LIBSSH2_VERSION_STRING,
        kf::test::runProgram(QStringLiteral("ssh"), { QStringLiteral("-V") }).err.trimmed().constData(), demo.port(),
        kf::bench::repeats());
    QTemporaryDir dir;

    if (transfer) {
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
        const Algorithms algs = negotiatedAlgorithms(demo.port());
        printf("\n1. SFTP, %d MiB (remote home is on the same disk; page cache warm after the first pass); libssh2 "
               "negotiated %s + %s\n",
            mib, algs.cipher.constData(), algs.mac.constData());
        const QStringList scpArgs = direct(demo).options(demo, "-P");
        const double scpUp = timed([&] {
            return run(QStringLiteral("scp"),
                QStringList(scpArgs) << QStringLiteral("-q") << local << dest + QStringLiteral(":scp-payload.bin"));
        });
        const double scpDown = timed([&] {
            return run(QStringLiteral("scp"),
                QStringList(scpArgs) << QStringLiteral("-q") << dest + QStringLiteral(":scp-payload.bin")
                                     << dir.path() + QStringLiteral("/scp-back.bin"));
        });
        printf("  one scp each way (not a summary row): up %.1f MiB/s, down %.1f MiB/s\n",
            scpUp > 0 ? mib / scpUp : -1.0, scpDown > 0 ? mib / scpDown : -1.0);
        transferRows(*t, demo, direct(demo), dir.path(), local, mib, {}, algs);
        // What bounds our side at 0 ms: libssh2 1.10 encrypts and decrypts one cipher block per
        // call (its transport loop), OpenSSH one packet per call.
        if (const auto calls = cipherCalls(algs.cipher, mib); !calls.ours.empty()) {
            printRuns(QByteArray(algs.cipher + ", one call per 16-byte block (libssh2 1.10)").constData(), calls.ours,
                "MiB/s");
            printRuns(
                QByteArray(algs.cipher + ", one call per 32 KiB packet (OpenSSH)").constData(), calls.anchor, "MiB/s");
            kf::bench::report("ssh",
                QByteArray(algs.cipher + " in process, one EVP_Cipher call per block as libssh2 1.10 makes them")
                    .constData(),
                calls, "one call per 32 KiB packet, as OpenSSH makes them", "MiB/s", true);
        }

        // Through the fault proxy with added latency: what a remote GPU server looks like.
        QFile::resize(local, qint64(rttMib) * 1024 * 1024);
        for (const int rtt : rtts) {
            const auto route = proxied(demo, dir.path(), rtt);
            if (!route)
                break;
            auto pc = SshTransport::connect(route->profile);
            if (!pc) {
                printf("  through proxy: %s\n", qPrintable(pc.error()));
                break;
            }
            printf("\n   via fault proxy, round trip +%d ms, %d MiB\n", rtt, rttMib);
            transferRows(*pc.value(), demo, *route, dir.path(), local, rttMib,
                ", +" + QByteArray::number(rtt) + " ms RTT", algs);
        }
    }

    if (seed) {
        printf("\n2. The seed's operation: 4 KB script put + run, ms per operation\n");
        for (const int rtt : QList<int> { 0 } + rtts) {
            const auto route = proxied(demo, dir.path(), rtt);
            if (!route)
                break;
            const int ops = rtt >= 100 ? qMax(3, seedOps / 3) : seedOps;
            printf("   via fault proxy, round trip +%d ms, %d operations per run\n", rtt, ops);
            seedRows(demo, *route, dir.path(), ops, rtt);
        }
    }

    // 3. Round trips.
    printf("\n3. Round trip of `true` on an open connection, %d per run\n", roundtrips);
    {
        const QString ctl = dir.path() + QStringLiteral("/ctl");
        const ControlMaster master(demo, direct(demo), dest, ctl);
        QStringList base = direct(demo).options(demo, "-p") + master.options();
        auto each = [&](const std::function<bool()>& f) {
            QElapsedTimer timer;
            timer.start();
            for (int i = 0; i < roundtrips; ++i)
                if (!f())
                    return -1.0;
            return double(timer.nsecsElapsed()) / 1e6 / roundtrips;
        };
        const auto runs = kf::bench::interleaved(
            [&] { return each([&] { return t->exec({ QStringLiteral("true") }, 30000).ok(); }); },
            [&] {
                return each([&] {
                    return kf::test::runProgram(
                               QStringLiteral("ssh"), QStringList(base) << dest << QStringLiteral("true"))
                               .exitCode
                        == 0;
                });
            });
        printRuns("KernelForge exec on the open session", runs.ours, "ms");
        printRuns("ssh -o ControlPath host true (ControlMaster)", runs.anchor, "ms");
        kf::bench::report(
            "ssh", "round trip of `true` on an open connection", runs, "ssh -S ControlMaster", "ms", false);
    }

    // 4. Many quiet streams.
    printf("\n4. %d sessions, each streaming one line a second, %d s\n", sessions, seconds);
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
