// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/fleet/promclient.h"
#include "core/util/result.h"

#include <QProcess>
#include <QString>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

namespace kf::test {

// A real Prometheus server (Debian's /usr/bin/prometheus; never the system service) with a
// private config and data folder, on 127.0.0.1 and a free port, scraping:
//   job "dcgm"  the replay exporter's dcgm-exporter page of every simulated host
//               (tests/data/prometheus/replay-exporter: host i at 127.77.x.y, see there)
//   job "node"  its node_exporter page of every host
//   extra jobs  any other target (the demo SGLang server, a `gpu export` bridge); `instance`
//               may be rewritten so the target counts as one of the simulated hosts.
class PrometheusFixture
{
public:
    struct ExtraTarget
    {
        QString job;
        QString target;   // "127.0.0.1:30000"
        QString instance; // empty: the target itself
    };
    struct Options
    {
        int hosts = 16;
        int scrapeIntervalS = 1;
        int racks = 1; // > 1: the hosts' targets carry a label rack="rack-N", hosts split evenly
        QList<ExtraTarget> extra;
        // Serve the API over https only (--web.config.file), with a certificate for 127.0.0.1
        // and localhost signed by a CA made for this run (caFile()).
        bool tls = false;
    };
    explicit PrometheusFixture(Options options);
    ~PrometheusFixture();

    // Starts the exporters and Prometheus, then waits until every target was scraped once
    // (count(up == 1) reaches the target count; bounded, generous wait).
    Result<void> start();
    void stop();
    static bool available(); // /usr/bin/prometheus and python3 exist

    QString url() const;    // http://127.0.0.1:PORT, https:// with Options::tls
    QString caFile() const; // the CA that signed its certificate (Options::tls)
    // A client of it from this machine (https with the CA file when Options::tls).
    kf::fleet::PromEndpoint endpoint() const;
    quint16 port() const { return m_port; }
    QString address(int host) const; // the simulated host's loopback address
    quint16 dcgmPort() const { return m_exporterPort; }
    int targetCount() const;
    // The simulated host's exporters stop answering (a target that goes down) / come back.
    Result<void> setHostDown(int host, bool down);
    // Waits until `promql` returns a vector of exactly `count` series (bounded).
    Result<void> waitForCount(const QString& promql, int count, int timeoutMs = 60000);
    QString prometheusLog() const;
    qint64 prometheusPid() const;

private:
    Options m_options;
    QTemporaryDir m_dir;
    std::unique_ptr<QProcess> m_exporter;
    std::unique_ptr<QProcess> m_prometheus;
    QStringList m_addresses;
    quint16 m_exporterPort = 0;
    quint16 m_port = 0;
    Result<void> makeCertificates();
};

} // namespace kf::test
