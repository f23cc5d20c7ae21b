// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/servebench/loadgenerator.h"

#include "core/net/httpstreamdecoder.h"
#include "core/servebench/sseparser.h"

#include <QDateTime>
#include <QHostAddress>
#include <QTcpSocket>
#include <QThread>

#include <sys/resource.h>

namespace kf {

struct LoadGenerator::Request
{
    Request(ServeApi api, int promptTokens, qint64 maxBody)
        : decoder(maxBody)
        , recorder(api, promptTokens)
    { }
    QTcpSocket* socket = nullptr;
    HttpStreamDecoder decoder;
    SseParser sse;
    RequestRecorder recorder;
    QByteArray body;
    QList<QByteArray> events;
    double startedAt = 0;
    RequestSample sample;
    bool done = false;
};

namespace {

// Each request holds a socket here, and over SSH the forward holds one more: make sure the
// process may open them (raising the soft limit up to the hard one), or say why not.
QString ensureDescriptors(int concurrency)
{
    const rlim_t needed = rlim_t(concurrency) * 3 + 256;
    rlimit lim {};
    if (::getrlimit(RLIMIT_NOFILE, &lim) != 0 || lim.rlim_cur >= needed)
        return {};
    rlimit raised = lim;
    raised.rlim_cur = std::min(needed, lim.rlim_max);
    ::setrlimit(RLIMIT_NOFILE, &raised);
    if (raised.rlim_cur >= rlim_t(concurrency) + 64)
        return {};
    return QStringLiteral("concurrency %1 needs about %2 open files, but this process may open only %3 "
                          "(raise the hard limit: ulimit -Hn)")
        .arg(concurrency)
        .arg(qulonglong(needed))
        .arg(qulonglong(lim.rlim_max));
}

} // namespace

LoadGenerator::LoadGenerator(QObject* parent)
    : QObject(parent)
{
    m_arrivalTimer.setSingleShot(true);
    m_arrivalTimer.setTimerType(Qt::PreciseTimer);
    connect(&m_arrivalTimer, &QTimer::timeout, this, &LoadGenerator::dispatch);
    connect(&m_timeoutTimer, &QTimer::timeout, this, &LoadGenerator::checkTimeouts);
    m_progressTimer.setSingleShot(true);
    connect(&m_progressTimer, &QTimer::timeout, this, [this] { Q_EMIT progress(m_done, int(m_requests.size())); });
    m_readBuffer.resize(256 * 1024);
}

LoadGenerator::~LoadGenerator()
{
    for (auto& r : m_requests)
        if (r && r->socket) {
            r->socket->abort();
            delete r->socket;
        }
}

void LoadGenerator::start(const LoadSpec& spec)
{
    Q_ASSERT(QThread::currentThread() == thread());
    Q_ASSERT(!m_running);
    m_spec = spec;
    m_requests.clear();
    m_order.clear();
    m_bodies.clear();
    m_arrivals.clear();
    m_next = m_inFlight = m_done = 0;
    m_lastEnd = 0;
    m_cancelled = false;
    m_running = true;
    m_startedMs = QDateTime::currentMSecsSinceEpoch();
    m_clock.start();
    m_cap = spec.concurrency > 0 ? spec.concurrency : int(spec.prompts.size());
    if (const QString e = ensureDescriptors(m_cap); !e.isEmpty() || spec.prompts.isEmpty()) {
        LoadResult r;
        r.error = e.isEmpty() ? QStringLiteral("no requests to send") : e;
        r.startedMs = r.endedMs = m_startedMs;
        m_running = false;
        Q_EMIT finished(r);
        return;
    }
    for (qsizetype i = 0; i < spec.prompts.size(); ++i) {
        m_bodies.append(
            serveRequestBody(spec.api, spec.model, spec.prompts.at(i), spec.outputs.value(i, spec.outputTokens)));
        m_arrivals.append(spec.arrivals.value(i, 0.0));
        m_requests.push_back(std::make_unique<Request>(
            spec.api, spec.promptTokens.value(i, spec.promptTokensEstimate), spec.maxBodyBytes));
    }
    m_timeoutTimer.start(200);
    dispatch();
}

void LoadGenerator::dispatch()
{
    if (!m_running || m_cancelled)
        return;
    const int total = int(m_requests.size());
    while (m_next < total && m_inFlight < m_cap && m_arrivals.at(m_next) <= now())
        launch(m_next++);
    if (m_next < total && m_inFlight < m_cap && !m_arrivalTimer.isActive())
        m_arrivalTimer.start(int(std::max(0.0, (m_arrivals.at(m_next) - now()) * 1000.0)));
}

void LoadGenerator::launch(int index)
{
    Request& r = *m_requests.at(size_t(index));
    auto* socket = new QTcpSocket(this);
    r.socket = socket;
    ++m_inFlight;
    m_order.append(index);
    r.startedAt = now();
    r.recorder.start(r.startedAt);
    socket->setSocketOption(QAbstractSocket::LowDelayOption, 1);
    connect(socket, &QTcpSocket::connected, this, [this, index] { onConnected(index); });
    connect(socket, &QTcpSocket::readyRead, this, [this, index] { onReadyRead(index); });
    connect(socket, &QTcpSocket::disconnected, this, [this, index] { onClosed(index); });
    connect(socket, &QTcpSocket::errorOccurred, this, [this, index](QAbstractSocket::SocketError e) {
        if (e == QAbstractSocket::RemoteHostClosedError)
            onClosed(index);
        else if (Request& req = *m_requests.at(size_t(index)); !req.done)
            complete(index, req.socket->errorString());
    });
    socket->connectToHost(QHostAddress(m_spec.host), m_spec.port);
}

void LoadGenerator::onConnected(int index)
{
    Request& r = *m_requests.at(size_t(index));
    const QByteArray& body = m_bodies.at(index);
    QByteArray head;
    head.reserve(256);
    head += "POST " + serveApiPath(m_spec.api) + " HTTP/1.1\r\nHost: " + m_spec.hostHeader
        + "\r\nUser-Agent: KernelForge-bench\r\nAccept: text/event-stream\r\nContent-Type: application/json\r\n"
          "Content-Length: "
        + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n";
    r.socket->write(head + body);
    m_bodies[index] = QByteArray(); // sent: free it
}

void LoadGenerator::onReadyRead(int index)
{
    Request& r = *m_requests.at(size_t(index));
    if (r.done)
        return;
    // One timestamp per read: every event in it arrived together.
    const double t = now();
    while (r.socket->bytesAvailable() > 0) {
        const qint64 n = r.socket->read(m_readBuffer.data(), m_readBuffer.size());
        if (n <= 0)
            break;
        r.body.clear();
        if (!r.decoder.feed(QByteArrayView(m_readBuffer.constData(), n), &r.body)) {
            complete(index, r.decoder.error());
            return;
        }
        if (r.decoder.headersDone() && r.decoder.status() != 200) {
            const QString detail = QString::fromUtf8(r.body.left(200)).simplified();
            complete(index,
                QStringLiteral("HTTP %1 %2%3")
                    .arg(r.decoder.status())
                    .arg(r.decoder.reason(), detail.isEmpty() ? QString() : QStringLiteral(": ") + detail));
            return;
        }
        r.events.clear();
        if (!r.sse.feed(r.body, &r.events)) {
            complete(index, r.sse.error());
            return;
        }
        for (const QByteArray& e : std::as_const(r.events)) {
            if (!r.recorder.onEvent(e, t)) {
                complete(index, r.recorder.error());
                return;
            }
            if (r.recorder.sawDone()) {
                complete(index, {});
                return;
            }
        }
        if (r.decoder.complete()) {
            r.events.clear();
            r.sse.finish(&r.events);
            for (const QByteArray& e : std::as_const(r.events))
                if (!r.recorder.onEvent(e, t))
                    break;
            complete(index, r.recorder.error());
            return;
        }
    }
}

void LoadGenerator::onClosed(int index)
{
    Request& r = *m_requests.at(size_t(index));
    if (r.done)
        return;
    onReadyRead(index); // what arrived with the close
    if (r.done)
        return;
    r.decoder.closed();
    if (!r.decoder.complete()) {
        complete(index, r.decoder.error());
        return;
    }
    r.events.clear();
    r.sse.finish(&r.events);
    const double t = now();
    for (const QByteArray& e : std::as_const(r.events))
        if (!r.recorder.onEvent(e, t))
            break;
    complete(index, r.recorder.error());
}

void LoadGenerator::complete(int index, const QString& error)
{
    Request& r = *m_requests.at(size_t(index));
    if (r.done)
        return;
    r.done = true;
    const double t = now();
    r.sample = r.recorder.finish(t, error);
    r.sample.scheduled = m_arrivals.at(index);
    m_lastEnd = t;
    if (r.socket) {
        r.socket->disconnect(this);
        r.socket->abort();
        r.socket->deleteLater();
        r.socket = nullptr;
    }
    r.body = QByteArray();
    r.events.clear();
    --m_inFlight;
    ++m_done;
    if (!m_progressTimer.isActive())
        m_progressTimer.start(100);
    if (m_done + (m_cancelled ? int(m_requests.size()) - m_next : 0) >= int(m_requests.size()))
        end();
    else
        dispatch();
}

void LoadGenerator::checkTimeouts()
{
    const double t = now();
    const double limit = m_spec.requestTimeoutMs / 1000.0;
    for (int index : std::as_const(m_order)) {
        Request& r = *m_requests.at(size_t(index));
        if (!r.done && r.socket && t - r.startedAt > limit)
            complete(index, QStringLiteral("no complete response after %1 s").arg(limit, 0, 'g', 4));
    }
}

void LoadGenerator::cancel()
{
    if (!m_running || m_cancelled)
        return;
    m_cancelled = true;
    m_arrivalTimer.stop();
    const QList<int> sent = m_order;
    for (int index : sent)
        complete(index, QStringLiteral("cancelled"));
    if (m_running)
        end();
}

void LoadGenerator::end()
{
    if (!m_running)
        return;
    m_running = false;
    m_arrivalTimer.stop();
    m_timeoutTimer.stop();
    m_progressTimer.stop();
    LoadResult result;
    result.cancelled = m_cancelled;
    result.startedMs = m_startedMs;
    result.endedMs = QDateTime::currentMSecsSinceEpoch();
    result.durationS = m_lastEnd;
    result.notSent = int(m_requests.size()) - m_next;
    for (int index : std::as_const(m_order))
        result.samples.append(m_requests.at(size_t(index))->sample);
    Q_EMIT progress(m_done, int(m_requests.size()));
    Q_EMIT finished(result);
}

} // namespace kf
