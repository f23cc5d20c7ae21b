// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// kernelforge-cli fleet status|import|rollout, gpu export, hosts export --ansible: the real
// binary against a real Prometheus (replayed exporters, and `gpu export` of a DemoHost's
// nvidia-smi stream scraped by it) and several real sshd instances.
#include "core/fleet/promapi.h"
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
#include <QtTest>

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
    void matchFilterAndStale();
    void importAndAnsibleExport();
    void rolloutInBatches();
    void usageErrors();

private:
    QStringList env() const;
    QTemporaryDir m_dir;
    std::unique_ptr<DemoHost> m_demo;
    QProcess m_export;
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

    test::PrometheusFixture::Options o;
    o.hosts = 8;
    o.scrapeIntervalS = 1;
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

void TestCliFleet::usageErrors()
{
    auto run = [&](const QStringList& args) { return test::runCli(args, 60000, env()); };
    auto r = run({ QStringLiteral("fleet"), QStringLiteral("status") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("--prometheus URL is required"));
    r = run({ QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"),
        QStringLiteral("https://x:9090") });
    QCOMPARE(r.exitCode, 2);
    QVERIFY(r.err.contains("https is not supported"));
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
