// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "core/util/procfs.h"

#include <QDir>

#include <fcntl.h>
#include <unistd.h>

namespace kf::procfs {

namespace {

// procfs files report size 0: one plain read(2), not a sized read.
QByteArray readStat(qint64 pid)
{
    char buf[1024];
    const int fd = ::open(QByteArray("/proc/" + QByteArray::number(pid) + "/stat").constData(), O_RDONLY);
    if (fd < 0)
        return {};
    const ssize_t n = ::read(fd, buf, sizeof buf - 1);
    ::close(fd);
    return n > 0 ? QByteArray(buf, n) : QByteArray();
}

} // namespace

QList<QByteArray> statFields(qint64 pid)
{
    const QByteArray line = readStat(pid);
    const qsizetype close = line.lastIndexOf(')');
    if (close < 0)
        return {};
    return line.mid(close + 2).split(' ');
}

QByteArray commandName(qint64 pid)
{
    const QByteArray line = readStat(pid);
    const qsizetype open = line.indexOf('(');
    const qsizetype close = line.lastIndexOf(')');
    return open >= 0 && close > open ? line.mid(open + 1, close - open - 1) : QByteArray();
}

QList<qint64> processIds()
{
    QList<qint64> out;
    const QStringList names = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString& name : names) {
        bool isNumber = false;
        const qint64 pid = name.toLongLong(&isNumber);
        if (isNumber)
            out << pid;
    }
    return out;
}

} // namespace kf::procfs
