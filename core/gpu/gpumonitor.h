// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/alerts.h"
#include "core/gpu/gpmdmon.h"
#include "core/gpu/gpmprobe.h"
#include "core/gpu/gpuhealthprobe.h"
#include "core/gpu/gpuhistory.h"
#include "core/gpu/gpuprocesses.h"
#include "core/gpu/nvidiasmi.h"
#include "core/transport/transport.h"
#include "core/util/jobtracker.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>

namespace kf {

// Watches the GPUs of one host:
//  1. probes `nvidia-smi --help-query-gpu` once to ask only for fields this driver knows;
//  2. keeps ONE long-lived `nvidia-smi --query-gpu=... --format=csv,noheader,nounits -lms N`
//     (Transport::start, resumable: the transport reopens it after a reconnect); if it exits
//     it is restarted with backoff (2 s doubling to 30 s) and a failure alert is raised;
//  3. lists GPU processes every processIntervalMs: one command (gpuProcessScript(): compute
//     apps, pmon's SM %, ps' user, CPU %, RSS and command line), parsed by parseGpuProcessOutput;
//  4. records every block into GpuHistory and turns AlertRules into raise/clear events,
//     logged on the "monitor" logger;
//  5. GPM (SM, tensor and DRAM activity, PCIe and NVLink traffic: the Dmon rows of the field
//     table): once per host (the monitor lives as long as its host) the GPM probe
//     (core/gpu/gpmprobe.h) says whether the GPUs and driver have it, and why not; when they
//     do, a second long-lived, resumable `nvidia-smi dmon --gpm-metrics ...` runs beside the
//     query (restarted with the same backoff), and each block carries every GPU's latest GPM
//     values (none when they are older than 3 dmon intervals + 2 s: stale, never zero);
//  6. the health check (core/gpu/gpuhealthprobe.h) after the first block and then every
//     healthIntervalMs (when set), and on checkHealth(): Xid events, ECC, retired pages, remapped rows, PCIe link and
//     replays, NVLink errors, clock-event time, judged per GPU (core/gpu/gpuhealth.h).
// Sample times: when the driver knows the `timestamp` field (every driver since 2012), it is
// queried first and becomes the sample time, so a block is dated when nvidia-smi took it,
// not when it crossed the network. The column is the server's local wall clock; it is mapped
// to ms since the epoch with the server's UTC offset, taken as the difference to this
// machine's clock rounded to 15 minutes (clocks may differ by minutes, time zones by
// multiples of 15 minutes). Without the column, blocks are dated on arrival.
// Continuity across reconnects: a sample whose timestamp this GPU already delivered (a
// restarted or replayed stream repeating itself) is dropped and counted; after a resume,
// a restart, or a silence longer than 3 intervals + 2 s, the missing interval is recorded
// as a gap: a NaN sample in every series right after the last good one (so charts draw a
// gap, not a line across it), an entry in gaps() and gapRecorded().
// Lives in (and must be used from) the thread that created it, which needs an event loop;
// blocking transport calls run on the thread pool and come back through queued
// continuations guarded by a generation number (stale answers after stop() are dropped).
class GpuMonitor : public QObject
{
    Q_OBJECT
public:
    enum class State { Stopped, Probing, Streaming, Restarting, Failed };
    Q_ENUM(State)

    struct Options
    {
        int intervalMs = 1000;
        int processIntervalMs = 5000; // 0: never list processes
        QString nvidiaSmi = QStringLiteral("nvidia-smi");
        QMap<QString, QString> env;    // for the remote command (tests, demo knobs)
        bool gpm = true;               // probe GPM once and stream it when the GPUs have it
        int healthIntervalMs = 600000; // 0: never check health
    };

    // Where GPM stands on this host.
    struct GpmStatus
    {
        enum class Phase : quint8 { Off, Probing, Streaming, Unavailable, Restarting };
        Phase phase = Phase::Off;
        QString why;        // Unavailable: the probe's reason; Restarting: why dmon stopped
        GpmSupport support; // the probe's answer
        int intervalS = 0;  // dmon's interval while streaming
        // One sentence for people: "GPM through nvidia-smi dmon every 1 s (SM active, ...)",
        // "GPM not available: GPU 0: NVIDIA A100 ..., compute capability 8.0, predates Hopper...".
        QString text() const;
    };

    GpuMonitor(std::shared_ptr<Transport> transport, QString hostName, QObject* parent = nullptr);
    GpuMonitor(std::shared_ptr<Transport> transport, QString hostName, Options options, QObject* parent = nullptr);
    ~GpuMonitor() override;

    void start();
    void stop();
    // A new sampling interval (Edit > Preferences): a running stream is replaced by one with it
    // at once; a monitor that is probing or restarting starts its stream with it.
    void setIntervalMs(int ms);
    int intervalMs() const { return m_options.intervalMs; }
    State state() const { return m_state; }
    QString hostName() const { return m_hostName; }
    // The last probe found no nvidia-smi on the host (the shell's "command not found", exit
    // status 127): no NVIDIA driver there. The monitor keeps retrying (backoff up to 30 s).
    bool driverMissing() const { return m_driverMissing; }

    void setAlertRules(const AlertRules& rules);
    AlertRules alertRules() const { return m_rules; }

    const QList<GpuSample>& latest() const { return m_latest; }
    qint64 latestTimeMs() const { return m_latestTime; }
    const QList<GpuProcess>& processes() const { return m_processes; }
    // The last process poll whole: the SSH user's uid, whether pmon answered, errors.
    const GpuProcessList& processList() const { return m_processList; }
    QList<Alert> activeAlerts() const { return m_active.values(); }
    const GpuHistory& history() const { return m_history; }
    const GpuFieldProbe& fields() const { return m_probe; }
    const GpmStatus& gpm() const { return m_gpm; }
    // The health check's last report; hasHealth() false until one answered.
    bool hasHealth() const { return m_healthTimeMs > 0; }
    const GpuHealthReport& health() const { return m_health; }
    qint64 healthTimeMs() const { return m_healthTimeMs; }
    QString healthError() const { return m_healthError; }
    // Runs the health check now (unless one runs); healthUpdated() when it answers.
    void checkHealth();
    // The exact stream command (for logs and the UI's "what runs on the server").
    QString streamCommand() const;
    int restarts() const { return m_restarts; }
    int resumes() const { return m_resumes; }
    qint64 blocks() const { return m_blocks; }
    // Samples dropped because their GPU had already delivered that timestamp.
    qint64 duplicatesDropped() const { return m_duplicates; }
    struct Gap
    {
        qint64 fromMs = 0; // the last sample before it
        qint64 toMs = 0;   // the first sample after it
    };
    // Recorded gaps, oldest first (the last 1000).
    const QList<Gap>& gaps() const { return m_gaps; }

Q_SIGNALS:
    void stateChanged(kf::GpuMonitor::State state, const QString& reason);
    // One block: every GPU of one nvidia-smi sample.
    void samplesUpdated(const QList<kf::GpuSample>& gpus);
    void processesUpdated(const QList<kf::GpuProcess>& processes);
    void alertRaised(const kf::Alert& alert);
    void alertCleared(const kf::Alert& alert);
    // No samples between fromMs and toMs (a reconnect, a restart, a stalled stream).
    void gapRecorded(qint64 fromMs, qint64 toMs);
    void gpmChanged();
    // The health check answered (or failed: healthError()).
    void healthUpdated();

private:
    void probe();
    void startStream();
    void onStdout(const QByteArray& chunk);
    void onFinished(const ProcessExit& exit);
    void flushBlock();
    void pollProcesses();
    void setState(State state, const QString& reason = {});
    void updateAlerts(const QList<Alert>& now, bool smiScope);
    void scheduleRestart(const QString& why);
    qint64 sampleTime(qint64 sourceMs);
    void probeGpm();
    void startGpmStream();
    void stopGpmStream();
    void onGpmStdout(const QByteArray& chunk);
    void onGpmFinished(const ProcessExit& exit);
    void setGpm(GpmStatus::Phase phase, const QString& why = {});
    void mergeGpm(QList<GpuSample>& block) const;

    std::shared_ptr<Transport> m_transport;
    QString m_hostName;
    Options m_options;
    AlertRules m_rules;
    State m_state = State::Stopped;
    bool m_driverMissing = false;
    JobTracker m_requests { this }; // probe and process polls; cancelled by stop() and a new stream
    GpuFieldProbe m_probe;
    std::unique_ptr<ProcessHandle> m_stream;
    QByteArray m_lineBuffer;
    QByteArray m_stderrTail;
    QList<GpuSample> m_block;
    QList<GpuSample> m_latest;
    qint64 m_latestTime = 0;
    QList<GpuProcess> m_processes;
    GpuProcessList m_processList;
    RequestHandle m_processPoll;
    QHash<QString, Alert> m_active;
    GpuHistory m_history;
    QTimer m_blockTimer;
    QTimer m_processTimer;
    QTimer m_restartTimer;
    int m_backoffMs = 2000;
    int m_restarts = 0;
    int m_resumes = 0;
    qint64 m_blocks = 0;
    // Continuity: the last source timestamp per GPU index (as printed, "as if UTC").
    QHash<int, qint64> m_lastSource;
    qint64 m_duplicates = 0;
    qint64 m_clockOffsetMs = 0;
    bool m_clockOffsetValid = false;
    bool m_gapPending = false;
    QList<Gap> m_gaps;
    // GPM: probed once, then its own stream beside the query.
    JobTracker m_sideRequests { this }; // the GPM probe and the health check; cancelled by stop()
    GpmStatus m_gpm;
    std::unique_ptr<ProcessHandle> m_gpmStream;
    QByteArray m_gpmBuffer;
    DmonLayout m_gpmLayout;
    struct GpmLatest
    {
        GpuSample values;
        qint64 arrivalMs = 0; // this machine's clock
    };
    QHash<int, GpmLatest> m_gpmLatest;
    QTimer m_gpmRestartTimer;
    int m_gpmBackoffMs = 2000;
    // Health.
    GpuHealthReport m_health;
    qint64 m_healthTimeMs = 0;
    QString m_healthError;
    RequestHandle m_healthCheck;
    QTimer m_healthTimer;
};

} // namespace kf
