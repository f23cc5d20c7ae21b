// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/util/result.h"

#include <QByteArray>
#include <QFile>
#include <QList>
#include <QMutex>
#include <QString>

#include <vector>

namespace kf {

// The full log of a build on local disk behind a line-offset index, so the live view can
// stay small (a capped QPlainTextEdit) while scroll-back and search see every line.
// The file holds exactly the bytes received (its size is the offset to resume a stream from).
// Thread-safe: append() from the receiving thread, reads and search from workers (guarded by m_mutex).
class LogStore
{
public:
    // Opens (creating or continuing) the file and indexes what is already there.
    Result<void> open(const QString& path);
    QString path() const;
    Result<void> append(const QByteArray& data);
    qint64 size() const;
    // Complete lines plus an unterminated last one.
    qint64 lineCount() const;
    // Lines [first, first+count) without terminators.
    QByteArrayList lines(qint64 first, qint64 count) const;
    // Line numbers (0-based) of lines containing needle (case-insensitive), at most maxHits.
    QList<qint64> search(const QByteArray& needle, int maxHits = 1000) const;

private:
    // Only every kStride-th line start is kept: memory stays at 8 bytes per 64 lines (a
    // multi-hour build with millions of lines costs kilobytes, not tens of MB), growing the
    // index never copies much in the GUI thread, and a read scans at most kStride extra lines.
    static constexpr qint64 kStride = 64;
    void index(const char* data, qint64 size); // guarded by m_mutex
    qint64 lineCountLocked() const;

    mutable QMutex m_mutex;
    mutable QFile m_file;         // guarded by m_mutex
    std::vector<qint64> m_sparse; // start of line k * kStride; guarded by m_mutex
    qint64 m_newlines = 0;        // guarded by m_mutex
    qint64 m_lastStart = 0;       // start of the line after the last newline; guarded by m_mutex
    qint64 m_size = 0;            // guarded by m_mutex
};

} // namespace kf
