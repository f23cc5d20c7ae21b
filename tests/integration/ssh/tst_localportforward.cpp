// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// LocalPortForward under a burst: a load generator opens many connections at once, and each one
// must be queued by the kernel, not dropped (a dropped SYN is retried a second later, a second of
// latency that a serving benchmark through the tunnel would report as the server's).
#include "core/ssh/localportforward.h"
#include "core/ssh/sshtransport.h"
#include "tests/support/testsupport.h"

#include <QElapsedTimer>
#include <QtTest>

#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <vector>

using namespace kf;

class TestLocalPortForward : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void aBurstOfConnectionsIsQueuedNotDropped()
    {
        KF_START_DEMO_HOST(demo);
        auto c = SshTransport::connect(demo.profile());
        QVERIFY2(c.ok(), qPrintable(c.error()));
        LocalPortForward forward(c.value()->session(), QStringLiteral("127.0.0.1"), 9);
        QVERIFY(forward.listen().ok());
        // 300 connects while this thread (the forward's) accepts none: only the kernel's queue
        // can hold them. Each must complete its handshake.
        constexpr int kBurst = 300;
        std::vector<int> fds;
        sockaddr_in addr {};
        addr.sin_family = AF_INET;
        addr.sin_port = htons(forward.localPort());
        addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        for (int i = 0; i < kBurst; ++i) {
            const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
            QVERIFY(fd >= 0);
            fds.push_back(fd);
            const int rc = ::connect(fd, reinterpret_cast<const sockaddr*>(&addr), sizeof addr);
            QVERIFY(rc == 0 || errno == EINPROGRESS);
        }
        // Generous: a queued connection is writable at once; a dropped SYN never is here,
        // since nothing accepts while this thread waits.
        std::vector<pollfd> waiting;
        for (int fd : fds)
            waiting.push_back({ fd, POLLOUT, 0 });
        int connected = 0;
        QElapsedTimer clock;
        clock.start();
        while (!waiting.empty() && clock.elapsed() < 5000) {
            if (::poll(waiting.data(), waiting.size(), 200) <= 0)
                continue;
            std::vector<pollfd> still;
            for (const pollfd& p : waiting) {
                if (!(p.revents & (POLLOUT | POLLERR | POLLHUP))) {
                    still.push_back({ p.fd, POLLOUT, 0 });
                    continue;
                }
                int err = 0;
                socklen_t len = sizeof err;
                ::getsockopt(p.fd, SOL_SOCKET, SO_ERROR, &err, &len);
                connected += err == 0 ? 1 : 0;
            }
            waiting = std::move(still);
        }
        for (int fd : fds)
            ::close(fd);
        QCOMPARE(connected, kBurst);
    }
};

QTEST_GUILESS_MAIN(TestLocalPortForward)
#include "tst_localportforward.moc"
