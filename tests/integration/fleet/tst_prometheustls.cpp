// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// An https Prometheus (Debian's prometheus with a web config that serves TLS only, its
// certificate signed by a CA made for the run) read through the fleet's client: directly with
// the CA file, through an SSH tunnel from the demo host, by the CLI; refused without the CA.
#include "core/demo/demohost.h"
#include "core/fleet/fleetsource.h"
#include "core/fleet/promclient.h"
#include "core/ssh/sshtransport.h"
#include "core/transport/localtransport.h"
#include "tests/support/promfixture.h"
#include "tests/support/testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using namespace kf;
using namespace kf::fleet;

class TestPrometheusTls : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void withTheCaFile();
    void refusedWithoutTheCa();
    void plainHttpToTheTlsPortIsAnError();
    void throughAnSshTunnel();
    void theCli();

private:
    std::unique_ptr<test::PrometheusFixture> m_prom;
};

void TestPrometheusTls::initTestCase()
{
    if (!test::PrometheusFixture::available())
        QFAIL("/usr/bin/prometheus is missing: scripts/bootstrap installs Debian's prometheus package");
    test::PrometheusFixture::Options o;
    o.hosts = 2;
    o.tls = true;
    m_prom = std::make_unique<test::PrometheusFixture>(o);
    const auto started = m_prom->start(); // its readiness checks are https requests already
    QVERIFY2(started, qPrintable(started.error() + u'\n' + m_prom->prometheusLog()));
    QVERIFY(m_prom->url().startsWith(QLatin1String("https://")));
}

void TestPrometheusTls::cleanupTestCase()
{
    if (m_prom)
        m_prom->stop();
}

void TestPrometheusTls::withTheCaFile()
{
    PromClient client(std::make_shared<LocalTransport>(), m_prom->endpoint());
    const auto up = client.query(QStringLiteral("count(up == 1)"));
    QVERIFY2(up, qPrintable(up.error()));
    QCOMPARE(up->series.size(), 1);
    QCOMPARE(up->series.first().value, double(m_prom->targetCount()));
    RefreshState state;
    const auto snap = refreshFleet(client, state, QDateTime::currentMSecsSinceEpoch());
    QVERIFY2(snap, qPrintable(snap.error()));
    QCOMPARE(snap->hosts.size(), 2);
    QVERIFY(!snap->hosts.first().gpus.isEmpty());
}

void TestPrometheusTls::refusedWithoutTheCa()
{
    PromEndpoint e = m_prom->endpoint();
    e.caFile.clear(); // the system's CAs do not know the run's CA
    PromClient client(std::make_shared<LocalTransport>(), e, 10000);
    const auto r = client.query(QStringLiteral("up"));
    QVERIFY(!r);
    QVERIFY2(r.error().contains(QLatin1String("SSL")) || r.error().contains(QLatin1String("certificate")),
        qPrintable(r.error()));
    // A file that holds no certificate is said as such.
    QTemporaryDir dir;
    const QString notPem = dir.filePath(QStringLiteral("ca.pem"));
    QVERIFY(test::writeFile(notPem, "not a certificate\n"));
    e.caFile = notPem;
    const auto bad = PromClient(std::make_shared<LocalTransport>(), e, 10000).query(QStringLiteral("up"));
    QVERIFY(!bad);
    QVERIFY2(bad.error().contains(QLatin1String("no PEM certificate")), qPrintable(bad.error()));
}

void TestPrometheusTls::plainHttpToTheTlsPortIsAnError()
{
    PromEndpoint e = m_prom->endpoint();
    e.tls = false;
    e.caFile.clear();
    const auto r = PromClient(std::make_shared<LocalTransport>(), e, 10000).query(QStringLiteral("up"));
    QVERIFY(!r);
    QVERIFY2(r.error().contains(QLatin1String("Prometheus at http://127.0.0.1")), qPrintable(r.error()));
}

void TestPrometheusTls::throughAnSshTunnel()
{
    // The TCP connection starts on the demo host (a forward over its sshd); the certificate is
    // still checked against the server's name.
    KF_START_DEMO_HOST(demo);
    auto ssh = SshTransport::connect(demo.profile());
    QVERIFY2(ssh, qPrintable(ssh.error()));
    std::shared_ptr<Transport> via = ssh.value();
    PromClient client(via, m_prom->endpoint());
    const auto up = client.query(QStringLiteral("count(up == 1)"));
    QVERIFY2(up, qPrintable(up.error()));
    QCOMPARE(up->series.first().value, double(m_prom->targetCount()));
    PromEndpoint noCa = m_prom->endpoint();
    noCa.caFile.clear();
    QVERIFY(!PromClient(via, noCa, 10000).query(QStringLiteral("up")));
}

void TestPrometheusTls::theCli()
{
    const auto r = test::runCli({ QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"),
        m_prom->url(), QStringLiteral("--ca-file"), m_prom->caFile() });
    QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
    QVERIFY2(r.out.contains("gpu-node-000") && r.out.contains("gpu-node-001"), r.out.constData());
    const auto refused = test::runCli(
        { QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"), m_prom->url() });
    QCOMPARE(refused.exitCode, 2);
}

QTEST_GUILESS_MAIN(TestPrometheusTls)
#include "tst_prometheustls.moc"
