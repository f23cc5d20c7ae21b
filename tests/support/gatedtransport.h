// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/hosts/hostconnection.h"
#include "core/transport/transport.h"

#include <QMutex>
#include <QStringList>
#include <QWaitCondition>

#include <memory>

namespace kf::test {

// A transport that forwards to another and holds the first readFile() below `gatedPrefix`
// until open(): a test can do something (close a pane, cancel) while a worker is known to be
// inside a read, and count what the worker read afterwards. Nothing depends on timing.
class GatedTransport final : public Transport
{
public:
    GatedTransport(std::shared_ptr<Transport> inner, QString gatedPrefix)
        : m_inner(std::move(inner))
        , m_prefix(std::move(gatedPrefix))
    { }
    // Waits until a worker is held at the gate (false after timeoutMs).
    bool waitUntilHeld(int timeoutMs)
    {
        QMutexLocker lock(&m_mutex);
        while (!m_held)
            if (!m_changed.wait(&m_mutex, timeoutMs))
                return false;
        return true;
    }
    void open()
    {
        QMutexLocker lock(&m_mutex);
        m_open = true;
        m_changed.wakeAll();
    }
    // The files below the prefix read so far, in order.
    QStringList reads() const
    {
        QMutexLocker lock(&m_mutex);
        return m_reads;
    }

    QString describe() const override { return m_inner->describe(); }
    ExecResult exec(const CommandSpec& spec, int timeoutMs) override { return m_inner->exec(spec, timeoutMs); }
    std::unique_ptr<ProcessHandle> start(const CommandSpec& spec) override { return m_inner->start(spec); }
    Result<QByteArray> readFile(const QString& path, qint64 maxBytes) override
    {
        if (path.startsWith(m_prefix)) {
            QMutexLocker lock(&m_mutex);
            m_reads.append(path);
            if (m_reads.size() == 1) {
                m_held = true;
                m_changed.wakeAll();
                while (!m_open)
                    m_changed.wait(&m_mutex);
            }
        }
        return m_inner->readFile(path, maxBytes);
    }
    Result<QByteArray> readFileRange(const QString& path, qint64 offset, qint64 length) override
    {
        return m_inner->readFileRange(path, offset, length);
    }
    Result<void> writeFileAtomic(const QString& path, const QByteArray& data, const WriteOptions& options) override
    {
        return m_inner->writeFileAtomic(path, data, options);
    }
    Result<FileInfo> stat(const QString& path) override { return m_inner->stat(path); }
    Result<QList<FileInfo>> list(const QString& directory) override { return m_inner->list(directory); }
    Result<void> mkpath(const QString& directory, int mode) override { return m_inner->mkpath(directory, mode); }
    Result<QString> canonicalPath(const QString& path) override { return m_inner->canonicalPath(path); }
    Result<std::unique_ptr<TunnelStream>> openTunnel(const QString& host, quint16 port) override
    {
        return m_inner->openTunnel(host, port);
    }

private:
    std::shared_ptr<Transport> m_inner;
    QString m_prefix;
    mutable QMutex m_mutex;
    QWaitCondition m_changed;
    bool m_held = false;
    bool m_open = false;
    QStringList m_reads;
};

// A connected host whose transport is the one given.
class TransportHostConnection final : public HostConnection
{
public:
    TransportHostConnection(HostProfile profile, std::shared_ptr<Transport> transport)
        : HostConnection(std::move(profile))
        , m_transport(std::move(transport))
    { }
    std::shared_ptr<Transport> transport() const override { return m_transport; }
    void connectToHost() override { setState(ConnectionState::Ready); }
    void disconnectFromHost() override { setState(ConnectionState::Disconnected); }

private:
    std::shared_ptr<Transport> m_transport;
};

} // namespace kf::test
