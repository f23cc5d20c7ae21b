// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/transport/transport.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <utility>

// A minimal HTTP/1.1 GET over a kf::TunnelStream (SSH direct-tcpip, or a local socket), for
// talking to an inference server on the remote loopback without exposing its port.
//
// Request we send:  "GET <path> HTTP/1.1\r\nHost: <host>:<port>\r\nUser-Agent: KernelForge\r\n
//                    Accept: */*\r\nConnection: close\r\n\r\n"
// Response we read: "HTTP/1.x <code> <reason>\r\n" then header lines "Name: value\r\n" up to an
//   empty line, then the body delimited by Content-Length, or "Transfer-Encoding: chunked"
//   (hex size lines, optional ";ext", data, CRLF, a 0-size chunk, optional trailers), or by
//   the peer closing the connection. Bare "\n" line ends are accepted too.
namespace kf {

struct HttpResponse
{
    int status = 0;
    QString reason;
    QList<std::pair<QByteArray, QByteArray>> headers; // names as sent
    QByteArray body;

    QByteArray header(QByteArrayView name) const; // case-insensitive; empty when absent
};

// Bounds on what a server may send: the status line and headers together, and the body
// (callers pass a smaller limit per endpoint). Beyond them the response is an error:
//   "response headers exceed 65536 bytes", "response body too large (N bytes, limit M)".
inline constexpr qsizetype kHttpMaxHeaderBytes = 64 * 1024;
inline constexpr qint64 kHttpMaxBodyBytes = qint64(32) << 20;

// Parses a response. complete is false when more bytes are needed (headers unfinished, body
// shorter than Content-Length, chunked without the last chunk); closed says the peer closed,
// which ends a body without length.
struct HttpParse
{
    bool complete = false;
    QString error; // malformed or over a limit: never becomes complete
    HttpResponse response;
};
HttpParse parseHttpResponse(QByteArrayView data, bool closed, qint64 maxBodyBytes = kHttpMaxBodyBytes);

// Extra request headers ("Authorization: Bearer ..."); a name or value with a CR, LF or NUL
// is refused before anything is sent ("invalid header ...": no header injection).
using HttpHeaders = QList<std::pair<QByteArray, QByteArray>>;

// Opens a tunnel to host:port through the transport and performs one GET (blocking; call
// from a worker thread). timeoutMs bounds the whole exchange, maxBodyBytes the body.
Result<HttpResponse> httpGet(Transport& transport, const QString& host, quint16 port, const QString& path,
    int timeoutMs = 10000, qint64 maxBodyBytes = kHttpMaxBodyBytes, const HttpHeaders& headers = {});
// Same over an already open stream.
Result<HttpResponse> httpGet(TunnelStream& stream, const QString& host, quint16 port, const QString& path,
    int timeoutMs = 10000, qint64 maxBodyBytes = kHttpMaxBodyBytes, const HttpHeaders& headers = {});

} // namespace kf
