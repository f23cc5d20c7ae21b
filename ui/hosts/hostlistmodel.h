// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QAbstractListModel>
#include <QPointer>

namespace kf {

class HostConnection;
class HostManager;

// The sidebar's rows: one per HostConnection of the HostManager, with its state.
class HostListModel : public QAbstractListModel
{
    Q_OBJECT
public:
    enum Roles { ConnectionRole = Qt::UserRole + 1, StateRole, StateTextRole };

    explicit HostListModel(HostManager* hosts, QObject* parent = nullptr);
    int rowCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role) const override;
    HostConnection* connectionAt(int row) const;
    int rowOf(const QString& name) const;

private:
    void track(HostConnection* host);

    QPointer<HostManager> m_hosts;
    QList<QPointer<HostConnection>> m_rows;
};

} // namespace kf
