// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/nvidiasmi.h"
#include "core/util/result.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>

#include <functional>

class QTcpServer;

// The bridge for hosts without an exporter: the agentless SSH stream (nvidia-smi over SSH)
// served as Prometheus text under dcgm-exporter's names, so Prometheus can scrape such hosts
// like any other (`kernelforge-cli gpu export ... --listen 127.0.0.1:PORT`).
//
// Page (text format 0.0.4), one HELP/TYPE pair per family and one line per GPU:
//   DCGM_FI_DEV_GPU_UTIL{gpu="0",UUID="GPU-...",device="nvidia0",modelName="NVIDIA H200",
//     Hostname="gpu1",pci_bus_id="00000000:18:00.0",exporter="kernelforge"} 97
// Families: GPU_UTIL, FB_USED, FB_FREE (MiB), GPU_TEMP, MEMORY_TEMP, POWER_USAGE, SM_CLOCK,
// MEM_CLOCK, ECC_DBE_VOL_TOTAL / ECC_SBE_VOL_TOTAL (nvidia-smi's volatile uncorrected /
// corrected totals), CLOCKS_EVENT_REASONS (the bitmask). A value nvidia-smi did not give is
// left out (never written as 0). Label values are escaped as the format says.
namespace kf::fleet {

QByteArray dcgmExposition(const QList<GpuSample>& gpus, const QString& hostname);

// A minimal HTTP/1.1 server for GET /metrics (and / with a link): one request per
// connection, request head at most 8 KiB, answered from page() on the server's thread.
// An empty page is answered 503 (the scrape fails: Prometheus shows the target down).
class MetricsHttpServer : public QObject
{
    Q_OBJECT
public:
    using PageFunction = std::function<QByteArray()>;
    explicit MetricsHttpServer(PageFunction page, QObject* parent = nullptr);
    ~MetricsHttpServer() override;
    // "127.0.0.1:9400"; port 0 picks a free one.
    Result<void> listen(const QString& address);
    quint16 port() const;
    int requestsServed() const { return m_served; }

private:
    void onConnection();
    PageFunction m_page;
    QTcpServer* m_server;
    int m_served = 0;
};

} // namespace kf::fleet
