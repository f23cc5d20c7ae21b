// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The fault proxy (tests/support/faultproxy.h) checked on a raw TCP echo server and with
// OpenSSH's own client against the demo sshd, independent of our SSH code.
#include "tests/support/faultproxy.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QRandomGenerator>
#include <QtTest>

#include <atomic>
#include <thread>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

using kf::test::FaultProxy;

namespace {

// A blocking TCP echo server on 127.0.0.1 for one connection at a time, on its own thread.
class EchoServer
{
public:
    EchoServer()
    {
        m_fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        sockaddr_in a {};
        a.sin_family = AF_INET;
        a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        ::bind(m_fd, reinterpret_cast<sockaddr*>(&a), sizeof a);
        ::listen(m_fd, 8);
        socklen_t len = sizeof a;
        ::getsockname(m_fd, reinterpret_cast<sockaddr*>(&a), &len);
        m_port = ntohs(a.sin_port);
        m_thread = std::thread([this] {
            while (!m_stop) {
                pollfd p { m_fd, POLLIN, 0 };
                if (::poll(&p, 1, 100) <= 0)
                    continue;
                const int c = ::accept(m_fd, nullptr, nullptr);
                if (c < 0)
                    continue;
                char buf[65536];
                for (;;) {
                    const ssize_t n = ::read(c, buf, sizeof buf);
                    if (n <= 0)
                        break;
                    ssize_t off = 0;
                    while (off < n) {
                        const ssize_t w = ::write(c, buf + off, size_t(n - off));
                        if (w <= 0)
                            break;
                        off += w;
                    }
                }
                ::close(c);
            }
        });
    }
    ~EchoServer()
    {
        m_stop = true;
        m_thread.join();
        ::close(m_fd);
    }
    quint16 port() const { return m_port; }

private:
    int m_fd = -1;
    quint16 m_port = 0;
    std::atomic<bool> m_stop { false };
    std::thread m_thread;
};

int connectTo(quint16 port)
{
    const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in a {};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(port);
    if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
        ::close(fd);
        return -1;
    }
    return fd;
}

// Reads exactly n bytes (or until EOF/error/timeout).
QByteArray readExactly(int fd, qsizetype n, int timeoutMs = 30000)
{
    QByteArray out;
    QElapsedTimer t;
    t.start();
    char buf[65536];
    while (out.size() < n && t.elapsed() < timeoutMs) {
        pollfd p { fd, POLLIN, 0 };
        if (::poll(&p, 1, 200) <= 0)
            continue;
        const ssize_t r = ::read(fd, buf, size_t(std::min<qsizetype>(sizeof buf, n - out.size())));
        if (r <= 0)
            break;
        out.append(buf, r);
    }
    return out;
}

// Writes everything from a helper thread while the caller reads (echo needs both at once).
QByteArray roundTrip(int fd, const QByteArray& data)
{
    std::thread writer([fd, &data] {
        qsizetype off = 0;
        while (off < data.size()) {
            const ssize_t w = ::send(fd, data.constData() + off, size_t(data.size() - off), MSG_NOSIGNAL);
            if (w <= 0)
                return;
            off += w;
        }
    });
    QByteArray back = readExactly(fd, data.size(), 60000);
    writer.join();
    return back;
}

// The demo's known_hosts names [127.0.0.1]:<sshd port>; through the proxy the port differs,
// so OpenSSH is told which entry to check with HostKeyAlias.
QStringList sshViaProxy(const kf::DemoHost& demo, const FaultProxy& proxy, const QStringList& extra = {})
{
    QStringList args = demo.sshArguments();
    const QString dest = args.takeLast();
    const qsizetype p = args.indexOf(QStringLiteral("-p"));
    args[p + 1] = QString::number(proxy.port());
    args << QStringLiteral("-o") << QStringLiteral("HostKeyAlias=[127.0.0.1]:") + QString::number(demo.port());
    args << extra << dest;
    return args;
}

} // namespace

class TestFaultProxy : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void forwardsBytesUnchanged()
    {
        EchoServer echo;
        FaultProxy proxy(echo.port());
        QVERIFY2(proxy.start().ok(), "proxy start");
        const int fd = connectTo(proxy.port());
        QVERIFY(fd >= 0);
        QByteArray data(3 * 1024 * 1024 + 17, Qt::Uninitialized);
        QRandomGenerator rng(42);
        for (char& c : data)
            c = char(rng.bounded(256));
        QCOMPARE(roundTrip(fd, data), data);
        ::close(fd);
        QTRY_COMPARE_WITH_TIMEOUT(proxy.counters().connectionsOpen, 0, 10000);
        const auto k = proxy.counters();
        QCOMPARE(k.bytesToTarget, data.size());
        QCOMPARE(k.bytesToClient, data.size());
        QCOMPARE(k.connectionsAccepted, 1);
        QCOMPARE(k.bytesSwallowed, 0);
    }

    void latencyAddsToTheRoundTrip_data()
    {
        QTest::addColumn<int>("oneWayMs");
        QTest::newRow("none") << 0;
        QTest::newRow("10 ms (20 ms RTT)") << 10;
        QTest::newRow("50 ms (100 ms RTT)") << 50;
    }
    void latencyAddsToTheRoundTrip()
    {
        QFETCH(int, oneWayMs);
        EchoServer echo;
        FaultProxy proxy(echo.port());
        QVERIFY(proxy.start().ok());
        proxy.setLatency(oneWayMs);
        const int fd = connectTo(proxy.port());
        QVERIFY(fd >= 0);
        constexpr int kPings = 5;
        QElapsedTimer t;
        t.start();
        for (int i = 0; i < kPings; ++i)
            QCOMPARE(roundTrip(fd, QByteArray(1, char('a' + i))), QByteArray(1, char('a' + i)));
        const qint64 perPing = t.elapsed() / kPings;
        ::close(fd);
        qInfo("one-way %d ms: measured round trip %lld ms", oneWayMs, perPing);
        QVERIFY2(perPing >= 2 * oneWayMs, qPrintable(QString::number(perPing)));
        // Generous upper bound: the proxy must not add much on top of what it was asked for.
        QVERIFY2(perPing < 2 * oneWayMs + 500, qPrintable(QString::number(perPing)));
    }

    void latencyCanChangeAtRuntime()
    {
        EchoServer echo;
        FaultProxy proxy(echo.port());
        QVERIFY(proxy.start().ok());
        const int fd = connectTo(proxy.port());
        QVERIFY(fd >= 0);
        QCOMPARE(roundTrip(fd, "x"), QByteArray("x"));
        proxy.setLatency(100);
        QElapsedTimer t;
        t.start();
        QCOMPARE(roundTrip(fd, "y"), QByteArray("y"));
        QVERIFY(t.elapsed() >= 200);
        proxy.setLatency(0);
        QCOMPARE(proxy.latency(), 0);
        ::close(fd);
    }

    void bandwidthCapLimitsThroughput()
    {
        EchoServer echo;
        FaultProxy proxy(echo.port());
        QVERIFY(proxy.start().ok());
        constexpr qint64 kRate = 512 * 1024;
        proxy.setBandwidth(kRate);
        const int fd = connectTo(proxy.port());
        QVERIFY(fd >= 0);
        const QByteArray data(1024 * 1024, 'b');
        QElapsedTimer t;
        t.start();
        QCOMPARE(roundTrip(fd, data), data);
        const qint64 ms = t.elapsed();
        ::close(fd);
        qInfo("1 MiB echoed through a %lld B/s cap in %lld ms", kRate, ms);
        // Both legs are capped but pipelined: at least size/rate, less one pacing slice.
        QVERIFY2(ms >= 1000 * data.size() / kRate - 20, qPrintable(QString::number(ms)));
        QVERIFY2(ms < 15000, qPrintable(QString::number(ms)));
    }

    void hangSwallowsBothWaysWithoutClosing()
    {
        EchoServer echo;
        FaultProxy proxy(echo.port());
        QVERIFY(proxy.start().ok());
        const int fd = connectTo(proxy.port());
        QVERIFY(fd >= 0);
        QCOMPARE(roundTrip(fd, "before"), QByteArray("before"));
        proxy.setHang(true);
        QVERIFY(::send(fd, "lost", 4, MSG_NOSIGNAL) == 4);
        QTRY_COMPARE_WITH_TIMEOUT(proxy.counters().bytesSwallowed, 4, 10000);
        // Nothing comes back and the connection stays open (poll sees neither data nor EOF).
        pollfd p { fd, POLLIN, 0 };
        QCOMPARE(::poll(&p, 1, 300), 0);
        QCOMPARE(proxy.counters().connectionsOpen, 1);
        proxy.setHang(false);
        QCOMPARE(roundTrip(fd, "after"), QByteArray("after"));
        ::close(fd);
    }

    void resetAllSendsRst()
    {
        EchoServer echo;
        FaultProxy proxy(echo.port());
        QVERIFY(proxy.start().ok());
        const int fd = connectTo(proxy.port());
        QVERIFY(fd >= 0);
        QCOMPARE(roundTrip(fd, "hi"), QByteArray("hi"));
        proxy.resetAll();
        QTRY_COMPARE_WITH_TIMEOUT(proxy.counters().connectionsReset, 1, 10000);
        char c;
        pollfd p { fd, POLLIN, 0 };
        QVERIFY(::poll(&p, 1, 10000) == 1);
        errno = 0;
        QCOMPARE(::read(fd, &c, 1), ssize_t(-1));
        QCOMPARE(errno, ECONNRESET);
        ::close(fd);
        // The listener survives: a new connection works.
        const int fd2 = connectTo(proxy.port());
        QCOMPARE(roundTrip(fd2, "again"), QByteArray("again"));
        ::close(fd2);
    }

    void refusedTargetResetsClient()
    {
        // A port nobody listens on: bind one, read its number, close it.
        quint16 deadPort = 0;
        {
            FaultProxy probe(1);
            QVERIFY(probe.start().ok());
            deadPort = probe.port();
        }
        FaultProxy proxy(deadPort);
        QVERIFY(proxy.start().ok());
        const int fd = connectTo(proxy.port());
        QVERIFY(fd >= 0);
        char c;
        pollfd p { fd, POLLIN, 0 };
        QVERIFY(::poll(&p, 1, 10000) == 1);
        QVERIFY(::read(fd, &c, 1) <= 0);
        ::close(fd);
        QTRY_COMPARE_WITH_TIMEOUT(proxy.counters().connectionsOpen, 0, 10000);
    }

    // --- with OpenSSH's client and the demo sshd ---

    void sshWorksThroughTheProxyAndLatencyShows()
    {
        KF_START_DEMO_HOST(demo);
        FaultProxy proxy(demo.port());
        QVERIFY(proxy.start().ok());

        QElapsedTimer t;
        t.start();
        auto r
            = kf::test::runProgram(QStringLiteral("ssh"), sshViaProxy(demo, proxy) << QStringLiteral("echo through"));
        const qint64 direct = t.elapsed();
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out.trimmed(), QByteArray("through"));

        constexpr int kOneWay = 100;
        proxy.setLatency(kOneWay);
        t.restart();
        r = kf::test::runProgram(QStringLiteral("ssh"), sshViaProxy(demo, proxy) << QStringLiteral("echo slow"));
        const qint64 slow = t.elapsed();
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out.trimmed(), QByteArray("slow"));
        qInfo("ssh 'echo': %lld ms without added latency, %lld ms at %d ms RTT", direct, slow, 2 * kOneWay);
        // key exchange, NEWKEYS/service, auth none, publickey query, publickey sign, channel open,
        // exec: at least 5 full round trips before the output can come back.
        QVERIFY2(slow >= 5 * 2 * kOneWay, qPrintable(QString::number(slow)));
        const auto k = proxy.counters();
        QCOMPARE(k.connectionsAccepted, 2);
        QVERIFY(k.bytesToTarget > 1000);
        QVERIFY(k.bytesToClient > 1000);
    }

    void sshThroughputFollowsTheCap()
    {
        KF_START_DEMO_HOST(demo);
        FaultProxy proxy(demo.port());
        QVERIFY(proxy.start().ok());
        constexpr qint64 kRate = 1024 * 1024;
        proxy.setBandwidth(kRate);
        // 3 MB of output: with the handshake at most a few KB, the transfer takes >= ~2.9 s.
        QElapsedTimer t;
        t.start();
        const auto r = kf::test::runProgram(
            QStringLiteral("ssh"), sshViaProxy(demo, proxy) << QStringLiteral("head -c 3000000 /dev/zero"));
        const qint64 ms = t.elapsed();
        QVERIFY2(r.exitCode == 0, r.err.constData());
        QCOMPARE(r.out.size(), 3000000);
        qInfo("3 MB over ssh through a 1 MiB/s cap: %lld ms", ms);
        QVERIFY2(ms >= 1000LL * 3000000 / kRate - 50, qPrintable(QString::number(ms)));
    }

    void hangStallsSshUntilItsKeepaliveGivesUp()
    {
        KF_START_DEMO_HOST(demo);
        FaultProxy proxy(demo.port());
        QVERIFY(proxy.start().ok());
        QProcess ssh;
        ssh.start(QStringLiteral("ssh"),
            sshViaProxy(demo, proxy,
                { QStringLiteral("-o"), QStringLiteral("ServerAliveInterval=1"), QStringLiteral("-o"),
                    QStringLiteral("ServerAliveCountMax=2") })
                << QStringLiteral("while :; do echo tick; sleep 0.1; done"));
        QVERIFY(ssh.waitForReadyRead(20000));
        QVERIFY(ssh.readAllStandardOutput().startsWith("tick"));
        proxy.setHang(true);
        QElapsedTimer t;
        t.start();
        // OpenSSH counts its unanswered keepalives: 1 s interval x 2 -> it gives up after ~3 s.
        QVERIFY(ssh.waitForFinished(30000));
        const qint64 ms = t.elapsed();
        const QByteArray err = ssh.readAllStandardError();
        QCOMPARE(ssh.exitCode(), 255);
        QVERIFY2(err.contains("Timeout, server") && err.contains("not responding"), err.constData());
        QVERIFY(proxy.counters().bytesSwallowed > 0);
        QCOMPARE(proxy.counters().connectionsReset, 0);
        qInfo("ssh declared the hung link dead after %lld ms", ms);
        QVERIFY2(ms >= 1500, qPrintable(QString::number(ms)));
    }

    void resetMakesSshExit255()
    {
        KF_START_DEMO_HOST(demo);
        FaultProxy proxy(demo.port());
        QVERIFY(proxy.start().ok());
        QProcess ssh;
        ssh.start(QStringLiteral("ssh"), sshViaProxy(demo, proxy) << QStringLiteral("echo up; sleep 60"));
        QVERIFY(ssh.waitForReadyRead(20000));
        QCOMPARE(ssh.readAllStandardOutput().trimmed(), QByteArray("up"));
        QCOMPARE(proxy.counters().connectionsOpen, 1);
        proxy.resetAll();
        QVERIFY(ssh.waitForFinished(10000));
        QCOMPARE(ssh.exitCode(), 255);
        const QByteArray err = ssh.readAllStandardError();
        // OpenSSH reports either the read ("Connection reset by peer") or its failed goodbye
        // ("client_loop: send disconnect: Broken pipe"), depending on which it notices first.
        QVERIFY2(err.contains("reset") || err.contains("Broken pipe"), err.constData());
        QCOMPARE(proxy.counters().connectionsReset, 1);
        QTRY_COMPARE_WITH_TIMEOUT(proxy.counters().connectionsOpen, 0, 10000);
    }

    void refuseNewKeepsSshOut()
    {
        KF_START_DEMO_HOST(demo);
        FaultProxy proxy(demo.port());
        QVERIFY(proxy.start().ok());
        proxy.setRefuseNew(true);
        auto r = kf::test::runProgram(QStringLiteral("ssh"), sshViaProxy(demo, proxy) << QStringLiteral("true"));
        QCOMPARE(r.exitCode, 255);
        proxy.clearFaults();
        r = kf::test::runProgram(QStringLiteral("ssh"), sshViaProxy(demo, proxy) << QStringLiteral("true"));
        QVERIFY2(r.exitCode == 0, r.err.constData());
    }
};

QTEST_GUILESS_MAIN(TestFaultProxy)
#include "tst_faultproxy.moc"
