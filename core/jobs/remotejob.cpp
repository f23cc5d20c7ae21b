// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/jobs/remotejob.h"

#include "core/log/logging.h"
#include "core/transport/transportpool.h"
#include "core/util/loginshell.h"
#include "core/util/shellquote.h"

#include <QThread>
#include <QtConcurrent>

namespace kf {
namespace {

CommandSpec shScript(const QString& script)
{
    CommandSpec c;
    c.command = script; // Transport runs it with /bin/sh whatever the login shell is
    return c;
}

QString failureText(const ExecResult& r)
{
    if (!r.error.isEmpty())
        return r.error;
    QString t = QString::fromUtf8(r.stdErr).trimmed();
    if (t.isEmpty())
        t = QString::fromUtf8(r.stdOut).trimmed();
    return t.isEmpty() ? QStringLiteral("exit status %1").arg(r.exitCode) : t;
}

} // namespace

Result<JobInfo> RemoteJob::start(Transport& transport, const JobSpec& spec)
{
    const QString id = spec.id.isEmpty() ? jobs::newJobId() : spec.id;
    if (!jobs::isValidJobId(id))
        return Result<JobInfo>::failure(QStringLiteral("invalid job id '%1'").arg(id));
    if (spec.command.trimmed().isEmpty())
        return Result<JobInfo>::failure(QStringLiteral("empty command"));
    for (auto it = spec.env.cbegin(); it != spec.env.cend(); ++it)
        if (!isShellName(it.key()))
            return Result<JobInfo>::failure(QStringLiteral("invalid environment variable name '%1'").arg(it.key()));
    for (const JobFile& f : spec.files)
        if (!jobs::isValidJobFileName(f.name))
            return Result<JobInfo>::failure(QStringLiteral("invalid job file name '%1'").arg(f.name));
    const ExecResult r = transport.exec(jobs::startCommand(spec, id), 60000);
    if (!r.ok())
        return Result<JobInfo>::failure(
            QStringLiteral("cannot start the job on %1: %2").arg(transport.describe(), failureText(r)));
    log::build()->info("started job {} on {}", id, transport.describe());
    auto i = info(transport, id, spec.root);
    if (!i)
        return i;
    return i;
}

QString RemoteJob::noSuchJob(Transport& transport, const QString& id)
{
    return QStringLiteral("no such job '%1' on %2").arg(id, transport.describe());
}

Result<JobInfo> RemoteJob::info(Transport& transport, const QString& id, const QString& root)
{
    if (!jobs::isValidJobId(id))
        return Result<JobInfo>::failure(noSuchJob(transport, id), ErrorKind::NotFound);
    const ExecResult r = transport.exec(shScript(jobs::listScript(root, id)), 30000);
    if (!r.ok())
        return Result<JobInfo>::failure(failureText(r));
    const auto parsed = jobs::parseJobList(r.stdOut);
    if (parsed.jobs.isEmpty())
        return Result<JobInfo>::failure(noSuchJob(transport, id), ErrorKind::NotFound);
    return parsed.jobs.first();
}

Result<QList<JobInfo>> RemoteJob::list(Transport& transport, const QString& root)
{
    const ExecResult r = transport.exec(shScript(jobs::listScript(root)), 30000);
    if (!r.ok())
        return Result<QList<JobInfo>>::failure(failureText(r));
    return jobs::parseJobList(r.stdOut).jobs;
}

Result<void> RemoteJob::cancel(Transport& transport, const QString& id, const QString& root, int graceSeconds)
{
    if (!jobs::isValidJobId(id))
        return Result<void>::failure(QStringLiteral("invalid job id '%1'").arg(id));
    const ExecResult r
        = transport.exec(shScript(jobs::cancelScript(root, id, graceSeconds)), (graceSeconds + 30) * 1000);
    if (!r.ok())
        return Result<void>::failure(QStringLiteral("cannot cancel job %1: %2").arg(id, failureText(r)));
    log::build()->info("cancelled job {} on {}", id, transport.describe());
    return {};
}

Result<QByteArray> RemoteJob::readLog(
    Transport& transport, const QString& id, qint64 offset, qint64 maxBytes, const QString& root)
{
    if (!jobs::isValidJobId(id))
        return Result<QByteArray>::failure(QStringLiteral("invalid job id '%1'").arg(id));
    QString script = QStringLiteral("tail -c +") + QString::number(offset + 1) + QLatin1Char(' ')
        + shellPath((root.isEmpty() ? kDefaultJobRoot : root) + QLatin1Char('/') + id + QStringLiteral("/log"));
    if (maxBytes >= 0)
        script += QStringLiteral(" | head -c ") + QString::number(maxBytes);
    const ExecResult r = transport.exec(shScript(script), 120000);
    if (!r.ok())
        return Result<QByteArray>::failure(failureText(r));
    return r.stdOut;
}

RemoteJob::RemoteJob(std::shared_ptr<Transport> transport, QString id, QString root, QObject* parent)
    : QObject(parent)
    , m_transport(std::move(transport))
    , m_id(std::move(id))
    , m_root(std::move(root))
{
    m_retry.setSingleShot(true);
    connect(&m_retry, &QTimer::timeout, this, &RemoteJob::openTail);
}

RemoteJob::~RemoteJob()
{
    detach();
}

void RemoteJob::attach(qint64 offset)
{
    Q_ASSERT(QThread::currentThread() == thread());
    detach();
    m_offset = offset;
    m_attached = true;
    m_failures = 0;
    if (!jobs::isValidJobId(m_id)) { // no folder can have that name: nothing to wait for
        // Said from the event loop, like every other answer, never from inside attach().
        m_requests.track(QtFuture::makeReadyFuture(), [this] {
            if (!m_attached)
                return;
            m_attached = false;
            Q_EMIT failed(noSuchJob(*m_transport, m_id));
        });
        return;
    }
    openTail();
}

void RemoteJob::detach()
{
    m_requests.cancelAll();
    m_attached = false;
    m_retry.stop();
    if (m_tail) {
        // Stop listening first: a cancelled tail must not look like the end of the job.
        disconnect(m_tail.get(), nullptr, this, nullptr);
        m_tail->cancel();
        m_tail.reset();
    }
}

void RemoteJob::openTail()
{
    if (!m_attached)
        return;
    CommandSpec spec = shScript(jobs::tailScript(m_root, m_id, m_offset));
    m_tail = m_transport->start(spec);
    if (!m_tail) {
        scheduleRetry(QStringLiteral("cannot open the log stream"));
        return;
    }
    ProcessHandle* tail = m_tail.get();
    connect(tail, &ProcessHandle::stdoutReceived, this, [this](const QByteArray& chunk) {
        if (chunk.isEmpty())
            return;
        if (m_interrupted) {
            m_interrupted = false;
            m_failures = 0;
            Q_EMIT streamResumed(m_offset);
        }
        const qint64 at = m_offset;
        m_offset += chunk.size();
        Q_EMIT logReceived(at, chunk);
    });
    connect(tail, &ProcessHandle::finished, this, &RemoteJob::onTailFinished);
}

void RemoteJob::scheduleRetry(const QString& reason)
{
    if (!m_attached)
        return;
    if (!m_interrupted) {
        m_interrupted = true;
        log::build()->warn("log stream of job {} interrupted at byte {}: {}", m_id, m_offset, reason);
        Q_EMIT streamInterrupted(reason);
    }
    ++m_failures;
    m_retry.start(m_retryMs * (1 << std::min(m_failures - 1, 3)));
}

void RemoteJob::onTailFinished(const ProcessExit& exit)
{
    // finished() arrives from the handle we own; release it after this slot returns.
    if (m_tail)
        m_tail.release()->deleteLater();
    if (!m_attached)
        return;
    if (!exit.error.isEmpty() || !exit.signal.isEmpty()) {
        scheduleRetry(exit.error.isEmpty() ? QStringLiteral("stream killed by signal ") + exit.signal : exit.error);
        return;
    }
    if (exit.exitCode == 3) {
        m_attached = false;
        Q_EMIT failed(noSuchJob(*m_transport, m_id));
        return;
    }
    checkState();
}

void RemoteJob::checkState()
{
    // tail ended normally: the job is probably over. Confirm, and make sure we have every byte.
    auto transport = m_transport;
    const QString id = m_id;
    const QString root = m_root;
    m_requests.track(
        QtConcurrent::run(transportPool(), [transport, id, root] { return RemoteJob::info(*transport, id, root); }),
        [this](const Result<JobInfo>& r) {
            if (!m_attached)
                return;
            if (!r && r.kind() == ErrorKind::NotFound) { // removed meanwhile: no retry finds it
                m_attached = false;
                Q_EMIT failed(r.error());
                return;
            }
            if (!r) {
                scheduleRetry(r.error());
                return;
            }
            const JobInfo& info = *r;
            if (info.state == JobInfo::State::Running || info.state == JobInfo::State::Starting
                || info.logSize > m_offset) {
                // Still running (tail gave up early) or bytes written after tail's last read.
                m_failures = 0;
                m_retry.start(info.logSize > m_offset ? 0 : m_retryMs);
                return;
            }
            m_attached = false;
            Q_EMIT finished(info);
        });
}

} // namespace kf
