// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/servebench/benchrun.h"
#include "core/servebench/goodputsearch.h"
#include "core/servebench/loadgenerator.h"
#include "core/server/serverclient.h"
#include "core/transport/transport.h"
#include "core/util/jobtracker.h"

#include <QObject>
#include <QThread>
#include <QTimer>

#include <functional>
#include <memory>
#include <optional>

namespace kf {

class GpuMonitor;
class LocalPortForward;

// A serving-benchmark sweep against the inference server on a host's loopback, the one core
// API behind `kernelforge-cli server bench` and the Server pane's Benchmark button:
//   1. asks the server who it is (/server_info, /model_info, /v1/models: model, version,
//      precision, TP/DP) through the transport, on the transport pool;
//   2. opens the endpoint the generator connects to: over SSH a LocalPortForward on this
//      machine's 127.0.0.1 (every request one direct-tcpip channel of the host's session),
//      with a LocalTransport the server's port itself;
//   3. sends one warm-up request (not counted) whose reported prompt_tokens calibrate the
//      prompt length, then its levels (BenchParams::plannedLevels(), or the ones a goodput
//      search picks), each on the LoadGenerator's own thread, with a /metrics poll just
//      before and just after each level (the server-agreement window, other load);
//   4. meanwhile samples the GPUs (GpuMonitor: utilisation, power, clocks, throttle reasons)
//      and the server's /metrics (running and queued requests, throughput, token counters);
//   5. analyses each level (analyzeLevel: goodput, steady window, saturation, agreement,
//      energy), stops after a saturated level when asked, keeps the context (benchcontext.h),
//      stores the run in the history database (core/servebench/benchstore.h), emits finished().
// cancel() aborts every request at once (each socket closed: the server aborts requests whose
// client went away) and ends the run as "cancelled", stored with the levels done so far.
// Lives in (and must be used from) a thread with an event loop, normally the GUI thread.
class ServeBench : public QObject
{
    Q_OBJECT
public:
    enum class State { Idle, Preparing, WarmingUp, Running, Finished };
    Q_ENUM(State)

    // host: the label runs are stored under (Transport::describe(), or "local").
    ServeBench(std::shared_ptr<Transport> transport, QString host, QObject* parent = nullptr);
    ~ServeBench() override;

    // Idle or Finished only. Results come through the signals below.
    void start(const BenchParams& params);
    void cancel();
    // Whether finished() stores the run (default true; tests may switch it off).
    void setStoreResults(bool store) { m_store = store; }

    State state() const { return m_state; }
    // The run so far (levels done, samples), complete after finished().
    const BenchRun& run() const { return m_run; }

Q_SIGNALS:
    void stateChanged(kf::ServeBench::State state, const QString& description);
    void levelStarted(int index, const kf::LevelPlan& level, int requests);
    // Throttled to ~10 per second per level.
    void progress(int index, int done, int total);
    void levelFinished(int index, const kf::LevelResult& level);
    // Once per start(); run().status is completed, cancelled or failed.
    void finished(const kf::BenchRun& run);

private:
    struct Facts
    {
        ServerStatus status;
        QString modelId; // /v1/models data[0].id
        BenchContext context;
        QList<SharePair> shareGpt;
        QString datasetSha256;
        QString datasetError;
    };
    void setState(State state, const QString& description);
    void onFacts(const Facts& facts);
    Result<void> openEndpoint();
    void startWarmup();
    void nextLevel();
    void startLevel(const LevelPlan& level);
    void onLoadFinished(const LoadResult& result);
    // One /metrics poll between levels, then `then` with it (also kept in run().metrics).
    void sampleMetrics(std::function<void(const MetricsPoint&)> then);
    void pollMetrics();
    void startGpuMonitor();
    void sideDataReady(bool gpu);
    WorkloadSpec workloadSpec(int level) const;
    LoadSpec loadSpec() const; // what every request of the run shares
    void finish(const QString& status, const QString& error = {});

    std::shared_ptr<Transport> m_transport;
    QString m_host;
    BenchRun m_run;
    State m_state = State::Idle;
    bool m_store = true;
    bool m_cancelling = false;
    int m_level = -1; // the level running (index into run().levels to be); -1: the warm-up
    LevelPlan m_current;
    MetricsPoint m_lastPoll; // the newest between-level poll: the next level's "before"
    bool m_betweenLevels = false;
    std::optional<GoodputSearch> m_search;
    QList<SharePair> m_shareGpt;
    QByteArray m_salt;
    JobTracker m_requests { this };
    RequestHandle m_metricsPoll;
    QTimer m_metricsTimer;
    QTimer m_startGate;
    bool m_waitingGpu = false;
    bool m_waitingMetrics = false;
    ServerStatus m_lastStatus;
    std::unique_ptr<GpuMonitor> m_gpu;
    std::unique_ptr<LocalPortForward> m_forward;
    QString m_endpointHost;
    quint16 m_endpointPort = 0;
    QThread m_thread;
    LoadGenerator* m_generator; // lives in m_thread
};

} // namespace kf
