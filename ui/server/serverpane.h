// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/jobs/jobfolder.h"
#include "core/server/serverlaunchprofile.h"
#include "core/util/jobtracker.h"
#include "ui/appcontext.h"
#include "ui/common/hostpane.h"

#include <QPointer>

#include <functional>
#include <utility>

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
class ServerSession;
class TimeChart;
struct LaunchAttempt;
struct ServerStatus;

// The Server tab of one host: a view of the host's ServerSession (core/server/serversession.h,
// from the app's HostSessions), which owns every server of the host. The pane's port field is
// the port a launch uses and the server the status line, summary and log tail are about; the
// charts draw every server of the host, each series labelled by port and model. Launch goes
// through the session's one launch policy: refused at the field while TP exceeds the host's
// GPUs, the port is taken or the last verification says a server cannot work; a launch on GPUs
// another server of ours or any process holds is refused with why, and the pane asks whether
// to launch anyway. Stop is offered only for a running server of ours on the port. Only the
// selected host's pane asks the session to poll. The Benchmark tab (BenchPanel) runs a serving
// benchmark against the pane's port.
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
    // Replaces the confirmation dialogs (Stop, a launch on GPUs in use) (tests); true: go ahead.
    void setConfirmHandler(std::function<bool(const QString& question)> handler) { m_confirm = std::move(handler); }
    void launch();
    void stop();
    // The host's server session; null until the host was first connected.
    ServerSession* session() const;
    // The server job of ours on the pane's port (running or ended); empty when none.
    QString jobId() const;
    bool isServerRunning() const;
    // The newest poll of the pane's port (timeMs 0: none).
    ServerStatus lastStatus() const;
    QPlainTextEdit* logView() const { return m_log; }
    BenchPanel* benchPanel() const { return m_bench; }
    int chartCount() const { return int(m_charts.size()); }
    const QList<TimeChart*>& charts() const { return m_charts; }
    ChartWindowBar* chartBar() const { return m_chartBar; }
    // The throughput series of the pane's port as charted (NaN points are gaps), for tests.
    QList<QPointF> throughputPoints() const;

Q_SIGNALS:
    void launched(const QString& jobId);
    void launchFailed(const QString& error);
    // A server of ours on this host ended; message says how ("Server on port 30000 of gpu1 (job …) stopped").
    void serverEnded(const kf::JobInfo& info, const QString& message);
    // A scan of the host's servers finished (tests wait for it).
    void scanned();
    // The server's log says what the host's verification explains: show the Build tab's Verification.
    void verificationRequested();

protected:
    // Showing the tab asks the last verification again (one may have run in the Build tab).
    void showEvent(QShowEvent* event) override;

private:
    struct ChartSeries
    {
        quint16 port;
        int kind; // ServerSeries
    };
    bool isReady() const;
    int gpuCount() const;
    quint16 port() const;
    void bind();
    void onHostState(ConnectionState state);
    // Asks the host's last verification whether a launch would fail (launchBlockedBecause).
    void checkVerification();
    void onScanned();
    void onLaunchFinished(quint16 port, const LaunchAttempt& attempt, const QString& error);
    void startLaunch(bool force);
    void onServerEnded(const JobInfo& job);
    void onPortChanged();
    // The status line and summary: the pane's port, then the host's other servers.
    void showStatus();
    void showLog();
    void refreshCharts();
    // One series per charted server and metric, labelled "port 30000 · model".
    void rebuildSeries(const QList<quint16>& ports);
    void updateActions();
    void showServers();

    AppContext m_context;
    HostSessions* m_sessions; // the context's, or the pane's own
    QPointer<ServerSession> m_session;
    QCheckBox* m_demo;
    QLineEdit* m_model;
    QSpinBox* m_tp;
    QSpinBox* m_port;
    QLineEdit* m_extra;
    QCheckBox* m_memoryGate; // the server's JIT compiles through the memory gate
    QPushButton* m_launch;
    QPushButton* m_stop;
    QLabel* m_launchHint; // why Launch is not offered (TP, port taken, not connected), or what it will ask
    QLabel* m_status;
    QLabel* m_summary;
    QList<TimeChart*> m_charts;
    QList<QList<std::pair<QString, int>>> m_chartKinds; // per chart, its metrics: name, ServerSeries
    QList<QList<ChartSeries>> m_chartSeries;            // per chart, what each of its series draws
    QList<quint16> m_chartedPorts;
    ChartWindowBar* m_chartBar = nullptr;
    QPlainTextEdit* m_log;
    ServerDiagnosis* m_diagnosis = nullptr;
    QTreeWidget* m_servers;
    BenchPanel* m_bench; // the Benchmark tab
    QString m_jobRoot;
    QString m_launchNote;   // what the last launch or stop said (refused, failed, forced past); until the port changes
    bool m_adopted = false; // the first scan may switch the port to a running server of ours
    QString m_verifyBlock;  // why the host's last verification says a launch fails; empty: nothing known
    std::function<bool(const QString&)> m_confirm;
    qint64 m_lastTime = 0; // the charts' right edge: the newest poll
    JobTracker m_requests { this };
};

} // namespace kf
