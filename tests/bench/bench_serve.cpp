// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The serving benchmark's load generator, benchmarked (run by hand; numbers go to
// docs/PERFORMANCE.md):  bench_serve [streams] [tokens per stream]   (default 2000 200)
// A C++ server in this process (tests/support/streamtestserver.h, flood mode, its own thread)
// holds every response until all `streams` requests have arrived, then streams every token as
// fast as the sockets take them, one SSE event per token: `streams` streams open at once. Measured on the client side:
// tokens per second of wall time and per second of CPU time of the client's one thread (its capacity on one core), for
//   the load generator (HTTP chunk decoding, SSE, JSON per event, per-token timestamps), and
//   the anchor: a minimal QTcpSocket reader in the same setup that sends the same requests and
//   reads and discards the bytes (no parsing, no statistics), in the same run.
// The two run in turn KF_BENCH_REPEATS times (default 5; each pair a few seconds at the defaults):
// every row is the median of the pairs' ratios with their min-max; the goal rows the same against
// the fixed goal.
#include "core/servebench/benchstats.h"
#include "core/servebench/loadgenerator.h"
#include "core/servebench/promptgenerator.h"
#include "tests/support/benchreport.h"
#include "tests/support/streamtestserver.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QTcpSocket>
#include <QThread>
#include <QTimer>

#include <cstdio>
#include <ctime>
#include <vector>

#include <sys/resource.h>

using namespace kf;
using kf::test::StreamTestServer;

namespace {

double threadCpuS()
{
    timespec ts {};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) / 1e9;
}

QByteArray loadAverage()
{
    QFile f(QStringLiteral("/proc/loadavg"));
    return f.open(QIODevice::ReadOnly) ? f.readAll().split(' ').mid(0, 3).join(' ') : QByteArray("?");
}

struct Measure
{
    double wallS = 0;
    double cpuS = 0;
    qint64 tokens = 0;
    qint64 bytes = 0;
    int ok = 0;
    int peak = 0;
};

// The anchor: the same requests, every byte read and dropped.
class MinimalClient : public QObject
{
public:
    void start(quint16 port, const QList<QByteArray>& requests)
    {
        m_cpu0 = threadCpuS();
        m_clock.start();
        m_left = int(requests.size());
        for (const QByteArray& req : requests) {
            auto* s = new QTcpSocket(this);
            connect(s, &QTcpSocket::connected, s, [s, req] { s->write(req); });
            connect(s, &QTcpSocket::readyRead, s, [this, s] {
                char buf[256 * 1024];
                qint64 n = 0;
                while ((n = s->read(buf, sizeof buf)) > 0)
                    m_bytes += n;
            });
            connect(s, &QTcpSocket::disconnected, this, [this, s] {
                s->deleteLater();
                if (--m_left == 0) {
                    m_result.wallS = double(m_clock.nsecsElapsed()) / 1e9;
                    m_result.cpuS = threadCpuS() - m_cpu0;
                    m_result.bytes = m_bytes;
                    m_done = true;
                }
            });
            s->connectToHost(QHostAddress::LocalHost, port);
        }
    }
    bool done() const { return m_done; }
    Measure result() const { return m_result; }

private:
    QElapsedTimer m_clock;
    double m_cpu0 = 0;
    qint64 m_bytes = 0;
    int m_left = 0;
    bool m_done = false;
    Measure m_result;
};

QByteArray requestFor(quint16 port, const QByteArray& body)
{
    return "POST /v1/completions HTTP/1.1\r\nHost: 127.0.0.1:" + QByteArray::number(port)
        + "\r\nContent-Type: application/json\r\nContent-Length: " + QByteArray::number(body.size())
        + "\r\nConnection: close\r\n\r\n" + body;
}

void waitFor(const std::function<bool()>& done)
{
    while (!done()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(5);
    }
}

Measure runAnchor(int streams, int tokens, const QList<QByteArray>& prompts)
{
    StreamTestServer server({ 0, 0, true, streams });
    if (!server.start())
        return {};
    QList<QByteArray> requests;
    for (const QByteArray& p : prompts)
        requests << requestFor(server.port(), serveRequestBody(ServeApi::Completions, QStringLiteral("m"), p, tokens));
    QThread thread;
    auto* client = new MinimalClient;
    client->moveToThread(&thread);
    thread.start();
    QMetaObject::invokeMethod(client, [client, port = server.port(), requests] { client->start(port, requests); });
    waitFor([&] {
        bool d = false;
        QMetaObject::invokeMethod(
            client, [&] { d = client->done(); }, Qt::BlockingQueuedConnection);
        return d;
    });
    Measure m;
    QMetaObject::invokeMethod(
        client, [&] { m = client->result(); }, Qt::BlockingQueuedConnection);
    QMetaObject::invokeMethod(
        client, [client] { delete client; }, Qt::BlockingQueuedConnection);
    thread.quit();
    thread.wait();
    m.tokens = qint64(streams) * tokens;
    m.ok = streams;
    m.peak = server.peakOpenConnections();
    return m;
}

Measure runGenerator(int streams, int tokens, const QList<QByteArray>& prompts)
{
    StreamTestServer server({ 0, 0, true, streams });
    if (!server.start())
        return {};
    LoadSpec spec;
    spec.port = server.port();
    spec.hostHeader = "127.0.0.1:" + QByteArray::number(server.port());
    spec.api = ServeApi::Completions;
    spec.model = QStringLiteral("m");
    spec.concurrency = streams;
    spec.outputTokens = tokens;
    spec.prompts = prompts;
    spec.promptTokensEstimate = 16;
    QThread thread;
    auto* gen = new LoadGenerator;
    gen->moveToThread(&thread);
    thread.start();
    Measure m;
    bool done = false;
    double cpu0 = 0;
    QElapsedTimer clock;
    QObject::connect(
        gen, &LoadGenerator::finished, gen,
        [&](const LoadResult& r) {
            m.wallS = double(clock.nsecsElapsed()) / 1e9;
            m.cpuS = threadCpuS() - cpu0;
            const LevelStats s = computeLevelStats(r.samples, r.durationS, streams, 0);
            m.tokens = s.outputTokens;
            m.ok = s.completed;
            if (s.failed > 0)
                fprintf(stderr, "generator: %d failed, first reason: %s\n", s.failed,
                    qPrintable(s.failureReasons.firstKey()));
            done = true;
        },
        Qt::DirectConnection);
    QMetaObject::invokeMethod(gen, [&, gen] {
        cpu0 = threadCpuS();
        clock.start();
        gen->start(spec);
    });
    waitFor([&] {
        bool d = false;
        QMetaObject::invokeMethod(
            gen, [&] { d = done; }, Qt::BlockingQueuedConnection);
        return d;
    });
    QMetaObject::invokeMethod(
        gen, [gen] { delete gen; }, Qt::BlockingQueuedConnection);
    thread.quit();
    thread.wait();
    m.peak = server.peakOpenConnections();
    return m;
}

} // namespace

int main(int argc, char** argv)
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    const int streams = args.value(0, QStringLiteral("2000")).toInt();
    const int tokens = args.value(1, QStringLiteral("200")).toInt();
    rlimit lim {};
    getrlimit(RLIMIT_NOFILE, &lim);
    lim.rlim_cur = lim.rlim_max;
    setrlimit(RLIMIT_NOFILE, &lim); // both ends of every stream live in this process
    printf("serve: %d streams x %d tokens, load average at start %s\n", streams, tokens, loadAverage().constData());
    const QList<QByteArray> prompts = makePrompts(streams, 16, 1);
    // The generator and the anchor in turn, KF_BENCH_REPEATS times (default 5), so that a change
    // in the machine's load touches both.
    std::vector<Measure> gens, anchors;
    const bench::Interleaved cpuRuns = bench::interleaved(
        [&] {
            gens.push_back(runGenerator(streams, tokens, prompts));
            return double(gens.back().tokens) / gens.back().cpuS;
        },
        [&] {
            anchors.push_back(runAnchor(streams, tokens, prompts));
            return double(anchors.back().tokens) / anchors.back().cpuS;
        });
    auto line = [streams](const char* who, const Measure& m) {
        printf("serve: %-9s %d of %d requests ok, %lld tokens in %.2f s wall, %.3f s CPU of its thread: %.0f tok/s "
               "wall, %.0f tok per CPU-second; peak %d connections open at the server",
            who, m.ok, streams, (long long)m.tokens, m.wallS, m.cpuS, double(m.tokens) / m.wallS,
            double(m.tokens) / m.cpuS, m.peak);
        if (m.bytes > 0)
            printf("; %.1f MB read", double(m.bytes) / 1e6);
        printf("\n");
    };
    bench::Interleaved wallRuns, goalRuns, peakRuns;
    bool allOk = true;
    for (size_t i = 0; i < gens.size(); ++i) {
        line("generator", gens[i]);
        line("anchor", anchors[i]);
        allOk = allOk && gens[i].ok == streams;
        wallRuns.ours.push_back(double(gens[i].tokens) / gens[i].wallS);
        wallRuns.anchor.push_back(double(anchors[i].tokens) / anchors[i].wallS);
        goalRuns.ours.push_back(cpuRuns.ours[i]);
        goalRuns.anchor.push_back(50000);
        peakRuns.ours.push_back(gens[i].peak);
        peakRuns.anchor.push_back(2000);
    }
    printf("serve: load average at end %s\n", loadAverage().constData());
    const QByteArray what1 = QByteArray("load generator, ") + QByteArray::number(streams) + " concurrent streams x "
        + QByteArray::number(tokens) + " tokens: tokens per CPU-second of its one thread";
    bench::report("serve", what1.constData(), cpuRuns, "minimal QTcpSocket reader (no parsing)", "tok/s", true);
    bench::report("serve", "load generator: the same, against the goal of 50,000 tok/s on one core", goalRuns, "goal",
        "tok/s", true);
    bench::report("serve", "load generator: tokens per second of wall time (server and client share 2 cores)", wallRuns,
        "minimal QTcpSocket reader (no parsing)", "tok/s", true);
    bench::report("serve", "load generator: streams open at once (goal 2000)", peakRuns, "goal", "streams", true);
    return allOk ? 0 : 1;
}
