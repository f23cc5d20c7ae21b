// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/jobs/jobfolder.h"
#include "core/server/serverclient.h"
#include "core/server/serverlaunchprofile.h"
#include "core/server/serverlifecycle.h"
#include "core/timeseries/seriesbuffer.h"
#include "core/util/jobtracker.h"
#include "ui/appcontext.h"
#include "ui/common/hostpane.h"

#include <functional>
#include <memory>
#include <vector>

class QCheckBox;
class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QTreeWidget;

namespace kf {

class BenchPanel;
class ChartWindowBar;
class ServerDiagnosis;
class RemoteJob;
class TimeChart;

// The inference server of one host: a launch profile (SGLang's launch_server, or the demo
// host's sglang-demo-server) started detached through core/server/serverlifecycle (refused
// while a server of ours or anything else holds the port, TP exceeds the host's GPUs, or the
// host's last post-build verification found that sgl_kernel cannot load or run here),
// its status (/health, /server_info) and charts of throughput, running and queued requests,
// KV-cache use, prefix-cache hit rate and TTFT / inter-token latency p50/p95 from /metrics
// (through an SSH tunnel to the remote loopback; periods without a server are gaps), the log
// tail with errors highlighted, and the servers KernelForge started on the host. A running
// server of ours on the port is adopted (after a reconnect or an app restart) and can always
// be stopped. Only the selected host's pane polls the server. The Benchmark tab (BenchPanel)
// runs a serving benchmark against the pane's port.
class ServerPane : public HostPane
{
    Q_OBJECT
public:
    ServerPane(const AppContext& context, HostConnection* host, QWidget* parent = nullptr);
    ~ServerPane() override;
    void setActive(bool active) override;

    ServerLaunchProfile profile() const;
    void setProfile(const ServerLaunchProfile& profile);
    // Folder for job records (tests use a temporary one); empty: the default.
    void setJobRoot(const QString& root);
    // Replaces the Stop confirmation dialog (tests); return true to go ahead.
    void setConfirmHandler(std::function<bool(const QString& question)> handler) { m_confirm = std::move(handler); }
    void launch();
    void stop();
    // The followed server job (launched or adopted); empty when none.
    QString jobId() const { return m_jobId; }
    bool isServerRunning() const { return m_jobRunning; }
    ServerClient* client() const { return m_client.get(); }
    QPlainTextEdit* logView() const { return m_log; }
    BenchPanel* benchPanel() const { return m_bench; }
    int chartCount() const { return int(m_charts.size()); }
    const QList<TimeChart*>& charts() const { return m_charts; }
    ChartWindowBar* chartBar() const { return m_chartBar; }
    // The throughput series as charted (NaN points are gaps), for tests.
    QList<QPointF> throughputPoints() const;

Q_SIGNALS:
    void launched(const QString& jobId);
    void launchFailed(const QString& error);
    // The followed server ended; message says how ("Server on port 30000 (job …) stopped").
    void serverEnded(const kf::JobInfo& info, const QString& message);
    // A scan of the host's servers and the port finished (tests wait for it).
    void scanned();

protected:
    // Showing the tab asks the last verification again (one may have run in the Build tab).
    void showEvent(QShowEvent* event) override;

private:
    enum Series { Throughput, Running, Queued, KvUsage, HitRate, TtftP50, TtftP95, ItlP50, ItlP95, SeriesCount };
    bool isReady() const;
    int gpuCount() const;
    void onHostState(ConnectionState state);
    void restartClient();
    void scan();
    // Asks the host's last verification whether a launch would fail (deploy::launchBlockedBecause).
    void checkVerification();
    void onScan(const ServerScan& scan);
    void onStatus(const ServerStatus& status);
    // The status line and summary for the last poll, as far as KernelForge knows who started it.
    void showStatus(const ServerStatus& status);
    void appendGap(qint64 timeMs);
    void refreshCharts();
    void followJob(const JobInfo& job);
    void dropJob();
    void onJobFinished(const JobInfo& info);
    void updateActions();
    void showServers(const QList<JobInfo>& servers);

    AppContext m_context;
    QCheckBox* m_demo;
    QLineEdit* m_model;
    QSpinBox* m_tp;
    QSpinBox* m_port;
    QLineEdit* m_extra;
    QPushButton* m_launch;
    QPushButton* m_stop;
    QLabel* m_launchHint; // why Launch is not offered (TP, port taken, not connected)
    QLabel* m_status;
    QLabel* m_summary;
    QList<TimeChart*> m_charts;
    ChartWindowBar* m_chartBar = nullptr;
    QPlainTextEdit* m_log;
    ServerDiagnosis* m_diagnosis = nullptr;
    QTreeWidget* m_servers;
    BenchPanel* m_bench; // the Benchmark tab
    std::unique_ptr<ServerClient> m_client;
    std::unique_ptr<RemoteJob> m_job;
    QString m_jobId;
    bool m_jobRunning = false;
    bool m_launching = false;
    bool m_stopping = false;
    bool m_adopted = false; // the first scan may switch the port to a running server of ours
    ServerScan::Port m_portState = ServerScan::Port::Unknown;
    bool m_portScanned = false; // m_portState and the job list are known for this port
    bool m_portAnswers = false; // the last poll got an HTTP answer on the port
    QString m_jobRoot;
    QString m_verifyBlock; // why the host's last verification says a launch fails; empty: nothing known
    std::function<bool(const QString&)> m_confirm;
    std::vector<SeriesBuffer> m_series; // SeriesCount of them (200 KB each) from the first metrics on
    qint64 m_lastTime = 0;              // the chart's right edge: the last poll
    qint64 m_lastPointTime = 0;         // the last poll with metrics
    JobTracker m_requests { this };
    JobTracker m_scans { this }; // the newest scan wins
};

} // namespace kf
