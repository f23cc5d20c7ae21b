// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "faultproxy.h"

#include <QByteArray>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <deque>
#include <vector>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

namespace kf::test {

namespace {

using Clock = std::chrono::steady_clock;
constexpr qint64 kMaxQueued = 4 * 1024 * 1024; // per direction, then stop reading the sender
constexpr qint64 kReadBudget = 256 * 1024;     // per socket per wake-up, so one busy peer cannot starve others
constexpr int kSliceMs = 10;                   // bandwidth pacing granularity

void setNonBlocking(int fd)
{
    ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) | O_NONBLOCK);
}

void setNoDelay(int fd)
{
    // The proxy must not add Nagle delays of its own on top of the configured latency.
    int one = 1;
    ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

// close() with SO_LINGER {1, 0} sends an RST instead of a FIN: the peer sees ECONNRESET.
void closeWithReset(int fd)
{
    if (fd < 0)
        return;
    linger lg { 1, 0 };
    ::setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    ::close(fd);
}

struct Chunk
{
    QByteArray data; // empty: end-of-stream marker (shutdown the write side when delivered)
    qsizetype offset = 0;
    Clock::time_point deliverAt;
};

struct Direction
{
    std::deque<Chunk> queue;
    qint64 queued = 0;
    bool srcEof = false;           // the sender closed its side (or failed)
    bool dstShut = false;          // we shut down the receiver's write side
    bool writeBlocked = false;     // last write hit EAGAIN: wait for POLLOUT
    Clock::time_point nextSend {}; // bandwidth pacing: no byte leaves before this
};

struct Connection
{
    int clientFd = -1;
    int targetFd = -1;
    bool connecting = true; // non-blocking connect() to the target in progress
    bool clientHup = false;
    bool targetHup = false;
    Direction up;   // client -> target
    Direction down; // target -> client
    bool dead = false;
};

} // namespace

struct FaultProxy::Loop
{
    std::vector<Connection> connections;
    int resetsHandled = 0;
    bool wasHanging = false;
};

FaultProxy::FaultProxy(quint16 targetPort, const QString& targetHost)
    : m_targetHost(targetHost)
    , m_targetPort(targetPort)
{ }

FaultProxy::~FaultProxy()
{
    stop();
}

Result<void> FaultProxy::start(quint16 listenPort)
{
    if (isRunning())
        return {};
    sockaddr_in target {};
    if (::inet_pton(AF_INET, m_targetHost.toLatin1().constData(), &target.sin_addr) != 1)
        return Result<void>::failure(
            QStringLiteral("fault proxy: target must be an IPv4 address, got ") + m_targetHost);

    m_listenFd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (m_listenFd < 0)
        return Result<void>::failure(
            QStringLiteral("fault proxy: socket: ") + QString::fromLocal8Bit(std::strerror(errno)));
    int one = 1;
    ::setsockopt(m_listenFd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in addr {};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(listenPort);
    if (::bind(m_listenFd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0 || ::listen(m_listenFd, 64) != 0) {
        const QString why = QString::fromLocal8Bit(std::strerror(errno));
        ::close(m_listenFd);
        m_listenFd = -1;
        return Result<void>::failure(QStringLiteral("fault proxy: cannot listen on 127.0.0.1: ") + why);
    }
    socklen_t len = sizeof addr;
    ::getsockname(m_listenFd, reinterpret_cast<sockaddr*>(&addr), &len);
    m_port = ntohs(addr.sin_port);
    setNonBlocking(m_listenFd);
    m_wakeFd = ::eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    m_stop = false;
    m_loop = std::make_unique<Loop>();

    const sockaddr_in targetAddr = [&] {
        sockaddr_in t = target;
        t.sin_family = AF_INET;
        t.sin_port = htons(m_targetPort);
        return t;
    }();

    // Everything below runs on the proxy thread only; it shares with the API the atomics
    // (faults, stop flag) and m_counters (under m_countersMutex).
    m_thread = std::thread([this, targetAddr] {
        Loop& loop = *m_loop;
        std::vector<pollfd> fds;
        std::vector<char> buf(64 * 1024);

        auto bump = [this](auto&& fn) {
            std::lock_guard lock(m_countersMutex);
            fn(m_counters);
        };
        auto resetConnection = [&](Connection& c, bool countAsInjected) {
            if (c.dead)
                return;
            // Count first: a test that sees the peer react to the RST must also see the counter.
            bump([&](Counters& k) {
                --k.connectionsOpen;
                if (countAsInjected)
                    ++k.connectionsReset;
            });
            closeWithReset(c.clientFd);
            closeWithReset(c.targetFd);
            c.clientFd = c.targetFd = -1;
            c.dead = true;
        };
        auto dropQueues = [&](Connection& c) {
            qint64 dropped = 0;
            for (Direction* d : { &c.up, &c.down }) {
                for (const Chunk& ch : d->queue)
                    dropped += ch.data.size() - ch.offset;
                d->queue.clear();
                d->queued = 0;
            }
            if (dropped)
                bump([&](Counters& k) { k.bytesSwallowed += dropped; });
        };

        // Reads what `src` has into `dir` (or swallows it while hanging). False: connection failed.
        auto pump = [&](Connection& c, int src, Direction& dir, bool force) -> bool {
            qint64 budget = kReadBudget;
            while (budget > 0 && !dir.srcEof && (force || dir.queued < kMaxQueued)) {
                const ssize_t n = ::read(src, buf.data(), buf.size());
                if (n < 0) {
                    if (errno == EINTR)
                        continue;
                    if (errno == EAGAIN || errno == EWOULDBLOCK)
                        return true;
                    return false; // ECONNRESET and friends: pass the reset on
                }
                if (n == 0) {
                    dir.srcEof = true;
                    if (m_hang.load())
                        return true; // a black hole does not forward FINs either
                    dir.queue.push_back(
                        Chunk { QByteArray(), 0, Clock::now() + std::chrono::milliseconds(m_latencyMs.load()) });
                    return true;
                }
                budget -= n;
                if (m_hang.load()) {
                    bump([&](Counters& k) { k.bytesSwallowed += n; });
                    continue;
                }
                dir.queue.push_back(Chunk {
                    QByteArray(buf.data(), n), 0, Clock::now() + std::chrono::milliseconds(m_latencyMs.load()) });
                dir.queued += n;
                force = false;
            }
            Q_UNUSED(c);
            return true;
        };

        // Writes what is due from `dir` to `dst`. False: connection failed.
        auto deliver = [&](int dst, Direction& dir, bool toTarget) -> bool {
            while (!dir.queue.empty() && !m_hang.load()) {
                const auto now = Clock::now();
                Chunk& front = dir.queue.front();
                if (front.deliverAt > now)
                    return true;
                if (front.data.isEmpty()) {
                    ::shutdown(dst, SHUT_WR);
                    dir.dstShut = true;
                    dir.queue.pop_front();
                    continue;
                }
                qint64 want = front.data.size() - front.offset;
                const qint64 rate = m_bandwidth.load();
                if (rate > 0) {
                    if (dir.nextSend > now)
                        return true;
                    want = std::min<qint64>(want, std::max<qint64>(1, rate * kSliceMs / 1000));
                }
                const ssize_t n = ::send(dst, front.data.constData() + front.offset, size_t(want), MSG_NOSIGNAL);
                if (n < 0) {
                    if (errno == EINTR)
                        continue;
                    if (errno == EAGAIN || errno == EWOULDBLOCK) {
                        dir.writeBlocked = true;
                        return true;
                    }
                    return false;
                }
                if (rate > 0) {
                    // No credit is saved up while idle: a burst after a pause still leaves at `rate`.
                    const auto base = std::max(dir.nextSend, now);
                    dir.nextSend = base + std::chrono::microseconds(n * 1000000 / rate);
                }
                front.offset += n;
                dir.queued -= n;
                bump([&](Counters& k) { (toTarget ? k.bytesToTarget : k.bytesToClient) += n; });
                if (front.offset == front.data.size())
                    dir.queue.pop_front();
            }
            return true;
        };

        // When the next queued byte becomes due, for the poll() timeout.
        auto dueIn = [&](const Direction& dir, Clock::time_point now) -> qint64 {
            if (dir.queue.empty() || dir.writeBlocked || m_hang.load())
                return -1;
            auto at = dir.queue.front().deliverAt;
            if (m_bandwidth.load() > 0 && !dir.queue.front().data.isEmpty())
                at = std::max(at, dir.nextSend);
            if (at <= now)
                return 0;
            // Round up: waking a millisecond early would only spin.
            return std::chrono::duration_cast<std::chrono::milliseconds>(at - now + std::chrono::microseconds(999))
                .count();
        };

        while (!m_stop.load()) {
            // Control requests.
            const int resets = m_resetRequests.load();
            if (resets != loop.resetsHandled) {
                loop.resetsHandled = resets;
                for (Connection& c : loop.connections)
                    resetConnection(c, true);
            }
            const bool hanging = m_hang.load();
            if (hanging && !loop.wasHanging) {
                for (Connection& c : loop.connections)
                    dropQueues(c);
            }
            loop.wasHanging = hanging;

            // Connections are finished once both directions are closed and drained.
            for (Connection& c : loop.connections) {
                if (!c.dead && c.up.srcEof && c.down.srcEof && c.up.queue.empty() && c.down.queue.empty()
                    && (hanging || (c.up.dstShut && c.down.dstShut))) {
                    ::close(c.clientFd);
                    ::close(c.targetFd);
                    c.clientFd = c.targetFd = -1;
                    c.dead = true;
                    bump([](Counters& k) { --k.connectionsOpen; });
                }
            }
            std::erase_if(loop.connections, [](const Connection& c) { return c.dead; });

            fds.clear();
            fds.push_back({ m_wakeFd, POLLIN, 0 });
            fds.push_back({ m_listenFd, POLLIN, 0 });
            const auto now = Clock::now();
            qint64 timeout = -1;
            auto consider = [&](qint64 t) {
                if (t >= 0 && (timeout < 0 || t < timeout))
                    timeout = t;
            };
            for (const Connection& c : loop.connections) {
                short cev = 0;
                short tev = 0;
                if (!c.up.srcEof && (hanging || c.up.queued < kMaxQueued))
                    cev |= POLLIN;
                if (!c.down.srcEof && !c.connecting && (hanging || c.down.queued < kMaxQueued))
                    tev |= POLLIN;
                if (c.down.writeBlocked)
                    cev |= POLLOUT;
                if (c.connecting || c.up.writeBlocked)
                    tev |= POLLOUT;
                // A hung-up socket we no longer read from would make poll() return at once forever.
                fds.push_back({ (c.clientHup && c.up.srcEof) ? -1 : c.clientFd, cev, 0 });
                fds.push_back({ (c.targetHup && c.down.srcEof) ? -1 : c.targetFd, tev, 0 });
                if (!c.connecting)
                    consider(dueIn(c.up, now));
                consider(dueIn(c.down, now));
            }
            const int pollTimeout = timeout < 0 ? -1 : int(std::min<qint64>(timeout, 60000));
            const int rc = ::poll(fds.data(), fds.size(), pollTimeout);
            if (rc < 0 && errno != EINTR)
                break;

            if (fds[0].revents & POLLIN) {
                eventfd_t v;
                ::eventfd_read(m_wakeFd, &v);
            }
            if (m_stop.load())
                break;

            if (fds[1].revents & POLLIN) {
                for (;;) {
                    const int cfd = ::accept4(m_listenFd, nullptr, nullptr, SOCK_NONBLOCK | SOCK_CLOEXEC);
                    if (cfd < 0)
                        break;
                    bump([](Counters& k) {
                        ++k.connectionsAccepted;
                        ++k.connectionsOpen;
                    });
                    if (m_refuseNew.load()) {
                        bump([](Counters& k) {
                            --k.connectionsOpen;
                            ++k.connectionsReset;
                        });
                        closeWithReset(cfd);
                        continue;
                    }
                    const int tfd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
                    setNoDelay(cfd);
                    setNoDelay(tfd);
                    Connection c;
                    c.clientFd = cfd;
                    c.targetFd = tfd;
                    const int crc = ::connect(tfd, reinterpret_cast<const sockaddr*>(&targetAddr), sizeof targetAddr);
                    if (crc != 0 && errno != EINPROGRESS) {
                        loop.connections.push_back(c);
                        resetConnection(loop.connections.back(), false);
                        continue;
                    }
                    c.connecting = crc != 0;
                    loop.connections.push_back(std::move(c));
                }
            }

            // fds[2 + 2*i] and fds[3 + 2*i] belong to the connections as they were before accepting.
            const size_t polled = (fds.size() - 2) / 2;
            for (size_t i = 0; i < loop.connections.size(); ++i) {
                Connection& c = loop.connections[i];
                if (c.dead)
                    continue;
                const short crev = i < polled ? fds[2 + 2 * i].revents : 0;
                const short trev = i < polled ? fds[3 + 2 * i].revents : 0;
                if (crev & POLLHUP)
                    c.clientHup = true;
                if (trev & POLLHUP)
                    c.targetHup = true;
                if (c.connecting && (trev & (POLLOUT | POLLERR | POLLHUP))) {
                    int err = 0;
                    socklen_t len = sizeof err;
                    ::getsockopt(c.targetFd, SOL_SOCKET, SO_ERROR, &err, &len);
                    if (err != 0) {
                        resetConnection(c, false); // target refused: the client sees a reset
                        continue;
                    }
                    c.connecting = false;
                }
                if (crev & POLLOUT)
                    c.down.writeBlocked = false;
                if (!c.connecting && (trev & POLLOUT))
                    c.up.writeBlocked = false;
                // POLLERR/POLLHUP: read anyway to learn about the reset or EOF.
                const bool clientErr = crev & (POLLERR | POLLHUP);
                const bool targetErr = trev & (POLLERR | POLLHUP);
                if ((crev & POLLIN || clientErr) && !pump(c, c.clientFd, c.up, clientErr)) {
                    resetConnection(c, false);
                    continue;
                }
                if (!c.connecting && (trev & POLLIN || targetErr) && !pump(c, c.targetFd, c.down, targetErr)) {
                    resetConnection(c, false);
                    continue;
                }
                if (!c.connecting && !c.up.writeBlocked && !deliver(c.targetFd, c.up, true)) {
                    resetConnection(c, false);
                    continue;
                }
                if (!c.down.writeBlocked && !deliver(c.clientFd, c.down, false)) {
                    resetConnection(c, false);
                    continue;
                }
            }
        }

        // Stopping: plain close (FIN) of whatever is still open.
        for (Connection& c : loop.connections) {
            if (c.dead)
                continue;
            ::close(c.clientFd);
            ::close(c.targetFd);
            bump([](Counters& k) { --k.connectionsOpen; });
        }
        loop.connections.clear();
    });
    return {};
}

void FaultProxy::stop()
{
    if (!m_thread.joinable())
        return;
    m_stop = true;
    wake();
    m_thread.join();
    ::close(m_listenFd);
    ::close(m_wakeFd);
    m_listenFd = m_wakeFd = -1;
    m_loop.reset();
}

void FaultProxy::wake()
{
    if (m_wakeFd >= 0)
        ::eventfd_write(m_wakeFd, 1);
}

void FaultProxy::setLatency(int oneWayMs)
{
    m_latencyMs = std::max(0, oneWayMs);
    wake();
}

void FaultProxy::setBandwidth(qint64 bytesPerSecond)
{
    m_bandwidth = std::max<qint64>(0, bytesPerSecond);
    wake();
}

void FaultProxy::setHang(bool hang)
{
    m_hang = hang;
    wake();
}

void FaultProxy::setRefuseNew(bool refuse)
{
    m_refuseNew = refuse;
    wake();
}

void FaultProxy::resetAll()
{
    ++m_resetRequests;
    wake();
}

void FaultProxy::clearFaults()
{
    m_latencyMs = 0;
    m_bandwidth = 0;
    m_hang = false;
    m_refuseNew = false;
    wake();
}

FaultProxy::Counters FaultProxy::counters() const
{
    std::lock_guard lock(m_countersMutex);
    return m_counters;
}

} // namespace kf::test
