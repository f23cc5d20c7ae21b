// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QObject>
#include <QString>

#include <functional>

class QTcpServer;

namespace kf::fleet {

// A minimal HTTP/1.1 server for GET /metrics (and / with a link): one request per
// connection, request head at most 8 KiB, answered from page() on the server's thread.
// An empty page is answered 503 (the scrape fails: Prometheus shows the target down).
class MetricsHttpServer : public QObject
{
    Q_OBJECT
public:
    using PageFunction = std::function<QByteArray()>;
    explicit MetricsHttpServer(PageFunction page, QObject* parent = nullptr);
    ~MetricsHttpServer() override;
    // "127.0.0.1:9400"; port 0 picks a free one.
    Result<void> listen(const QString& address);
    quint16 port() const;
    int requestsServed() const { return m_served; }

private:
    void onConnection();
    PageFunction m_page;
    QTcpServer* m_server;
    int m_served = 0;
};

} // namespace kf::fleet
