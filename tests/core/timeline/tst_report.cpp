// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/timeline/report.h"
#include "core/util/secretregistry.h"

#include <QRegularExpression>
#include <QtTest>

#include <cmath>

using namespace kf;
using namespace kf::timeline;

class TestReport : public QObject
{
    Q_OBJECT

    ReportInput input() const
    {
        ReportInput in;
        in.host = QStringLiteral("alice@gpu1:22");
        const QDateTime t0(QDate(2026, 12, 1), QTime(10, 0), Qt::UTC);
        in.fromMs = t0.toMSecsSinceEpoch();
        in.toMs = t0.addSecs(3600).toMSecsSinceEpoch();
        in.generated = t0.addSecs(4000);
        Event a;
        a.time = t0.addSecs(600);
        a.host = in.host;
        a.kind = kind::BuildFinished;
        a.summary = QStringLiteral("Build demo failed after 3 min (exit status 1): <error> & \"quotes\" </script>");
        a.details = { { QStringLiteral("result"), QStringLiteral("failed") } };
        a.source = QStringLiteral("builds");
        Event b = a;
        b.time = t0.addSecs(1200);
        b.kind = kind::ServerHealthy;
        b.summary = QStringLiteral("Server healthy on port 30000");
        b.details = {};
        b.source = QStringLiteral("events");
        in.events = { a, b };
        ReportSeries power { Series::Power, {} };
        for (int m = 0; m < 60; ++m)
            power.points << QPointF(double(in.fromMs + m * 60000), m == 30 ? NAN : 100.0 + m);
        in.series = { power, ReportSeries { Series::Tokens, {} } };
        return in;
    }

private Q_SLOTS:
    void selfContainedWithTheEvents()
    {
        const QByteArray html = htmlReport(input());
        QVERIFY(html.startsWith("<!DOCTYPE html>"));
        QVERIFY(html.contains("<svg"));
        QVERIFY(!html.contains("<script src") && !html.contains("<link"));
        QCOMPARE(html.count("http"), 1); // the SVG namespace: nothing is fetched
        QVERIFY(html.contains("Server healthy on port 30000"));
        QVERIFY(html.contains("&lt;error&gt; &amp; &quot;quotes&quot;")); // escaped in the table
        // The events read back as they went in, from the embedded JSON.
        const auto back = eventsFromReport(html);
        QVERIFY2(back, qPrintable(back.error()));
        QCOMPARE(back.value(), input().events);
        // The power series has one gap (minute 30): two polylines; tok/s was not measured.
        QCOMPARE(html.count("<polyline"), 2);
        QVERIFY(html.contains("not measured in this period"));
        // A failed event is ringed in red.
        QVERIFY(html.contains("stroke=\"#d62728\""));
    }

    void noSecretValues()
    {
        SecretRegistry::add("hf_ReportSecretValue");
        ReportInput in = input();
        in.events[1].summary = QStringLiteral("launched with hf_ReportSecretValue");
        const QByteArray html = htmlReport(in);
        SecretRegistry::remove("hf_ReportSecretValue");
        QVERIFY(!html.contains("hf_ReportSecretValue"));
        QVERIFY(html.contains("launched with ***"));
    }

    void notAReport() { QVERIFY(!eventsFromReport("<html>hello</html>")); }
};

QTEST_GUILESS_MAIN(TestReport)
#include "tst_report.moc"
