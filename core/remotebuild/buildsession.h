// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/jobs/remotejob.h"
#include "core/remotebuild/buildhistory.h"
#include "core/remotebuild/buildloganalyzer.h"
#include "core/remotebuild/buildmemory.h"
#include "core/remotebuild/buildprofile.h"
#include "core/remotebuild/etaestimator.h"
#include "core/remotebuild/rootcause.h"
#include "core/util/jobtracker.h"

#include <QElapsedTimer>
#include <QObject>
#include <QTimer>

#include <atomic>
#include <functional>
#include <memory>
#include <optional>

namespace kf {

struct BuildProgress
{
    int done = -1; // steps (ninja edges); -1 unknown
    int total = -1;
    int running = -1;
    int percent = -1; // 0..100
    double rate = -1; // steps/s; -1 unknown
    double etaS = -1; // seconds left; -1 unknown
    // The job's one clock: seconds from its start on the server to this update, whatever it was
    // doing (configure, compile, the end); at the end its whole duration. See BuildSession.
    double elapsedS = 0;
    qint64 startedMs = -1; // the job's start on the server, on this machine's clock (ms since epoch); -1 unknown
    QString description;
};

// A build followed to its end, blocking (BuildSession::follow).
struct FollowedBuild
{
    std::optional<JobInfo> info; // the job's end; none: stopped, or it could not be followed (error)
    QString error;
    QString firstError; // the root cause in its log (rootcause.h); empty: none found
};

// One build followed end to end: the job's log (RemoteJob), progress and ETA, diagnostics,
// the memory the build may use and its memory gate every few seconds (buildmemory.h), and the
// history row with, at the end, the peaks the gate learned (buildhistory::saveLearnedPeaks).
// Used by the Build pane and `kernelforge-cli build attach`. Lives in a thread with an event loop.
//
// One clock per job: attach() first reads the job on the server (its start, and the server's clock
// then: the offset to this machine's), then follows its log. Elapsed time, the ETA's samples and
// the history row all count from the job's start on the server to its end there; ninja's own
// clock (our NINJA_STATUS) only places replayed status lines, anchored to the job's clock per ninja
// run, so a configure step or a second ninja run never sets the time back.
class BuildSession : public QObject
{
    Q_OBJECT
public:
    BuildSession(std::shared_ptr<Transport> transport, QString hostName, QString jobId, QObject* parent = nullptr);
    ~BuildSession() override;

    // The blocking form, for a step on a worker thread (core/deploy/step.h): a session on the
    // calling thread follows the job to its end exactly as attach() does (history row, memory,
    // learned peaks), in that thread's event loop; returns at the end, when the job cannot be
    // followed, or soon after stop is set (the job runs on). progress: each update, on this thread.
    static FollowedBuild follow(std::shared_ptr<Transport> transport, const QString& hostName, const QString& jobId,
        const BuildProfile& profile, const QString& jobRoot, const std::atomic<bool>* stop,
        const std::function<void(const BuildProgress&)>& progress);

    void setJobRoot(const QString& root) { m_root = root; }
    // The profile the job was started from: names the history row and finds .ninja_log to seed the ETA.
    void setProfile(const BuildProfile& profile);
    const std::optional<BuildProfile>& profile() const { return m_profile; }
    // 0 disables memory polling.
    void setMemoryInterval(int ms) { m_memInterval = ms; }
    void setRecordHistory(bool on) { m_recordHistory = on; }
    void attach(qint64 offset = 0);
    void detach();

    const QString& jobId() const { return m_jobId; }
    const BuildProgress& progress() const { return m_progress; }
    const QList<Diagnostic>& diagnostics() const { return m_diagnostics; }
    // The diagnostic that explains a failure (core/remotebuild/rootcause.h).
    RootCause rootCause() const { return findRootCause(m_diagnostics); }
    // True from attach() until the job ended (or could not be followed).
    bool isRunning() const { return m_running; }
    // The most memory the server had available while followed (bytes; -1: never sampled).
    qint64 maxAvailableBytes() const { return m_maxAvailableKb < 0 ? -1 : m_maxAvailableKb * 1024; }
    const GateStatus& gateStatus() const { return m_gate; }
    qint64 peakUsedKb() const { return m_peakUsedKb; }
    RemoteJob* job() const { return m_job.get(); }

Q_SIGNALS:
    void logReceived(qint64 offset, const QByteArray& data);
    void progressChanged(const kf::BuildProgress& progress);
    void diagnosticFound(const kf::Diagnostic& diagnostic);
    void memorySampled(const kf::MemorySample& sample);
    // What the memory gate is doing (each look that found its ledger changed).
    void gateStatusChanged(const kf::GateStatus& status);
    void streamInterrupted(const QString& reason);
    void streamResumed(qint64 offset);
    void finished(const kf::JobInfo& info);
    void failed(const QString& error);
    // "previous run ... " once the previous build of this profile is known, and again with the
    // final numbers when this one ends.
    void previousRunKnown(const kf::BuildRecord& previous, const QString& comparison);

private:
    void onLog(qint64 offset, const QByteArray& data);
    void apply(const BuildLogEvents& ev);
    void pollMemory();
    void saveHistory(const JobInfo* info = nullptr);
    // The job's start and the server's clock, from a listing of it.
    void setClock(const JobInfo& info);
    // Seconds since the job started on the server, now (its whole duration once it ended).
    double jobElapsedS() const;
    void applyMemory(const BuildMemoryPoll& poll);
    // The last look at memory and the gate's measurements (learned peaks saved), then finished().
    void finish(const JobInfo& info);

    std::shared_ptr<Transport> m_transport;
    QString m_host;
    QString m_jobId;
    QString m_root;
    std::optional<BuildProfile> m_profile;
    std::unique_ptr<RemoteJob> m_job;
    BuildLogAnalyzer m_analyzer;
    EtaEstimator m_eta;
    BuildProgress m_progress;
    QList<Diagnostic> m_diagnostics;
    QElapsedTimer m_clock;     // since attach(): the fallback while the job's start is unknown
    qint64 m_jobStartMs = -1;  // the job's start, server clock (ms since epoch)
    qint64 m_jobEndMs = -1;    // its end, server clock; -1 while running
    qint64 m_skewMs = 0;       // server clock minus this machine's
    double m_ninjaBaseS = -1;  // the job's clock when the current ninja run started (its %e = 0); -1 unknown
    double m_lastNinjaS = -1;  // the last %e seen, to tell a new ninja run
    qint64 m_lastSampleMs = 0; // the ETA's samples never go back
    bool m_running = false;
    bool m_seededFromHistory = false;
    qint64 m_maxAvailableKb = -1;
    QTimer m_memTimer;
    QTimer m_historyTimer;
    BuildRecord m_record;
    std::optional<BuildRecord> m_previous; // this profile's run before this one on this host
    qint64 m_peakUsedKb = 0;
    qint64 m_oomKillsSeen = 0; // the job cgroup's OOM kills already reported
    GateStatus m_gate;
    int m_memInterval = 3000;
    bool m_recordHistory = true;
    bool m_historyDirty = false;
    JobTracker m_requests { this }; // cancelled by detach(): results for an earlier attach are dropped
    RequestHandle m_memPoll;
};

} // namespace kf

Q_DECLARE_METATYPE(kf::BuildProgress)
