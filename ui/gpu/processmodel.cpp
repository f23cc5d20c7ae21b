// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/gpu/processmodel.h"
#include "ui/common/plaintext.h"

#include <limits>

namespace kf {

namespace {

// "1.2 GiB", "820 MiB" from KiB.
QString bytesText(double kib)
{
    if (kib >= 1024.0 * 1024.0)
        return QStringLiteral("%1 GiB").arg(kib / (1024.0 * 1024.0), 0, 'f', 1);
    return QStringLiteral("%1 MiB").arg(kib / 1024.0, 0, 'f', 0);
}

// No value sorts below every number.
QVariant sortNumber(double v)
{
    return hasValue(v) ? v : -std::numeric_limits<double>::infinity();
}

} // namespace

void ProcessModel::setProcesses(const QList<GpuProcess>& processes, bool pmonAvailable, const QString& pmonError)
{
    // Rows keep their place when the same processes come back (a selection survives a poll).
    const bool same = processes.size() == m_rows.size()
        && std::equal(processes.begin(), processes.end(), m_rows.begin(),
            [](const GpuProcess& a, const GpuProcess& b) { return a.pid == b.pid && a.gpuIndex == b.gpuIndex; });
    if (same) {
        m_rows = processes;
        m_pmonAvailable = pmonAvailable;
        m_pmonError = pmonError;
        if (!m_rows.isEmpty())
            Q_EMIT dataChanged(index(0, 0), index(int(m_rows.size()) - 1, ColumnCount - 1));
        return;
    }
    beginResetModel();
    m_rows = processes;
    m_pmonAvailable = pmonAvailable;
    m_pmonError = pmonError;
    endResetModel();
}

const GpuProcess* ProcessModel::process(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows.at(row) : nullptr;
}

int ProcessModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}
int ProcessModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ProcessModel::data(const QModelIndex& index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const GpuProcess& p = m_rows.at(index.row());
    const QString none = QStringLiteral("–");
    if (role == GpuRole)
        return p.gpuIndex;
    if (role == PidRole)
        return p.pid;
    if (role == SortRole) {
        switch (index.column()) {
        case Gpu: return p.gpuIndex;
        case Pid: return p.pid;
        case User: return p.user;
        case Memory: return sortNumber(p.usedMemoryMiB);
        case Sm: return sortNumber(p.smPercent);
        case Cpu: return sortNumber(p.cpuPercent);
        case Rss: return sortNumber(p.rssKiB);
        case Command: return p.commandLine.isEmpty() ? p.name : p.commandLine;
        }
    } else if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Gpu: return p.gpuIndex >= 0 ? QVariant(p.gpuIndex) : QVariant(p.gpuUuid.isEmpty() ? none : p.gpuUuid);
        case Pid: return p.pid;
        case User: return p.user.isEmpty() ? none : p.user;
        case Memory: return hasValue(p.usedMemoryMiB) ? QStringLiteral("%1 MiB").arg(p.usedMemoryMiB, 0, 'f', 0) : none;
        case Sm:
            return hasValue(p.smPercent) ? QStringLiteral("%1 %").arg(p.smPercent, 0, 'f', 0)
                : m_pmonAvailable        ? none
                                         : tr("unknown");
        case Cpu: return hasValue(p.cpuPercent) ? QStringLiteral("%1 %").arg(p.cpuPercent, 0, 'f', 1) : none;
        case Rss: return hasValue(p.rssKiB) ? bytesText(p.rssKiB) : none;
        case Command: return p.commandLine.isEmpty() ? p.name : p.commandLine;
        }
    } else if (role == Qt::TextAlignmentRole && index.column() != Command && index.column() != User) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    } else if (role == Qt::ToolTipRole) {
        switch (index.column()) {
        case Pid: return tr("PID on the host (inside containers nvidia-smi shows host PIDs)");
        case Sm:
            return m_pmonAvailable ? tr("SM utilization of this process (nvidia-smi pmon)")
                                   : plainToolTip(tr("SM % is unknown: %1").arg(m_pmonError));
        case Cpu: return tr("CPU time over the process's life (ps pcpu); 100 % is one core");
        case Command: return plainToolTip(p.commandLine.isEmpty() ? p.name : p.commandLine);
        default: break;
        }
    }
    return {};
}

QVariant ProcessModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case Gpu: return tr("GPU");
    case Pid: return tr("PID");
    case User: return tr("User");
    case Memory: return tr("GPU memory");
    case Sm: return tr("SM %");
    case Cpu: return tr("CPU %");
    case Rss: return tr("Host RSS");
    case Command: return tr("Command");
    }
    return {};
}

} // namespace kf
