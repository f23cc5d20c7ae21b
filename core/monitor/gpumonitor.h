// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/monitor/alerts.h"
#include "core/monitor/gpuhistory.h"
#include "core/monitor/nvidiasmi.h"
#include "core/transport/transport.h"

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
//  3. lists compute processes every processIntervalMs with --query-compute-apps;
//  4. records every block into GpuHistory and turns AlertRules into raise/clear events,
//     logged on the "monitor" logger.
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
        int processIntervalMs = 5000;  // 0: never list processes
        QString nvidiaSmi = QStringLiteral("nvidia-smi");
        QMap<QString, QString> env;    // for the remote command (tests, demo knobs)
    };

    GpuMonitor(std::shared_ptr<Transport> transport, QString hostName, QObject* parent = nullptr);
    GpuMonitor(std::shared_ptr<Transport> transport, QString hostName, Options options, QObject* parent = nullptr);
    ~GpuMonitor() override;

    void start();
    void stop();
    State state() const { return m_state; }
    QString hostName() const { return m_hostName; }

    void setAlertRules(const AlertRules& rules);
    AlertRules alertRules() const { return m_rules; }

    const QList<GpuSample>& latest() const { return m_latest; }
    qint64 latestTimeMs() const { return m_latestTime; }
    const QList<GpuProcess>& processes() const { return m_processes; }
    QList<Alert> activeAlerts() const { return m_active.values(); }
    const GpuHistory& history() const { return m_history; }
    const GpuFieldProbe& fields() const { return m_probe; }
    // The exact stream command (for logs and the UI's "what runs on the server").
    QString streamCommand() const;
    int restarts() const { return m_restarts; }
    int resumes() const { return m_resumes; }
    qint64 blocks() const { return m_blocks; }

Q_SIGNALS:
    void stateChanged(kf::GpuMonitor::State state, const QString& reason);
    // One block: every GPU of one nvidia-smi sample.
    void samplesUpdated(const QList<kf::GpuSample>& gpus);
    void processesUpdated(const QList<kf::GpuProcess>& processes);
    void alertRaised(const kf::Alert& alert);
    void alertCleared(const kf::Alert& alert);

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

    std::shared_ptr<Transport> m_transport;
    QString m_hostName;
    Options m_options;
    AlertRules m_rules;
    State m_state = State::Stopped;
    quint64 m_generation = 0;
    GpuFieldProbe m_probe;
    std::unique_ptr<ProcessHandle> m_stream;
    QByteArray m_lineBuffer;
    QByteArray m_stderrTail;
    QList<GpuSample> m_block;
    QList<GpuSample> m_latest;
    qint64 m_latestTime = 0;
    QList<GpuProcess> m_processes;
    bool m_processesInFlight = false;
    QHash<QString, Alert> m_active;
    GpuHistory m_history;
    QTimer m_blockTimer;
    QTimer m_processTimer;
    QTimer m_restartTimer;
    int m_backoffMs = 2000;
    int m_restarts = 0;
    int m_resumes = 0;
    qint64 m_blocks = 0;
};

} // namespace kf
