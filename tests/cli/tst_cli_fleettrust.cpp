// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
// The fleet commands against hostile exporters behind Debian's real Prometheus: labels with line
// breaks, TABs and '=' that would become Ansible inventory lines, a name that claims a saved host
// from another address, an address that reads as an ssh option, +Inf/-Inf/NaN samples, and an
// instance with a '"' in the host charts' PromQL. Then import, export, and the real
// `ansible-inventory --list` on the result: no host and no variable that was not saved.
#include "core/fleet/fleethost.h"
#include "core/fleet/promclient.h"
#include "core/hosts/hostprofilestore.h"
#include "core/transport/localtransport.h"
#include "tests/support/promfixture.h"
#include "tests/support/testsupport.h"

#include <QDateTime>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using namespace kf;

namespace {

// The pages the hostile exporters serve (dcgm-exporter's names; the labels are the attack).
const char* const kPages[] = {
    // A: a Hostname that is an inventory line with a ProxyCommand (the issue's payload).
    "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
    "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-a0\",modelName=\"NVIDIA H200\","
    "Hostname=\"n1\\nh2\tansible_ssh_common_args=-oProxyCommand=touch${IFS}PWNED\"} 11\n",
    // B: claims the saved host "good" from another address.
    "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
    "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-b0\",modelName=\"NVIDIA H200\",Hostname=\"good\"} 22\n",
    // C: a plain host with values that are no values.
    "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
    "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-c0\",modelName=\"NVIDIA H200\",Hostname=\"plain-ok\"} 33\n"
    "# TYPE DCGM_FI_DEV_GPU_TEMP gauge\n"
    "DCGM_FI_DEV_GPU_TEMP{gpu=\"0\",UUID=\"GPU-c0\",modelName=\"NVIDIA H200\",Hostname=\"plain-ok\"} +Inf\n"
    "# TYPE DCGM_FI_DEV_MEMORY_TEMP gauge\n"
    "DCGM_FI_DEV_MEMORY_TEMP{gpu=\"0\",UUID=\"GPU-c0\",modelName=\"NVIDIA H200\",Hostname=\"plain-ok\"} -Inf\n"
    "# TYPE DCGM_FI_DEV_POWER_USAGE gauge\n"
    "DCGM_FI_DEV_POWER_USAGE{gpu=\"0\",UUID=\"GPU-c0\",modelName=\"NVIDIA H200\",Hostname=\"plain-ok\"} NaN\n",
    // D: a plain page; its instance (relabelled below) has a '"'.
    "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
    "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-d0\",modelName=\"NVIDIA H200\",Hostname=\"quoted\"} 44\n",
    // E: a plain name; its instance (relabelled below) is an ssh option.
    "# TYPE DCGM_FI_DEV_GPU_UTIL gauge\n"
    "DCGM_FI_DEV_GPU_UTIL{gpu=\"0\",UUID=\"GPU-e0\",modelName=\"NVIDIA H200\",Hostname=\"e-host\"} 55\n",
};
const QString kQuotedInstance = QStringLiteral("127.66.0.4:9400\"} or up{job=~\".+");
const QString kOptionInstance = QStringLiteral("-oProxyCommand=touch_PWNED:9400"); // no '$': relabelling expands it

QList<QJsonObject> jsonLines(const QByteArray& out)
{
    QList<QJsonObject> r;
    for (const QByteArray& l : out.split('\n'))
        if (!l.trimmed().isEmpty())
            r << QJsonDocument::fromJson(l).object();
    return r;
}

bool hasControlBytes(const QByteArray& text)
{
    return std::any_of(text.cbegin(), text.cend(), [](char c) { return uchar(c) < 0x20 && c != '\n'; });
}

} // namespace

class TestCliFleetTrust : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cleanupTestCase();
    void statusShowsNoValuesAndNameOnlyMatches();
    void importTakesOnlyHostNames();
    void exportReadsBackExactlyInAnsible();
    void rolloutLeavesANameOnlyMatchOut();
    void chartQueriesKeepAQuoteInsideTheirString();

private:
    QStringList env() const;
    test::ProcessOutput cli(const QStringList& args) const;
    QTemporaryDir m_dir;
    QProcess m_exporter;
    std::unique_ptr<test::PrometheusFixture> m_prom;
    QString m_hosts; // the --hosts-file
};

QStringList TestCliFleetTrust::env() const
{
    return { QStringLiteral("HOME=") + m_dir.filePath(QStringLiteral("home")),
        QStringLiteral("XDG_STATE_HOME=") + m_dir.filePath(QStringLiteral("state")),
        QStringLiteral("XDG_CONFIG_HOME=") + m_dir.filePath(QStringLiteral("config")),
        QStringLiteral("XDG_CACHE_HOME=") + m_dir.filePath(QStringLiteral("cache")) };
}

test::ProcessOutput TestCliFleetTrust::cli(const QStringList& args) const
{
    return test::runCli(args, 120000, env());
}

void TestCliFleetTrust::initTestCase()
{
    QVERIFY(m_dir.isValid());
    if (!test::PrometheusFixture::available())
        QFAIL("/usr/bin/prometheus is missing: scripts/bootstrap installs Debian's prometheus package");
    QStringList pages;
    for (const char* page : kPages) {
        pages << m_dir.filePath(QStringLiteral("page%1.txt").arg(pages.size()));
        QVERIFY(test::writeFile(pages.last(), page));
    }
    m_exporter.start(QStringLiteral("python3"),
        QStringList { QStringLiteral(KF_SOURCE_DIR "/tests/data/prometheus/static-exporter") } + pages);
    QVERIFY(m_exporter.waitForStarted(10000));
    QByteArray ready;
    QTRY_VERIFY2_WITH_TIMEOUT((ready += m_exporter.readAllStandardOutput()).contains('\n'),
        QByteArray(ready + m_exporter.readAllStandardError()).constData(), 30000);
    const QJsonArray ports = QJsonDocument::fromJson(ready).object().value("ports").toArray();
    QCOMPARE(ports.size(), pages.size());
    const QStringList instances { QStringLiteral("127.66.0.1:9400"), QStringLiteral("127.66.0.2:9400"),
        QStringLiteral("127.66.0.3:9400"), kQuotedInstance, kOptionInstance };
    test::PrometheusFixture::Options o;
    o.hosts = 2;
    for (int i = 0; i < ports.size(); ++i)
        o.extra.append({ QStringLiteral("hostile-%1").arg(QChar(u'a' + i)),
            QStringLiteral("127.0.0.1:%1").arg(ports.at(i).toInt()), instances.at(i) });
    m_prom = std::make_unique<test::PrometheusFixture>(o);
    const auto up = m_prom->start();
    QVERIFY2(up, qPrintable(up.error() + u'\n' + m_prom->prometheusLog()));

    // The saved hosts: "good" (which B claims; nothing listens at its address) and one whose
    // values need Ansible's quoting.
    m_hosts = m_dir.filePath(QStringLiteral("hosts.yaml"));
    HostProfile good;
    good.name = QStringLiteral("good");
    good.host = QStringLiteral("127.0.0.1");
    good.port = 1;
    good.tags = { QStringLiteral("lab") };
    HostProfile quoted;
    quoted.name = QStringLiteral("q1");
    quoted.host = QStringLiteral("10.0.0.5");
    quoted.user = QStringLiteral("o'neil");
    quoted.identityFiles = { QStringLiteral("/tmp/k y/id #1") };
    quoted.knownHostsFile = QStringLiteral("/tmp/kf test/known hosts%h");
    quoted.proxyJump = QStringLiteral("ops@bastion:2222");
    QVERIFY(HostProfileStore(m_hosts).save({ good, quoted }));
}

void TestCliFleetTrust::cleanupTestCase()
{
    if (m_prom)
        m_prom->stop();
    m_exporter.closeWriteChannel();
    m_exporter.waitForFinished(10000);
}

void TestCliFleetTrust::statusShowsNoValuesAndNameOnlyMatches()
{
    const auto r = cli({ QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"),
        m_prom->url(), QStringLiteral("--hosts-file"), m_hosts, QStringLiteral("--json") });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    QHash<QString, QJsonObject> byAddress;
    for (const QJsonObject& h : jsonLines(r.out))
        byAddress.insert(h.value("address").toString(), h);
    QVERIFY2(byAddress.contains("127.66.0.3"), r.out.constData());
    // +Inf, -Inf and NaN are no value: null, and no temperature alert.
    const QJsonObject c = byAddress.value("127.66.0.3");
    const QJsonObject gpu = c.value("gpus").toArray().first().toObject();
    QVERIFY(gpu.value("temp_c").isNull());
    QVERIFY(gpu.value("power_w").isNull());
    QCOMPARE(gpu.value("util").toDouble(), 33.0);
    QVERIFY2(c.value("alerts").toArray().isEmpty(), qPrintable(QJsonDocument(c).toJson()));
    // The claim on "good" is a name-only match, and JSON keeps the hostile name exactly.
    const QJsonObject b = byAddress.value("127.66.0.2");
    QCOMPARE(b.value("profile").toString(), "good");
    QCOMPARE(b.value("profile_match").toString(), "name_only");
    QCOMPARE(byAddress.value("127.66.0.1").value("name").toString(),
        "n1\nh2\tansible_ssh_common_args=-oProxyCommand=touch${IFS}PWNED");

    // Text: the claim is said, the names' line breaks and TABs are escapes, "inf" is nowhere.
    const auto text = cli({ QStringLiteral("fleet"), QStringLiteral("status"), QStringLiteral("--prometheus"),
        m_prom->url(), QStringLiteral("--hosts-file"), m_hosts });
    QVERIFY2(text.exitCode == 0, text.err.constData());
    QVERIFY2(text.out.contains("(matches the saved host good by name only (saved address 127.0.0.1, this one "
                               "127.66.0.2))"),
        text.out.constData());
    QVERIFY2(text.out.contains("n1\\nh2\\tansible_ssh_common_args"), text.out.constData());
    QVERIFY2(!hasControlBytes(text.out) && !text.out.contains("\nh2"), text.out.constData());
    QVERIFY2(!text.out.toLower().contains("inf c"), text.out.constData());
}

void TestCliFleetTrust::importTakesOnlyHostNames()
{
    const auto r = cli({ QStringLiteral("fleet"), QStringLiteral("import"), QStringLiteral("--prometheus"),
        m_prom->url(), QStringLiteral("--hosts-file"), m_hosts });
    QVERIFY2(r.exitCode == 0, QByteArray(r.out + r.err).constData());
    QVERIFY2(r.err.contains("not imported: the host at 127.66.0.1: its name: 'n1\\nh2\\tansible_ssh_common_args="
                            "-oProxyCommand=touch${IFS}PWNED' is not a host name or address: it has the control "
                            "character \\n"),
        r.err.constData());
    QVERIFY2(r.err.contains("not imported: the host at -oProxyCommand=touch_PWNED: its address:"), r.err.constData());
    QVERIFY2(r.err.contains("not imported: 127.66.0.2 matches the saved host good by name only"), r.err.constData());
    QVERIFY2(!hasControlBytes(r.out + r.err), QByteArray(r.out + r.err).constData());
    const QByteArray yaml = test::readFile(m_hosts);
    QVERIFY2(!hasControlBytes(yaml) && !yaml.contains("\\n") && !yaml.contains("\\t"), yaml.constData());
    const auto loaded = HostProfileStore(m_hosts).load();
    QVERIFY2(loaded, qPrintable(loaded.error()));
    QStringList names;
    for (const HostProfile& p : loaded->profiles)
        names << p.name + u'@' + p.host;
    names.sort();
    QCOMPARE(names,
        QStringList({ "good@127.0.0.1", "gpu-node-000@" + m_prom->address(0), "gpu-node-001@" + m_prom->address(1),
            "plain-ok@127.66.0.3", "q1@10.0.0.5", "quoted@127.66.0.4" }));
}

void TestCliFleetTrust::exportReadsBackExactlyInAnsible()
{
    const QString ansible = QStandardPaths::findExecutable(QStringLiteral("ansible-inventory"));
    if (ansible.isEmpty())
        QFAIL("ansible-inventory is missing: scripts/bootstrap installs Debian's ansible package");
    const QString inventory = m_dir.filePath(QStringLiteral("inventory.ini"));
    const auto r = cli({ QStringLiteral("hosts"), QStringLiteral("export"), QStringLiteral("--ansible"),
        QStringLiteral("--hosts-file"), m_hosts, QStringLiteral("-o"), inventory });
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QStringList ansibleEnv = env()
        + QStringList { QStringLiteral("ANSIBLE_LOCAL_TEMP=") + m_dir.filePath(QStringLiteral("ansible-tmp")),
              QStringLiteral("ANSIBLE_INVENTORY_UNPARSED_WARNING=False"), QStringLiteral("ANSIBLE_NOCOLOR=1") };
    const auto listed = test::runProgram(
        ansible, { QStringLiteral("-i"), inventory, QStringLiteral("--list") }, 120000, {}, ansibleEnv);
    QVERIFY2(listed.exitCode == 0, QByteArray(listed.err + test::readFile(inventory)).constData());
    const QJsonObject all = QJsonDocument::fromJson(listed.out).object();
    const QJsonObject vars = all.value("_meta").toObject().value("hostvars").toObject();
    QStringList hosts = vars.keys();
    hosts.sort();
    QCOMPARE(hosts, QStringList({ "good", "gpu-node-000", "gpu-node-001", "plain-ok", "q1", "quoted" }));
    // Every variable is one the export writes, with the saved text exactly.
    const QStringList known { "ansible_host", "ansible_port", "ansible_user", "ansible_ssh_private_key_file",
        "ansible_ssh_common_args", "ansible_connection" };
    for (const QString& h : std::as_const(hosts))
        for (const QString& v : vars.value(h).toObject().keys())
            QVERIFY2(known.contains(v), qPrintable(h + u' ' + v));
    QVERIFY2(!listed.out.contains("ProxyCommand") && !listed.out.contains("PWNED"), listed.out.constData());
    const QJsonObject q1 = vars.value("q1").toObject();
    QCOMPARE(q1.value("ansible_host").toString(), "10.0.0.5");
    QCOMPARE(q1.value("ansible_user").toString(), "o'neil");
    QCOMPARE(q1.value("ansible_ssh_private_key_file").toString(), "/tmp/k y/id #1");
    QCOMPARE(vars.value("good").toObject().value("ansible_port").toInt(), 1);
    // ansible_ssh_common_args is split like a shell before ssh gets it: those words exactly.
    const QString common = q1.value("ansible_ssh_common_args").toString();
    const auto split = test::runProgram(QStringLiteral("python3"),
        { QStringLiteral("-c"), QStringLiteral("import json, shlex, sys; print(json.dumps(shlex.split(sys.argv[1])))"),
            common });
    QCOMPARE(QJsonDocument::fromJson(split.out).array(),
        QJsonArray({ "-J", "ops@bastion:2222", "-o", "UserKnownHostsFile=\"/tmp/kf test/known hosts%%h\"" }));
    QCOMPARE(all.value("lab").toObject().value("hosts").toArray(), QJsonArray({ "good" }));
}

void TestCliFleetTrust::rolloutLeavesANameOnlyMatchOut()
{
    // B claims "good" from 127.66.0.2; selecting it through Prometheus does not pull good in.
    const QStringList rollout { QStringLiteral("fleet"), QStringLiteral("rollout"), QStringLiteral("preflight"),
        QStringLiteral("--profile"), QStringLiteral("CMake + Ninja"), QStringLiteral("--prometheus"), m_prom->url(),
        QStringLiteral("--match"), QStringLiteral("job=hostile-b"), QStringLiteral("--hosts-file"), m_hosts };
    const auto refused = cli(rollout);
    QVERIFY2(refused.exitCode == 2, QByteArray(refused.out + refused.err).constData());
    QVERIFY2(refused.err.contains("the host at 127.66.0.2 matches the saved host good by name only (saved address "
                                  "127.0.0.1, this one 127.66.0.2): left out"),
        refused.err.constData());
    QVERIFY2(!refused.out.contains("good"), refused.out.constData());
    // Asked for by name: then it is acted on (nothing listens on its port 1).
    const auto confirmed = cli(rollout + QStringList { QStringLiteral("--yes-name-only") });
    QVERIFY2(confirmed.exitCode == 1, QByteArray(confirmed.out + confirmed.err).constData());
    QVERIFY2(confirmed.out.contains("good") && confirmed.out.contains("0 of 1 host(s) succeeded"),
        confirmed.out.constData());
}

// The host charts' PromQL selects by the host's instances: one with a '"' (a relabelled or
// honor_labels instance) stays inside the regex's string, and the real Prometheus answers with
// that host's series only.
void TestCliFleetTrust::chartQueriesKeepAQuoteInsideTheirString()
{
    fleet::PromEndpoint e;
    e.host = QStringLiteral("127.0.0.1");
    e.port = m_prom->port();
    fleet::PromClient client(std::make_shared<LocalTransport>(), e, 20000);
    fleet::FleetHost h;
    h.instances = { kQuotedInstance };
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const auto util = client.queryRange(fleet::hostChartQueries(h).first().promql, now - 60000, now, 1);
    QVERIFY2(util, qPrintable(util.error()));
    QCOMPARE(util->series.size(), 1);
    QCOMPARE(util->series.first().value, 44.0);
    for (const fleet::ChartQuery& q : fleet::hostChartQueries(h)) {
        const auto r = client.queryRange(q.promql, now - 60000, now, 1);
        QVERIFY2(r, qPrintable(q.title + u": " + r.error()));
    }
}

QTEST_GUILESS_MAIN(TestCliFleetTrust)
#include "tst_cli_fleettrust.moc"
