// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/promclient.h"

#include "core/fleet/promjson.h"
#include "core/fleet/tlsget.h"

#include "core/util/novalue.h"
#include "core/util/secretregistry.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

#include <cmath>

namespace kf::fleet {

namespace {

template <typename T> Result<T> fail(const QString& message)
{
    return Result<T>::failure(message);
}

// The envelope: status, error, data, warnings. Returns it when status is success.
Result<QJsonObject> envelope(QByteArrayView body)
{
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromRawData(body.data(), body.size()), &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        const QString start = QString::fromUtf8(body.first(qMin(body.size(), qsizetype(80)))).simplified();
        return fail<QJsonObject>(
            QStringLiteral("not a Prometheus API answer (%1 at byte %2): \"%3\"")
                .arg(pe.error != QJsonParseError::NoError ? pe.errorString() : QStringLiteral("not a JSON object"))
                .arg(pe.offset)
                .arg(start));
    }
    const QJsonObject o = doc.object();
    const QString status = o.value(QLatin1String("status")).toString();
    if (status == QLatin1String("error"))
        return fail<QJsonObject>(
            QStringLiteral("Prometheus error (%1): %2")
                .arg(o.value(QLatin1String("errorType")).toString(), o.value(QLatin1String("error")).toString()));
    if (status != QLatin1String("success"))
        return fail<QJsonObject>(QStringLiteral("not a Prometheus API answer: status \"%1\"").arg(status));
    if (!o.contains(QLatin1String("data")))
        return fail<QJsonObject>(QStringLiteral("Prometheus answer without data"));
    return o;
}

Labels labelsOf(const QJsonObject& o)
{
    Labels l;
    l.reserve(o.size());
    // JSON object keys are unique (QJsonObject keeps the last): append without a look-up.
    for (auto it = o.constBegin(); it != o.constEnd(); ++it)
        l.insert(it.key(), it.value().toString());
    return l;
}

} // namespace

Labels::Labels(std::initializer_list<std::pair<QString, QString>> items)
{
    for (const auto& [k, v] : items)
        insert(k, v);
}

QString Labels::value(const QString& key, const QString& fallback) const
{
    for (const auto& [k, v] : m_items)
        if (k == key)
            return v;
    return fallback;
}

bool Labels::contains(const QString& key) const
{
    for (const auto& kv : m_items)
        if (kv.first == key)
            return true;
    return false;
}

void Labels::insert(const QString& key, const QString& value)
{
    for (auto& kv : m_items)
        if (kv.first == key) {
            kv.second = value;
            return;
        }
    m_items.append({ key, value });
}

void Labels::remove(const QString& key)
{
    m_items.removeIf([&](const std::pair<QString, QString>& kv) { return kv.first == key; });
}

double parseSampleValue(QStringView text)
{
    // "NaN", "+Inf" and "-Inf" (and any spelling toDouble takes for them) are no value: an
    // exporter's +Inf is no temperature, and no chart or alert can use it.
    bool ok = false;
    const double v = text.toDouble(&ok);
    return ok && std::isfinite(v) ? v : noValue();
}

std::optional<double> parseDurationSeconds(QStringView text)
{
    // [0-9]+(ms|s|m|h|d|w|y), repeated in decreasing units ("1m30s").
    double total = 0;
    qsizetype i = 0;
    if (text.isEmpty())
        return std::nullopt;
    while (i < text.size()) {
        const qsizetype start = i;
        while (i < text.size() && text.at(i).isDigit())
            ++i;
        if (i == start || i - start > 12)
            return std::nullopt;
        const double n = text.mid(start, i - start).toDouble();
        double unit = 0;
        if (text.mid(i).startsWith(u"ms")) {
            unit = 0.001;
            i += 2;
        } else if (i < text.size()) {
            switch (text.at(i).unicode()) {
            case 's': unit = 1; break;
            case 'm': unit = 60; break;
            case 'h': unit = 3600; break;
            case 'd': unit = 86400; break;
            case 'w': unit = 7 * 86400; break;
            case 'y': unit = 365 * 86400; break;
            default: return std::nullopt;
            }
            ++i;
        } else {
            return std::nullopt;
        }
        total += n * unit;
    }
    return total;
}

Result<PromQueryResult> parseQueryResponse(QByteArrayView body)
{
    return detail::parseQueryJson(body); // the hot path of every refresh: core/fleet/promjson.h
}

Result<QList<Labels>> parseSeriesResponse(QByteArrayView body)
{
    const auto env = envelope(body);
    if (!env)
        return env.withoutValue();
    const QJsonValue data = env->value(QLatin1String("data"));
    if (!data.isArray())
        return fail<QList<Labels>>(QStringLiteral("series answer is not a list"));
    QList<Labels> out;
    for (const QJsonValue& v : data.toArray())
        out.append(labelsOf(v.toObject()));
    return out;
}

Result<QList<PromTarget>> parseTargetsResponse(QByteArrayView body)
{
    const auto env = envelope(body);
    if (!env)
        return env.withoutValue();
    const QJsonValue active = env->value(QLatin1String("data")).toObject().value(QLatin1String("activeTargets"));
    if (!active.isArray())
        return fail<QList<PromTarget>>(QStringLiteral("targets answer without activeTargets"));
    QList<PromTarget> out;
    for (const QJsonValue& v : active.toArray()) {
        const QJsonObject o = v.toObject();
        PromTarget t;
        t.labels = labelsOf(o.value(QLatin1String("labels")).toObject());
        t.scrapeUrl = o.value(QLatin1String("scrapeUrl")).toString();
        t.health = o.value(QLatin1String("health")).toString();
        t.lastError = o.value(QLatin1String("lastError")).toString();
        t.scrapeIntervalS = parseDurationSeconds(o.value(QLatin1String("scrapeInterval")).toString()).value_or(0);
        out.append(std::move(t));
    }
    return out;
}

Result<PromEndpoint> PromEndpoint::parse(const QString& text)
{
    const QUrl u(text.contains(QLatin1String("://")) ? text : QStringLiteral("http://") + text, QUrl::StrictMode);
    if (!u.isValid() || u.host().isEmpty())
        return Result<PromEndpoint>::failure(
            QStringLiteral("not a Prometheus URL: %1 (want http://host:port)").arg(text));
    if (u.scheme() != QLatin1String("http") && u.scheme() != QLatin1String("https"))
        return Result<PromEndpoint>::failure(QStringLiteral("not an http or https URL: %1").arg(text));
    if (!u.userInfo().isEmpty())
        return Result<PromEndpoint>::failure(QStringLiteral(
            "credentials in the URL are refused (they would show in ps and logs): use a bearer token file"));
    PromEndpoint e;
    e.tls = u.scheme() == QLatin1String("https");
    e.host = u.host();
    e.port = quint16(u.port(e.tls ? 443 : 9090));
    e.pathPrefix = u.path();
    while (e.pathPrefix.endsWith(QLatin1Char('/')))
        e.pathPrefix.chop(1);
    return e;
}

QString PromEndpoint::url() const
{
    const QString h = host.contains(QLatin1Char(':')) ? u'[' + host + u']' : host;
    return QStringLiteral("%1://%2:%3%4")
        .arg(tls ? QStringLiteral("https") : QStringLiteral("http"), h)
        .arg(port)
        .arg(pathPrefix);
}

QString encodeQuery(const QList<std::pair<QString, QString>>& items)
{
    QString out;
    for (const auto& [k, v] : items) {
        if (!out.isEmpty())
            out += u'&';
        out += QString::fromLatin1(QUrl::toPercentEncoding(k)) + u'=' + QString::fromLatin1(QUrl::toPercentEncoding(v));
    }
    return out;
}

PromClient::PromClient(std::shared_ptr<Transport> via, PromEndpoint endpoint, int timeoutMs)
    : m_via(std::move(via))
    , m_endpoint(std::move(endpoint))
    , m_timeoutMs(timeoutMs)
{
    if (!m_endpoint.bearerToken.isEmpty())
        SecretRegistry::add(m_endpoint.bearerToken);
}

QString PromClient::describe() const
{
    return m_via ? QStringLiteral("%1 (via %2)").arg(m_endpoint.url(), m_via->describe()) : m_endpoint.url();
}

Result<QByteArray> PromClient::get(const QString& pathAndQuery)
{
    HttpHeaders headers;
    if (!m_endpoint.bearerToken.isEmpty())
        headers.append({ QByteArrayLiteral("Authorization"), "Bearer " + m_endpoint.bearerToken });
    const QString path = m_endpoint.pathPrefix + pathAndQuery;
    auto r = m_endpoint.tls
        ? tlsGet(m_via, m_endpoint.host, m_endpoint.port, path, { m_endpoint.caFile }, m_timeoutMs, kPromMaxBodyBytes,
            headers)
        : httpGet(*m_via, m_endpoint.host, m_endpoint.port, path, m_timeoutMs, kPromMaxBodyBytes, headers);
    if (!r)
        return Result<QByteArray>::failure(QStringLiteral("Prometheus at %1: %2").arg(describe(), r.error()));
    if (r->status == 401 || r->status == 403)
        return Result<QByteArray>::failure(
            QStringLiteral("Prometheus at %1 refused the request (HTTP %2 %3): %4")
                .arg(describe())
                .arg(r->status)
                .arg(r->reason,
                    m_endpoint.bearerToken.isEmpty() ? QStringLiteral("it needs a bearer token")
                                                     : QStringLiteral("the bearer token was not accepted")),
            ErrorKind::Permanent);
    // 400/422/503 carry the JSON envelope with the reason; anything else non-2xx that is not
    // JSON is reported by the parser with its first bytes.
    if (r->status >= 300 && !r->header("Content-Type").contains("json"))
        return Result<QByteArray>::failure(QStringLiteral("Prometheus at %1: HTTP %2 %3 for %4")
                                               .arg(describe())
                                               .arg(r->status)
                                               .arg(r->reason, path.section(u'?', 0, 0)));
    return std::move(r.value().body);
}

Result<PromQueryResult> PromClient::query(const QString& promql, std::optional<qint64> timeMs)
{
    QList<std::pair<QString, QString>> q { { QStringLiteral("query"), promql } };
    if (timeMs)
        q.append({ QStringLiteral("time"), QString::number(double(*timeMs) / 1000, 'f', 3) });
    const auto body = get(QStringLiteral("/api/v1/query?") + encodeQuery(q));
    if (!body)
        return body.withoutValue();
    return parseQueryResponse(body.value());
}

Result<PromQueryResult> PromClient::queryRange(const QString& promql, qint64 startMs, qint64 endMs, double stepS)
{
    const auto body = get(QStringLiteral("/api/v1/query_range?")
        + encodeQuery({ { QStringLiteral("query"), promql },
            { QStringLiteral("start"), QString::number(double(startMs) / 1000, 'f', 3) },
            { QStringLiteral("end"), QString::number(double(endMs) / 1000, 'f', 3) },
            { QStringLiteral("step"), QString::number(stepS, 'f', 3) } }));
    if (!body)
        return body.withoutValue();
    return parseQueryResponse(body.value());
}

Result<QList<Labels>> PromClient::series(const QStringList& selectors, qint64 startMs, qint64 endMs)
{
    QList<std::pair<QString, QString>> q;
    for (const QString& s : selectors)
        q.append({ QStringLiteral("match[]"), s });
    q.append({ QStringLiteral("start"), QString::number(double(startMs) / 1000, 'f', 3) });
    q.append({ QStringLiteral("end"), QString::number(double(endMs) / 1000, 'f', 3) });
    const auto body = get(QStringLiteral("/api/v1/series?") + encodeQuery(q));
    if (!body)
        return body.withoutValue();
    return parseSeriesResponse(body.value());
}

Result<QList<PromTarget>> PromClient::targets()
{
    const auto body = get(QStringLiteral("/api/v1/targets?state=active"));
    if (!body)
        return body.withoutValue();
    return parseTargetsResponse(body.value());
}

} // namespace kf::fleet
