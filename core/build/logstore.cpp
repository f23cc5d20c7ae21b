// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/build/logstore.h"

#include <QDir>
#include <QFileInfo>

namespace kf {

Status LogStore::open(const QString& path)
{
    QMutexLocker lock(&m_mutex);
    if (m_file.isOpen())
        m_file.close();
    QDir().mkpath(QFileInfo(path).absolutePath());
    m_file.setFileName(path);
    if (!m_file.open(QIODevice::ReadWrite | QIODevice::Append))
        return Status::failure(QStringLiteral("cannot open %1: %2").arg(path, m_file.errorString()));
    m_starts.assign(1, 0);
    m_size = 0;
    m_file.seek(0);
    while (true) {
        const QByteArray chunk = m_file.read(1 << 20);
        if (chunk.isEmpty())
            break;
        for (qsizetype i = 0; i < chunk.size(); ++i)
            if (chunk[i] == '\n')
                m_starts.push_back(m_size + i + 1);
        m_size += chunk.size();
    }
    return {};
}

QString LogStore::path() const
{
    QMutexLocker lock(&m_mutex);
    return m_file.fileName();
}

Status LogStore::append(const QByteArray& data)
{
    QMutexLocker lock(&m_mutex);
    if (!m_file.isOpen())
        return Status::failure(QStringLiteral("log store not open"));
    if (m_file.write(data) != data.size())
        return Status::failure(m_file.errorString());
    m_file.flush();
    const char* p = data.constData();
    for (qsizetype i = 0; i < data.size(); ++i)
        if (p[i] == '\n')
            m_starts.push_back(m_size + i + 1);
    m_size += data.size();
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
    // The last start is the beginning of the (possibly empty) unterminated line.
    return qint64(m_starts.size()) - (m_starts.back() == m_size ? 1 : 0);
}

QByteArrayList LogStore::lines(qint64 first, qint64 count) const
{
    QMutexLocker lock(&m_mutex);
    QByteArrayList out;
    const qint64 total = qint64(m_starts.size()) - (m_starts.back() == m_size ? 1 : 0);
    if (first < 0 || first >= total || count <= 0)
        return out;
    const qint64 last = std::min(total, first + count);
    const qint64 begin = m_starts[size_t(first)];
    const qint64 end = last < qint64(m_starts.size()) ? m_starts[size_t(last)] : m_size;
    m_file.seek(begin);
    const QByteArray block = m_file.read(end - begin);
    out = block.split('\n');
    if (!out.isEmpty() && out.last().isEmpty() && block.endsWith('\n'))
        out.removeLast();
    return out;
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
