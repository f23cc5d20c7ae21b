// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/net/httpclient.h"

#include "core/net/httpstreamdecoder.h"

#include <QElapsedTimer>

namespace kf {

QByteArray HttpResponse::header(QByteArrayView name) const
{
    for (const auto& [k, v] : headers) {
        if (QByteArrayView(k).compare(name, Qt::CaseInsensitive) == 0)
            return v;
    }
    return {};
}

namespace {

// The decoder's state as a response (status, reason, headers; the body is filled as it is fed).
void takeHead(const HttpStreamDecoder& decoder, HttpResponse* response)
{
    response->status = decoder.status();
    response->reason = decoder.reason();
    response->headers = decoder.headers();
}

} // namespace

HttpParse parseHttpResponse(QByteArrayView data, bool closed, qint64 maxBody)
{
    HttpParse p;
    HttpStreamDecoder decoder(maxBody);
    decoder.feed(data, &p.response.body);
    if (closed)
        decoder.closed();
    p.error = decoder.error();
    p.complete = p.error.isEmpty() && decoder.complete();
    if (closed && data.isEmpty())
        p.error = QStringLiteral("connection closed without a response");
    takeHead(decoder, &p.response);
    if (!p.complete)
        p.response.body.clear();
    return p;
}

namespace {

Result<void> checkHeaders(const HttpHeaders& headers)
{
    auto bad = [](const QByteArray& b) { return b.contains('\r') || b.contains('\n') || b.contains('\0'); };
    for (const auto& [name, value] : headers) {
        // The value is never quoted: it may be a token.
        if (name.isEmpty() || bad(name) || bad(value) || name.contains(':'))
            return Result<void>::failure(
                QStringLiteral("invalid header %1: a control character or ':' in it").arg(QString::fromUtf8(name)));
    }
    return {};
}

} // namespace

Result<HttpResponse> httpGet(TunnelStream& stream, const QString& host, quint16 port, const QString& path,
    int timeoutMs, qint64 maxBodyBytes, const HttpHeaders& headers)
{
    QByteArray request = "GET " + path.toUtf8() + " HTTP/1.1\r\nHost: " + host.toUtf8() + ':' + QByteArray::number(port)
        + "\r\nUser-Agent: KernelForge\r\nAccept: */*\r\nConnection: close\r\n";
    if (const Result<void> valid = checkHeaders(headers); !valid) {
        stream.close();
        return valid;
    }
    for (const auto& [name, value] : headers)
        request += name + ": " + value + "\r\n";
    request += "\r\n";
    const Result<void> written = stream.write(request);
    if (!written)
        return written;
    QElapsedTimer timer;
    timer.start();
    HttpStreamDecoder decoder(maxBodyBytes);
    HttpResponse response;
    bool any = false;
    while (true) {
        const int left = int(timeoutMs - timer.elapsed());
        if (left <= 0) {
            stream.close();
            return Result<HttpResponse>::failure(
                QStringLiteral("timed out after %1 ms waiting for %2").arg(timeoutMs).arg(path));
        }
        auto chunk = stream.read(qMin(left, 1000));
        if (!chunk) {
            stream.close();
            return chunk.withoutValue();
        }
        any = any || !chunk->isEmpty();
        decoder.feed(chunk.value(), &response.body);
        const bool closed = stream.atEnd();
        if (closed)
            decoder.closed();
        if (!decoder.error().isEmpty() || (closed && !any)) {
            stream.close();
            return Result<HttpResponse>::failure(
                QStringLiteral("GET %1: %2")
                    .arg(path, any ? decoder.error() : QStringLiteral("connection closed without a response")));
        }
        if (decoder.complete()) {
            stream.close();
            takeHead(decoder, &response);
            return response;
        }
    }
}

Result<HttpResponse> httpGet(Transport& transport, const QString& host, quint16 port, const QString& path,
    int timeoutMs, qint64 maxBodyBytes, const HttpHeaders& headers)
{
    if (const Result<void> valid = checkHeaders(headers); !valid)
        return valid;
    auto tunnel = transport.openTunnel(host, port);
    if (!tunnel)
        return Result<HttpResponse>::failure(QStringLiteral("cannot reach %1:%2 on %3: %4")
                                                 .arg(host)
                                                 .arg(port)
                                                 .arg(transport.describe(), tunnel.error()));
    return httpGet(*tunnel.value(), host, port, path, timeoutMs, maxBodyBytes, headers);
}

} // namespace kf
