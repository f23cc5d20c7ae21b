// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/metricshttpserver.h"

#include <QHostAddress>
#include <QTcpServer>
#include <QTcpSocket>

namespace kf::fleet {

namespace {

constexpr qsizetype kMaxRequestHead = 8 * 1024;

} // namespace

MetricsHttpServer::MetricsHttpServer(PageFunction page, QObject* parent)
    : QObject(parent)
    , m_page(std::move(page))
    , m_server(new QTcpServer(this))
{
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

void MetricsHttpServer::onConnection()
{
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        connect(socket, &QTcpSocket::disconnected, socket, &QObject::deleteLater);
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] {
            QByteArray head = socket->property("head").toByteArray() + socket->readAll();
            if (head.size() > kMaxRequestHead) {
                socket->write("HTTP/1.1 431 Request Header Fields Too Large\r\nConnection: close\r\n\r\n");
                socket->disconnectFromHost();
                return;
            }
            const qsizetype end = head.indexOf("\r\n\r\n");
            if (end < 0 && head.indexOf("\n\n") < 0) {
                socket->setProperty("head", head);
                return;
            }
            const QList<QByteArray> requestLine = head.left(head.indexOf('\n')).trimmed().split(' ');
            QByteArray status = "200 OK", type = "text/plain; version=0.0.4; charset=utf-8", body;
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
            socket->write("HTTP/1.1 " + status + "\r\nContent-Type: " + type
                + "\r\nContent-Length: " + QByteArray::number(body.size()) + "\r\nConnection: close\r\n\r\n" + body);
            socket->disconnectFromHost();
        });
    }
}

} // namespace kf::fleet
