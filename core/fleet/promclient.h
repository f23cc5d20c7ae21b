// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/net/httpclient.h"
#include "core/transport/transport.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QByteArrayView>
#include <QHash>
#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>

#include <initializer_list>
#include <limits>
#include <memory>
#include <optional>

// A client of Prometheus' HTTP API (v1), the fleet's data source: KernelForge queries a
// Prometheus server that already scrapes dcgm-exporter, node_exporter and the inference
// servers; it never scrapes by itself.
//
// Wire format (https://prometheus.io/docs/prometheus/latest/querying/api/), every answer:
//   {"status":"success"|"error", "data":<data>, "errorType":"...", "error":"...", "warnings":[...]}
//   GET /api/v1/query?query=Q[&time=T]          data: {"resultType":"vector","result":[
//        {"metric":{"__name__":"up","instance":"h:9400",...},"value":[1700000000.123,"1"]}, ...]}
//        ("scalar": "result":[T,"V"]; "string" likewise)
//   GET /api/v1/query_range?query=Q&start=S&end=E&step=D   data: {"resultType":"matrix","result":[
//        {"metric":{...},"values":[[T,"V"],[T,"V"],...]}, ...]}
//   GET /api/v1/series?match[]=SEL&start=S&end=E            data: [{"__name__":"up",...}, ...]
//   GET /api/v1/targets?state=active                        data: {"activeTargets":[{"labels":{...},
//        "scrapeUrl":"http://h:9400/metrics","health":"up"|"down"|"unknown","lastError":"",
//        "lastScrape":"2024-01-01T00:00:00.123Z","scrapeInterval":"15s",...}], "droppedTargets":[...]}
//   Sample values are strings: decimal floats, "NaN", "+Inf", "-Inf". Times are Unix seconds
//   as JSON numbers with a fraction. Errors come with HTTP 400 (bad parameters), 422 (the
//   expression cannot be evaluated) or 503 (timeout, overload) and the same JSON envelope.
// Bodies are bounded (kPromMaxBodyBytes) and parsed with QJsonDocument; anything that is not
// this shape is an error naming what was wrong, never a partial fleet.
namespace kf::fleet {

inline constexpr qint64 kPromMaxBodyBytes = qint64(64) << 20;

// A series' label set. A flat list, not a hash: a series has a handful of labels, and a
// fleet refresh reads tens of thousands of series (a hash per series costs more than the
// linear look-ups). Keys are unique.
class Labels
{
public:
    Labels() = default;
    Labels(std::initializer_list<std::pair<QString, QString>> items);
    QString value(const QString& key, const QString& fallback = {}) const;
    bool contains(const QString& key) const;
    void insert(const QString& key, const QString& value); // replaces an existing key
    void remove(const QString& key);
    void reserve(qsizetype n) { m_items.reserve(n); }
    qsizetype size() const { return m_items.size(); }
    bool isEmpty() const { return m_items.isEmpty(); }
    const QList<std::pair<QString, QString>>& items() const { return m_items; }
    bool operator==(const Labels&) const = default;

private:
    QList<std::pair<QString, QString>> m_items;
};

struct PromSeries
{
    Labels metric;
    double timeS = 0; // vector / scalar: the evaluation time
    double value = std::numeric_limits<double>::quiet_NaN();
    QList<QPointF> points; // matrix: x = ms since the epoch, y = value
};

struct PromQueryResult
{
    QString resultType; // "vector", "matrix", "scalar", "string"
    QList<PromSeries> series;
    QStringList warnings;
};

struct PromTarget
{
    Labels labels; // after relabelling: job, instance, ...
    QString scrapeUrl;
    QString health; // "up", "down", "unknown"
    QString lastError;
    double scrapeIntervalS = 0; // 0 when the server does not say (older than 2.24)
};

// Pure parsers of an API body (the HTTP status does not matter: errors carry the envelope).
Result<PromQueryResult> parseQueryResponse(QByteArrayView body);
Result<QList<Labels>> parseSeriesResponse(QByteArrayView body);
Result<QList<PromTarget>> parseTargetsResponse(QByteArrayView body);
// A Prometheus duration ("15s", "1m30s", "500ms", "1h"); nullopt when malformed.
std::optional<double> parseDurationSeconds(QStringView text);
// A sample value as the API writes it ("1.5"); "NaN", "+Inf" and "-Inf" are noValue().
double parseSampleValue(QStringView text);

// Where the server is: http[s]://host:port[/prefix] (a --web.route-prefix), plus an optional
// bearer token (from the keychain or a file; never on a command line, registered with
// SecretRegistry). https (most managed Prometheus servers) goes through Qt's network stack
// (core/fleet/tlsget.h): the system's CAs plus an optional CA file, through a tunnel too.
struct PromEndpoint
{
    QString host;
    quint16 port = 9090; // https without a port: 443
    QString pathPrefix;  // "" or "/prometheus"
    QByteArray bearerToken;
    bool tls = false;
    QString caFile; // https: a PEM CA that signed the server's certificate, besides the system's

    static Result<PromEndpoint> parse(const QString& url);
    QString url() const; // without the token
};

// Blocking; call from a worker thread. Every request opens a stream through `via`: a
// LocalTransport for a server this machine reaches (a plain TCP socket), or an SshTransport
// whose host reaches it (direct-tcpip: the SSH tunnel). One HTTP client for both.
class PromClient
{
public:
    PromClient(std::shared_ptr<Transport> via, PromEndpoint endpoint, int timeoutMs = 20000);

    const PromEndpoint& endpoint() const { return m_endpoint; }
    QString describe() const;

    Result<PromQueryResult> query(const QString& promql, std::optional<qint64> timeMs = {});
    Result<PromQueryResult> queryRange(const QString& promql, qint64 startMs, qint64 endMs, double stepS);
    Result<QList<Labels>> series(const QStringList& selectors, qint64 startMs, qint64 endMs);
    Result<QList<PromTarget>> targets();

    // The raw GET (path below the prefix, with its query string), for the API calls above.
    Result<QByteArray> get(const QString& pathAndQuery);

private:
    std::shared_ptr<Transport> m_via;
    PromEndpoint m_endpoint;
    int m_timeoutMs;
};

// "a=1&b=x%20y" with every value percent-encoded (PromQL has { } " = ~ | + in it).
QString encodeQuery(const QList<std::pair<QString, QString>>& items);

} // namespace kf::fleet
