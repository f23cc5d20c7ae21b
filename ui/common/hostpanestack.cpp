// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#include "ui/common/hostpanestack.h"

#include "core/hosts/hostmanager.h"
#include "ui/common/emptystate.h"
#include "ui/common/hostpane.h"

namespace kf {

HostPaneStack::HostPaneStack(HostManager* hosts, Factory factory, QWidget* parent)
    : QStackedWidget(parent)
    , m_factory(std::move(factory))
    , m_empty(new EmptyState(this))
{
    addWidget(m_empty);
    // The host is still alive here (deleteLater), so its pane can go before it does.
    connect(hosts, &HostManager::hostRemoved, this, [this](const QString& name) {
        const QList<HostConnection*> bound = m_panes.keys();
        for (HostConnection* host : bound)
            if (!m_panes.value(host)->host() || m_panes.value(host)->host()->profile().name == name)
                dropPane(host);
    });
}

void HostPaneStack::showHost(HostConnection* host)
{
    HostPane* pane = host ? m_panes.value(host) : nullptr;
    if (host && !pane) {
        pane = m_factory(host, this);
        m_panes.insert(host, pane);
        addWidget(pane);
        // A host deleted without HostManager::remove() takes its pane along.
        connect(host, &QObject::destroyed, this, [this, host] { dropPane(host); });
    }
    if (HostPane* previous = currentPane(); previous && previous != pane)
        previous->setActive(false);
    setCurrentWidget(pane ? static_cast<QWidget*>(pane) : m_empty);
    if (pane)
        pane->setActive(true);
}

HostPane* HostPaneStack::currentPane() const
{
    return qobject_cast<HostPane*>(currentWidget());
}

void HostPaneStack::dropPane(HostConnection* host)
{
    HostPane* pane = m_panes.take(host);
    if (!pane)
        return;
    disconnect(host, &QObject::destroyed, this, nullptr);
    if (currentWidget() == pane)
        setCurrentWidget(m_empty);
    removeWidget(pane);
    pane->setActive(false);
    pane->deleteLater();
}

} // namespace kf
