// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/tlsget.h"

#include "core/ssh/localportforward.h"
#include "core/ssh/sshtransport.h"

#include <QEventLoop>
#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QSslCertificate>
#include <QSslConfiguration>
#include <QTimer>
#include <QUrl>

namespace kf::fleet {

namespace {

Result<QList<QSslCertificate>> readCaFile(const QString& path)
{
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return Result<QList<QSslCertificate>>::failure(
            QStringLiteral("cannot read the CA file %1: %2").arg(path, f.errorString()));
    const QList<QSslCertificate> certs = QSslCertificate::fromData(f.read(4 << 20), QSsl::Pem);
    if (certs.isEmpty())
        return Result<QList<QSslCertificate>>::failure(
            QStringLiteral("no PEM certificate in the CA file %1").arg(path));
    return certs;
}

QString hostForUrl(const QString& host)
{
    return host.contains(u':') ? u'[' + host + u']' : host;
}

} // namespace

Result<HttpResponse> tlsGet(const std::shared_ptr<Transport>& via, const QString& host, quint16 port,
    const QString& pathAndQuery, const TlsOptions& tls, int timeoutMs, qint64 maxBodyBytes, const HttpHeaders& headers)
{
    using R = Result<HttpResponse>;
    QSslConfiguration ssl = QSslConfiguration::defaultConfiguration();
    if (!tls.caFile.isEmpty()) {
        const auto cas = readCaFile(tls.caFile);
        if (!cas)
            return cas.withoutValue();
        ssl.addCaCertificates(cas.value());
    }
    // Through an SSH host: a forward on this machine's loopback to host:port as it sees it.
    std::unique_ptr<LocalPortForward> forward;
    QString connectHost = host;
    quint16 connectPort = port;
    if (auto* ssh = dynamic_cast<SshTransport*>(via.get())) {
        forward = std::make_unique<LocalPortForward>(ssh->session(), host, port);
        if (const Result<void> listening = forward->listen(0); !listening)
            return listening;
        connectHost = QStringLiteral("127.0.0.1");
        connectPort = forward->localPort();
    }
    const QUrl url = QUrl::fromEncoded(
        QStringLiteral("https://%1:%2%3").arg(hostForUrl(connectHost)).arg(connectPort).arg(pathAndQuery).toUtf8(),
        QUrl::StrictMode);
    if (!url.isValid())
        return R::failure(QStringLiteral("not a valid request path: %1").arg(pathAndQuery.left(200)));
    QNetworkRequest request(url);
    request.setSslConfiguration(ssl);
    request.setPeerVerifyName(host); // the certificate names the server, not the forward
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    request.setAttribute(QNetworkRequest::Http2AllowedAttribute, true);
    request.setAttribute(QNetworkRequest::CacheLoadControlAttribute, QNetworkRequest::AlwaysNetwork);
    request.setRawHeader("User-Agent", "KernelForge");
    if (forward)
        request.setRawHeader("Host", QString(hostForUrl(host) + u':' + QString::number(port)).toUtf8());
    for (const auto& [name, value] : headers) {
        auto bad = [](const QByteArray& b) { return b.contains('\r') || b.contains('\n') || b.contains('\0'); };
        if (name.isEmpty() || bad(name) || bad(value) || name.contains(':'))
            return R::failure(
                QStringLiteral("invalid header %1: a control character or ':' in it").arg(QString::fromUtf8(name)));
        request.setRawHeader(name, value);
    }

    QNetworkAccessManager manager;
    manager.setProxy(QNetworkProxy::NoProxy); // the tunnel is the only detour
    QNetworkReply* reply = manager.get(request);
    HttpResponse response;
    QString bounded;
    QEventLoop loop;
    QObject::connect(reply, &QNetworkReply::readyRead, &loop, [&] {
        const QByteArray chunk = reply->readAll();
        if (response.body.size() + chunk.size() > maxBodyBytes) {
            bounded = QStringLiteral("response body too large (at least %1 bytes, limit %2)")
                          .arg(response.body.size() + chunk.size())
                          .arg(maxBodyBytes);
            reply->abort();
            return;
        }
        response.body += chunk;
    });
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    bool timedOut = false;
    QTimer::singleShot(timeoutMs, &loop, [&] {
        timedOut = true;
        reply->abort();
    });
    if (!reply->isFinished())
        loop.exec();
    if (bounded.isEmpty() && !timedOut)
        response.body += reply->readAll();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QString error = reply->errorString();
    const QNetworkReply::NetworkError code = reply->error();
    response.status = status;
    response.reason = reply->attribute(QNetworkRequest::HttpReasonPhraseAttribute).toString();
    for (const auto& [name, value] : reply->rawHeaderPairs())
        response.headers.append({ name, value });
    delete reply;
    if (!bounded.isEmpty())
        return R::failure(QStringLiteral("GET %1: %2").arg(pathAndQuery.section(u'?', 0, 0), bounded));
    if (timedOut)
        return R::failure(QStringLiteral("timed out after %1 ms waiting for %2")
                              .arg(timeoutMs)
                              .arg(pathAndQuery.section(u'?', 0, 0)));
    // An HTTP error status is an answer (the caller reads its body); no status is a failure:
    // TLS (an unknown CA, a name mismatch), a refused connection, a reset.
    if (status == 0 && code != QNetworkReply::NoError)
        return R::failure(QStringLiteral("https://%1:%2: %3").arg(hostForUrl(host)).arg(port).arg(error));
    return response;
}

} // namespace kf::fleet
