// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/jobs/jobfolder.h"
#include "core/transport/transport.h"
#include "core/util/jobtracker.h"

#include <QObject>
#include <QPointer>
#include <QTimer>

#include <memory>

namespace kf {

// A detached job on a host (see jobfolder.h for the folder layout): start it, follow its log
// from any byte offset, cancel it, list and reattach. Generic over Transport: builds use it,
// and so does anything else that must outlive the connection (an SGLang server).
//
// The static calls block: call them from a worker thread (never the GUI thread).
// A RemoteJob object streams one job's log: it lives in a thread with an event loop, runs
// the tail through Transport::start() and its blocking checks through QtConcurrent.
// Invariant: logReceived() chunks are contiguous, starting at the attach() offset; after a
// dropped stream the tail restarts at offset(), so nothing is lost or repeated.
class RemoteJob : public QObject
{
    Q_OBJECT
public:
    static Result<JobInfo> start(Transport& transport, const JobSpec& spec);
    static Result<JobInfo> info(Transport& transport, const QString& id, const QString& root = {});
    // "no such job '<id>' on <host>": what info() and failed() say for an unknown or invalid id.
    static QString noSuchJob(Transport& transport, const QString& id);
    static Result<QList<JobInfo>> list(Transport& transport, const QString& root = {});
    // TERM to the whole process group, KILL after graceSeconds; records rc 137 if the runner died too.
    static Result<void> cancel(
        Transport& transport, const QString& id, const QString& root = {}, int graceSeconds = 10);
    // Reads [offset, offset+maxBytes) of the log (blocking).
    static Result<QByteArray> readLog(
        Transport& transport, const QString& id, qint64 offset, qint64 maxBytes = -1, const QString& root = {});

    RemoteJob(std::shared_ptr<Transport> transport, QString id, QString root = {}, QObject* parent = nullptr);
    ~RemoteJob() override;

    const QString& id() const { return m_id; }
    // Starts following the log from byte offset (0: from the start; the size of a local copy to resume).
    void attach(qint64 offset = 0);
    // Stops following; the job keeps running.
    void detach();
    bool isAttached() const { return m_attached; }
    // Bytes of the log received so far, counted from 0.
    qint64 offset() const { return m_offset; }
    // Delay before re-opening a dropped stream (doubles up to 8x on repeated failures).
    void setRetryInterval(int ms) { m_retryMs = ms; }

Q_SIGNALS:
    // data is the log from byte `offset` on.
    void logReceived(qint64 offset, const QByteArray& data);
    // The stream dropped (connection lost); it is re-opened at offset() after a delay.
    void streamInterrupted(const QString& reason);
    void streamResumed(qint64 offset);
    // The job ended and every byte of its log was delivered.
    void finished(const kf::JobInfo& info);
    // The job cannot be followed (no such job, ...).
    void failed(const QString& error);

private:
    void openTail();
    void onTailFinished(const ProcessExit& exit);
    void checkState();
    void scheduleRetry(const QString& reason);

    std::shared_ptr<Transport> m_transport;
    QString m_id;
    QString m_root;
    std::unique_ptr<ProcessHandle> m_tail;
    QTimer m_retry;
    qint64 m_offset = 0;
    JobTracker m_requests { this }; // cancelled by attach/detach: older answers are dropped
    int m_retryMs = 1000;
    int m_failures = 0;
    bool m_attached = false;
    bool m_interrupted = false;
};

} // namespace kf
