// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>

class QTcpServer;
class QTcpSocket;

namespace kf::fleet {

// A minimal HTTP/1.1 server for GET /metrics (and / with a link): one request per
// connection, request head at most 8 KiB, answered from page() on the server's thread.
// An empty page is answered 503 (the scrape fails: Prometheus shows the target down).
// Bounded whatever connects: a connection that has not sent its whole request head within
// headTimeoutMs is closed, one not gone answerTimeoutMs after its answer too, and at most
// maxConnections are open (a new one closes the oldest), so idle sockets can neither use up
// the process' file descriptors nor keep a scrape out.
class MetricsHttpServer : public QObject
{
    Q_OBJECT
public:
    struct Limits
    {
        int maxConnections = 64;
        int headTimeoutMs = 5000;
        int answerTimeoutMs = 10000;
    };
    using PageFunction = std::function<QByteArray()>;
    explicit MetricsHttpServer(PageFunction page, QObject* parent = nullptr);
    ~MetricsHttpServer() override;
    void setLimits(const Limits& limits) { m_limits = limits; }
    // "127.0.0.1:9400"; port 0 picks a free one.
    Result<void> listen(const QString& address);
    quint16 port() const;
    bool isLoopback() const; // listening on 127.0.0.0/8 or ::1 only
    int requestsServed() const { return m_served; }
    int openConnections() const { return int(m_open.size()); }
    int closedUnanswered() const { return m_closedUnanswered; } // timed out or pushed out

private:
    void onConnection();
    void onReadyRead(QTcpSocket* socket);
    void drop(QTcpSocket* socket);
    PageFunction m_page;
    QTcpServer* m_server;
    Limits m_limits;
    QList<QTcpSocket*> m_open; // oldest first
    int m_served = 0;
    int m_closedUnanswered = 0;
};

} // namespace kf::fleet
