// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/remotebuild/logstore.h"

#include <QDir>
#include <QFileInfo>

#include <cstring>

namespace kf {

void LogStore::index(const char* data, qint64 size)
{
    const char* p = data;
    const char* end = data + size;
    while (const void* hit = std::memchr(p, '\n', size_t(end - p))) {
        const char* nl = static_cast<const char*>(hit);
        ++m_newlines;
        m_lastStart = m_size + (nl - data) + 1;
        if (m_newlines % kStride == 0)
            m_sparse.push_back(m_lastStart);
        p = nl + 1;
    }
    m_size += size;
}

qint64 LogStore::lineCountLocked() const
{
    return m_newlines + (m_lastStart < m_size ? 1 : 0);
}

Result<void> LogStore::open(const QString& path)
{
    QMutexLocker lock(&m_mutex);
    if (m_file.isOpen())
        m_file.close();
    QDir().mkpath(QFileInfo(path).absolutePath());
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadWrite | QIODevice::Append))
        return Result<void>::failure(QStringLiteral("cannot open %1: %2").arg(path, m_file.errorString()));
    // A build can print its environment (tokens): the user's alone, whatever the folder's mode.
    m_file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    m_sparse.assign(1, 0);
    m_newlines = 0;
    m_lastStart = 0;
    m_size = 0;
    m_file.seek(0);
    while (true) {
        const QByteArray chunk = m_file.read(1 << 20);
        if (chunk.isEmpty())
            break;
        index(chunk.constData(), chunk.size());
    }
    return {};
}

QString LogStore::path() const
{
    QMutexLocker lock(&m_mutex);
    return m_file.fileName();
}

Result<void> LogStore::append(const QByteArray& data)
{
    QMutexLocker lock(&m_mutex);
    if (!m_file.isOpen())
        return Result<void>::failure(QStringLiteral("log store not open"));
    if (m_file.write(data) != data.size())
        return Result<void>::failure(m_file.errorString());
    m_file.flush();
    index(data.constData(), data.size());
    return {};
}

qint64 LogStore::size() const
{
    QMutexLocker lock(&m_mutex);
    return m_size;
}

qint64 LogStore::lineCount() const
{
    QMutexLocker lock(&m_mutex);
    return lineCountLocked();
}

QByteArrayList LogStore::lines(qint64 first, qint64 count) const
{
    QMutexLocker lock(&m_mutex);
    QByteArrayList out;
    const qint64 total = lineCountLocked();
    if (first < 0 || first >= total || count <= 0)
        return out;
    const qint64 last = std::min(total, first + count);
    // Read from the indexed line at or before `first` to the indexed line at or after `last`.
    const qint64 k0 = first / kStride;
    const size_t k1 = size_t((last + kStride - 1) / kStride);
    const qint64 begin = m_sparse[size_t(k0)];
    const qint64 end = k1 < m_sparse.size() ? m_sparse[k1] : m_size;
    m_file.seek(begin);
    const QByteArray block = m_file.read(end - begin);
    QByteArrayList all = block.split('\n');
    if (!all.isEmpty() && all.last().isEmpty() && block.endsWith('\n'))
        all.removeLast();
    const qint64 skip = first - k0 * kStride;
    return all.mid(skip, last - first);
}

QList<qint64> LogStore::search(const QByteArray& needle, int maxHits) const
{
    QList<qint64> hits;
    if (needle.isEmpty())
        return hits;
    const QByteArray lowered = needle.toLower();
    const qint64 total = lineCount();
    constexpr qint64 kBlock = 20000;
    for (qint64 first = 0; first < total && hits.size() < maxHits; first += kBlock) {
        const QByteArrayList block = lines(first, kBlock);
        for (qsizetype i = 0; i < block.size() && hits.size() < maxHits; ++i)
            if (block[i].toLower().contains(lowered))
                hits << first + i;
    }
    return hits;
}

} // namespace kf
