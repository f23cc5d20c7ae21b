// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include "core/gpu/nvidiasmi.h"

#include <QAbstractTableModel>

namespace kf {

// GPU processes of one host as nvitop lists them (core/gpu/gpuprocesses.h): GPU, PID, user,
// GPU memory, SM %, CPU %, host RSS, command line. SortRole gives numbers for the numeric
// columns (no value sorts first), GpuRole the GPU index (for a filter by card).
class ProcessModel : public QAbstractTableModel
{
    Q_OBJECT
public:
    enum Column { Gpu, Pid, User, Memory, Sm, Cpu, Rss, Command, ColumnCount };
    enum Role { SortRole = Qt::UserRole, GpuRole, PidRole };
    using QAbstractTableModel::QAbstractTableModel;
    // pmonAvailable false: the SM % column says why it is empty (pmonError).
    void setProcesses(const QList<GpuProcess>& processes, bool pmonAvailable = true, const QString& pmonError = {});
    const GpuProcess* process(int row) const;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QList<GpuProcess> m_rows;
    bool m_pmonAvailable = true;
    QString m_pmonError;
};

} // namespace kf
