// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/server/metricnames.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

using namespace kf;

class TestMetricNames : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesArePlainAndOnce()
    {
        // The names go into PromQL regexes unescaped: Prometheus' metric-name charset, no regex syntax.
        const QRegularExpression plain(QStringLiteral("^[a-z_][a-z0-9_:]*$"));
        QSet<QString> seen;
        for (const ServerMetricName& row : kServerMetricNames) {
            const QString name = QString::fromUtf16(row.name);
            QVERIFY2(plain.match(name).hasMatch(), qPrintable(name));
            QVERIFY2(!seen.contains(name), qPrintable(name));
            seen.insert(name);
            QVERIFY2(name.startsWith(QLatin1String(row.vocabulary)), qPrintable(name));
            QCOMPARE(serverMetricName(name)->quantity, row.quantity);
        }
        QVERIFY(!serverMetricName(u"sglang:no_such_metric"));
    }
    void bothSglangSpellingsOfEachQuantity()
    {
        for (ServerQuantity q :
            { ServerQuantity::GenThroughput, ServerQuantity::Running, ServerQuantity::Queued, ServerQuantity::KvUsage,
                ServerQuantity::CacheHitRate, ServerQuantity::GenerationTokens, ServerQuantity::PromptTokens,
                ServerQuantity::Ttft, ServerQuantity::Itl, ServerQuantity::CachedTokens }) {
            const QList<QStringView> names = serverMetricNames(q, u"sglang");
            bool colon = false, underscore = false;
            for (QStringView n : names) {
                colon |= n.startsWith(u"sglang:");
                underscore |= n.startsWith(u"sglang_");
            }
            QVERIFY2(colon && underscore, qPrintable(QString::number(int(q))));
            QVERIFY(names.first().startsWith(u"sglang:")); // the current spelling first
        }
        QCOMPARE(serverMetricNames(ServerQuantity::GenThroughput, u"vllm").size(), 0); // vLLM: rate the counter
        QCOMPARE(serverMetricRegex({ ServerQuantity::GenerationTokens }, u"vllm"), "vllm:generation_tokens_total");
        QCOMPARE(serverMetricRegex({ ServerQuantity::Running, ServerQuantity::Queued }),
            "sglang:num_running_reqs|sglang_num_running_reqs|vllm:num_requests_running|"
            "sglang:num_queue_reqs|sglang_num_queue_reqs|vllm:num_requests_waiting");
    }
};

QTEST_GUILESS_MAIN(TestMetricNames)
#include "tst_metricnames.moc"
