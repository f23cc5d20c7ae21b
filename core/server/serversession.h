// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/jobs/jobfolder.h"
#include "core/server/launchpolicy.h"
#include "core/server/serverclient.h"
#include "core/server/serverlifecycle.h"
#include "core/timeseries/seriesbuffer.h"
#include "core/util/jobtracker.h"

#include <QObject>
#include <QPointer>
#include <QSet>
#include <QTimer>

#include <map>
#include <memory>
#include <vector>

namespace kf {

class RemoteJob;

// What one server's metrics are charted as (ServerState::series).
enum class ServerSeries { Throughput, Running, Queued, KvUsage, HitRate, TtftP50, TtftP95, ItlP50, ItlP95 };
constexpr int kServerSeriesCount = 9;

// How a server is named wherever its lines are drawn (the Server pane, the Timeline): "port 30000 ·
// Qwen/Qwen3-8B", the model cut to 48 characters; "port 30000" while it is not known.
QString serverLabel(quint16 port, const QString& model);

// What KernelForge knows of the server on one port of a host.
struct ServerState
{
    quint16 port = 0;
    std::optional<JobInfo> job; // the newest server job of ours on the port (running or ended); none: not ours
    ServerStatus last;          // the newest poll (timeMs 0: not polled yet)
    bool watched = false;       // polled whoever runs there (the Server pane's port)
    bool stopping = false;
    QString model; // what the server reported (model_path); empty until it answered
    // The charted metrics, kServerSeriesCount of them once metrics came (NaN points are gaps).
    // Another model on the port starts them again and another job of ours breaks them with a gap:
    // two servers never share a line, and a line is named by one (port, model).
    std::vector<SeriesBuffer> series;
    QByteArray log; // the newest part of its job log (ServerSession::kLogKeepBytes at most, whole lines)

    bool running() const; // a server job of ours runs (or starts) on the port
    bool ours() const { return job.has_value(); }
    QString label() const { return serverLabel(port, model); }
};

// The inference servers of one host, owned here and shown by views (the Server pane, the Fleet
// tiles, the Timeline's series; `server launch` and a recipe's launch step use one too): launch
// through the one policy (launchpolicy.h), adopt (servers of ours found again by their job name,
// after a reconnect, a restart, or a launch from the CLI), follow (each server job's log and end),
// poll (/health and /metrics of every server it follows) and stop, each server named by its port.
// It follows every running server of ours on the host, plus one watched port (whoever serves
// there). Polls and log tails run only while someone asks for them (setPolling); a scan of the
// host's jobs runs on refresh(), after a launch, a stop or a server's end, and every
// kRescanMs while polling. Lives in a thread with an event loop; blocking work runs on
// transportPool() through JobTrackers.
class ServerSession : public QObject
{
    Q_OBJECT
public:
    static constexpr int kDefaultPollMs = 2000;
    static constexpr int kRescanMs = 15000;
    static constexpr qint64 kLogKeepBytes = 256 * 1024;

    ServerSession(std::shared_ptr<Transport> transport, QString hostKey, QObject* parent = nullptr);
    ~ServerSession() override;

    const QString& hostKey() const { return m_hostKey; }
    const std::shared_ptr<Transport>& transport() const { return m_transport; }
    // The job folder (tests use a temporary one); empty: the default. Forgets what was followed.
    void setJobRoot(const QString& root);
    const QString& jobRoot() const { return m_root; }
    void setPollInterval(int ms);
    // Polls and log tails run while at least one holder asks (the selected host's Server pane,
    // a recipe waiting for health); a holder that is deleted lets go.
    void setPolling(QObject* holder, bool on);
    bool isPolling() const;
    // Also poll this port whoever serves there (0: none).
    void setWatchedPort(quint16 port);
    quint16 watchedPort() const { return m_watched; }

    // Lists the host's jobs again: adopts running servers of ours, notices ended ones.
    void refresh();
    void launch(const LaunchRequest& request);
    bool isLaunching() const { return m_launching; }
    // Stops the server of ours on the port (TERM to its job, KILL after a grace period).
    void stop(quint16 port);

    // Every server known, by port (ascending).
    QList<quint16> ports() const;
    const ServerState* server(quint16 port) const;
    // The ports where a server of ours runs.
    QList<quint16> runningPorts() const;
    // Every server job of ours on the host at the last scan, newest first.
    const QList<JobInfo>& jobs() const { return m_jobs; }
    // The watched port at the last scan: free, taken (by anything), or not known.
    ServerScan::Port watchedPortState() const { return m_watchedState; }
    bool scannedOnce() const { return m_scanned; }
    QString lastScanError() const { return m_scanError; }

Q_SIGNALS:
    // A server appeared, ended or changed state (job, stopping); not every poll.
    void serversChanged();
    void statusUpdated(quint16 port, const kf::ServerStatus& status);
    void logReceived(quint16 port, const QByteArray& data);
    // A launch ended: started, refused (attempt without a job) or failed (error).
    void launchFinished(quint16 port, const kf::LaunchAttempt& attempt, const QString& error);
    // A stop was refused or failed (error); a stop that worked ends the server (serverEnded).
    void stopFailed(quint16 port, const QString& error);
    // A followed server job of ours ended (stopped, exited).
    void serverEnded(const kf::JobInfo& job);
    void scanned();

private:
    struct Entry;
    Entry& entry(quint16 port);
    void scanNow();
    void onScan(const ServerScan& scan);
    // The job is the port's server from now on: a different job than before starts its charts and log again.
    void adopt(Entry& e, const JobInfo& job, qint64 logFrom);
    void onStatus(quint16 port, const ServerStatus& status);
    void onJobFinished(quint16 port, const JobInfo& info);
    void appendLog(Entry& e, const QByteArray& data);
    // Starts or stops each entry's poll and log tail as polling and its state say.
    void updateFollowing();
    // Another server on the port (another model): its charts start again, its log too.
    void restartSeries(Entry& e);
    // A gap in the port's lines at timeMs (nothing measured there, or another job from here on).
    static void breakLines(Entry& e, qint64 timeMs);

    std::shared_ptr<Transport> m_transport;
    QString m_hostKey;
    QString m_root;
    int m_pollMs = kDefaultPollMs;
    QList<QPointer<QObject>> m_pollers;
    QSet<const QObject*> m_holders; // every holder whose deletion is watched
    quint16 m_watched = 0;
    std::map<quint16, std::unique_ptr<Entry>> m_entries;
    QList<JobInfo> m_jobs;
    ServerScan::Port m_watchedState = ServerScan::Port::Unknown;
    bool m_scanned = false;
    QString m_scanError;
    bool m_launching = false;
    QTimer m_rescan;
    JobTracker m_requests { this };
    JobTracker m_scans { this }; // the newest scan wins
};

} // namespace kf
