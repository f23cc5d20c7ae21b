// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/net/httpclient.h"
#include "core/transport/transport.h"
#include "core/util/result.h"

#include <QString>

#include <memory>

// One GET over HTTPS through Qt's QNetworkAccessManager (TLS with the system's CAs plus an
// optional CA file, HTTP/2 where the server offers it), with the bounds of the plain client
// (core/net/httpclient.h): the body at most maxBodyBytes, the whole exchange at most timeoutMs,
// no redirect followed (a 3xx is the answer). `via` says where the TCP connection starts: this
// machine (a LocalTransport), or an SSH host (an SshTransport: a local port forward on
// 127.0.0.1 to host:port as that host sees it; the certificate is still checked against
// `host`, which is also the name sent in SNI). Blocking; a worker thread (it runs its own
// event loop while it waits).
namespace kf::fleet {

struct TlsOptions
{
    QString caFile; // PEM; empty: the system's CAs only
};

Result<HttpResponse> tlsGet(const std::shared_ptr<Transport>& via, const QString& host, quint16 port,
    const QString& pathAndQuery, const TlsOptions& tls, int timeoutMs, qint64 maxBodyBytes,
    const HttpHeaders& headers = {});

} // namespace kf::fleet
