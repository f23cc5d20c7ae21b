// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "promfixture.h"

#include "testsupport.h"

#include "core/fleet/promclient.h"
#include "core/transport/localtransport.h"

#include <QDeadlineTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTcpServer>
#include <QThread>

namespace kf::test {

namespace {

const QString kPrometheus = QStringLiteral("/usr/bin/prometheus");

quint16 freePort()
{
    QTcpServer s;
    s.listen(QHostAddress::LocalHost, 0);
    return s.serverPort();
}

} // namespace

PrometheusFixture::PrometheusFixture(Options options)
    : m_options(std::move(options))
{ }

PrometheusFixture::~PrometheusFixture()
{
    stop();
}

bool PrometheusFixture::available()
{
    return QFileInfo(kPrometheus).isExecutable() && QFileInfo(QStringLiteral("/usr/bin/python3")).isExecutable();
}

int PrometheusFixture::targetCount() const
{
    return 2 * m_options.hosts + int(m_options.extra.size());
}

QString PrometheusFixture::url() const
{
    return QStringLiteral("%1://127.0.0.1:%2")
        .arg(m_options.tls ? QStringLiteral("https") : QStringLiteral("http"))
        .arg(m_port);
}

QString PrometheusFixture::caFile() const
{
    return m_options.tls ? m_dir.filePath(QStringLiteral("ca.crt")) : QString();
}

kf::fleet::PromEndpoint PrometheusFixture::endpoint() const
{
    kf::fleet::PromEndpoint e;
    e.host = QStringLiteral("127.0.0.1");
    e.port = m_port;
    e.tls = m_options.tls;
    e.caFile = caFile();
    return e;
}

// A CA and a server certificate it signs (127.0.0.1, localhost), by the openssl tool.
Result<void> PrometheusFixture::makeCertificates()
{
    auto openssl = [&](const QStringList& args) -> Result<void> {
        QProcess p;
        p.setWorkingDirectory(m_dir.path());
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(QStringLiteral("openssl"), args);
        if (!p.waitForFinished(60000) || p.exitCode() != 0)
            return Result<void>::failure(
                QStringLiteral("openssl %1: %2").arg(args.first(), QString::fromUtf8(p.readAll())));
        return {};
    };
    QFile ext(m_dir.filePath(QStringLiteral("san.ext")));
    if (!ext.open(QIODevice::WriteOnly) || ext.write("subjectAltName=IP:127.0.0.1,DNS:localhost\n") < 0)
        return Result<void>::failure(QStringLiteral("cannot write san.ext"));
    ext.close();
    auto words = [](std::initializer_list<const char*> list) {
        QStringList out;
        for (const char* w : list)
            out << QString::fromLatin1(w);
        return out;
    };
    for (const QStringList& args :
        { words({ "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
              "ca.key", "-out", "ca.crt", "-days", "2", "-subj", "/CN=KernelForge test CA" }),
            words({ "req", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-keyout",
                "server.key", "-out", "server.csr", "-subj", "/CN=127.0.0.1" }),
            words({ "x509", "-req", "-in", "server.csr", "-CA", "ca.crt", "-CAkey", "ca.key", "-CAcreateserial", "-out",
                "server.crt", "-days", "2", "-extfile", "san.ext" }) })
        if (const Result<void> r = openssl(args); !r)
            return r;
    QFile web(m_dir.filePath(QStringLiteral("web.yml")));
    if (!web.open(QIODevice::WriteOnly)
        || web.write(
               QStringLiteral("tls_server_config:\n  cert_file: %1\n  key_file: %2\n")
                   .arg(m_dir.filePath(QStringLiteral("server.crt")), m_dir.filePath(QStringLiteral("server.key")))
                   .toUtf8())
            < 0)
        return Result<void>::failure(QStringLiteral("cannot write web.yml"));
    return {};
}

QString PrometheusFixture::address(int host) const
{
    return m_addresses.value(host);
}

Result<void> PrometheusFixture::start()
{
    if (!available())
        return Result<void>::failure(
            QStringLiteral("%1 or python3 missing (scripts/bootstrap installs them)").arg(kPrometheus));
    m_exporter = std::make_unique<QProcess>();
    m_exporter->setProcessChannelMode(QProcess::SeparateChannels);
    m_exporter->start(QStringLiteral("python3"),
        { dataPath(QStringLiteral("prometheus/replay-exporter")), QStringLiteral("--hosts"),
            QString::number(m_options.hosts) });
    if (!m_exporter->waitForStarted(10000))
        return Result<void>::failure(QStringLiteral("replay exporter did not start: ") + m_exporter->errorString());
    QDeadlineTimer deadline(60000);
    while (!m_exporter->canReadLine() && !deadline.hasExpired() && m_exporter->state() == QProcess::Running)
        m_exporter->waitForReadyRead(500);
    const QJsonObject ready = QJsonDocument::fromJson(m_exporter->readLine()).object();
    m_exporterPort = quint16(ready.value(QStringLiteral("port")).toInt());
    for (const QJsonValue& a : ready.value(QStringLiteral("hosts")).toArray())
        m_addresses << a.toString();
    if (m_exporterPort == 0 || m_addresses.size() != m_options.hosts)
        return Result<void>::failure(QStringLiteral("replay exporter did not report its listeners: ")
            + QString::fromUtf8(m_exporter->readAllStandardError()));

    QString config
        = QStringLiteral("global:\n  scrape_interval: %1s\n  scrape_timeout: %1s\n  evaluation_interval: %1s\n"
                         "scrape_configs:\n")
              .arg(m_options.scrapeIntervalS);
    auto job = [&](const QString& name, const QStringList& targets, int racks = 1) {
        config += QStringLiteral("  - job_name: %1\n    static_configs:\n").arg(name);
        const qsizetype per = (targets.size() + racks - 1) / racks;
        for (int r = 0; r < racks; ++r) {
            config += QStringLiteral("      - targets: [");
            for (qsizetype i = r * per; i < qMin(targets.size(), (r + 1) * per); ++i)
                config += (i > r * per ? QStringLiteral(", '") : QStringLiteral("'")) + targets.at(i) + u'\'';
            config += QStringLiteral("]\n");
            if (racks > 1)
                config += QStringLiteral("        labels: {rack: 'rack-%1'}\n").arg(r + 1);
        }
    };
    QStringList dcgm, node;
    for (const QString& a : std::as_const(m_addresses)) {
        dcgm << QStringLiteral("%1:%2").arg(a).arg(m_exporterPort);
        node << QStringLiteral("%1:%2").arg(a).arg(m_exporterPort + 1);
    }
    job(QStringLiteral("dcgm"), dcgm, qMax(1, m_options.racks));
    job(QStringLiteral("node"), node, qMax(1, m_options.racks));
    for (int i = 0; i < m_options.extra.size(); ++i) {
        const ExtraTarget& t = m_options.extra.at(i);
        job(t.job, { t.target });
        if (!t.instance.isEmpty())
            config
                += QStringLiteral("    relabel_configs:\n      - target_label: instance\n        replacement: '%1'\n")
                       .arg(t.instance);
    }
    QFile f(m_dir.filePath(QStringLiteral("prometheus.yml")));
    if (!f.open(QIODevice::WriteOnly) || f.write(config.toUtf8()) < 0)
        return Result<void>::failure(QStringLiteral("cannot write the Prometheus config"));
    f.close();

    QStringList extraArgs;
    if (m_options.tls) {
        if (const Result<void> made = makeCertificates(); !made)
            return made;
        extraArgs << QStringLiteral("--web.config.file=") + m_dir.filePath(QStringLiteral("web.yml"));
    }
    for (int attempt = 0; attempt < 3; ++attempt) {
        m_port = freePort();
        m_prometheus = std::make_unique<QProcess>();
        m_prometheus->setProcessChannelMode(QProcess::MergedChannels);
        m_prometheus->setStandardOutputFile(m_dir.filePath(QStringLiteral("prometheus.log")), QIODevice::Append);
        m_prometheus->start(kPrometheus,
            QStringList { QStringLiteral("--config.file=") + f.fileName(),
                QStringLiteral("--storage.tsdb.path=") + m_dir.filePath(QStringLiteral("data")),
                QStringLiteral("--web.listen-address=127.0.0.1:%1").arg(m_port), QStringLiteral("--log.level=warn"),
                QStringLiteral("--web.enable-lifecycle") }
                + extraArgs);
        if (!m_prometheus->waitForStarted(10000))
            return Result<void>::failure(QStringLiteral("prometheus did not start: ") + m_prometheus->errorString());
        // Ready when it answers; a taken port makes it exit at once.
        QDeadlineTimer up(60000);
        bool answered = false;
        while (!up.hasExpired() && m_prometheus->state() == QProcess::Running) {
            kf::fleet::PromClient client(std::make_shared<LocalTransport>(), endpoint(), 5000);
            if (client.get(QStringLiteral("/-/ready")).ok()) {
                answered = true;
                break;
            }
            QThread::msleep(200);
        }
        if (answered)
            return waitForCount(QStringLiteral("up == 1"), targetCount(), 120000);
        m_prometheus->kill();
        m_prometheus->waitForFinished(5000);
    }
    return Result<void>::failure(QStringLiteral("prometheus did not come up: ") + prometheusLog());
}

Result<void> PrometheusFixture::waitForCount(const QString& promql, int count, int timeoutMs)
{
    kf::fleet::PromClient client(std::make_shared<LocalTransport>(), endpoint(), 10000);
    QDeadlineTimer deadline(timeoutMs);
    qsizetype last = -1;
    QString lastError;
    while (!deadline.hasExpired()) {
        const auto r = client.query(promql);
        if (r) {
            last = r->series.size();
            if (last == count)
                return {};
        } else {
            lastError = r.error();
        }
        QThread::msleep(250);
    }
    return Result<void>::failure(QStringLiteral("%1 returned %2 series, not %3, within %4 ms %5")
                                     .arg(promql)
                                     .arg(last)
                                     .arg(count)
                                     .arg(timeoutMs)
                                     .arg(lastError));
}

Result<void> PrometheusFixture::setHostDown(int host, bool down)
{
    if (!m_exporter || m_exporter->state() != QProcess::Running)
        return Result<void>::failure(QStringLiteral("replay exporter not running"));
    const QByteArray cmd = (down ? "down " : "up ") + QByteArray::number(host) + '\n';
    m_exporter->write(cmd);
    QDeadlineTimer deadline(20000);
    while (!deadline.hasExpired()) {
        if (m_exporter->canReadLine() && m_exporter->readLine().startsWith("ok "))
            return {};
        m_exporter->waitForReadyRead(200);
    }
    return Result<void>::failure(QStringLiteral("replay exporter did not confirm: ") + QString::fromUtf8(cmd));
}

void PrometheusFixture::stop()
{
    for (auto* p : { m_prometheus.get(), m_exporter.get() }) {
        if (p && p->state() != QProcess::NotRunning) {
            p->terminate();
            if (!p->waitForFinished(10000)) {
                p->kill();
                p->waitForFinished(5000);
            }
        }
    }
}

QString PrometheusFixture::prometheusLog() const
{
    return QString::fromUtf8(readFile(m_dir.filePath(QStringLiteral("prometheus.log"))).right(4000));
}

qint64 PrometheusFixture::prometheusPid() const
{
    return m_prometheus ? m_prometheus->processId() : 0;
}

} // namespace kf::test
