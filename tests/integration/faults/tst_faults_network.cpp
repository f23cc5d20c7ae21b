// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// Network faults through the userspace fault proxy (tests/support/faultproxy.h) between the
// SSH client and the real sshd: latency, a bandwidth cap, a reset and a hang (black hole),
// for (a) the GPU stream (GpuMonitor over the demo's replaying nvidia-smi) and (b) a build
// log tail (RemoteJob). Checked: every GPU block is whole and no sample arrives twice or out
// of order across reconnects; the log arrives byte-exact (nothing lost, nothing repeated);
// a hung link is declared dead within 3 keepalive intervals (plus the session's tick).
#include "core/gpu/gpumonitor.h"
#include "core/jobs/remotejob.h"
#include "core/ssh/knownhosts.h"
#include "core/ssh/sshsession.h"
#include "core/ssh/sshtransport.h"
#include "core/util/shellquote.h"
#include "tests/support/faultproxy.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

constexpr int kKeepaliveS = 2;

QByteArray hostKeyBlob(const DemoHost& demo)
{
    return QByteArray::fromBase64(test::readFile(demo.hostKeyPath() + QStringLiteral(".pub")).split(' ').value(1));
}

// A connection to the demo host that runs through the proxy, with a short keepalive.
struct ProxiedLink
{
    std::unique_ptr<test::FaultProxy> proxy;
    QTemporaryDir dir;
    std::shared_ptr<SshTransport> transport;
};

std::unique_ptr<ProxiedLink> connectThroughProxy(const DemoHost& demo, QString* error)
{
    auto link = std::make_unique<ProxiedLink>();
    link->proxy = std::make_unique<test::FaultProxy>(demo.port());
    if (auto s = link->proxy->start(); !s) {
        *error = s.error();
        return nullptr;
    }
    HostProfile p = demo.profile();
    p.port = link->proxy->port();
    p.knownHostsFile = link->dir.path() + QStringLiteral("/kh");
    if (auto s = appendKnownHostsLine(p.knownHostsFile, knownHostsLine(p.host, p.port, hostKeyBlob(demo))); !s) {
        *error = s.error();
        return nullptr;
    }
    SshConnectOptions o;
    o.keepaliveIntervalS = kKeepaliveS;
    auto c = SshTransport::connect(p, o);
    if (!c) {
        *error = c.error();
        return nullptr;
    }
    link->transport = c.value();
    return link;
}

// Hangs the link and measures how long the session takes to notice.
qint64 hangUntilDetected(ProxiedLink& link)
{
    QElapsedTimer timer;
    timer.start();
    while (link.transport->session()->state() != ConnectionState::Ready && timer.elapsed() < 60000)
        QTest::qWait(10); // measure from a live link, not from the end of an earlier fault
    link.proxy->setHang(true);
    timer.start();
    while (link.transport->session()->state() == ConnectionState::Ready && timer.elapsed() < 60000)
        QTest::qWait(10);
    const qint64 ms = timer.elapsed();
    link.proxy->clearFaults();
    link.proxy->resetAll(); // the stalled TCP connection is useless now; let the client redial
    return ms;
}

} // namespace

class TestFaultsNetwork : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        qunsetenv("SSH_AUTH_SOCK");
        qRegisterMetaType<QList<kf::GpuSample>>();
    }

    void gpuStreamSurvivesFaults()
    {
        KF_START_DEMO_HOST(demo);
        QString error;
        auto link = connectThroughProxy(demo, &error);
        QVERIFY2(link, qPrintable(error));
        GpuMonitor::Options o;
        o.intervalMs = 200;
        o.processIntervalMs = 0;
        o.env.insert(QStringLiteral("KF_DEMO_GPUS"), QStringLiteral("2"));
        GpuMonitor monitor(link->transport, QStringLiteral("demo"), o);
        // nvidia-smi's rows carry no sequence number; the monitor queries the timestamp
        // column and drops repeats, so "nothing duplicated" is checked as: every block whole
        // (both GPUs, in order), source timestamps strictly increasing, and no more blocks
        // than the sampling rate can produce (a replayed or doubled stream would exceed it).
        // tst_gpumonitor checks the gap a reconnect leaves in the history.
        QList<qint64> blockTimes;
        QString problem;
        QElapsedTimer wall;
        connect(&monitor, &GpuMonitor::samplesUpdated, this, [&](const QList<GpuSample>& gpus) {
            if (gpus.size() != 2 || gpus[0].index != 0 || gpus[1].index != 1 || gpus[0].timeMs != gpus[1].timeMs) {
                problem = QStringLiteral("a torn block of %1 GPUs").arg(gpus.size());
                return;
            }
            if (gpus[0].timeMs != 0 && !blockTimes.isEmpty() && gpus[0].timeMs <= blockTimes.last())
                problem = QStringLiteral("sample at %1 after %2: duplicated or out of order")
                              .arg(gpus[0].timeMs)
                              .arg(blockTimes.last());
            blockTimes << gpus[0].timeMs;
        });
        wall.start();
        monitor.start();
        QTRY_VERIFY_WITH_TIMEOUT(blockTimes.size() >= 5, 30000);

        auto moreBlocks = [&](int n) {
            const int target = int(blockTimes.size()) + n;
            QTRY_VERIFY_WITH_TIMEOUT(blockTimes.size() >= target, 60000);
        };
        link->proxy->setLatency(150);
        moreBlocks(5);
        link->proxy->setLatency(0);
        link->proxy->setBandwidth(4 * 1024); // far below the stream's needs at first burst
        moreBlocks(5);
        link->proxy->clearFaults();

        const int resumesBefore = monitor.resumes();
        link->proxy->resetAll();
        QTRY_VERIFY_WITH_TIMEOUT(monitor.resumes() > resumesBefore || monitor.restarts() > 0, 60000);
        moreBlocks(5);

        const qint64 detectMs = hangUntilDetected(*link);
        qInfo("hung link detected after %lld ms (keepalive %d s)", detectMs, kKeepaliveS);
        // 3 intervals without a byte, noticed on the session's 1 s tick, + 1 s for a loaded machine.
        QVERIFY2(detectMs <= 3 * kKeepaliveS * 1000 + 2000, qPrintable(QString::number(detectMs)));
        QTRY_VERIFY_WITH_TIMEOUT(link->transport->session()->state() == ConnectionState::Ready, 60000);
        moreBlocks(5);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        const qint64 possible = wall.elapsed() / o.intervalMs + 1 + monitor.resumes() + monitor.restarts();
        qInfo("blocks: %d (at most %lld possible in %lld ms), resumes: %d, restarts: %d", int(blockTimes.size()),
            possible, wall.elapsed(), monitor.resumes(), monitor.restarts());
        QVERIFY(blockTimes.size() <= possible);
        monitor.stop();
    }

    void buildLogTailIsByteExactAcrossFaults()
    {
        KF_START_DEMO_HOST(demo);
        QString error;
        auto link = connectThroughProxy(demo, &error);
        QVERIFY2(link, qPrintable(error));
        // A build-like log: numbered lines at a steady pace until the test drops a flag file,
        // so it spans every fault however slow the machine is.
        const QString flag = demo.homeDir() + QStringLiteral("/stop-flag");
        JobSpec spec;
        spec.name = QStringLiteral("fault-tail");
        spec.command
            = QStringLiteral("i=0; while [ ! -e %1 ]; do printf '[%d] Building CUDA object csrc/k%d.cu.o\\n' $i $i; "
                             "i=$((i+1)); sleep 0.02; done; echo \"done $i\"")
                  .arg(shellQuote(flag));
        const auto started = RemoteJob::start(*link->transport, spec);
        QVERIFY2(started, qPrintable(started.error()));
        RemoteJob job(link->transport, started.value().id);
        job.setRetryInterval(200);
        QByteArray log;
        QString problem;
        bool finished = false;
        int interruptions = 0;
        connect(&job, &RemoteJob::logReceived, this, [&](qint64 offset, const QByteArray& data) {
            if (offset != log.size())
                problem = QStringLiteral("chunk at %1 while %2 bytes were received").arg(offset).arg(log.size());
            log += data;
        });
        connect(&job, &RemoteJob::streamInterrupted, this, [&] { ++interruptions; });
        connect(&job, &RemoteJob::finished, this, [&] { finished = true; });
        job.attach(0);
        auto moreLog = [&](int bytes) {
            const qint64 target = log.size() + bytes;
            QTRY_VERIFY_WITH_TIMEOUT(log.size() >= target || finished, 60000);
        };
        moreLog(200);
        link->proxy->setLatency(150);
        moreLog(400);
        link->proxy->setLatency(0);
        link->proxy->setBandwidth(2 * 1024);
        moreLog(400);
        link->proxy->clearFaults();
        link->proxy->resetAll();
        moreLog(400);
        QTRY_VERIFY_WITH_TIMEOUT(link->transport->session()->state() == ConnectionState::Ready, 60000);
        moreLog(200); // the tail is flowing again before the next fault
        const qint64 detectMs = hangUntilDetected(*link);
        qInfo("hung link detected after %lld ms (keepalive %d s)", detectMs, kKeepaliveS);
        // 3 intervals without a byte, noticed on the session's 1 s tick, + 1 s for a loaded machine.
        QVERIFY2(detectMs <= 3 * kKeepaliveS * 1000 + 2000, qPrintable(QString::number(detectMs)));
        moreLog(400);
        QVERIFY(!finished);
        {
            QFile f(flag);
            QVERIFY(f.open(QIODevice::WriteOnly));
        }
        QTRY_VERIFY_WITH_TIMEOUT(finished, 120000);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        // Every line exactly once, in order, none torn: "[0] ...", "[1] ...", ..., "done N".
        const QList<QByteArray> lines = log.split('\n');
        QVERIFY(lines.size() > 10);
        QCOMPARE(lines.last(), QByteArray()); // ends with a newline
        const int n = int(lines.size()) - 2;
        QCOMPARE(lines[n], QByteArray("done ") + QByteArray::number(n));
        QByteArray expected;
        for (int i = 0; i < n; ++i)
            expected += QStringLiteral("[%1] Building CUDA object csrc/k%1.cu.o\n").arg(i).toUtf8();
        expected += "done " + QByteArray::number(n) + "\n";
        QCOMPARE(log.size(), expected.size());
        QCOMPARE(log, expected);
        // The copy on the server is the same: what we received is the log, not a lookalike.
        const auto remote = RemoteJob::readLog(*link->transport, started.value().id, 0);
        QVERIFY2(remote, qPrintable(remote.error()));
        QCOMPARE(remote.value(), expected);
        qInfo("log bytes: %d, stream interruptions: %d", int(log.size()), interruptions);
        QVERIFY(interruptions >= 2); // the reset and the hang really cut the stream
    }
};

QTEST_GUILESS_MAIN(TestFaultsNetwork)
#include "tst_faults_network.moc"
