// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "tests/support/streamtestserver.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutexLocker>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

#include <chrono>

namespace kf::test {

namespace {
qint64 steadyNs()
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
        .count();
}
} // namespace

class StreamServerWorker : public QObject
{
public:
    explicit StreamServerWorker(StreamTestServer::Options options)
        : m_options(options)
    { }

    quint16 listen()
    {
        m_server = new QTcpServer(this);
        m_server->setMaxPendingConnections(4096);
        m_server->setListenBacklogSize(4096); // a burst of connects must not lose SYNs (retried after 1 s)
        m_server->listen(QHostAddress::LocalHost, 0);
        connect(m_server, &QTcpServer::newConnection, this, [this] {
            while (QTcpSocket* s = m_server->nextPendingConnection())
                accept(s);
        });
        return m_server->serverPort();
    }

    QList<StreamTestServer::Trace> traces() const
    {
        QMutexLocker lock(&m_mutex);
        return m_traces;
    }
    int open() const
    {
        QMutexLocker lock(&m_mutex);
        return m_open;
    }
    int peak() const
    {
        QMutexLocker lock(&m_mutex);
        return m_peak;
    }
    int peakQueued() const
    {
        QMutexLocker lock(&m_mutex);
        return m_peakQueued;
    }

private:
    struct Conn
    {
        QTcpSocket* socket = nullptr;
        QByteArray in;
        bool streaming = false;
        bool held = false;
        int traceIndex = -1;
        int kind = 0; // 0 completions, 1 chat, 2 generate
        int total = 0;
        int sent = 0;
        int promptTokens = 0;
        QByteArray text; // generate: cumulative
        QTimer* timer = nullptr;
        qint64 scheduleFrom = 0; // when its place came (ns)
        bool generating = false;
    };

    void accept(QTcpSocket* s)
    {
        s->setSocketOption(QAbstractSocket::LowDelayOption, 1);
        auto c = std::make_shared<Conn>();
        c->socket = s;
        {
            QMutexLocker lock(&m_mutex);
            m_peak = std::max(m_peak, ++m_open);
        }
        connect(s, &QTcpSocket::readyRead, this, [this, c] { onRead(c); });
        connect(s, &QTcpSocket::bytesWritten, this, [this, c] {
            if (m_options.flood && c->streaming && !c->held)
                flood(c);
        });
        connect(s, &QTcpSocket::disconnected, this, [this, c] { closed(c); });
    }

    void closed(const std::shared_ptr<Conn>& c)
    {
        if (!c->socket)
            return;
        if (c->timer)
            c->timer->stop();
        {
            QMutexLocker lock(&m_mutex);
            --m_open;
            if (c->traceIndex >= 0 && !m_traces[c->traceIndex].finished)
                m_traces[c->traceIndex].clientGone = true;
        }
        c->socket->deleteLater();
        c->socket = nullptr;
        release(c);
    }

    // A generating request ended (finished or its client went away): the next waiting one starts.
    void release(const std::shared_ptr<Conn>& c)
    {
        if (!c->generating)
            return;
        c->generating = false;
        --m_running;
        while (!m_waiting.isEmpty()) {
            std::shared_ptr<Conn> next = m_waiting.takeFirst();
            if (next->socket) {
                begin(next);
                break;
            }
        }
    }

    void begin(const std::shared_ptr<Conn>& c)
    {
        c->generating = true;
        ++m_running;
        c->scheduleFrom = steadyNs();
        c->timer = new QTimer(c->socket);
        c->timer->setSingleShot(true);
        c->timer->setTimerType(Qt::PreciseTimer);
        connect(c->timer, &QTimer::timeout, this, [this, c] {
            if (!c->socket)
                return;
            sendToken(c);
            if (c->socket && c->sent < c->total)
                schedule(c, c->scheduleFrom);
        });
        schedule(c, c->scheduleFrom);
    }

    void answer(QTcpSocket* s, const QByteArray& path)
    {
        QByteArray body;
        QByteArray type = "application/json";
        int status = 200;
        if (path == "/health") {
        } else if (path == "/server_info" || path == "/get_server_info") {
            body = R"({"model_path":"test/stream-model","tp_size":1,"dp_size":1,"version":"stream-test"})";
        } else if (path == "/v1/models") {
            body = R"({"object":"list","data":[{"id":"test/stream-model","object":"model"}]})";
        } else if (path == "/metrics") {
            type = "text/plain; version=0.0.4";
            qint64 generated = 0;
            qint64 prompt = 0;
            {
                QMutexLocker lock(&m_mutex);
                generated = m_generated;
                prompt = m_prompt;
            }
            body = "# TYPE sglang:num_running_reqs gauge\nsglang:num_running_reqs{tp_rank=\"0\"} "
                + QByteArray::number(m_running)
                + "\n# TYPE sglang:num_queue_reqs gauge\nsglang:num_queue_reqs{tp_rank=\"0\"} "
                + QByteArray::number(m_waiting.size())
                + "\n# TYPE sglang:prompt_tokens_total counter\nsglang:prompt_tokens_total "
                + QByteArray::number(prompt)
                + "\n# TYPE sglang:generation_tokens_total counter\nsglang:generation_tokens_total "
                + QByteArray::number(qint64(double(generated) * m_options.metricsTokenScale)) + "\n";
        } else {
            status = 404;
            body = R"({"detail":"Not Found"})";
        }
        s->write("HTTP/1.1 " + QByteArray::number(status) + (status == 200 ? " OK" : " Not Found")
            + "\r\nContent-Type: " + type + "\r\nContent-Length: " + QByteArray::number(body.size())
            + "\r\nConnection: close\r\n\r\n" + body);
        s->disconnectFromHost();
    }

    void onRead(const std::shared_ptr<Conn>& c)
    {
        c->in.append(c->socket->readAll());
        if (c->streaming)
            return;
        const qsizetype end = c->in.indexOf("\r\n\r\n");
        if (end < 0)
            return;
        const QByteArray head = c->in.left(end);
        qsizetype length = 0;
        for (const QByteArray& line : head.split('\n'))
            if (line.toLower().startsWith("content-length:"))
                length = line.mid(15).trimmed().toLongLong();
        if (c->in.size() < end + 4 + length)
            return;
        const QByteArray path = head.split(' ').value(1);
        if (head.startsWith("GET ")) {
            c->streaming = true; // nothing more is read from it
            answer(c->socket, path);
            return;
        }
        const QJsonObject req = QJsonDocument::fromJson(c->in.mid(end + 4, length)).object();
        c->kind = path == "/v1/chat/completions" ? 1 : path == "/generate" ? 2 : 0;
        c->total = c->kind == 2
            ? req.value(QLatin1String("sampling_params")).toObject().value(QLatin1String("max_new_tokens")).toInt(16)
            : req.value(QLatin1String("max_tokens")).toInt(16);
        c->promptTokens = int((c->kind == 2 ? req.value(QLatin1String("text")).toString()
                : c->kind == 1              ? req.value(QLatin1String("messages"))
                                     .toArray()
                                     .at(0)
                                     .toObject()
                                     .value(QLatin1String("content"))
                                     .toString()
                               : req.value(QLatin1String("prompt")).toString())
                                  .split(QLatin1Char(' '), Qt::SkipEmptyParts)
                                  .size());
        c->streaming = true;
        const qint64 arrived = steadyNs();
        {
            QMutexLocker lock(&m_mutex);
            c->traceIndex = int(m_traces.size());
            m_traces.append({ path, arrived, {}, false, false });
            m_traces.last().tokenNs.reserve(c->total);
        }
        c->socket->write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n"
                         "Connection: close\r\n\r\n");
        if (m_options.flood) {
            c->held = true;
            m_held.append(c);
            if (int(m_held.size()) >= m_options.holdUntil) {
                for (const auto& h : std::exchange(m_held, {})) {
                    h->held = false;
                    flood(h);
                }
            }
            return;
        }
        {
            QMutexLocker lock(&m_mutex);
            m_prompt += c->promptTokens;
        }
        if (m_options.capacity > 0 && m_running >= m_options.capacity) {
            m_waiting.append(c);
            QMutexLocker lock(&m_mutex);
            m_peakQueued = std::max(m_peakQueued, int(m_waiting.size()));
            return;
        }
        begin(c);
    }

    void schedule(const std::shared_ptr<Conn>& c, qint64 arrived)
    {
        const double due = m_options.prefillS + c->sent * m_options.itlS;
        const qint64 dueNs = arrived + qint64(due * 1e9);
        c->timer->start(int(std::max<qint64>(0, (dueNs - steadyNs()) / 1000000)));
    }

    void chunk(QTcpSocket* s, const QByteArray& data)
    {
        s->write(QByteArray::number(data.size(), 16) + "\r\n" + data + "\r\n");
    }

    QByteArray event(const std::shared_ptr<Conn>& c, int n)
    {
        const bool last = n == c->total;
        static const QByteArray word = " tok";
        if (c->kind == 2) {
            c->text += n == 1 ? QByteArray("tok") : word;
            const QByteArray reason = last
                ? QByteArray("{\"type\":\"length\",\"length\":" + QByteArray::number(n) + "}")
                : QByteArray("null");
            return "data: {\"text\":\"" + c->text + "\",\"meta_info\":{\"id\":\"r\",\"finish_reason\":" + reason
                + ",\"prompt_tokens\":" + QByteArray::number(c->promptTokens)
                + ",\"completion_tokens\":" + QByteArray::number(n) + "}}\n\n";
        }
        const QByteArray finish = last ? "\"length\"" : "null";
        if (c->kind == 1)
            return "data: {\"id\":\"r\",\"object\":\"chat.completion.chunk\",\"model\":\"m\",\"choices\":[{\"index\":0,"
                   "\"delta\":{\"content\":\" tok\"},\"finish_reason\":"
                + finish + "}],\"usage\":null}\n\n";
        return "data: {\"id\":\"r\",\"object\":\"text_completion\",\"model\":\"m\",\"choices\":[{\"index\":0,\"text\":"
               "\" tok\",\"logprobs\":null,\"finish_reason\":"
            + finish + "}],\"usage\":null}\n\n";
    }

    void sendToken(const std::shared_ptr<Conn>& c)
    {
        ++c->sent;
        chunk(c->socket, event(c, c->sent));
        const qint64 t = steadyNs();
        {
            QMutexLocker lock(&m_mutex);
            m_traces[c->traceIndex].tokenNs.append(t);
            ++m_generated;
        }
        if (c->sent == c->total)
            finish(c);
    }

    void finish(const std::shared_ptr<Conn>& c)
    {
        if (c->kind != 2)
            chunk(c->socket,
                "data: {\"id\":\"r\",\"object\":\"text_completion\",\"model\":\"m\",\"choices\":[],\"usage\":"
                "{\"prompt_tokens\":"
                    + QByteArray::number(c->promptTokens) + ",\"completion_tokens\":" + QByteArray::number(c->total)
                    + ",\"total_tokens\":" + QByteArray::number(c->promptTokens + c->total) + "}}\n\n");
        chunk(c->socket, "data: [DONE]\n\n");
        c->socket->write("0\r\n\r\n");
        {
            QMutexLocker lock(&m_mutex);
            m_traces[c->traceIndex].finished = true;
        }
        release(c);
        c->socket->disconnectFromHost();
    }

    void flood(const std::shared_ptr<Conn>& c)
    {
        while (c->socket && c->sent < c->total && c->socket->bytesToWrite() < 64 * 1024)
            sendToken(c);
    }

    StreamTestServer::Options m_options;
    QTcpServer* m_server = nullptr;
    mutable QMutex m_mutex;
    QList<StreamTestServer::Trace> m_traces; // guarded by m_mutex
    int m_open = 0;                          // guarded by m_mutex
    int m_peak = 0;                          // guarded by m_mutex
    int m_peakQueued = 0;                    // guarded by m_mutex
    qint64 m_generated = 0;                  // guarded by m_mutex
    qint64 m_prompt = 0;                     // guarded by m_mutex
    QList<std::shared_ptr<Conn>> m_held;
    QList<std::shared_ptr<Conn>> m_waiting; // capacity: in arrival order
    int m_running = 0;
};

StreamTestServer::StreamTestServer(Options options)
    : m_worker(new StreamServerWorker(options))
{
    m_worker->moveToThread(&m_thread);
    QObject::connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);
    m_thread.setObjectName(QStringLiteral("kf-streamtestserver"));
    m_thread.start();
}

StreamTestServer::~StreamTestServer()
{
    m_thread.quit();
    m_thread.wait();
}

Result<void> StreamTestServer::start()
{
    QMetaObject::invokeMethod(
        m_worker, [this] { m_port = m_worker->listen(); }, Qt::BlockingQueuedConnection);
    if (m_port == 0)
        return Result<void>::failure(QStringLiteral("the stream test server could not listen on 127.0.0.1"));
    return {};
}

QList<StreamTestServer::Trace> StreamTestServer::traces() const
{
    return m_worker->traces();
}

int StreamTestServer::openConnections() const
{
    return m_worker->open();
}

int StreamTestServer::peakOpenConnections() const
{
    return m_worker->peak();
}

int StreamTestServer::peakQueued() const
{
    return m_worker->peakQueued();
}

} // namespace kf::test
