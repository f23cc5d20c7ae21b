// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/fleet/promclient.h"

#include <QTest>

#include <cmath>

using namespace kf::fleet;

class TestPromApi : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void vector()
    {
        // The documented example answer of /api/v1/query?query=up.
        const QByteArray body
            = R"({"status":"success","data":{"resultType":"vector","result":[ {"metric":{"__name__":"up","job":"prometheus","instance":"localhost:9090"},"value":[1435781451.781,"1"]}, {"metric":{"__name__":"up","job":"node","instance":"localhost:9100"},"value":[1435781451.781,"0"]}]}})";
        const auto r = parseQueryResponse(body);
        QVERIFY2(r, qPrintable(r.error()));
        QCOMPARE(r->resultType, "vector");
        QCOMPARE(r->series.size(), 2);
        QCOMPARE(r->series.at(1).metric.value("instance"), "localhost:9100");
        QCOMPARE(r->series.at(1).value, 0.0);
        QCOMPARE(r->series.at(0).timeS, 1435781451.781);
    }
    void matrixAndSpecialValues()
    {
        const QByteArray body
            = R"({"status":"success","data":{"resultType":"matrix","result":[ {"metric":{"gpu":"0"},"values":[[1700000000,"1.5"],[1700000015,"NaN"],[1700000030,"+Inf"],[1700000045,"-Inf"]]}]}, "warnings":["something"]})";
        const auto r = parseQueryResponse(body);
        QVERIFY2(r, qPrintable(r.error()));
        const auto& p = r->series.at(0).points;
        QCOMPARE(p.size(), 4);
        QCOMPARE(p.at(0), QPointF(1700000000000.0, 1.5));
        // NaN, +Inf and -Inf are no value (an exporter's +Inf is no temperature): gaps, never drawn.
        QVERIFY(std::isnan(p.at(1).y()));
        QVERIFY(std::isnan(p.at(2).y()));
        QVERIFY(std::isnan(p.at(3).y()));
        for (const char* text : { "Inf", "inf", "+inf", "-inf", "nan", "1e999", "-1e999" })
            QVERIFY2(std::isnan(parseSampleValue(QString::fromLatin1(text))), text);
        QCOMPARE(parseSampleValue(u"-2.5e3"), -2500.0);
        QCOMPARE(r->warnings, QStringList { "something" });
    }
    void scalar()
    {
        const auto r
            = parseQueryResponse(R"({"status":"success","data":{"resultType":"scalar","result":[1700000000.5,"42"]}})");
        QVERIFY(r);
        QCOMPARE(r->series.at(0).value, 42.0);
    }
    void errorsNameTheReason()
    {
        const auto e = parseQueryResponse(
            R"({"status":"error","errorType":"bad_data","error":"invalid parameter query: 1:5: parse error"})");
        QVERIFY(!e);
        QVERIFY2(e.error().contains("bad_data") && e.error().contains("parse error"), qPrintable(e.error()));
        const auto html = parseQueryResponse("<html><body>502 Bad Gateway</body></html>");
        QVERIFY(!html);
        QVERIFY2(html.error().contains("not a Prometheus API answer") && html.error().contains("502"),
            qPrintable(html.error()));
        QVERIFY(!parseQueryResponse(
            R"({"status":"success","data":{"resultType":"vector","result":[{"metric":{},"value":[1]}]}})"));
        QVERIFY(!parseQueryResponse(R"({"status":"success","data":{"resultType":"histogram","result":[]}})"));
        QVERIFY(!parseQueryResponse(R"({"status":"success"})"));
        QVERIFY(!parseQueryResponse(""));
    }
    void jsonDetails()
    {
        // Escapes in label values (a UTF-8 name, a surrogate pair, quotes), keys in any order
        // (result before resultType), unknown members skipped, whitespace anywhere.
        const QByteArray body
            = " { \"data\" : { \"result\" : [ { \"extra\": [1, {\"a\": null}, true], \"value\" : [ 1.5e3 , \"2\" ], "
              "\"metric\" : { \"n\": \"caf\\u00e9 \\ud83d\\ude80 \\\"q\\\" a\\/b\\\\\" } } ], "
              "\"resultType\":\"vector\" }, "
              "\"status\" : \"success\" }\n";
        const auto r = parseQueryResponse(body);
        QVERIFY2(r, qPrintable(r.error()));
        QCOMPARE(r->series.size(), 1);
        QCOMPARE(r->series.first().metric.value("n"), QString::fromUtf8("caf\u00e9 \U0001F680 \"q\" a/b\\"));
        QCOMPARE(r->series.first().timeS, 1500.0);
        QCOMPARE(r->series.first().value, 2.0);
        // Broken documents are errors that say where, never a partial fleet.
        const char* const bads[]
            = { "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{\"a\":\"b",
                  "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[]}} trailing",
                  "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{\"a\":1},"
                  "\"value\":[1,\"2\"]}]}}",
                  "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\",\"result\":[{\"metric\":{}}]}}",
                  "{\"status\":\"success\",\"data\":{\"resultType\":\"vector\"}}", "{\"status\":\"su\x01\"}" };
        for (const char* bad : bads) {
            const auto e = parseQueryResponse(QByteArray(bad));
            QVERIFY2(!e, bad);
        }
        QByteArray deep = "{\"status\":\"success\",\"x\":";
        deep += QByteArray(100, '[') + QByteArray(100, ']') + "}";
        const auto d = parseQueryResponse(deep);
        QVERIFY(!d);
        QVERIFY2(d.error().contains("nested too deeply"), qPrintable(d.error()));
    }
    void targetsAndSeries()
    {
        const QByteArray body
            = R"({"status":"success","data":{"activeTargets":[ {"labels":{"instance":"10.0.0.1:9400","job":"dcgm"},"scrapeUrl":"http://10.0.0.1:9400/metrics","health":"down", "lastError":"connection refused","scrapeInterval":"1m30s"}, {"labels":{"instance":"10.0.0.2:9400","job":"dcgm"},"health":"up","lastError":""}],"droppedTargets":[]}})";
        const auto t = parseTargetsResponse(body);
        QVERIFY2(t, qPrintable(t.error()));
        QCOMPARE(t->size(), 2);
        QCOMPARE(t->at(0).scrapeIntervalS, 90.0);
        QCOMPARE(t->at(0).lastError, "connection refused");
        QCOMPARE(t->at(1).scrapeIntervalS, 0.0); // an older server that does not say
        const auto s = parseSeriesResponse(R"({"status":"success","data":[{"__name__":"up","instance":"a:1"}]})");
        QVERIFY(s);
        QCOMPARE(s->at(0).value("instance"), "a:1");
    }
    void durations()
    {
        QCOMPARE(parseDurationSeconds(u"15s"), 15.0);
        QCOMPARE(parseDurationSeconds(u"500ms"), 0.5);
        QCOMPARE(parseDurationSeconds(u"1h2m3s"), 3723.0);
        QVERIFY(!parseDurationSeconds(u""));
        QVERIFY(!parseDurationSeconds(u"15"));
        QVERIFY(!parseDurationSeconds(u"s"));
        QVERIFY(!parseDurationSeconds(u"5x"));
    }
    void endpoints()
    {
        const auto e = PromEndpoint::parse("http://prom.lab:9091/prometheus/");
        QVERIFY(e);
        QCOMPARE(e->host, "prom.lab");
        QCOMPARE(e->port, 9091);
        QCOMPARE(e->pathPrefix, "/prometheus");
        QCOMPARE(PromEndpoint::parse("127.0.0.1")->port, 9090);
        const auto tls = PromEndpoint::parse("https://prom:9090");
        QVERIFY(tls);
        QVERIFY(tls->tls);
        QCOMPARE(tls->port, 9090);
        QCOMPARE(tls->url(), "https://prom:9090");
        QCOMPARE(PromEndpoint::parse("https://prom.example/api/prom")->port, 443); // a managed one
        QVERIFY(!PromEndpoint::parse("http://prom")->tls);
        const auto creds = PromEndpoint::parse("http://user:secret@prom:9090");
        QVERIFY(!creds);
        QVERIFY(!creds.error().contains("secret"));
        QVERIFY(!PromEndpoint::parse("ftp://x"));
        QCOMPARE(encodeQuery({ { "query", "up{job=\"a b\"}" } }), "query=up%7Bjob%3D%22a%20b%22%7D");
    }
};

QTEST_GUILESS_MAIN(TestPromApi)
#include "tst_promclient.moc"
