// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The fleet from a real Prometheus (Debian's binary, private config and data, 127.0.0.1) that
// scrapes replayed dcgm-exporter and node_exporter pages of 256 simulated hosts x 8 GPUs and
// the demo SGLang server; a target goes down mid-test and comes back.
#include "core/fleet/fleetsource.h"
#include "core/transport/localtransport.h"
#include "tests/support/promfixture.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QSignalSpy>
#include <QTcpServer>
#include <QtTest>

using namespace kf;
using namespace kf::fleet;

namespace {
constexpr int kHosts = 256;
}

class TestPrometheusFleet : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void wholeFleetInAFixedNumberOfQueries();
    void alertsFromPrometheusSamples();
    void serverMetricsJoinTheirHost();
    void targetDownMidTestIsStaleNotZero();
    void drillDownChartsFromQueryRange();
    void seriesTargetsAndTheAsyncSource();

private:
    std::shared_ptr<PromClient> client() const;
    const FleetHost* host(const FleetSnapshot& s, const QString& name) const;
    std::unique_ptr<test::PrometheusFixture> m_prom;
    QProcess m_sglang;
    QProcess m_sglangUnderscore; // a build that spells its metrics sglang_*
    RefreshState m_state;
    FleetSnapshot m_first;
};

std::shared_ptr<PromClient> TestPrometheusFleet::client() const
{
    return std::make_shared<PromClient>(std::make_shared<LocalTransport>(), PromEndpoint::parse(m_prom->url()).value());
}

const FleetHost* TestPrometheusFleet::host(const FleetSnapshot& s, const QString& name) const
{
    for (const FleetHost& h : s.hosts)
        if (h.name == name)
            return &h;
    return nullptr;
}

void TestPrometheusFleet::initTestCase()
{
    if (!test::PrometheusFixture::available())
        QFAIL("/usr/bin/prometheus is missing: scripts/bootstrap installs Debian's prometheus package");
    // The demo SGLang server with --enable-metrics, counted as host 0's server.
    // A second one that spells its metrics sglang_* (some builds do), counted as host 1's.
    auto freePort = [] {
        QTcpServer probe;
        return probe.listen(QHostAddress::LocalHost, 0) ? probe.serverPort() : quint16(0);
    };
    const quint16 port = freePort(), underscorePort = freePort();
    QVERIFY(port && underscorePort && port != underscorePort);
    auto startDemo = [](QProcess& p, quint16 port, const QStringList& more) {
        p.start(QStringLiteral("python3"),
            QStringList { QStringLiteral(KF_SOURCE_DIR "/resources/demo/bin/sglang-demo-server"),
                QStringLiteral("--enable-metrics"), QStringLiteral("--port"), QString::number(port),
                QStringLiteral("--tp"), QStringLiteral("2") }
                + more);
        return p.waitForStarted(10000);
    };
    QVERIFY(startDemo(m_sglang, port, {}));
    QVERIFY(startDemo(
        m_sglangUnderscore, underscorePort, { QStringLiteral("--metric-prefix"), QStringLiteral("sglang_") }));
    test::PrometheusFixture::Options o;
    o.hosts = kHosts;
    o.scrapeIntervalS = 2; // 512 targets on a 2-core machine shared with builds
    o.extra.append(
        { QStringLiteral("sglang"), QStringLiteral("127.0.0.1:%1").arg(port), QStringLiteral("127.77.0.10:30000") });
    o.extra.append({ QStringLiteral("sglang_underscore"), QStringLiteral("127.0.0.1:%1").arg(underscorePort),
        QStringLiteral("127.77.0.11:30000") });
    m_prom = std::make_unique<test::PrometheusFixture>(o);
    const auto started = m_prom->start();
    QVERIFY2(started, qPrintable(started.error() + u'\n' + m_prom->prometheusLog()));
    auto c = client();
    const auto snap = refreshFleet(*c, m_state, QDateTime::currentMSecsSinceEpoch());
    QVERIFY2(snap, qPrintable(snap.error()));
    m_first = snap.value();
}

void TestPrometheusFleet::cleanupTestCase()
{
    if (m_prom)
        m_prom->stop();
    for (QProcess* p : { &m_sglang, &m_sglangUnderscore }) {
        p->terminate();
        p->waitForFinished(5000);
    }
}

void TestPrometheusFleet::wholeFleetInAFixedNumberOfQueries()
{
    QVERIFY2(m_first.problems.isEmpty(), qPrintable(m_first.problems.join(u'\n')));
    QCOMPARE(m_first.hosts.size(), kHosts);
    QCOMPARE(m_first.scrapeIntervalS, 2.0); // from /api/v1/targets
    int gpus = 0;
    for (const FleetHost& h : m_first.hosts) {
        QVERIFY2(!h.stale, qPrintable(h.name + u": " + h.staleReason));
        QCOMPARE(h.gpus.size(), 8);
        // dcgm + node (+ the demo server on hosts 0 and 1)
        QCOMPARE(h.instances.size(), h.name == u"gpu-node-000" || h.name == u"gpu-node-001" ? 3 : 2);
        QVERIFY(hasValue(h.load1));
        gpus += int(h.gpus.size());
    }
    QCOMPARE(gpus, kHosts * 8);
    const FleetHost* h = host(m_first, QStringLiteral("gpu-node-042"));
    QVERIFY(h);
    QCOMPARE(h->key, m_prom->address(42));
    QCOMPARE(h->gpus.at(3).text(GpuField::Name), "NVIDIA H100 80GB HBM3");
    QCOMPARE(h->gpus.at(3).value(GpuField::MemTotal), 81059.0);
    QCOMPARE(h->gpus.at(3).value(GpuField::TempGpu), 35.0 + (42 * 7 + 3 * 3) % 50); // the replay's formula
    QVERIFY(h->gpus.at(3).text(GpuField::Uuid).startsWith("GPU-"));
}

void TestPrometheusFleet::alertsFromPrometheusSamples()
{
    auto kinds = [&](const QString& name) {
        QStringList k;
        const FleetHost* h = host(m_first, name);
        if (h)
            for (const Alert& a : h->alerts)
                k << alertKindName(a.kind) + u':' + QString::number(a.gpu);
        k.sort();
        return k;
    };
    // The replay's scenarios (tests/data/prometheus/replay-exporter): i % 17 == 3 HW slowdown on
    // GPU 2, i % 19 == 4 Xid 79 on GPU 5, i % 23 == 5 full memory on GPU 0, i % 29 == 6 ECC on GPU 1.
    QVERIFY(kinds("gpu-node-003").contains("hw_slowdown:2"));
    QVERIFY(kinds("gpu-node-004").contains("xid:5"));
    QVERIFY(kinds("gpu-node-005").contains("memory_full:0"));
    QVERIFY(kinds("gpu-node-006").contains("ecc:1"));
    QVERIFY(kinds("gpu-node-007").contains("temperature:3"));
    QVERIFY(kinds("gpu-node-001").isEmpty());
    // The same rule functions as the SSH stream, on the Prometheus-derived samples.
    const FleetHost* h = host(m_first, QStringLiteral("gpu-node-003"));
    QCOMPARE(h->alerts.size(),
        evaluateAlerts(h->gpus, AlertRules()).size() + evaluateXidAlerts(h->gpus, h->xid, AlertRules()).size());
    const auto throttling = arrangeFleet(m_first.hosts, {}, FleetSort::Name, FleetFilter::Throttling, AlertRules());
    QCOMPARE(throttling.first().hosts.size(), (kHosts - 3 + 16) / 17); // every host with i % 17 == 3
}

void TestPrometheusFleet::serverMetricsJoinTheirHost()
{
    const FleetHost* h = host(m_first, QStringLiteral("gpu-node-000"));
    QVERIFY(h);
    QCOMPARE(h->serverKind, "sglang");
    QVERIFY(hasValue(h->serverTokensPerS) && h->serverTokensPerS > 0);
    QVERIFY(hasValue(h->serverRunning));
    // The sglang_* spelling is the same server's numbers (core/server/metricnames.h), not "no server metrics".
    const FleetHost* underscore = host(m_first, QStringLiteral("gpu-node-001"));
    QVERIFY(underscore);
    QCOMPARE(underscore->serverKind, "sglang");
    QVERIFY(hasValue(underscore->serverTokensPerS) && underscore->serverTokensPerS > 0);
    QVERIFY(hasValue(underscore->serverRunning));
    QVERIFY(host(m_first, QStringLiteral("gpu-node-002"))->serverKind.isEmpty());
}

void TestPrometheusFleet::targetDownMidTestIsStaleNotZero()
{
    const int down = 9;
    const QString name = QStringLiteral("gpu-node-009");
    QVERIFY(m_prom->setHostDown(down, true));
    const QString sel = QStringLiteral("up{instance=~\"%1:.*\"} == 0")
                            .arg(QString(m_prom->address(down)).replace(u'.', QStringLiteral("\\\\.")));
    QVERIFY2(m_prom->waitForCount(sel, 2), qPrintable(sel));
    auto c = client();
    m_state.targetsAtMs = 0; // ask /api/v1/targets for the errors now
    const auto snap = refreshFleet(*c, m_state, QDateTime::currentMSecsSinceEpoch());
    QVERIFY2(snap, qPrintable(snap.error()));
    const FleetHost* h = host(snap.value(), name);
    QVERIFY(h);
    QVERIFY(h->stale);
    QVERIFY2(h->staleReason.contains("is down"), qPrintable(h->staleReason));
    QCOMPARE(h->gpus.size(), 8); // the last values, shown as stale
    QVERIFY(hasValue(h->gpus.at(0).value(GpuField::MemTotal)) && h->gpus.at(0).value(GpuField::MemTotal) > 0);
    QVERIFY(h->alerts.isEmpty());
    const auto staleOnly = arrangeFleet(snap->hosts, {}, FleetSort::Name, FleetFilter::Stale, AlertRules());
    QCOMPARE(staleOnly.size(), 1);
    QCOMPARE(snap->hosts.at(staleOnly.first().hosts.first()).name, name);
    // It comes back: fresh again.
    QVERIFY(m_prom->setHostDown(down, false));
    QVERIFY(m_prom->waitForCount(QString(sel).replace(QStringLiteral("== 0"), QStringLiteral("== 1")), 2));
    QTRY_VERIFY_WITH_TIMEOUT(
        [&] {
            const auto again = refreshFleet(*c, m_state, QDateTime::currentMSecsSinceEpoch());
            const FleetHost* back = again ? host(again.value(), name) : nullptr;
            return back && !back->stale && back->gpus.size() == 8;
        }(),
        30000);
}

void TestPrometheusFleet::drillDownChartsFromQueryRange()
{
    const FleetHost* h = host(m_first, QStringLiteral("gpu-node-005"));
    QVERIFY(h);
    auto c = client();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const qint64 from = now - 24 * 3600 * 1000;
    const double step = rangeStepSeconds(24 * 3600, m_first.scrapeIntervalS);
    const auto charts = hostChartQueries(*h);
    const auto util = c->queryRange(charts.first().promql, from, now, step);
    QVERIFY2(util, qPrintable(util.error()));
    QCOMPARE(util->resultType, "matrix");
    QCOMPARE(util->series.size(), 8);
    QVERIFY(!util->series.first().points.isEmpty());
    const auto mem = c->queryRange(charts.at(3).promql, from, now, step);
    QVERIFY2(mem, qPrintable(mem.error()));
    QCOMPARE(mem->series.size(), 8);
    QVERIFY(mem->series.first().points.last().y() > 10); // GiB, not MiB
    // Server tokens/s, in either SGLang spelling (host 0 sglang:*, host 1 sglang_*).
    for (const char* name : { "gpu-node-000", "gpu-node-001" }) {
        const FleetHost* h = host(m_first, QString::fromLatin1(name));
        const auto tokens = c->queryRange(hostChartQueries(*h).last().promql, from, now, step);
        QVERIFY2(tokens, qPrintable(tokens.error()));
        QVERIFY2(tokens->series.size() == 1, name);
        QVERIFY2(tokens->series.first().points.last().y() > 0, name);
    }
}

void TestPrometheusFleet::seriesTargetsAndTheAsyncSource()
{
    auto c = client();
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const auto series = c->series({ QStringLiteral("up") }, now - 600000, now);
    QVERIFY2(series, qPrintable(series.error()));
    QCOMPARE(series->size(), m_prom->targetCount());
    const auto targets = c->targets();
    QVERIFY2(targets, qPrintable(targets.error()));
    QCOMPARE(targets->size(), m_prom->targetCount());
    // A PromQL error comes back with Prometheus' reason.
    const auto bad = c->query(QStringLiteral("sum by ("));
    QVERIFY(!bad);
    QVERIFY2(bad.error().contains("bad_data"), qPrintable(bad.error()));
    FleetSource source(c);
    source.setInterval(1000);
    QSignalSpy ready(&source, &FleetSource::snapshotReady);
    source.start();
    QVERIFY(ready.wait(60000));
    QCOMPARE(source.snapshot().hosts.size(), kHosts);
    source.stop();
}

QTEST_GUILESS_MAIN(TestPrometheusFleet)
#include "tst_prometheusfleet.moc"
