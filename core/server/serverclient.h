// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/server/prometheustext.h"
#include "core/server/servermetrics.h"
#include "core/transport/transport.h"
#include "core/util/jobtracker.h"

#include <QJsonObject>
#include <QMetaType>
#include <QObject>
#include <QTimer>

#include <memory>

namespace kf {

// One look at an inference server on the remote loopback (through Transport::openTunnel,
// so the server port never has to be exposed): /health, /server_info (falling back to the
// older /get_server_info), /model_info (older /get_model_info), /metrics.
struct ServerStatus
{
    qint64 timeMs = 0;
    quint16 port = 0;
    bool reachable = false; // something answered HTTP on the port
    int healthStatus = 0;   // /health HTTP status (200 ready, 503 starting)
    QString error;          // why not reachable / what failed
    QJsonObject serverInfo;
    QString infoEndpoint; // which of /server_info, /get_server_info answered
    QJsonObject modelInfo;
    QString modelPath; // from server_info or model_info
    int tpSize = 0;
    bool hasMetrics = false; // /metrics answered (needs --enable-metrics)
    PromText metricsText;
    ServerMetrics metrics;

    bool healthy() const { return reachable && healthStatus == 200; }
};

// Blocking (worker thread). previous: the last status, for rates and per-interval quantiles;
// withInfo: also fetch server_info/model_info (they rarely change; the client asks once).
ServerStatus pollServer(Transport& transport, quint16 port, const ServerStatus* previous = nullptr,
    bool withInfo = true, const QString& host = QStringLiteral("127.0.0.1"));

// Polls one server periodically from the thread it lives in (results come back queued;
// a poll still running when the next is due is not doubled).
class ServerClient : public QObject
{
    Q_OBJECT
public:
    ServerClient(std::shared_ptr<Transport> transport, quint16 port, QObject* parent = nullptr);
    ~ServerClient() override;
    void start(int intervalMs = 2000);
    void stop();
    void pollNow();
    const ServerStatus& last() const { return m_last; }
    quint16 port() const { return m_port; }

Q_SIGNALS:
    void statusUpdated(const kf::ServerStatus& status);

private:
    std::shared_ptr<Transport> m_transport;
    quint16 m_port;
    QTimer m_timer;
    ServerStatus m_last;
    bool m_haveInfo = false;
    bool m_polled = false; // m_last holds an answer (health changes are recorded against it)
    JobTracker m_requests { this };
    RequestHandle m_poll; // one poll at a time
};

} // namespace kf

Q_DECLARE_METATYPE(kf::ServerStatus)
