// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/metricshttpserver.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimer>

namespace kf::fleet {

namespace {

constexpr qsizetype kMaxRequestHead = 8 * 1024;
const char* const kHead = "head";
const char* const kAnswered = "answered";

} // namespace

MetricsHttpServer::MetricsHttpServer(PageFunction page, QObject* parent)
    : QObject(parent)
    , m_page(std::move(page))
    , m_server(new QTcpServer(this))
{
    // A burst past Qt's default backlog of 50 has its handshakes dropped: those clients stay
    // half-connected where nothing can close them. Taken at once, each is bounded as below.
    m_server->setListenBacklogSize(4096);
    connect(m_server, &QTcpServer::newConnection, this, &MetricsHttpServer::onConnection);
}

MetricsHttpServer::~MetricsHttpServer() = default;

Result<void> MetricsHttpServer::listen(const QString& address)
{
    const qsizetype colon = address.lastIndexOf(u':');
    bool ok = false;
    const uint port = colon >= 0 ? address.mid(colon + 1).toUInt(&ok) : 0;
    QString host = colon >= 0 ? address.left(colon) : QString();
    if (host.startsWith(u'[') && host.endsWith(u']'))
        host = host.mid(1, host.size() - 2);
    const QHostAddress ha(host);
    if (!ok || port > 65535 || ha.isNull())
        return Result<void>::failure(
            QStringLiteral("--listen needs ADDRESS:PORT with a numeric address (127.0.0.1:9400), not %1").arg(address));
    if (!m_server->listen(ha, quint16(port)))
        return Result<void>::failure(QStringLiteral("cannot listen on %1: %2").arg(address, m_server->errorString()));
    return {};
}

quint16 MetricsHttpServer::port() const
{
    return m_server->serverPort();
}

bool MetricsHttpServer::isLoopback() const
{
    return m_server->serverAddress().isLoopback();
}

void MetricsHttpServer::drop(QTcpSocket* socket)
{
    if (!m_open.removeOne(socket))
        return;
    if (!socket->property(kAnswered).toBool())
        ++m_closedUnanswered;
    socket->abort();
    socket->deleteLater();
}

void MetricsHttpServer::onConnection()
{
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        while (!m_open.isEmpty() && m_open.size() >= m_limits.maxConnections)
            drop(m_open.first());
        m_open.append(socket);
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            if (m_open.removeOne(socket))
                socket->deleteLater();
        });
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadyRead(socket); });
        // A deadline for the whole head, not an idle timer: one byte every few seconds does
        // not keep a connection.
        QTimer::singleShot(m_limits.headTimeoutMs, socket, [this, socket] {
            if (!socket->property(kAnswered).toBool())
                drop(socket);
        });
    }
}

void MetricsHttpServer::onReadyRead(QTcpSocket* socket)
{
    if (socket->property(kAnswered).toBool()) {
        socket->readAll(); // one request per connection: the rest is not read
        return;
    }
    QByteArray head = socket->property(kHead).toByteArray() + socket->read(kMaxRequestHead + 1);
    QByteArray status = "200 OK", type = "text/plain; version=0.0.4; charset=utf-8", body;
    if (head.size() > kMaxRequestHead) {
        status = "431 Request Header Fields Too Large";
    } else {
        const qsizetype end = head.indexOf("\r\n\r\n");
        if (end < 0 && head.indexOf("\n\n") < 0) {
            socket->setProperty(kHead, head);
            return;
        }
        const QList<QByteArray> requestLine = head.left(head.indexOf('\n')).trimmed().split(' ');
        if (requestLine.size() < 2 || requestLine.at(0) != "GET") {
            status = "405 Method Not Allowed";
            body = "only GET\n";
        } else if (requestLine.at(1) == "/metrics" || requestLine.at(1).startsWith("/metrics?")) {
            body = m_page();
            ++m_served;
            if (body.isEmpty()) {
                // No fresh data: fail the scrape so Prometheus marks the target down and
                // its series stale, instead of serving old values as new.
                status = "503 Service Unavailable";
                body = "no fresh GPU sample\n";
            }
        } else if (requestLine.at(1) == "/") {
            type = "text/html";
            body = "<html><body><a href=\"/metrics\">/metrics</a> (KernelForge gpu export)</body></html>\n";
        } else {
            status = "404 Not Found";
            body = "not found\n";
        }
    }
    socket->setProperty(kHead, QVariant());
    socket->setProperty(kAnswered, true);
    socket->write("HTTP/1.1 " + status + "\r\nContent-Type: " + type
        + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
    socket->disconnectFromHost();
    // A client that never reads its answer does not keep the connection either.
    QTimer::singleShot(m_limits.answerTimeoutMs, socket, [this, socket] { drop(socket); });
}

} // namespace kf::fleet
