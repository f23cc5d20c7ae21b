// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/server/serverclient.h"
#include "core/server/serverlaunchprofile.h"
#include "core/timeseries/seriesbuffer.h"
#include "core/util/jobtracker.h"
#include "ui/appcontext.h"
#include "ui/common/hostpane.h"

#include <QPointer>

#include <array>
#include <memory>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;

namespace kf {

class EmptyState;
class RemoteJob;
class TimeChart;

// The inference server of the selected host: a launch profile (SGLang's launch_server, or
// the demo host's sglang-demo-server) started detached as a RemoteJob and stopped by
// cancelling it, its status (/health, /server_info) and charts of throughput, running and
// queued requests, KV-cache use, prefix-cache hit rate and TTFT / inter-token latency
// p50/p95 from /metrics (through an SSH tunnel to the remote loopback), and the log tail
// with errors highlighted.
class ServerPane : public HostPane
{
    Q_OBJECT
public:
    explicit ServerPane(const AppContext& context, QWidget* parent = nullptr);
    ~ServerPane() override;
    void setHost(HostConnection* host) override;

    ServerLaunchProfile profile() const;
    void setProfile(const ServerLaunchProfile& profile);
    // Folder for job records (tests use a temporary one); empty: the default.
    void setJobRoot(const QString& root) { m_jobRoot = root; }
    void launch();
    void stop();
    QString jobId() const { return m_jobId; }
    ServerClient* client() const { return m_client.get(); }
    QPlainTextEdit* logView() const { return m_log; }
    int chartCount() const { return int(m_charts.size()); }

Q_SIGNALS:
    void launched(const QString& jobId);
    void launchFailed(const QString& error);

private:
    enum Series { Throughput, Running, Queued, KvUsage, HitRate, TtftP50, TtftP95, ItlP50, ItlP95, SeriesCount };
    void restartClient();
    void onStatus(const ServerStatus& status);
    void refreshCharts();
    void followJob(const QString& id);

    AppContext m_context;
    QPointer<HostConnection> m_host;
    QStackedWidget* m_stack;
    EmptyState* m_empty;
    QCheckBox* m_demo;
    QLineEdit* m_model;
    QSpinBox* m_tp;
    QSpinBox* m_port;
    QLineEdit* m_extra;
    QPushButton* m_launch;
    QPushButton* m_stop;
    QLabel* m_status;
    QLabel* m_summary;
    QList<TimeChart*> m_charts;
    QPlainTextEdit* m_log;
    std::unique_ptr<ServerClient> m_client;
    std::unique_ptr<RemoteJob> m_job;
    QString m_jobId;
    QString m_jobRoot;
    std::array<SeriesBuffer, SeriesCount> m_series;
    qint64 m_lastTime = 0;
    JobTracker m_requests { this };
};

} // namespace kf
