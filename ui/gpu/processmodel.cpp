// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/gpu/processmodel.h"

namespace kf {

void ProcessModel::setProcesses(const QList<GpuProcess>& processes)
{
    beginResetModel();
    m_rows = processes;
    std::sort(m_rows.begin(), m_rows.end(), [](const GpuProcess& a, const GpuProcess& b) {
        return a.gpuIndex != b.gpuIndex ? a.gpuIndex < b.gpuIndex : a.pid < b.pid;
    });
    endResetModel();
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
    if (role == Qt::DisplayRole) {
        switch (index.column()) {
        case Gpu: return p.gpuIndex >= 0 ? QVariant(p.gpuIndex) : QVariant(p.gpuUuid);
        case Pid: return p.pid;
        case Name: return p.name;
        case Memory:
            return hasValue(p.usedMemoryMiB) ? QVariant(QStringLiteral("%1 MiB").arg(p.usedMemoryMiB, 0, 'f', 0))
                                             : QVariant(tr("n/a"));
        }
    } else if (role == Qt::TextAlignmentRole && index.column() != Name) {
        return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    } else if (role == Qt::ToolTipRole && index.column() == Pid) {
        return tr("PID on the host (inside containers nvidia-smi shows host PIDs)");
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
    case Name: return tr("Process");
    case Memory: return tr("GPU memory");
    }
    return {};
}

} // namespace kf
