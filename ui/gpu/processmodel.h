// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/nvidiasmi.h"

#include <QAbstractTableModel>

namespace kf {

// Compute processes of one host (nvidia-smi --query-compute-apps joined to GPUs).
class ProcessModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Gpu, Pid, Name, Memory, ColumnCount };
    using QAbstractTableModel::QAbstractTableModel;
    void setProcesses(const QList<GpuProcess>& processes);
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<GpuProcess> m_rows;
};

} // namespace kf
