// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "tests/support/memorycgroup.h"

#include "tests/support/testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>

#include <unistd.h>

namespace kf::test {
namespace {

bool put(const QString& file, const QByteArray& value)
{
    QFile f(file);
    if (!f.open(QIODevice::WriteOnly))
        return false;
    return f.write(value) == value.size() && f.flush();
}

// "<root> <mount point>" of the memory hierarchy of this version from /proc/self/mountinfo.
QStringList mountOf(int version)
{
    for (const QByteArray& line : readFile(QStringLiteral("/proc/self/mountinfo")).split('\n')) {
        const QList<QByteArray> f = line.split(' ');
        const qsizetype dash = f.indexOf("-", 6);
        if (dash < 0 || f.size() < dash + 4)
            continue;
        const bool v1 = f[dash + 1] == "cgroup" && f[dash + 3].split(',').contains("memory");
        if ((version == 1 && v1) || (version == 2 && f[dash + 1] == "cgroup2"))
            return { QString::fromUtf8(f[3]), QString::fromUtf8(f[4]) };
    }
    return {};
}

} // namespace

Result<std::unique_ptr<MemoryCgroup>> MemoryCgroup::create(const QString& name, qint64 limitBytes)
{
    using R = Result<std::unique_ptr<MemoryCgroup>>;
    if (!isRoot())
        return R::failure(QStringLiteral("making a memory cgroup needs root"));
    std::unique_ptr<MemoryCgroup> cg(new MemoryCgroup);
    const QByteArray limit = QByteArray::number(limitBytes);
    if (const QStringList v1 = mountOf(1); !v1.isEmpty()) {
        cg->m_version = 1;
        cg->m_parent = v1[1];
        cg->m_folder = v1[1] + QLatin1Char('/') + name;
        cg->m_path = (v1[0] == QLatin1String("/") ? QString() : v1[0]) + QLatin1Char('/') + name;
        if (!QDir().mkpath(cg->m_folder) || !put(cg->m_folder + QStringLiteral("/memory.limit_in_bytes"), limit))
            return R::failure(QStringLiteral("cannot make a cgroup v1 memory cgroup at %1").arg(cg->m_folder));
        // Swap counts too where the kernel accounts it (set after the memory limit: it may not be lower).
        if (QFile::exists(cg->m_folder + QStringLiteral("/memory.memsw.limit_in_bytes")))
            put(cg->m_folder + QStringLiteral("/memory.memsw.limit_in_bytes"), limit);
        return cg;
    }
    const QStringList v2 = mountOf(2);
    QString own;
    for (const QByteArray& line : readFile(QStringLiteral("/proc/self/cgroup")).split('\n'))
        if (line.startsWith("0::"))
            own = QString::fromUtf8(line.mid(3));
    if (v2.isEmpty() || own.isEmpty())
        return R::failure(QStringLiteral("no memory cgroup can be made here: no cgroup v1 memory hierarchy and no "
                                         "cgroup v2 mount"));
    const QString ownDir = v2[1] + (v2[0] == QLatin1String("/") ? own : QString());
    cg->m_version = 2;
    cg->m_parent = ownDir == v2[1] ? ownDir : QFileInfo(ownDir).path();
    if (!readFile(cg->m_parent + QStringLiteral("/cgroup.subtree_control")).contains("memory"))
        put(cg->m_parent + QStringLiteral("/cgroup.subtree_control"), "+memory");
    cg->m_folder = cg->m_parent + QLatin1Char('/') + name;
    cg->m_path = cg->m_folder.mid(v2[1].size());
    if (!QDir().mkpath(cg->m_folder) || !put(cg->m_folder + QStringLiteral("/memory.max"), limit))
        return R::failure(
            QStringLiteral("no memory cgroup can be made here: %1 does not offer the memory controller (cgroup v2)")
                .arg(cg->m_parent));
    put(cg->m_folder + QStringLiteral("/memory.swap.max"), "0");
    return cg;
}

MemoryCgroup::~MemoryCgroup()
{
    // Processes that outlived the test go back to the parent; then the folder can go.
    for (int i = 0; i < 100; ++i) {
        const QList<QByteArray> pids = readFile(m_folder + QStringLiteral("/cgroup.procs")).split('\n');
        for (const QByteArray& pid : pids)
            if (!pid.trimmed().isEmpty())
                put(m_parent + QStringLiteral("/cgroup.procs"), pid.trimmed());
        if (::rmdir(QFile::encodeName(m_folder).constData()) == 0)
            return;
        QThread::msleep(50);
    }
    qWarning("cannot remove the test's cgroup %s", qPrintable(m_folder));
}

Result<void> MemoryCgroup::add(qint64 pid)
{
    if (!put(m_folder + QStringLiteral("/cgroup.procs"), QByteArray::number(pid)))
        return Result<void>::failure(QStringLiteral("cannot move process %1 into %2").arg(pid).arg(m_folder));
    return {};
}

qint64 MemoryCgroup::oomKills() const
{
    const QString file
        = m_folder + (m_version == 1 ? QStringLiteral("/memory.oom_control") : QStringLiteral("/memory.events"));
    for (const QByteArray& line : readFile(file).split('\n'))
        if (line.startsWith("oom_kill "))
            return line.mid(9).trimmed().toLongLong();
    return -1;
}

} // namespace kf::test
