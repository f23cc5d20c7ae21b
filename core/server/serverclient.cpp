// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/serverclient.h"

#include "core/log/logging.h"
#include "core/net/httpclient.h"
#include "core/server/serverevents.h"
#include "core/transport/transportpool.h"
#include "core/util/jobtracker.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QtConcurrent>

namespace kf {

namespace {
constexpr int kRequestTimeoutMs = 8000;
// What each endpoint may send (SGLang's /health is empty, its info JSON a few KB, /metrics
// a few hundred KB on 8 GPUs): a server streaming more gets "response body too large".
constexpr qint64 kHealthMaxBytes = 64 * 1024;
constexpr qint64 kInfoMaxBytes = 1024 * 1024;
constexpr qint64 kMetricsMaxBytes = qint64(16) << 20;

QJsonObject jsonObject(const QByteArray& body)
{
    const QJsonDocument doc = QJsonDocument::fromJson(body);
    return doc.isObject() ? doc.object() : QJsonObject();
}
} // namespace

ServerStatus pollServer(
    Transport& transport, quint16 port, const ServerStatus* previous, bool withInfo, const QString& host)
{
    ServerStatus s;
    s.port = port;
    s.timeMs = QDateTime::currentMSecsSinceEpoch();
    const auto health = httpGet(transport, host, port, QStringLiteral("/health"), kRequestTimeoutMs, kHealthMaxBytes);
    if (!health) {
        s.error = health.error();
        return s;
    }
    s.reachable = true;
    s.healthStatus = health->status;
    if (withInfo) {
        for (const QString& path : { QStringLiteral("/server_info"), QStringLiteral("/get_server_info") }) {
            const auto r = httpGet(transport, host, port, path, kRequestTimeoutMs, kInfoMaxBytes);
            if (r && r->status == 200) {
                s.serverInfo = jsonObject(r->body);
                s.infoEndpoint = path;
                break;
            }
        }
        for (const QString& path : { QStringLiteral("/model_info"), QStringLiteral("/get_model_info") }) {
            const auto r = httpGet(transport, host, port, path, kRequestTimeoutMs, kInfoMaxBytes);
            if (r && r->status == 200) {
                s.modelInfo = jsonObject(r->body);
                break;
            }
        }
    } else if (previous) {
        s.serverInfo = previous->serverInfo;
        s.infoEndpoint = previous->infoEndpoint;
        s.modelInfo = previous->modelInfo;
    }
    s.modelPath = s.serverInfo.value(QStringLiteral("model_path")).toString();
    if (s.modelPath.isEmpty())
        s.modelPath = s.modelInfo.value(QStringLiteral("model_path")).toString();
    s.tpSize = s.serverInfo.value(QStringLiteral("tp_size")).toInt();
    const auto metrics
        = httpGet(transport, host, port, QStringLiteral("/metrics"), kRequestTimeoutMs, kMetricsMaxBytes);
    if (metrics && metrics->status == 200) {
        s.hasMetrics = true;
        s.metricsText = parsePrometheusText(metrics->body);
        const bool usePrevious = previous && previous->hasMetrics && previous->timeMs < s.timeMs;
        s.metrics = deriveServerMetrics(s.metricsText, usePrevious ? &previous->metricsText : nullptr,
            usePrevious ? double(s.timeMs - previous->timeMs) / 1000.0 : 0.0);
    } else if (metrics) {
        s.metrics.note
            = QStringLiteral("/metrics answered HTTP %1: start the server with --enable-metrics").arg(metrics->status);
    } else {
        s.metrics.note = metrics.error();
    }
    return s;
}

ServerClient::ServerClient(std::shared_ptr<Transport> transport, quint16 port, QObject* parent)
    : QObject(parent)
    , m_transport(std::move(transport))
    , m_port(port)
{
    qRegisterMetaType<kf::ServerStatus>();
    connect(&m_timer, &QTimer::timeout, this, &ServerClient::pollNow);
}

ServerClient::~ServerClient()
{
    stop();
}

void ServerClient::start(int intervalMs)
{
    m_timer.start(intervalMs);
    pollNow();
}

void ServerClient::stop()
{
    m_timer.stop();
    m_requests.cancelAll();
    m_poll.cancel();
}

void ServerClient::pollNow()
{
    if (m_poll.isPending())
        return;
    auto transport = m_transport;
    const quint16 port = m_port;
    const ServerStatus previous = m_last;
    const bool withInfo = !m_haveInfo;
    m_poll = m_requests.track(
        QtConcurrent::run(transportPool(),
            [transport, port, previous, withInfo] { return pollServer(*transport, port, &previous, withInfo); }),
        [this](const ServerStatus& s) {
            // Ask for server_info again whenever the server went away (it may come back different).
            m_haveInfo = s.healthy() && !s.serverInfo.isEmpty();
            if (m_last.reachable != s.reachable)
                log::monitor()->info(
                    "server on port {}: {}", m_port, s.reachable ? QStringLiteral("reachable") : s.error);
            timeline::recordServerHealth(m_transport->describe(), m_polled ? &m_last : nullptr, s);
            m_polled = true;
            m_last = s;
            Q_EMIT statusUpdated(s);
        });
}

} // namespace kf
