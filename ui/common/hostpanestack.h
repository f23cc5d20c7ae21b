// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 KernelForge authors
#pragma once

#include <QHash>
#include <QStackedWidget>

#include <functional>

namespace kf {

class EmptyState;
class HostConnection;
class HostManager;
class HostPane;

// One tab of the window: a pane per host, made by the factory when the host is first shown
// and deleted when HostManager drops the host, and an empty state while no host is selected.
// Only the shown host's pane is active (HostPane::setActive).
class HostPaneStack : public QStackedWidget
{
    Q_OBJECT
public:
    using Factory = std::function<HostPane*(HostConnection* host, QWidget* parent)>;

    HostPaneStack(HostManager* hosts, Factory factory, QWidget* parent = nullptr);
    // The empty state shown while no host is selected.
    EmptyState* emptyState() const { return m_empty; }
    // Shows the host's pane (creating it); null shows the empty state.
    void showHost(HostConnection* host);
    // The host's pane; null until the host was first shown.
    HostPane* paneFor(HostConnection* host) const { return m_panes.value(host); }
    HostPane* currentPane() const;
    int paneCount() const { return int(m_panes.size()); }

private:
    void dropPane(HostConnection* host);

    Factory m_factory;
    EmptyState* m_empty;
    QHash<HostConnection*, HostPane*> m_panes;
};

} // namespace kf
