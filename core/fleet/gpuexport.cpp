// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/gpuexport.h"

#include <QHostAddress>
#include <QPointer>
#include <QTcpServer>
#include <QTcpSocket>

namespace kf::fleet {

namespace {

constexpr qsizetype kMaxRequestHead = 8 * 1024;

QByteArray escapeLabel(const QString& v)
{
    QByteArray out;
    for (const char c : v.toUtf8()) {
        if (c == '\\')
            out += "\\\\";
        else if (c == '"')
            out += "\\\"";
        else if (c == '\n')
            out += "\\n";
        else
            out += c;
    }
    return out;
}

QByteArray number(double v)
{
    return QByteArray::number(v, 'g', 10);
}

} // namespace

QByteArray dcgmExposition(const QList<GpuSample>& gpus, const QString& hostname)
{
    struct Family
    {
        const char* name;
        const char* help;
        double (*value)(const GpuSample&);
    };
    static const Family families[] = {
        { "DCGM_FI_DEV_GPU_UTIL", "GPU utilization (in %).",
            [](const GpuSample& g) { return g.value(GpuField::UtilGpu); } },
        { "DCGM_FI_DEV_FB_USED", "Framebuffer memory used (in MiB).",
            [](const GpuSample& g) { return g.value(GpuField::MemUsed); } },
        // Consumers take the total as used + free (dcgm-exporter has no total): derive free
        // when the stream has only used and total (some fields lists omit memory.free).
        { "DCGM_FI_DEV_FB_FREE", "Framebuffer memory free (in MiB).",
            [](const GpuSample& g) {
                return hasValue(g.value(GpuField::MemFree)) ? g.value(GpuField::MemFree)
                    : (hasValue(g.value(GpuField::MemTotal)) && hasValue(g.value(GpuField::MemUsed)))
                    ? g.value(GpuField::MemTotal) - g.value(GpuField::MemUsed)
                    : noValue();
            } },
        { "DCGM_FI_DEV_GPU_TEMP", "GPU temperature (in C).",
            [](const GpuSample& g) { return g.value(GpuField::TempGpu); } },
        { "DCGM_FI_DEV_MEMORY_TEMP", "Memory temperature (in C).",
            [](const GpuSample& g) { return g.value(GpuField::TempMemory); } },
        { "DCGM_FI_DEV_POWER_USAGE", "Power draw (in W).",
            [](const GpuSample& g) { return g.value(GpuField::PowerDraw); } },
        { "DCGM_FI_DEV_SM_CLOCK", "SM clock frequency (in MHz).",
            [](const GpuSample& g) { return g.value(GpuField::ClockSm); } },
        { "DCGM_FI_DEV_MEM_CLOCK", "Memory clock frequency (in MHz).",
            [](const GpuSample& g) { return g.value(GpuField::ClockMem); } },
        { "DCGM_FI_DEV_ECC_DBE_VOL_TOTAL", "Total number of double-bit volatile ECC errors.",
            [](const GpuSample& g) { return g.value(GpuField::EccUncorrected); } },
        { "DCGM_FI_DEV_ECC_SBE_VOL_TOTAL", "Total number of single-bit volatile ECC errors.",
            [](const GpuSample& g) { return g.value(GpuField::EccCorrected); } },
        { "DCGM_FI_DEV_CLOCKS_EVENT_REASONS", "Current clock event (throttle) reasons (bitmask).",
            [](const GpuSample& g) { return g.hasReasons ? double(g.reasons) : noValue(); } },
    };
    QList<QByteArray> labels;
    labels.reserve(gpus.size());
    for (const GpuSample& g : gpus) {
        labels.append("{gpu=\"" + QByteArray::number(g.index) + "\",UUID=\"" + escapeLabel(g.text(GpuField::Uuid))
            + "\",device=\"nvidia" + QByteArray::number(g.index) + "\",modelName=\""
            + escapeLabel(g.text(GpuField::Name)) + "\",Hostname=\"" + escapeLabel(hostname) + "\",pci_bus_id=\""
            + escapeLabel(g.text(GpuField::BusId)) + "\",exporter=\"kernelforge\"}");
    }
    QByteArray out;
    out.reserve(gpus.size() * 2048 + 1024);
    for (const Family& f : families) {
        QByteArray lines;
        for (qsizetype i = 0; i < gpus.size(); ++i) {
            const double v = f.value(gpus.at(i));
            if (hasValue(v))
                lines += f.name + labels.at(i) + ' ' + number(v) + '\n';
        }
        if (lines.isEmpty())
            continue;
        out += QByteArray("# HELP ") + f.name + ' ' + f.help + "\n# TYPE " + f.name + " gauge\n" + lines;
    }
    return out;
}

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
