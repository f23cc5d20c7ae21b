// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/buildsession.h"

#include "core/events/eventlog.h"
#include "core/log/logging.h"
#include "core/remotebuild/buildtree.h"
#include "core/remotebuild/ninjalog.h"
#include "core/sglkernel/rules.h"
#include "core/transport/transportpool.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QEventLoop>
#include <QThread>
#include <QtConcurrent>

namespace kf {

namespace {

// What the session learns when the job has ended, from files the job left (SFTP, no command:
// a server that hangs a command does not hold the end up): the memory at its start and end and
// the gate's ledger, and from a gated build the peaks its units measured (memgate.peaks), merged
// into what was learned before and saved.
struct FinalLook
{
    BuildMemoryPoll memory;
    int learnedUnits = -1; // -1: no gate measurements (or they could not be read)
    QString error;         // why they were not saved
};

FinalLook finalLook(Transport& transport, const QString& root, const QString& id, const QString& host,
    const QString& profile, bool recordHistory)
{
    const QString dir = (root.isEmpty() ? kDefaultJobRoot : root) + QLatin1Char('/') + id + QLatin1Char('/');
    auto file = [&](const char* name, qint64 limit) {
        const auto r = transport.readFile(dir + QLatin1String(name), limit);
        return r ? *r : QByteArray();
    };
    FinalLook out;
    out.memory = endedBuildMemory(file("memview.start", 1 << 20), file("memview.end", 1 << 20),
        file("memgate.state", 4 << 20), QDateTime::currentMSecsSinceEpoch());
    const auto peaks = transport.readFile(dir + QStringLiteral("memgate.peaks"), 16 << 20);
    if (!peaks || !recordHistory || profile.isEmpty())
        return out;
    const QList<UnitPeak> measured = memorygate::parsePeaks(*peaks);
    const auto before = buildhistory::learnedPeaks(host, profile);
    if (!before) {
        out.error = before.error();
        return out;
    }
    const QList<UnitPeak> learned = memorygate::learn(*before, measured);
    if (const auto saved = buildhistory::saveLearnedPeaks(host, profile, id, learned); !saved)
        out.error = saved.error();
    else
        out.learnedUnits = int(learned.size());
    return out;
}

} // namespace

BuildSession::BuildSession(std::shared_ptr<Transport> transport, QString hostName, QString jobId, QObject* parent)
    : QObject(parent)
    , m_transport(std::move(transport))
    , m_host(std::move(hostName))
    , m_jobId(std::move(jobId))
{
    connect(&m_memTimer, &QTimer::timeout, this, &BuildSession::pollMemory);
    m_historyTimer.setInterval(10000);
    connect(&m_historyTimer, &QTimer::timeout, this, [this] {
        if (m_historyDirty)
            saveHistory();
    });
}

BuildSession::~BuildSession()
{
    detach();
}

FollowedBuild BuildSession::follow(std::shared_ptr<Transport> transport, const QString& hostName, const QString& jobId,
    const BuildProfile& profile, const QString& jobRoot, const std::atomic<bool>* stop,
    const std::function<void(const BuildProgress&)>& progress)
{
    Q_ASSERT(QThread::currentThread() != QCoreApplication::instance()->thread());
    FollowedBuild out;
    QEventLoop loop;
    BuildSession session(std::move(transport), hostName, jobId);
    session.setJobRoot(jobRoot);
    session.setProfile(profile);
    if (progress)
        connect(&session, &BuildSession::progressChanged, &loop, progress);
    connect(&session, &BuildSession::failed, &loop, [&](const QString& why) {
        out.error = why;
        loop.quit();
    });
    connect(&session, &BuildSession::finished, &loop, [&](const JobInfo& info) {
        out.info = info;
        if (const RootCause cause = session.rootCause(); cause.diagnostic)
            out.firstError = diagnosticText(*cause.diagnostic);
        loop.quit();
    });
    QTimer stopPoll;
    connect(&stopPoll, &QTimer::timeout, &loop, [&] {
        if (stop && stop->load())
            loop.quit();
    });
    stopPoll.start(100);
    session.attach(0);
    if (session.isRunning() && !(stop && stop->load()))
        loop.exec();
    return out;
}

void BuildSession::setProfile(const BuildProfile& profile)
{
    m_profile = profile;
}

void BuildSession::attach(qint64 offset)
{
    Q_ASSERT(QThread::currentThread() == thread());
    detach();
    m_analyzer = BuildLogAnalyzer();
    m_eta.reset();
    m_progress = BuildProgress();
    m_diagnostics.clear();
    m_clock.start();
    m_jobStartMs = m_jobEndMs = -1;
    m_skewMs = 0;
    m_ninjaBaseS = m_lastNinjaS = -1;
    m_lastSampleMs = 0;
    m_running = true;
    m_seededFromHistory = false;
    m_maxAvailableKb = -1;
    m_record = BuildRecord();
    m_previous.reset();
    m_oomKillsSeen = 0;
    m_gate = GateStatus();
    m_record.jobId = m_jobId;
    m_record.host = m_host;
    m_record.profile = m_profile ? m_profile->name : QString();
    m_record.spec = m_profile ? buildSpec(*m_profile) : QJsonObject();
    m_record.actor = timeline::defaultActor();
    m_job = std::make_unique<RemoteJob>(m_transport, m_jobId, m_root);
    connect(m_job.get(), &RemoteJob::logReceived, this, &BuildSession::onLog);
    connect(m_job.get(), &RemoteJob::streamInterrupted, this, &BuildSession::streamInterrupted);
    connect(m_job.get(), &RemoteJob::streamResumed, this, &BuildSession::streamResumed);
    connect(m_job.get(), &RemoteJob::failed, this, [this](const QString& error) {
        m_running = false;
        Q_EMIT failed(error);
    });
    connect(m_job.get(), &RemoteJob::finished, this, &BuildSession::finish);

    auto transport = m_transport;
    if (m_profile) {
        // The ETA starts from the previous successful run of this profile, on the same clock (its
        // job's start to end); without one from the previous .ninja_log (compile steps only).
        if (m_recordHistory) {
            if (const auto prev = buildhistory::previous(m_host, m_profile->name, m_jobId); prev && prev->has_value()) {
                m_previous = **prev;
                if (m_previous->result == QLatin1String("succeeded") && m_previous->stepsDone > 0
                    && m_previous->durationMs() > 0) {
                    m_eta.seed(m_previous->stepsDone, m_previous->durationMs());
                    m_seededFromHistory = true;
                }
                Q_EMIT previousRunKnown(**prev, compareBuilds(m_record, **prev));
            }
        }
        const BuildProfile profile = *m_profile;
        m_requests.track(QtConcurrent::run(transportPool(),
                             [transport, profile] {
                                 // A kernel_tree profile's .ninja_log is in the tree it builds in.
                                 const auto tree = resolveBuildTree(*transport, profile);
                                 const auto data = transport->readFile((tree ? tree->profile : profile).ninjaLogPath());
                                 return data ? parseNinjaLog(*data) : NinjaLog { 0, {}, 0, 0, data.error() };
                             }),
            [this](const NinjaLog& log) {
                if (log && !log.lastRun.isEmpty() && !m_seededFromHistory)
                    m_eta.seed(log);
            });
    }
    if (m_memInterval > 0) {
        m_memTimer.start(m_memInterval);
        pollMemory();
    }
    if (m_recordHistory)
        m_historyTimer.start();
    // The clock first, then the log: every progress update is on the job's clock.
    const QString id = m_jobId;
    const QString root = m_root;
    m_requests.track(
        QtConcurrent::run(transportPool(), [transport, id, root] { return RemoteJob::info(*transport, id, root); }),
        [this, offset](const Result<JobInfo>& info) {
            if (info) {
                setClock(*info);
                m_progress.elapsedS = jobElapsedS();
                m_progress.startedMs = m_jobStartMs < 0 ? -1 : m_jobStartMs - m_skewMs;
                Q_EMIT progressChanged(m_progress);
            }
            // A job that cannot be read is RemoteJob's to report (no such job, or a retry).
            if (m_job)
                m_job->attach(offset);
        });
}

void BuildSession::detach()
{
    m_requests.cancelAll();
    m_memTimer.stop();
    m_historyTimer.stop();
    m_running = false;
    if (m_job) {
        m_job->detach();
        m_job.reset();
    }
}

void BuildSession::setClock(const JobInfo& info)
{
    if (info.listedAt.isValid())
        m_skewMs = info.listedAt.toMSecsSinceEpoch() - QDateTime::currentMSecsSinceEpoch();
    if (info.started.isValid()) {
        m_jobStartMs = info.started.toMSecsSinceEpoch();
        m_record.started = info.started;
    }
    if (info.state == JobInfo::State::Finished && info.ended.isValid())
        m_jobEndMs = info.ended.toMSecsSinceEpoch();
}

double BuildSession::jobElapsedS() const
{
    if (m_jobStartMs < 0)
        return double(m_clock.elapsed()) / 1000.0;
    const qint64 now = m_jobEndMs >= 0 ? m_jobEndMs : QDateTime::currentMSecsSinceEpoch() + m_skewMs;
    return double(std::max<qint64>(0, now - m_jobStartMs)) / 1000.0;
}

void BuildSession::onLog(qint64 offset, const QByteArray& data)
{
    Q_EMIT logReceived(offset, data);
    apply(m_analyzer.feed(data));
}

void BuildSession::apply(const BuildLogEvents& ev)
{
    for (const Diagnostic& d : ev.diagnostics) {
        m_diagnostics.append(d);
        if (d.severity == Diagnostic::Severity::Error)
            ++m_record.errors;
        // The root cause is the first cause in the log; it never changes once seen.
        if (m_record.firstError.isEmpty() && rankOf(d) == DiagnosticRank::Cause)
            m_record.firstError = diagnosticText(d).left(500);
        m_record.oom = m_record.oom || isOutOfMemory(d);
        Q_EMIT diagnosticFound(d);
    }
    if (ev.progress.isEmpty())
        return;
    const double now = jobElapsedS();
    // Per ninja run in this chunk, the %e of its last status line: the one printed nearest to now
    // (a replayed log comes in large chunks; read backwards, %e jumps up where a run begins).
    QList<double> runLast(ev.progress.size(), -1);
    double last = -1;
    double seen = -1;
    for (qsizetype i = ev.progress.size() - 1; i >= 0; --i) {
        const double e = ev.progress[i].elapsedS;
        if (e < 0)
            continue;
        if (last < 0 || e > seen + 0.5)
            last = e;
        seen = e;
        runLast[i] = last;
    }
    // One progress signal per chunk: the last status line is what matters.
    for (qsizetype i = 0; i < ev.progress.size(); ++i) {
        const ProgressUpdate& u = ev.progress[i];
        double t = now;
        if (u.elapsedS >= 0) {
            if (m_lastNinjaS >= 0 && u.elapsedS + 0.5 < m_lastNinjaS)
                m_ninjaBaseS = -1; // a new ninja run (CMake re-ran, a second target): its %e restarts
            m_lastNinjaS = u.elapsedS;
            // A status line is read after it was printed: this run of ninja began at most now - %e.
            const double bound = std::max(0.0, now - runLast[i]);
            if (m_ninjaBaseS < 0 || bound < m_ninjaBaseS)
                m_ninjaBaseS = bound;
            t = std::min(now, m_ninjaBaseS + u.elapsedS);
        }
        const qint64 tMs = std::max(m_lastSampleMs, qint64(t * 1000));
        m_lastSampleMs = tMs;
        if (u.source == ProgressUpdate::Source::CMakePercent) {
            m_progress.percent = u.percent;
        } else {
            m_eta.addSample(tMs, u.done, u.total);
            m_progress.done = u.done;
            m_progress.total = u.total;
            m_progress.running = u.running;
            m_progress.percent = u.percent;
        }
        m_progress.elapsedS = double(tMs) / 1000.0;
        m_progress.description = u.description;
    }
    m_progress.startedMs = m_jobStartMs < 0 ? -1 : m_jobStartMs - m_skewMs;
    m_progress.rate = m_eta.rate().value_or(-1);
    m_progress.etaS = m_eta.etaSeconds().value_or(-1);
    m_record.stepsDone = std::max(0, m_progress.done);
    m_record.stepsTotal = std::max(0, m_progress.total);
    m_historyDirty = true;
    Q_EMIT progressChanged(m_progress);
}

void BuildSession::finish(const JobInfo& info)
{
    apply(m_analyzer.finish());
    m_memTimer.stop();
    m_historyTimer.stop();
    m_memPoll.cancel(); // a look still on its way would land after finished()
    m_running = false;
    setClock(info);
    // Ended: nothing runs and nothing is projected any more (a failed build has no ETA); the
    // elapsed time is the job's whole duration on the server, as its history row says.
    if (m_progress.total > 0) {
        m_progress.etaS = info.exitStatus == 0 && !info.cancelled ? 0 : -1;
        m_progress.running = 0;
    }
    m_progress.elapsedS = jobElapsedS();
    Q_EMIT progressChanged(m_progress);
    auto transport = m_transport;
    const QString profile = m_profile ? m_profile->name : info.name;
    m_requests.track(QtConcurrent::run(transportPool(),
                         [transport, root = m_root, id = m_jobId, host = m_host, profile, record = m_recordHistory] {
                             return finalLook(*transport, root, id, host, profile, record);
                         }),
        [this, info](const FinalLook& look) {
            applyMemory(look.memory);
            if (!look.error.isEmpty())
                log::build()->warn("cannot keep the peaks job {} learned: {}", m_jobId, look.error);
            else if (look.learnedUnits >= 0)
                log::build()->info("job {}: learned peaks of {} units", m_jobId, look.learnedUnits);
            saveHistory(&info);
            if (m_previous) // with the final numbers
                Q_EMIT previousRunKnown(*m_previous, compareBuilds(m_record, *m_previous));
            Q_EMIT finished(info);
        });
}

void BuildSession::pollMemory()
{
    if (m_memPoll.isPending())
        return;
    auto transport = m_transport;
    // /proc and cgroup files report size 0, so they are read by a script rather than SFTP.
    m_memPoll = m_requests.track(QtConcurrent::run(transportPool(),
                                     [transport, script = buildMemoryScript(m_root, m_jobId)]() -> Result<QByteArray> {
                                         CommandSpec c;
                                         c.command = script;
                                         c.maxOutputBytes = 4 << 20;
                                         const ExecResult r = transport->exec(c, 15000);
                                         if (!r.ok())
                                             return Result<QByteArray>::failure(
                                                 r.error.isEmpty() ? QString::fromUtf8(r.stdErr) : r.error);
                                         return r.stdOut;
                                     }),
        [this](const Result<QByteArray>& r) {
            if (r)
                applyMemory(parseBuildMemory(*r, QDateTime::currentMSecsSinceEpoch()));
        });
}

void BuildSession::applyMemory(const BuildMemoryPoll& poll)
{
    if (poll.gate.present && poll.gate.updatedMs != m_gate.updatedMs) {
        m_gate = poll.gate;
        Q_EMIT gateStatusChanged(m_gate);
    }
    const MemorySample& s = poll.sample;
    if (s.totalKb <= 0)
        return;
    m_peakUsedKb = std::max(m_peakUsedKb, s.totalKb - s.availableKb);
    m_maxAvailableKb = std::max(m_maxAvailableKb, s.availableKb);
    m_record.peakMemKb = m_peakUsedKb;
    if (s.oomKills > m_oomKillsSeen) {
        // The kernel's own count: evidence even when the log says nothing ("[code=137]" alone, a
        // pip that swallowed the compiler's output). A gated build runs such a compile again alone.
        Diagnostic d;
        d.kind = Diagnostic::Kind::Oom;
        d.hint = Diagnostic::Hint::Oom;
        d.severity = m_gate.present ? Diagnostic::Severity::Warning : Diagnostic::Severity::Error;
        d.message = QStringLiteral("the OOM killer killed %1 process(es) in the build's cgroup %2 (its oom_kill "
                                   "count)%3")
                        .arg(s.oomKills - m_oomKillsSeen)
                        .arg(s.cgroup,
                            m_gate.present ? QStringLiteral("; the memory gate runs a killed compile again alone")
                                           : QString());
        // Without the gate: the budget that fits what the build may use (its cgroup's limit).
        if (!m_gate.present && m_profile && m_profile->maxJobs > 0) {
            const int threads = m_profile->nvccThreads > 0 ? m_profile->nvccThreads
                : m_profile->nvccThreadsDefine.isEmpty()   ? 1
                                                           : sglkernel::kDefaultCompileThreads;
            d.message += QStringLiteral(". ") + sglkernel::oomAdvice(s.totalKb * 1024, m_profile->maxJobs, threads);
        }
        m_oomKillsSeen = s.oomKills;
        apply({ {}, { d }, 0 });
    }
    Q_EMIT memorySampled(s);
}

void BuildSession::saveHistory(const JobInfo* info)
{
    if (!m_recordHistory)
        return;
    m_historyDirty = false;
    if (info) {
        m_record.started = info->started;
        m_record.ended = info->ended;
        m_record.exitStatus = info->exitStatus;
        m_record.result = buildResultFor(info->exitStatus, info->cancelled);
        // Without a cause in the log the summary is the best there is.
        if (m_record.firstError.isEmpty())
            if (const RootCause cause = rootCause(); cause.diagnostic)
                m_record.firstError = diagnosticText(*cause.diagnostic).left(500);
    } else if (!m_record.started.isValid()) {
        m_record.started = QDateTime::currentDateTimeUtc().addMSecs(-qint64(jobElapsedS() * 1000));
    }
    if (const auto r = buildhistory::save(m_record); !r)
        log::build()->warn("cannot record build {}: {}", m_jobId, r.error());
}

} // namespace kf
