// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/transport/transport.h"

#include <sys/stat.h>

namespace kf {

QString fileTypeName(quint32 type)
{
    switch (type & S_IFMT) {
    case S_IFREG: return QStringLiteral("a regular file");
    case S_IFDIR: return QStringLiteral("a folder");
    case S_IFIFO: return QStringLiteral("a FIFO");
    case S_IFCHR: return QStringLiteral("a character device");
    case S_IFBLK: return QStringLiteral("a block device");
    case S_IFSOCK: return QStringLiteral("a socket");
    case S_IFLNK: return QStringLiteral("a dangling symlink");
    default: return QStringLiteral("of unknown type");
    }
}

QString notRegularFileMessage(const QString& path, quint32 type)
{
    return QStringLiteral("cannot read %1: not a regular file (%2)").arg(path, fileTypeName(type));
}

QString fileTooLargeMessage(const QString& path, qint64 size, qint64 limit, bool atLeast)
{
    return QStringLiteral("cannot read %1: file too large (%2%3 bytes, limit %4)")
        .arg(path, atLeast ? QStringLiteral("at least ") : QString())
        .arg(size)
        .arg(limit);
}

} // namespace kf
