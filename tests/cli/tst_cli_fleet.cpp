// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli fleet status|import|rollout, gpu export, hosts export --ansible: the real
// binary against a real Prometheus (replayed exporters, and `gpu export` of a DemoHost's
// nvidia-smi stream scraped by it) and several real sshd instances.
#include "core/fleet/promclient.h"
#include "core/hosts/hostprofilestore.h"
#include "core/net/httpclient.h"
#include "core/server/prometheustext.h"
#include "core/transport/localtransport.h"
#include "tests/support/promfixture.h"
#include "tests/support/testsupport.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QUuid>
#include <QtTest>

#include <csignal>
#include <sys/resource.h>

using namespace kf;

namespace {

QList<QJsonObject> jsonLines(const QByteArray& out)
{
    QList<QJsonObject> r;
    for (const QByteArray& l : out.split('\n'))
        if (!l.trimmed().isEmpty())
            r << QJsonDocument::fromJson(l).object();
    return r;
}

} // namespace

class TestCliFleet : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void statusJsonOneObjectPerHost();
    void gpuExportRoundTripThroughPrometheus();
    void gpuExportSurvivesIdleConnections();
    void matchFilterAndStale();
    void importAndAnsibleExport();
    void rolloutInBatches();
    void rolloutInterruptedFinishesTheFileInFlight();
    void recipeRolloutOnPrometheusSelectedHosts();
    void vllmServerMetricsJoinTheirHost();
    void bearerTokenFileAndTunnel();
    void usageErrors();

private:
    QStringList env() const;
    QTemporaryDir m_dir;
    std::unique_ptr<DemoHost> m_demo;
    QProcess m_export;
    QProcess m_vllm;
    quint16 m_exportPort = 0;
    std::unique_ptr<test::PrometheusFixture> m_prom;
};

QStringList TestCliFleet::env() const
{
    return { QStringLiteral("HOME=") + m_dir.filePath(QStringLiteral("home")),
        QStringLiteral("XDG_STATE_HOME=") + m_dir.filePath(QStringLiteral("state")),
        QStringLiteral("XDG_CONFIG_HOME=") + m_dir.filePath(QStringLiteral("config")),
        QStringLiteral("XDG_CACHE_HOME=") + m_dir.filePath(QStringLiteral("cache")) };
}

void TestCliFleet::initTestCase()
{
    qunsetenv("SSH_AUTH_SOCK");
    QVERIFY(m_dir.isValid());
    if (!test::PrometheusFixture::available())
        QFAIL("/usr/bin/prometheus is missing: scripts/bootstrap installs Debian's prometheus package");
    // The bridge: the demo host's nvidia-smi stream served as dcgm-exporter text.
    m_demo = std::make_unique<DemoHost>();
    const auto started = m_demo->start();
    QVERIFY2(started, qPrintable(started.error()));
    QTcpServer probe;
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    m_exportPort = probe.serverPort();
    probe.close();
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env())
        e.insert(kv.section(u'=', 0, 0), kv.section(u'=', 1));
    m_export.setProcessEnvironment(e);
    m_export.start(QStringLiteral(KF_CLI_BINARY),
        QStringList { QStringLiteral("gpu"), QStringLiteral("export") } + kf::test::cliSshOptions(*m_demo)
            + QStringList { m_demo->user() + QStringLiteral("@127.0.0.1"), QStringLiteral("--listen"),
                QStringLiteral("127.0.0.1:%1").arg(m_exportPort), QStringLiteral("--hostname"),
                QStringLiteral("demo-gpu") });
    QVERIFY(m_export.waitForStarted(10000));
    QByteArray exportErr;
    QTRY_VERIFY2_WITH_TIMEOUT((exportErr += m_export.readAllStandardError()).contains("serving http://127.0.0.1:"),
        exportErr.constData(), 30000);

    // A vLLM server's vllm:* page (replayed), counted as gpu-node-001's server.
    QVERIFY(probe.listen(QHostAddress::LocalHost, 0));
    const quint16 vllmPort = probe.serverPort();
    probe.close();
    m_vllm.start(QStringLiteral("python3"),
        { QStringLiteral(KF_SOURCE_DIR "/tests/data/prometheus/vllm-replay"), QStringLiteral("--port"),
            QString::number(vllmPort), QStringLiteral("--tokens-per-s"), QStringLiteral("1500"),
            QStringLiteral("--running"), QStringLiteral("12"), QStringLiteral("--waiting"), QStringLiteral("3") });
    QVERIFY(m_vllm.waitForStarted(10000));
    QByteArray vllmOut;
    QTRY_VERIFY2_WITH_TIMEOUT((vllmOut += m_vllm.readAllStandardOutput()).contains("listening on"),
        QByteArray(vllmOut + m_vllm.readAllStandardError()).constData(), 30000);

    test::PrometheusFixture::Options o;
    o.hosts = 8;
    o.scrapeIntervalS = 1;
    o.extra.append(
        { QStringLiteral("vllm"), QStringLiteral("127.0.0.1:%1").arg(vllmPort), QStringLiteral("127.77.0.11:8000") });
    o.extra.append({ QStringLiteral("kfexport"), QStringLiteral("127.0.0.1:%1").arg(m_exportPort), {} });
    m_prom = std::make_unique<test::PrometheusFixture>(o);
    const auto up = m_prom->start(); // every target, the bridge included, answered a scrape
    QVERIFY2(up, qPrintable(up.error() + u'\n' + m_prom->prometheusLog()));
}

void TestCliFleet::cleanupTestCase()
{
    if (m_prom)
        m_prom->stop();
    m_export.terminate();
    m_export.waitForFinished(10000);
    m_vllm.terminate();
    m_vllm.waitForFinished(10000);
}

void TestCliFleet::statusJsonOneObjectPerHost()
{
    const auto r = test::runCli({ QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"),
                                    m_prom->url(), QStringLiteral("--json") },
        120000, env());
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const auto hosts = jsonLines(r.out);
    QCOMPARE(hosts.size(), 9);
    for (const QJsonObject& h : hosts) {
        QVERIFY(h.contains("name") && h.contains("stale") && h.contains("gpus"));
        QCOMPARE(h.value("stale").toBool(), false);
        const QJsonArray gpus = h.value("gpus").toArray();
        QCOMPARE(gpus.size(), 8);
        for (const QJsonValue& g : gpus)
            for (const char* key : { "util", "mem_used_mib", "mem_total_mib", "temp_c", "power_w" })
                QVERIFY2(g.toObject().value(key).isDouble(), key);
    }
    QCOMPARE(hosts.first().value("name").toString(), "demo-gpu"); // sorted by name
    QCOMPARE(hosts.at(1).value("name").toString(), "gpu-node-000");
    QCOMPARE(hosts.at(5).value("alerts").toArray().first().toObject().value("kind").toString(), "xid");
    // Text form: one line per host and a count.
    const auto text = test::runCli({ QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"),
                                       m_prom->url(), QStringLiteral("--sort"), QStringLiteral("hottest") },
        120000, env());
    QCOMPARE(text.exitCode, 0);
    QVERIFY2(text.out.contains("9 host(s)") && text.out.contains("alert: GPU 5: Xid 79"), text.out.constData());
}

// vllm:* from Prometheus, as for sglang:*: the server's kind, tokens/s (rate of
// vllm:generation_tokens_total over 1m, the replay makes 1500/s), running and waiting requests.
// rate() divides by the whole minute: until the series is a minute old it reads low, so this
// runs late and waits until the rate has settled.
void TestCliFleet::vllmServerMetricsJoinTheirHost()
{
    QJsonObject server;
    auto look = [&] {
        const auto r = test::runCli(
            { QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"), m_prom->url(),
                QStringLiteral("--match"), QStringLiteral("name=gpu-node-001"), QStringLiteral("--json") },
            120000, env());
        const auto hosts = jsonLines(r.out);
        if (r.exitCode != 0 || hosts.size() != 1)
            return false;
        server = hosts.first().value("server").toObject();
        return qAbs(server.value("tokens_per_s").toDouble() - 1500) < 150;
    };
    QTRY_VERIFY2_WITH_TIMEOUT(look(), qPrintable(QJsonDocument(server).toJson()), 150000);
    QCOMPARE(server.value("kind").toString(), "vllm");
    QCOMPARE(server.value("running").toDouble(), 12.0);
    QCOMPARE(server.value("queued").toDouble(), 3.0);
    // Text form: the host's line names the server and its rate.
    const auto text = test::runCli({ QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"),
                                       m_prom->url(), QStringLiteral("--match"), QStringLiteral("name=gpu-node-001") },
        120000, env());
    QVERIFY2(text.out.contains("  vllm ") && text.out.contains(" tok/s"), text.out.constData());
}

// 1,100 connections that never send a request, against a bridge with the common 1024 file
// descriptors: each is closed after a few seconds, at most a few are open at once, and
// /metrics answers all along. A non-loopback --listen needs --allow-remote.
void TestCliFleet::gpuExportSurvivesIdleConnections()
{
    const auto remote = test::runCli({ QStringLiteral("gpu"), QStringLiteral("export"), QStringLiteral("--local"),
                                         QStringLiteral("--listen"), QStringLiteral("0.0.0.0:0") },
        60000, env());
    QCOMPARE(remote.exitCode, 2);
    QVERIFY2(remote.err.contains("0.0.0.0 is not a loopback address") && remote.err.contains("--allow-remote"),
        remote.err.constData());

    rlimit mine {};
    QCOMPARE(::getrlimit(RLIMIT_NOFILE, &mine), 0);
    if (mine.rlim_cur < 4096) {
        mine.rlim_cur = qMin<rlim_t>(mine.rlim_max, 4096);
        QCOMPARE(::setrlimit(RLIMIT_NOFILE, &mine), 0);
    }
    QVERIFY2(mine.rlim_cur >= 2048, "this test needs 2048 file descriptors for its own sockets");
    const quint16 port = test::freeLocalPort();
    QProcess exporter;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env())
        e.insert(kv.section(u'=', 0, 0), kv.section(u'=', 1));
    exporter.setProcessEnvironment(e);
    exporter.setChildProcessModifier([] {
        const rlimit common { 1024, 1024 };
        ::setrlimit(RLIMIT_NOFILE, &common);
    });
    exporter.start(QStringLiteral(KF_CLI_BINARY),
        QStringList { QStringLiteral("gpu"), QStringLiteral("export") } + kf::test::cliSshOptions(*m_demo)
            + QStringList { m_demo->user() + QStringLiteral("@127.0.0.1"), QStringLiteral("--listen"),
                QStringLiteral("127.0.0.1:%1").arg(port) });
    QVERIFY(exporter.waitForStarted(10000));
    auto scrape = [&] {
        LocalTransport local;
        const auto page = httpGet(local, QStringLiteral("127.0.0.1"), port, QStringLiteral("/metrics"));
        return page && page->status == 200 && page->body.contains("DCGM_FI_DEV_GPU_UTIL");
    };
    QTRY_VERIFY_WITH_TIMEOUT(scrape(), 60000);

    std::vector<std::unique_ptr<QTcpSocket>> idle;
    for (int i = 0; i < 1100; ++i) {
        idle.push_back(std::make_unique<QTcpSocket>());
        idle.back()->connectToHost(QHostAddress::LocalHost, port);
    }
    auto count = [&](QAbstractSocket::SocketState state) {
        return std::count_if(idle.cbegin(), idle.cend(), [&](const auto& s) { return s->state() == state; });
    };
    // Every one got in (none waits in the listen queue for a server that stopped accepting)...
    QTRY_VERIFY2_WITH_TIMEOUT(count(QAbstractSocket::ConnectingState) == 0,
        qPrintable(QStringLiteral("%1 still connecting").arg(count(QAbstractSocket::ConnectingState))), 90000);
    // ... the page is served while they are there...
    QVERIFY(scrape());
    // ... and the bridge closed every one of them, for not sending a request.
    QTRY_VERIFY2_WITH_TIMEOUT(count(QAbstractSocket::ConnectedState) == 0,
        qPrintable(QStringLiteral("%1 still open").arg(count(QAbstractSocket::ConnectedState))), 90000);
    QVERIFY(scrape());
    QCOMPARE(exporter.state(), QProcess::Running);
    exporter.terminate();
    QVERIFY(exporter.waitForFinished(20000));
}

void TestCliFleet::gpuExportRoundTripThroughPrometheus()
{
    // The page itself parses with the exposition parser and has dcgm-exporter's names.
    LocalTransport local;
    const auto page = httpGet(local, QStringLiteral("127.0.0.1"), m_exportPort, QStringLiteral("/metrics"));
    QVERIFY2(page, qPrintable(page.error()));
    QCOMPARE(page->status, 200);
    const PromText text = parsePrometheusText(page->body);
    QCOMPARE(text.badLines, 0);
    QCOMPARE(text.find(u"DCGM_FI_DEV_GPU_UTIL").size(), 8);
    QCOMPARE(text.find(u"DCGM_FI_DEV_FB_USED").first()->label(u"Hostname"), "demo-gpu");
    // The same GPUs as the SSH stream says, read back from Prometheus.
    const auto watch
        = test::runCli(QStringList { QStringLiteral("gpu"), QStringLiteral("watch") } + kf::test::cliSshOptions(*m_demo)
                + QStringList { m_demo->user() + QStringLiteral("@127.0.0.1"), QStringLiteral("--json"),
                    QStringLiteral("--count"), QStringLiteral("1") },
            120000, env());
    QVERIFY2(watch.exitCode == 0, watch.err.constData());
    const QJsonArray direct = jsonLines(watch.out).first().value("gpus").toArray();
    const auto status = test::runCli(
        { QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"), m_prom->url(),
            QStringLiteral("--match"), QStringLiteral("job=kfexport"), QStringLiteral("--json") },
        120000, env());
    QVERIFY2(status.exitCode == 0, status.err.constData());
    const auto hosts = jsonLines(status.out);
    QCOMPARE(hosts.size(), 1);
    const QJsonArray viaProm = hosts.first().value("gpus").toArray();
    QCOMPARE(viaProm.size(), direct.size());
    for (qsizetype i = 0; i < direct.size(); ++i) {
        QCOMPARE(viaProm.at(i)["uuid"].toString(), direct.at(i)["uuid"].toString());
        QCOMPARE(viaProm.at(i)["name"].toString(), direct.at(i)["name"].toString());
        QCOMPARE(viaProm.at(i)["mem_total_mib"].toDouble(), direct.at(i)["mem_total_mib"].toDouble());
    }
}

void TestCliFleet::matchFilterAndStale()
{
    auto status = [&](const QStringList& extra) {
        return test::runCli(QStringList { QStringLiteral("fleet"), QStringLiteral("status"),
                                QStringLiteral("--prometheus"), m_prom->url(), QStringLiteral("--json") }
                + extra,
            120000, env());
    };
    auto names = [](const QByteArray& out) {
        QStringList n;
        for (const QJsonObject& o : jsonLines(out))
            n << o.value("name").toString();
        return n;
    };
    QCOMPARE(names(status({ QStringLiteral("--match"), QStringLiteral("name=gpu-node-00*"), QStringLiteral("--match"),
                              QStringLiteral("job=dcgm") })
                       .out)
                 .size(),
        8);
    QCOMPARE(names(status({ QStringLiteral("--filter"), QStringLiteral("xid") }).out), QStringList { "gpu-node-004" });
    QCOMPARE(names(status({ QStringLiteral("--filter"), QStringLiteral("throttling"), QStringLiteral("--match"),
                              QStringLiteral("job=dcgm") })
                       .out),
        QStringList { "gpu-node-003" });
    QVERIFY(m_prom->setHostDown(2, true));
    const QString sel = QStringLiteral("up{instance=~\"%1:.*\"} == 0")
                            .arg(QString(m_prom->address(2)).replace(u'.', QStringLiteral("\\\\.")));
    QVERIFY(m_prom->waitForCount(sel, 2));
    const auto stale = status({ QStringLiteral("--filter"), QStringLiteral("stale") });
    QCOMPARE(stale.exitCode, 1); // some host is stale
    // A host whose exporters are all down is still listed (by address; the CLI has no earlier
    // snapshot to name it), as stale and never with zeros.
    const auto rows = jsonLines(stale.out);
    QCOMPARE(rows.size(), 1);
    QCOMPARE(rows.first().value("address").toString(), m_prom->address(2));
    QVERIFY(rows.first().value("stale_reason").toString().contains("is down"));
    QVERIFY(m_prom->setHostDown(2, false));
    QVERIFY(m_prom->waitForCount(QString(sel).replace(QStringLiteral("== 0"), QStringLiteral("== 1")), 2));
}

void TestCliFleet::importAndAnsibleExport()
{
    const QString hosts = m_dir.filePath(QStringLiteral("import-hosts.yaml"));
    const auto r2
        = test::runCli({ QStringLiteral("fleet"), QStringLiteral("import"), QStringLiteral("--prometheus"),
                           m_prom->url(), QStringLiteral("--match"), QStringLiteral("name=gpu-node-00*"),
                           QStringLiteral("--hosts-file"), hosts, QStringLiteral("--user"), QStringLiteral("ops") },
            120000, env());
    QVERIFY2(r2.exitCode == 0, r2.err.constData());
    QVERIFY2(r2.out.contains("8 profile(s) added"), r2.out.constData());
    const auto loaded = HostProfileStore(hosts).load();
    QVERIFY(loaded);
    QCOMPARE(loaded->profiles.size(), 8);
    QCOMPARE(loaded->profiles.first().host, m_prom->address(0));
    QCOMPARE(loaded->profiles.first().user, "ops");
    // Importing again adds nothing: they are mapped now.
    const auto again = test::runCli({ QStringLiteral("fleet"), QStringLiteral("import"), QStringLiteral("--prometheus"),
                                        m_prom->url(), QStringLiteral("--hosts-file"), hosts },
        120000, env());
    QVERIFY2(again.out.contains("1 profile(s) added"), again.out.constData()); // only demo-gpu (127.0.0.1) was new
    const auto inv = test::runCli({ QStringLiteral("hosts"), QStringLiteral("export"), QStringLiteral("--ansible"),
                                      QStringLiteral("--hosts-file"), hosts },
        60000, env());
    QVERIFY2(inv.exitCode == 0, inv.err.constData());
    QVERIFY2(inv.out.contains(
                 QByteArray("gpu-node-000 ansible_host=" + m_prom->address(0).toUtf8() + " ansible_user=ops\n")),
        inv.out.constData());
    QVERIFY(inv.out.contains("[prometheus]\n"));
    QVERIFY(inv.out.contains("[dcgm]\ngpu-node-000\n"));
}

void TestCliFleet::rolloutInBatches()
{
    KF_START_DEMO_HOST(second);
    const QString hosts = m_dir.filePath(QStringLiteral("rollout-hosts.yaml"));
    HostProfile a = m_demo->profile(QStringLiteral("lab-a"));
    HostProfile b = second.profile(QStringLiteral("lab-b"));
    a.tags = b.tags = QStringList { QStringLiteral("lab") };
    a.isDemo = b.isDemo = false; // saved like any server (the built-in demo profile is never saved)
    QVERIFY(HostProfileStore(hosts).save({ a, b }));
    auto rollout = [&](const QStringList& extra) {
        return test::runCli(QStringList { QStringLiteral("fleet"), QStringLiteral("rollout") } + extra
                + QStringList { QStringLiteral("--tag"), QStringLiteral("lab"), QStringLiteral("--hosts-file"), hosts },
            180000, env());
    };
    const QStringList apply { QStringLiteral("patch-apply"), QStringLiteral("--set"),
        QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), QStringLiteral("sgl-kernel") };
    // lab-b's tree was edited: its plan differs from the reviewed one (lab-a's).
    const QString cmakeB = second.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt");
    {
        QFile f(cmakeB);
        QVERIFY(f.open(QIODevice::Append));
        f.write("# edited by hand\n");
    }
    const QByteArray editedB = test::readFile(cmakeB);
    const auto wrongPin
        = rollout(apply + QStringList { QStringLiteral("--expect-plan"), QStringLiteral("0000000000000000") });
    QVERIFY2(wrongPin.exitCode == 1, QByteArray(wrongPin.out + wrongPin.err).constData());
    QVERIFY2(wrongPin.err.contains("not the reviewed 0000000000000000: nothing applied"), wrongPin.err.constData());
    QVERIFY(!test::readFile(m_demo->homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt"))
                 .contains("if(POLICY CMP0169)"));

    const auto refused
        = rollout(apply + QStringList { QStringLiteral("--batch"), QStringLiteral("1"), QStringLiteral("--json") });
    QCOMPARE(refused.exitCode, 1);
    const auto rows = jsonLines(refused.out);
    QCOMPARE(rows.size(), 2);
    QCOMPARE(rows.at(0).value("state").toString(), "succeeded");
    QCOMPARE(rows.at(1).value("state").toString(), "refused");
    QCOMPARE(rows.at(1).value("batch").toInt(), 2);
    QVERIFY2(refused.err.contains("lab-b| the plan on lab-b"), refused.err.constData());
    QCOMPARE(test::readFile(cmakeB), editedB);

    const auto forced = rollout(apply + QStringList { QStringLiteral("--yes-different") });
    QVERIFY2(forced.exitCode == 0, QByteArray(forced.out + forced.err).constData());
    QVERIFY(forced.out.contains("2 of 2 host(s) succeeded"));
    QVERIFY(test::readFile(cmakeB).contains("if(POLICY CMP0169)"));

    const auto plan = rollout({ QStringLiteral("patch-plan"), QStringLiteral("--set"),
        QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), QStringLiteral("sgl-kernel") });
    QVERIFY2(plan.exitCode == 0, QByteArray(plan.out + plan.err).constData());
    QVERIFY(plan.out.contains("[batch 2] lab-b"));
}

// Issue #30: Ctrl-C during `fleet rollout patch-apply`, while the first host's first file is
// renamed into place but not yet journaled as done (the applier's test hook holds it): that
// file is finished and journaled, nothing more starts (its other file, the second host), the
// rollout prints its summary and exits 130; `patch rollback` then restores the file.
void TestCliFleet::rolloutInterruptedFinishesTheFileInFlight()
{
    KF_START_DEMO_HOST(first);
    KF_START_DEMO_HOST(second);
    const QString hosts = m_dir.filePath(QStringLiteral("halt-hosts.yaml"));
    HostProfile a = first.profile(QStringLiteral("halt-a"));
    HostProfile b = second.profile(QStringLiteral("halt-b"));
    a.tags = b.tags = QStringList { QStringLiteral("halt") };
    a.isDemo = b.isDemo = false;
    QVERIFY(HostProfileStore(hosts).save({ a, b }));
    const QString cmakeA = first.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt");
    const QString pyA = first.homeDir() + QStringLiteral("/sgl-kernel/python/sgl_kernel/flash_attn.py");
    const QString cmakeB = second.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt");
    const QByteArray cmakeBefore = test::readFile(cmakeA);
    const QByteArray pyBefore = test::readFile(pyA);
    const QByteArray cmakeBBefore = test::readFile(cmakeB);
    const QString marker = m_dir.filePath(QStringLiteral("fleet-held"));
    QFile::remove(marker);
    QProcess cli;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env())
        e.insert(kv.section(u'=', 0, 0), kv.section(u'=', 1));
    e.insert(QStringLiteral("KF_TEST_HOLD_AFTER_RENAME"), marker);
    cli.setProcessEnvironment(e);
    cli.start(QStringLiteral(KF_CLI_BINARY),
        { QStringLiteral("fleet"), QStringLiteral("rollout"), QStringLiteral("patch-apply"), QStringLiteral("--set"),
            QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"), QStringLiteral("sgl-kernel"),
            QStringLiteral("--tag"), QStringLiteral("halt"), QStringLiteral("--hosts-file"), hosts,
            QStringLiteral("--batch"), QStringLiteral("1") });
    QVERIFY(cli.waitForStarted(30000));
    QTRY_VERIFY2_WITH_TIMEOUT(QFile::exists(marker), qPrintable(QString::fromUtf8(cli.readAllStandardError())), 90000);
    QVERIFY(test::readFile(cmakeA) != cmakeBefore);
    QVERIFY(::kill(pid_t(cli.processId()), SIGINT) == 0);
    QVERIFY(cli.waitForFinished(120000));
    const QByteArray out = cli.readAllStandardOutput();
    const QByteArray err = cli.readAllStandardError();
    QCOMPARE(cli.exitStatus(), QProcess::NormalExit);
    QVERIFY2(cli.exitCode() == 130, QByteArray(out + err).constData());
    QVERIFY2(out.contains("0 of 2 host(s) succeeded"), out.constData());
    QVERIFY2(err.contains("interrupted by SIGINT"), err.constData());
    QVERIFY2(err.contains("halt-a| interrupted"), err.constData());
    QCOMPARE(test::readFile(pyA), pyBefore);        // not started
    QCOMPARE(test::readFile(cmakeB), cmakeBBefore); // not started
    const auto rollback
        = test::runCli(QStringList { QStringLiteral("patch"), QStringLiteral("rollback"), QStringLiteral("--set"),
                           QStringLiteral("builtin:sgl-kernel-sm120-cuda13"), QStringLiteral("--root"),
                           first.user() + QStringLiteral("@127.0.0.1:sgl-kernel") }
                + test::cliSshOptions(first),
            120000, env());
    QVERIFY2(rollback.exitCode == 0, QByteArray(rollback.out + rollback.err).constData());
    QCOMPARE(test::readFile(cmakeA), cmakeBefore);
}

// `fleet rollout recipe` on the hosts a Prometheus filter selects: the replayed hosts
// gpu-node-001..003 are mapped by name to profiles of three demo sshd; the bridge's host
// (demo-gpu, job kfexport) has a profile too but is outside the filter. gpu-node-002 has
// another GPU: the recipe stops there at facts, and the batch after it is skipped unless
// --continue-on-error.
void TestCliFleet::recipeRolloutOnPrometheusSelectedHosts()
{
    KF_START_DEMO_HOST(one);
    KF_START_DEMO_HOST(two);
    KF_START_DEMO_HOST(three);
    const QString hosts = m_dir.filePath(QStringLiteral("recipe-hosts.yaml"));
    QList<HostProfile> profiles { one.profile(QStringLiteral("gpu-node-001")),
        two.profile(QStringLiteral("gpu-node-002")), three.profile(QStringLiteral("gpu-node-003")),
        m_demo->profile(QStringLiteral("demo-gpu")) };
    for (HostProfile& p : profiles)
        p.isDemo = false;
    QVERIFY(HostProfileStore(hosts).save(profiles));
    QVERIFY(test::patchDemoNvidiaSmi(two, "NAME = \"NVIDIA H200\"", "NAME = \"NVIDIA B200\""));
    const QString recipe = m_dir.filePath(QStringLiteral("fleet-recipe.yaml"));
    {
        QFile f(recipe);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("kernelforge_recipe: 1\nname: fleet bring-up\n"
                "facts:\n  - {name: gpu, version: NVIDIA H200, rule: \"==\"}\n"
                "patches:\n  set: builtin:sgl-kernel-sm120-cuda13\n  root: ~/sgl-kernel\n");
    }
    auto cmake
        = [](const DemoHost& d) { return test::readFile(d.homeDir() + QStringLiteral("/sgl-kernel/CMakeLists.txt")); };
    const QByteArray before2 = cmake(two), before3 = cmake(three), beforeDemo = cmake(*m_demo);
    // The saved hosts are these demo sshds (127.0.0.1, their own ports), the Prometheus hosts
    // the replayed ones: they meet by name only, which an exporter elsewhere could claim, so
    // a rollout acts on them only with --yes-name-only.
    auto rollout = [&](const QStringList& extra) {
        return test::runCli(QStringList { QStringLiteral("fleet"), QStringLiteral("rollout"), QStringLiteral("recipe"),
                                QStringLiteral("--recipe"), recipe, QStringLiteral("--prometheus"), m_prom->url(),
                                QStringLiteral("--match"), QStringLiteral("name=gpu-node-00*"),
                                QStringLiteral("--hosts-file"), hosts, QStringLiteral("--json") }
                + extra + QStringList { QStringLiteral("--yes-name-only") },
            300000, env());
    };
    const auto unconfirmed = test::runCli(
        { QStringLiteral("fleet"), QStringLiteral("rollout"), QStringLiteral("recipe"), QStringLiteral("--recipe"),
            recipe, QStringLiteral("--prometheus"), m_prom->url(), QStringLiteral("--match"),
            QStringLiteral("name=gpu-node-00*"), QStringLiteral("--hosts-file"), hosts },
        120000, env());
    QVERIFY2(unconfirmed.exitCode == 2, QByteArray(unconfirmed.out + unconfirmed.err).constData());
    QVERIFY2(unconfirmed.err.contains("matches the saved host gpu-node-001 by name only")
            && unconfirmed.err.contains("left out (--yes-name-only acts on such hosts)"),
        unconfirmed.err.constData());
    auto states = [](const QByteArray& out) {
        QStringList s;
        for (const QJsonObject& o : jsonLines(out))
            s << o.value("host").toString() + u':' + QString::number(o.value("batch").toInt()) + u':'
                    + o.value("state").toString();
        return s;
    };
    const auto stopped = rollout({ QStringLiteral("--batch"), QStringLiteral("1") });
    QVERIFY2(stopped.exitCode == 1, QByteArray(stopped.out + stopped.err).constData());
    QCOMPARE(states(stopped.out),
        QStringList({ "gpu-node-001:1:succeeded", "gpu-node-002:2:failed", "gpu-node-003:3:skipped" }));
    QVERIFY2(stopped.err.contains("gpu-node-000 has no profile"), stopped.err.constData());
    // Each host's log, prefixed with its name: the recipe's steps there.
    QVERIFY2(stopped.err.contains("gpu-node-001| == plan: planning builtin:sgl-kernel-sm120-cuda13")
            && stopped.err.contains("gpu-node-001|    apply OK")
            && stopped.err.contains("gpu-node-002|    facts FAILED") && !stopped.err.contains("gpu-node-003|"),
        stopped.err.constData());
    const QJsonObject failed = jsonLines(stopped.out).at(1);
    QVERIFY2(failed.value("summary").toString().startsWith("facts: ")
            && failed.value("summary").toString().contains("NVIDIA B200"),
        qPrintable(failed.value("summary").toString()));
    QVERIFY(cmake(one).contains("if(POLICY CMP0169)"));
    QCOMPARE(cmake(two), before2);
    QCOMPARE(cmake(three), before3);

    const auto continued
        = rollout({ QStringLiteral("--batch"), QStringLiteral("2"), QStringLiteral("--continue-on-error") });
    QCOMPARE(continued.exitCode, 1);
    QCOMPARE(states(continued.out),
        QStringList({ "gpu-node-001:1:succeeded", "gpu-node-002:1:failed", "gpu-node-003:2:succeeded" }));
    QVERIFY(cmake(three).contains("if(POLICY CMP0169)"));
    QCOMPARE(cmake(two), before2);
    QCOMPARE(cmake(*m_demo), beforeDemo); // demo-gpu is outside the filter

    // The filter alone decides: one host matched, one row.
    const auto one1 = test::runCli(
        { QStringLiteral("fleet"), QStringLiteral("rollout"), QStringLiteral("recipe"), QStringLiteral("--recipe"),
            recipe, QStringLiteral("--dry-run"), QStringLiteral("--prometheus"), m_prom->url(),
            QStringLiteral("--match"), QStringLiteral("name=gpu-node-003"), QStringLiteral("--hosts-file"), hosts,
            QStringLiteral("--yes-name-only") },
        120000, env());
    QVERIFY2(one1.exitCode == 0, QByteArray(one1.out + one1.err).constData());
    QVERIFY2(one1.out.contains("1 of 1 host(s) succeeded") && one1.out.contains("gpu-node-003"), one1.out.constData());
}

// A Prometheus behind a proxy that wants `Authorization: Bearer <token>`
// (tests/data/prometheus/bearer-proxy): the token from --bearer-token-file is sent and never
// shows in the CLI's argv, environment or output; --tunnel reaches the proxy through the demo
// sshd (the proxy sees the connection come from sshd, not from the CLI).
void TestCliFleet::bearerTokenFileAndTunnel()
{
    const QByteArray token = QUuid::createUuid().toByteArray(QUuid::WithoutBraces) + "-secret";
    const QString tokenFile = m_dir.filePath(QStringLiteral("prom.token"));
    {
        QFile f(tokenFile);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(token + '\n');
    }
    const QString hold = m_dir.filePath(QStringLiteral("proxy.hold"));
    const QString log = m_dir.filePath(QStringLiteral("proxy.log"));
    QProcess proxy;
    proxy.start(QStringLiteral("python3"),
        { QStringLiteral(KF_SOURCE_DIR "/tests/data/prometheus/bearer-proxy"), QStringLiteral("--upstream"),
            m_prom->url(), QStringLiteral("--token-file"), tokenFile, QStringLiteral("--log"), log,
            QStringLiteral("--hold-file"), hold });
    QVERIFY(proxy.waitForStarted(10000));
    QByteArray seen;
    QTRY_VERIFY2_WITH_TIMEOUT((seen += proxy.readAllStandardOutput()).contains("listening on "),
        QByteArray(seen + proxy.readAllStandardError()).constData(), 30000);
    const QString url = QStringLiteral("http://127.0.0.1:%1")
                            .arg(QString::fromLatin1(seen.mid(seen.indexOf("listening on ") + 13).trimmed()));
    auto status = [&](const QStringList& extra) {
        return test::runCli(
            QStringList { QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"), url,
                QStringLiteral("--match"), QStringLiteral("job=dcgm"), QStringLiteral("--json") }
                + extra,
            120000, env());
    };
    qsizetype logRead = 0; // the proxy's log lines not looked at yet
    auto requests = [&] {
        const QByteArray all = test::readFile(log);
        const QByteArrayList lines = all.mid(logRead).split('\n');
        logRead = all.size();
        QByteArrayList out;
        for (const QByteArray& l : lines)
            if (l.startsWith("request "))
                out << l;
        return out;
    };

    const auto refused = status({});
    QVERIFY2(refused.exitCode == 2, QByteArray(refused.out + refused.err).constData());
    QVERIFY2(refused.err.contains("401"), refused.err.constData());
    // Every request came without a token; the CLI stops at the first 401, so a request still in
    // the proxy then may find its client gone ("from=unknown"), but the one answered first was
    // looked up while the CLI waited for it.
    const QByteArrayList first = requests();
    QVERIFY(!first.isEmpty());
    for (const QByteArray& l : first)
        QVERIFY2(l.contains("auth=missing from="), l.constData());
    QVERIFY2(std::any_of(first.cbegin(), first.cend(),
                 [](const QByteArray& l) { return l.contains("auth=missing from=kernelforge-cli"); }),
        first.join('\n').constData());

    // With the token file: the CLI's argv and environment hold the path, never the token; it
    // is seen while the proxy holds the first request.
    {
        QFile h(hold);
        QVERIFY(h.open(QIODevice::WriteOnly));
    }
    QProcess cli;
    QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
    for (const QString& kv : env())
        e.insert(kv.section(u'=', 0, 0), kv.section(u'=', 1));
    cli.setProcessEnvironment(e);
    cli.start(QStringLiteral(KF_CLI_BINARY),
        { QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"), url,
            QStringLiteral("--bearer-token-file"), tokenFile, QStringLiteral("--match"), QStringLiteral("job=dcgm"),
            QStringLiteral("--json") });
    QVERIFY(cli.waitForStarted(10000));
    QTRY_VERIFY_WITH_TIMEOUT(test::readFile(log).mid(logRead).contains("request "), 60000);
    const QString proc = QStringLiteral("/proc/%1/").arg(cli.processId());
    const QByteArray cmdline = test::readFile(proc + QStringLiteral("cmdline"));
    QVERIFY(cmdline.contains(tokenFile.toUtf8()));
    QVERIFY(!cmdline.contains(token));
    QVERIFY(!test::readFile(proc + QStringLiteral("environ")).contains(token));
    QVERIFY(QFile::remove(hold));
    QVERIFY(cli.waitForFinished(120000));
    const QByteArray out = cli.readAllStandardOutput(), err = cli.readAllStandardError();
    QVERIFY2(cli.exitCode() == 0, QByteArray(out + err).constData());
    QCOMPARE(jsonLines(out).size(), 8);
    QVERIFY(!out.contains(token) && !err.contains(token));
    const QByteArrayList direct = requests();
    QVERIFY(!direct.isEmpty());
    // (A lookup that races the connection's end says "from=unknown"; never another process.)
    for (const QByteArray& l : direct)
        QVERIFY2(l.contains("auth=ok from=") && !l.contains("from=sshd"), l.constData());
    QVERIFY2(std::any_of(direct.cbegin(), direct.cend(),
                 [](const QByteArray& l) { return l.contains("from=kernelforge-cli"); }),
        direct.join('\n').constData());

    // Through an SSH tunnel from the demo host: the proxy's client is that host's sshd.
    const auto tunnelled = status(QStringList { QStringLiteral("--bearer-token-file"), tokenFile,
                                      QStringLiteral("--tunnel"), m_demo->user() + QStringLiteral("@127.0.0.1") }
        + test::cliSshOptions(*m_demo));
    QVERIFY2(tunnelled.exitCode == 0, QByteArray(tunnelled.out + tunnelled.err).constData());
    QCOMPARE(jsonLines(tunnelled.out).size(), 8);
    QVERIFY(!tunnelled.out.contains(token) && !tunnelled.err.contains(token));
    const QByteArrayList viaSsh = requests();
    QVERIFY(!viaSsh.isEmpty());
    for (const QByteArray& l : viaSsh)
        QVERIFY2(l.contains("auth=ok from=") && !l.contains("from=kernelforge-cli"), l.constData());
    QVERIFY2(std::any_of(viaSsh.cbegin(), viaSsh.cend(), [](const QByteArray& l) { return l.contains("from=sshd"); }),
        viaSsh.join('\n').constData());
    proxy.terminate();
    proxy.waitForFinished(10000);
}

void TestCliFleet::usageErrors()
{
    auto run = [&](const QStringList& args) { return test::runCli(args, 60000, env()); };
    auto r = run({ QStringLiteral("fleet"), QStringLiteral("status") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("--prometheus URL is required"));
    // https is spoken (tst_prometheustls); a CA file that is not there is said before connecting.
    r = run({ QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"),
        QStringLiteral("https://127.0.0.1:1"), QStringLiteral("--ca-file"), QStringLiteral("/nonexistent/ca.pem") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("cannot read the CA file /nonexistent/ca.pem"), r.err.constData());
    r = run({ QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"),
        QStringLiteral("http://127.0.0.1:9090"), QStringLiteral("--ca-file"), QStringLiteral("/nonexistent/ca.pem") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("--ca-file is for an https URL"), r.err.constData());
    r = run({ QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"),
        QStringLiteral("http://127.0.0.1:1") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains("Prometheus at http://127.0.0.1:1"), r.err.constData());
    r = run({ QStringLiteral("fleet"), QStringLiteral("rollout"), QStringLiteral("build"), QStringLiteral("--tag"),
        QStringLiteral("none"), QStringLiteral("--hosts-file"), m_dir.filePath(QStringLiteral("missing.yaml")) });
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("no hosts selected"));
    r = run({ QStringLiteral("gpu"), QStringLiteral("export"), QStringLiteral("--local"), QStringLiteral("--listen"),
        QStringLiteral("localhost:9400") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("numeric address"));
    // Every fleet and hosts subcommand: a missing value, a bad one, an unknown option (hosts used
    // to print its usage for an unknown option and exit 0).
    const QList<std::pair<QStringList, QByteArray>> usage {
        { { "fleet", "status", "--prometheus" }, "option --prometheus needs a value" },
        { { "fleet", "status", "--prometheus", "http://127.0.0.1:1", "--match", "nolabel" },
            "--match needs LABEL=VALUE" },
        { { "fleet", "status", "--prometheus", "http://127.0.0.1:1", "--sort", "random" }, "--sort needs one of" },
        { { "fleet", "status", "--prometheus", "http://127.0.0.1:1", "-p", "22" }, "SSH options without --tunnel" },
        { { "fleet", "status", "--prometheus", "http://127.0.0.1:1", "--frob" }, "unknown option --frob" },
        { { "fleet", "import", "--frob" }, "unknown option --frob" },
        { { "fleet", "rollout", "build", "--batch", "0" }, "--batch needs a number of hosts > 0: 0" },
        { { "fleet", "rollout", "build", "--frob" }, "unknown option --frob" },
        { { "hosts", "list", "--frob" }, "unknown option --frob" },
        { { "hosts", "export" }, "export needs --ansible" },
        { { "hosts", "list", "--tag" }, "option --tag needs a value" },
    };
    for (const auto& [args, says] : usage) {
        r = run(args);
        QVERIFY2(r.exitCode == 2, qPrintable(args.join(u' ') + QStringLiteral(": ") + QString::fromUtf8(r.err)));
        QVERIFY2(r.err.contains(says), r.err.constData());
    }
}

QTEST_GUILESS_MAIN(TestCliFleet)
#include "tst_cli_fleet.moc"
