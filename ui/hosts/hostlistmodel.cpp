// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/hosts/hostlistmodel.h"

#include "core/hosts/hostmanager.h"
#include "ui/common/plaintext.h"

#include <QApplication>
#include <QIcon>
#include <QPalette>
#include <QStyle>

namespace kf {

HostListModel::HostListModel(HostManager* hosts, QObject* parent)
    : QAbstractListModel(parent)
    , m_hosts(hosts)
{
    for (auto* h : hosts->hosts())
        track(h);
    connect(hosts, &HostManager::hostAdded, this, [this](HostConnection* h) {
        beginInsertRows({}, int(m_rows.size()), int(m_rows.size()));
        track(h);
        endInsertRows();
    });
    connect(hosts, &HostManager::hostRemoved, this, [this](const QString& name) {
        const int row = rowOf(name);
        if (row < 0)
            return;
        beginRemoveRows({}, row, row);
        m_rows.removeAt(row);
        endRemoveRows();
    });
}

void HostListModel::track(HostConnection* host)
{
    m_rows << host;
    connect(host, &HostConnection::stateChanged, this, [this, host] {
        const int row = int(m_rows.indexOf(host));
        if (row >= 0)
            Q_EMIT dataChanged(index(row), index(row));
    });
}

int HostListModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

HostConnection* HostListModel::connectionAt(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows.at(row).data() : nullptr;
}

int HostListModel::rowOf(const QString& name) const
{
    for (int i = 0; i < m_rows.size(); ++i)
        if (m_rows.at(i) && m_rows.at(i)->profile().name == name)
            return i;
    return -1;
}

QVariant HostListModel::data(const QModelIndex& index, int role) const
{
    const HostConnection* h = connectionAt(index.row());
    if (!h)
        return {};
    switch (role) {
    case Qt::DisplayRole: {
        QString line = h->profile().name;
        if (h->profile().isDemo)
            line += tr(" (demo)");
        return QString(
            line + QLatin1Char('\n') + h->profile().destination() + QStringLiteral(" · ") + toString(h->state()));
    }
    case Qt::ToolTipRole: {
        // The sidebar elides long names: the tooltip keeps them whole.
        QString tip = h->profile().name + (h->profile().isDemo ? tr(" (demo)") : QString()) + QLatin1Char('\n')
            + h->profile().destination() + QLatin1Char('\n') + toString(h->state());
        if (!h->stateReason().isEmpty())
            tip += QStringLiteral(": ") + h->stateReason(); // may quote the server
        return plainToolTip(tip);
    }
    case Qt::DecorationRole: {
        QStyle* s = QApplication::style();
        switch (h->state()) {
        case ConnectionState::Ready: return s->standardIcon(QStyle::SP_DialogApplyButton);
        case ConnectionState::Failed: return s->standardIcon(QStyle::SP_MessageBoxCritical);
        case ConnectionState::HostKeyPrompt: return s->standardIcon(QStyle::SP_MessageBoxWarning);
        case ConnectionState::Connecting:
        case ConnectionState::Authenticating:
        case ConnectionState::Reconnecting: return s->standardIcon(QStyle::SP_BrowserReload);
        case ConnectionState::Disconnected: return s->standardIcon(QStyle::SP_ComputerIcon);
        }
        return {};
    }
    case ConnectionRole: return QVariant::fromValue(static_cast<QObject*>(const_cast<HostConnection*>(h)));
    case StateRole: return QVariant::fromValue(h->state());
    case StateTextRole: return toString(h->state());
    default: return {};
    }
}

} // namespace kf
